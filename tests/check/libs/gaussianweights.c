/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clgaussian's weights without a device (gstclgaussianweights.c), against
 * a plain computation written out here from OpenCV's definition of
 * getGaussianKernel: the radius rules, the fixed small kernels, the
 * sampled Gaussian, its Q8 rounding and its float rounding. */
#include <gst/check/gstcheck.h>
#include <math.h>

#include "elements/gstclgaussianweights.h"

#define MAX_R GST_CL_GAUSSIAN_MAX_RADIUS

/* the radius the element uses for the properties @radius and @sigma */
static guint
ref_radius (guint radius, gdouble sigma)
{
  if (radius == 0) {
    if (sigma <= 0)
      return 1;
    radius = (guint) ceil (3.0 * sigma);
  }
  return radius > MAX_R ? MAX_R : radius;
}

/* tap @x (from -r to r) of the double kernel of @r and @sigma, summed
 * directly; OpenCV's fixed kernels written as their binomial fractions */
static gdouble
ref_tap (guint r, gdouble sigma, gint x)
{
  static const gint binomial3[] = { 1, 2, 1 };
  static const gint fixed5[] = { 1, 4, 6, 4, 1 };
  /* ksize 7: 1 3.5 7 9 7 3.5 1 over 32, doubled to stay whole */
  static const gint fixed7[] = { 2, 7, 14, 18, 14, 7, 2 };
  gdouble s, total = 0.0;
  gint i;

  if (sigma <= 0 && r == 1)
    return binomial3[x + 1] / 4.0;
  if (sigma <= 0 && r == 2)
    return fixed5[x + 2] / 16.0;
  if (sigma <= 0 && r == 3)
    return fixed7[x + 3] / 64.0;
  s = sigma > 0 ? sigma : 0.3 * (r - 1) + 0.8;
  for (i = -(gint) r; i <= (gint) r; i++)
    total += exp (-(gdouble) i * i / (2.0 * s * s));
  return exp (-(gdouble) x * x / (2.0 * s * s)) / total;
}

static const struct
{
  guint radius;
  gdouble sigma;
} cases[] = {
  {0, 0.0}, {1, 0.0}, {2, 0.0}, {3, 0.0}, {4, 0.0}, {7, 0.0}, {16, 0.0},
  {64, 0.0}, {200, 0.0}, {0, 0.5}, {0, 1.0}, {0, 2.0}, {0, 4.0},
  {0, 21.4}, {0, 64.0}, {1, 1.0}, {3, 0.8}, {5, 10.0}, {17, 3.3},
  {64, 64.0},
};

GST_START_TEST (test_radius)
{
  gdouble k[2 * MAX_R + 1];
  guint r = gst_cl_gaussian_weights_kernel (cases[__i__].radius,
      cases[__i__].sigma, k);

  fail_unless_equals_int (r, ref_radius (cases[__i__].radius,
          cases[__i__].sigma));
}

GST_END_TEST;

GST_START_TEST (test_kernel)
{
  gdouble k[2 * MAX_R + 1], sum = 0.0;
  gdouble sigma = cases[__i__].sigma;
  guint r = gst_cl_gaussian_weights_kernel (cases[__i__].radius, sigma, k);
  gint x;

  for (x = -(gint) r; x <= (gint) r; x++) {
    gdouble want = ref_tap (r, sigma, x);
    fail_unless (fabs (k[x + r] - want) <= 1e-12 * want,
        "radius %u sigma %g tap %d: %.17g, expected %.17g", r, sigma, x,
        k[x + r], want);
    sum += k[x + r];
  }
  fail_unless (fabs (sum - 1.0) < 1e-9);
}

GST_END_TEST;

GST_START_TEST (test_q8)
{
  guint16 w[MAX_R + 1];
  gdouble sigma = cases[__i__].sigma;
  guint r = gst_cl_gaussian_weights_q8 (cases[__i__].radius, sigma, w);
  gint i, sum = w[0];

  fail_unless_equals_int (r, ref_radius (cases[__i__].radius, sigma));
  for (i = 1; i <= MAX_R; i++)
    sum += i <= (gint) r ? 2 * w[i] : 0;
  fail_unless_equals_int (sum, 256);
  for (i = 0; i <= MAX_R; i++) {
    if (i > (gint) r) {
      fail_unless_equals_int (w[i], 0);
      continue;
    }
    fail_unless (fabs (w[i] - 256.0 * ref_tap (r, sigma, i)) <= 1.0,
        "radius %u sigma %g tap %d: %u, exact %g", r, sigma, i, w[i],
        256.0 * ref_tap (r, sigma, i));
  }
  fail_unless_equals_int (gst_cl_gaussian_weights_q8_is_binomial (r, w),
      r == 1 && w[0] == 128 && w[1] == 64);
}

GST_END_TEST;

GST_START_TEST (test_float)
{
  gfloat w[MAX_R + 1];
  gdouble sigma = cases[__i__].sigma;
  gboolean binomial;
  guint r = gst_cl_gaussian_weights_float (cases[__i__].radius, sigma, w,
      &binomial);
  gint i;

  fail_unless_equals_int (r, ref_radius (cases[__i__].radius, sigma));
  for (i = 0; i <= MAX_R; i++) {
    gfloat want = i <= (gint) r ? (gfloat) ref_tap (r, sigma, i) : 0.0f;
    /* the double taps agree to 1e-12 (exactly for the fixed kernels):
     * rounded to float they are equal or, where the two doubles straddle
     * a rounding boundary, one float step apart */
    fail_unless (fabsf (w[i] - want) <= 1.2e-7f * want,
        "radius %u sigma %g tap %d: %.9g, expected %.9g", r, sigma, i,
        w[i], want);
  }
  fail_unless_equals_int (binomial, r == 1 && ref_tap (r, sigma, 0) == 0.5
      && ref_tap (r, sigma, 1) == 0.25);
}

GST_END_TEST;

/* the default is the exact binomial, in both precisions; sigma 1 at
 * radius 1 is not */
GST_START_TEST (test_binomial)
{
  guint16 w[MAX_R + 1];
  gfloat wf[MAX_R + 1];
  gboolean binomial;

  fail_unless_equals_int (gst_cl_gaussian_weights_q8 (0, 0.0, w), 1);
  fail_unless (gst_cl_gaussian_weights_q8_is_binomial (1, w));
  gst_cl_gaussian_weights_float (0, 0.0, wf, &binomial);
  fail_unless (binomial);
  fail_unless (wf[0] == 0.5f && wf[1] == 0.25f);
  gst_cl_gaussian_weights_float (1, 1.0, wf, &binomial);
  fail_if (binomial);
  gst_cl_gaussian_weights_q8 (1, 1.0, w);
  fail_if (gst_cl_gaussian_weights_q8_is_binomial (1, w));
  gst_cl_gaussian_weights_q8 (2, 0.0, w);
  fail_if (gst_cl_gaussian_weights_q8_is_binomial (2, w));
}

GST_END_TEST;

static Suite *
gaussianweights_suite (void)
{
  Suite *s = suite_create ("gaussianweights");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_radius, 0, G_N_ELEMENTS (cases));
  tcase_add_loop_test (tc, test_kernel, 0, G_N_ELEMENTS (cases));
  tcase_add_loop_test (tc, test_q8, 0, G_N_ELEMENTS (cases));
  tcase_add_loop_test (tc, test_float, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_binomial);
  return s;
}

GST_CHECK_MAIN (gaussianweights);
