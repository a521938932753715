/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* cltonemap's math without a device (gstcltonemapcurve.c), against
 * published values: SMPTE ST 2084's PQ levels (BT.2408: 100 nits at 50.8 %,
 * 203 nits at 58 %, 1000 nits at 75.2 %), BT.2100 HLG's continuity at 1/2
 * and peak at 1, ITU-R BT.2087's BT.2020 to BT.709 matrix, and the curves'
 * documented ends (the source peak maps to the target peak; BT.2390 is the
 * identity below its knee), the histogram bins, percentile counts and the
 * smoothing rule of the interface note. */
#include <gst/check/gstcheck.h>
#include <math.h>

#include "elements/gstcltonemapcurve.h"

#define CURVES 4

GST_START_TEST (test_pq)
{
  gdouble nits;

  fail_unless (fabs (gst_cl_tonemap_pq_inverse (10000.0) - 1.0) < 1e-12);
  fail_unless (fabs (gst_cl_tonemap_pq_inverse (100.0) - 0.508078) < 1e-5);
  fail_unless (fabs (gst_cl_tonemap_pq_inverse (203.0) - 0.580689) < 1e-5);
  fail_unless (fabs (gst_cl_tonemap_pq_inverse (1000.0) - 0.751827) < 1e-5);
  fail_unless (gst_cl_tonemap_pq_inverse (0.0) < 1e-6);
  fail_unless (fabs (gst_cl_tonemap_pq_eotf (1.0) - 10000.0) < 1e-6);
  fail_unless (gst_cl_tonemap_pq_eotf (0.0) == 0.0);
  for (nits = 0.01; nits <= 10000.0; nits *= 1.7)
    fail_unless (fabs (gst_cl_tonemap_pq_eotf (gst_cl_tonemap_pq_inverse
                (nits)) - nits) < 1e-9 * nits, "%g", nits);
}

GST_END_TEST;

GST_START_TEST (test_hlg)
{
  gdouble rgb[3] = { 1.0, 1.0, 1.0 }, grey[3] = { 0.5, 0.5, 0.5 };
  gdouble black[3] = { 0.0, 0.0, 0.0 };

  fail_unless (fabs (gst_cl_tonemap_hlg_inverse_oetf (0.5) - 1.0 / 12.0) <
      1e-12);
  fail_unless (fabs (gst_cl_tonemap_hlg_inverse_oetf (0.5 + 1e-9) -
          1.0 / 12.0) < 1e-7);
  fail_unless (fabs (gst_cl_tonemap_hlg_inverse_oetf (1.0) - 1.0) < 1e-6);
  fail_unless (gst_cl_tonemap_hlg_inverse_oetf (0.0) == 0.0);
  gst_cl_tonemap_hlg_ootf (rgb, 1000.0);
  fail_unless (fabs (rgb[1] - 1000.0) < 1e-9);
  gst_cl_tonemap_hlg_ootf (grey, 1000.0);
  fail_unless (fabs (grey[0] - 1000.0 * pow (0.5, 1.2)) < 1e-9);
  gst_cl_tonemap_hlg_ootf (black, 1000.0);
  fail_unless (black[2] == 0.0);
}

GST_END_TEST;

GST_START_TEST (test_gamut)
{
  /* ITU-R BT.2087-0, the linear BT.2020 to BT.709 matrix, 4 decimals */
  static const gdouble bt2087[9] = {
    1.6605, -0.5876, -0.0728, -0.1246, 1.1329, -0.0083, -0.0182, -0.1006,
    1.1187
  };
  const gdouble bt2020[6] = { 0.708, 0.292, 0.170, 0.797, 0.131, 0.046 };
  const gdouble bt709[6] = { 0.640, 0.330, 0.300, 0.600, 0.150, 0.060 };
  const gdouble d65[2] = { 0.3127, 0.3290 };
  const gdouble bad[6] = { 0.3, 0.0, 0.3, 0.6, 0.15, 0.06 };
  gdouble m[9];
  guint i;

  fail_unless (gst_cl_tonemap_gamut_matrix (bt2020, bt709, d65, m));
  for (i = 0; i < 9; i++)
    fail_unless (fabs (m[i] - bt2087[i]) < 1e-3, "m[%u] %f", i, m[i]);
  /* white stays white */
  for (i = 0; i < 3; i++)
    fail_unless (fabs (m[3 * i] + m[3 * i + 1] + m[3 * i + 2] - 1.0) < 1e-9);
  fail_unless (gst_cl_tonemap_gamut_matrix (bt709, bt709, d65, m));
  for (i = 0; i < 9; i++)
    fail_unless (fabs (m[i] - (i % 4 == 0 ? 1.0 : 0.0)) < 1e-9);
  fail_if (gst_cl_tonemap_gamut_matrix (bad, bt709, d65, m));
}

GST_END_TEST;

/* each curve: the source peak to the target peak, monotonic below it,
 * never above the target peak there; min (s, Lt) where Lw <= Lt */
GST_START_TEST (test_curves)
{
  static const gdouble peaks[][2] = {
    {1000, 100}, {4000, 203}, {10000, 48}, {400, 100}, {100, 203}
  };
  GstClToneCurve c = __i__ % CURVES;
  gdouble lw = peaks[__i__ / CURVES][0], lt = peaks[__i__ / CURVES][1];
  gdouble s, prev = 0.0;

  fail_unless (gst_cl_tonemap_curve (c, 0.0, lw, lt) == 0.0);
  if (lw <= lt || c == GST_CL_TONE_CURVE_CLIP) {
    for (s = 0.5; s < 2 * lw; s *= 1.3)
      fail_unless (gst_cl_tonemap_curve (c, s, lw, lt) == MIN (s, lt));
    return;
  }
  fail_unless (fabs (gst_cl_tonemap_curve (c, lw, lw, lt) - lt) < 1e-6 * lt,
      "curve %d: %g", c, gst_cl_tonemap_curve (c, lw, lw, lt));
  for (s = 0.01; s <= lw; s *= 1.05) {
    gdouble v = gst_cl_tonemap_curve (c, s, lw, lt);
    fail_unless (v >= prev - 1e-9 && v <= lt * (1 + 1e-9), "curve %d s %g",
        c, s);
    prev = v;
  }
  if (c == GST_CL_TONE_CURVE_BT2390) {
    /* the identity below the knee KS (in PQ) */
    gdouble pq_lw = gst_cl_tonemap_pq_inverse (lw);
    gdouble ks = 1.5 * gst_cl_tonemap_pq_inverse (lt) / pq_lw - 0.5;
    s = gst_cl_tonemap_pq_eotf (0.9 * ks * pq_lw);
    fail_unless (fabs (gst_cl_tonemap_curve (c, s, lw, lt) - s) < 1e-9 * s);
    /* above the source peak: the target peak */
    fail_unless (fabs (gst_cl_tonemap_curve (c, 2 * lw, lw, lt) - lt) <
        1e-6 * lt);
  }
}

GST_END_TEST;

GST_START_TEST (test_peak_rules)
{
  gboolean cut;
  gdouble p;

  fail_unless_equals_int (gst_cl_tonemap_bin (0.0, 1024), 0);
  fail_unless_equals_int (gst_cl_tonemap_bin (0.5, 1024), 512);
  fail_unless_equals_int (gst_cl_tonemap_bin (0.5 - 1e-9, 1024), 511);
  fail_unless_equals_int (gst_cl_tonemap_bin (1.0, 1024), 1023);
  fail_unless_equals_int (gst_cl_tonemap_percentile_need (99.99, 3072), 3072);
  fail_unless_equals_int (gst_cl_tonemap_percentile_need (50, 4), 2);
  fail_unless_equals_int (gst_cl_tonemap_percentile_need (50, 3), 2);
  fail_unless_equals_int (gst_cl_tonemap_percentile_need (100, 10), 10);
  fail_unless_equals_int (gst_cl_tonemap_percentile_need (0, 10), 1);
  fail_unless (gst_cl_tonemap_smoothing_coef (0) == 1.0);
  fail_unless (fabs (gst_cl_tonemap_smoothing_coef (20) -
          (1 - exp (-1.0 / 20))) < 1e-15);
  p = gst_cl_tonemap_smooth (0.7, 0.2, TRUE, 0.1, 20, &cut);
  fail_unless (cut && p == 0.7);
  p = gst_cl_tonemap_smooth (0.7, 0.5, FALSE, 0.1, 20, &cut);
  fail_unless (cut && p == 0.7);
  p = gst_cl_tonemap_smooth (0.55, 0.5, FALSE, 0.1, 20, &cut);
  fail_unless (!cut && fabs (p - (0.5 + 0.05 * (1 - exp (-0.05)))) < 1e-12);
  p = gst_cl_tonemap_smooth (0.55, 0.5, FALSE, 0.1, 0, &cut);
  fail_unless (!cut && p == 0.55);
}

GST_END_TEST;

static Suite *
tonemapcurve_suite (void)
{
  Suite *s = suite_create ("tonemapcurve");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pq);
  tcase_add_test (tc, test_hlg);
  tcase_add_test (tc, test_gamut);
  tcase_add_loop_test (tc, test_curves, 0, 5 * CURVES);
  tcase_add_test (tc, test_peak_rules);
  return s;
}

GST_CHECK_MAIN (tonemapcurve);
