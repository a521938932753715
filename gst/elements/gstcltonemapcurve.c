/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemapcurve.c: cltonemap's math in double precision.
 *
 * The formulas are those of the interface note ("cltonemap"); the kernels
 * (kernels/tonemap.cl) evaluate the same ones in float per pixel. */
#include "gstcltonemapcurve.h"

#include <math.h>

#define PQ_M1 (2610.0 / 16384.0)
#define PQ_M2 (2523.0 / 32.0)
#define PQ_C1 (3424.0 / 4096.0)
#define PQ_C2 (2413.0 / 128.0)
#define PQ_C3 (2392.0 / 128.0)
#define HLG_A 0.17883277
#define HLG_B 0.28466892
#define HLG_C 0.55991073

gdouble
gst_cl_tonemap_pq_eotf (gdouble e)
{
  gdouble p = pow (MAX (e, 0.0), 1.0 / PQ_M2);
  return 10000.0 * pow (MAX (p - PQ_C1, 0.0) / (PQ_C2 - PQ_C3 * p),
      1.0 / PQ_M1);
}

gdouble
gst_cl_tonemap_pq_inverse (gdouble nits)
{
  gdouble y = pow (MAX (nits, 0.0) / 10000.0, PQ_M1);
  return pow ((PQ_C1 + PQ_C2 * y) / (1.0 + PQ_C3 * y), PQ_M2);
}

gdouble
gst_cl_tonemap_hlg_inverse_oetf (gdouble e)
{
  return e <= 0.5 ? e * e / 3.0 : (exp ((e - HLG_C) / HLG_A) + HLG_B) / 12.0;
}

void
gst_cl_tonemap_hlg_ootf (gdouble rgb[3], gdouble peak)
{
  /* BT.2100: system gamma 1.2 on the BT.2020 luminance of scene light */
  gdouble ys = 0.2627 * rgb[0] + 0.6780 * rgb[1] + 0.0593 * rgb[2];
  gdouble gain = ys > 0.0 ? peak * pow (ys, 0.2) : 0.0;
  guint i;

  for (i = 0; i < 3; i++)
    rgb[i] *= gain;
}

static gdouble
hable (gdouble x)
{
  return (x * (0.15 * x + 0.05) + 0.004) / (x * (0.15 * x + 0.5) + 0.06) -
      1.0 / 15.0;
}

/* BT.2390's EETF in PQ, without black level lift */
static gdouble
bt2390 (gdouble s, gdouble lw, gdouble lt)
{
  gdouble pq_lw = gst_cl_tonemap_pq_inverse (lw);
  gdouble e1 = MIN (gst_cl_tonemap_pq_inverse (s) / pq_lw, 1.0);
  gdouble maxlum = gst_cl_tonemap_pq_inverse (lt) / pq_lw;
  gdouble ks = 1.5 * maxlum - 0.5, e2 = e1;

  if (e1 >= ks) {
    gdouble t = (e1 - ks) / (1.0 - ks), t2 = t * t, t3 = t2 * t;
    e2 = (2 * t3 - 3 * t2 + 1) * ks + (t3 - 2 * t2 + t) * (1 - ks) +
        (-2 * t3 + 3 * t2) * maxlum;
  }
  return gst_cl_tonemap_pq_eotf (e2 * pq_lw);
}

gdouble
gst_cl_tonemap_curve (GstClToneCurve curve, gdouble s, gdouble lw, gdouble lt)
{
  gdouble x = s / lt, w = lw / lt;

  if (s <= 0.0)
    return 0.0;
  if (lw <= lt || curve == GST_CL_TONE_CURVE_CLIP)
    return MIN (s, lt);
  switch (curve) {
    case GST_CL_TONE_CURVE_BT2390:
      return bt2390 (s, lw, lt);
    case GST_CL_TONE_CURVE_REINHARD:
      return lt * x * (1.0 + x / (w * w)) / (1.0 + x);
    case GST_CL_TONE_CURVE_HABLE:
      return lt * hable (x) / hable (w);
    default:
      return MIN (s, lt);
  }
}

/* the inverse of the 3x3 @a, FALSE if singular */
static gboolean
invert3 (const gdouble a[9], gdouble r[9])
{
  gdouble det = a[0] * (a[4] * a[8] - a[5] * a[7]) -
      a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
  guint i;

  if (fabs (det) < 1e-12)
    return FALSE;
  r[0] = a[4] * a[8] - a[5] * a[7];
  r[1] = a[2] * a[7] - a[1] * a[8];
  r[2] = a[1] * a[5] - a[2] * a[4];
  r[3] = a[5] * a[6] - a[3] * a[8];
  r[4] = a[0] * a[8] - a[2] * a[6];
  r[5] = a[2] * a[3] - a[0] * a[5];
  r[6] = a[3] * a[7] - a[4] * a[6];
  r[7] = a[1] * a[6] - a[0] * a[7];
  r[8] = a[0] * a[4] - a[1] * a[3];
  for (i = 0; i < 9; i++)
    r[i] /= det;
  return TRUE;
}

static void
mul3 (const gdouble a[9], const gdouble b[9], gdouble r[9])
{
  guint i, j;

  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] +
          a[3 * i + 2] * b[6 + j];
}

/* RGB to XYZ of primaries @p (xy of R, G, B) and white @w: the columns are
 * the primaries' XYZ (Y = 1) scaled so that RGB = 1 gives the white's XYZ */
static gboolean
rgb_to_xyz (const gdouble p[6], const gdouble w[2], gdouble m[9])
{
  gdouble prim[9], inv[9], white[3], s[3];
  guint i;

  for (i = 0; i < 3; i++) {
    gdouble x = p[2 * i], y = p[2 * i + 1];
    if (y <= 0.0)
      return FALSE;
    prim[i] = x / y;
    prim[3 + i] = 1.0;
    prim[6 + i] = (1.0 - x - y) / y;
  }
  if (w[1] <= 0.0 || !invert3 (prim, inv))
    return FALSE;
  white[0] = w[0] / w[1];
  white[1] = 1.0;
  white[2] = (1.0 - w[0] - w[1]) / w[1];
  for (i = 0; i < 3; i++)
    s[i] = inv[3 * i] * white[0] + inv[3 * i + 1] * white[1] +
        inv[3 * i + 2] * white[2];
  for (i = 0; i < 9; i++)
    m[i] = prim[i] * s[i % 3];
  return TRUE;
}

gboolean
gst_cl_tonemap_gamut_matrix (const gdouble src[6], const gdouble dst[6],
    const gdouble white[2], gdouble m[9])
{
  gdouble a[9], b[9], binv[9];

  if (!rgb_to_xyz (src, white, a) || !rgb_to_xyz (dst, white, b) ||
      !invert3 (b, binv))
    return FALSE;
  mul3 (binv, a, m);
  return TRUE;
}

guint
gst_cl_tonemap_bin (gdouble pq, guint bins)
{
  gdouble b = floor (MAX (pq, 0.0) * bins);
  return b >= bins - 1 ? bins - 1 : (guint) b;
}

guint64
gst_cl_tonemap_percentile_need (gdouble percentile, guint64 pixels)
{
  guint64 need = (guint64) ceil (CLAMP (percentile, 0.0, 100.0) / 100.0 *
      (gdouble) pixels);
  return CLAMP (need, 1, MAX (pixels, 1));
}

gdouble
gst_cl_tonemap_smoothing_coef (gdouble period)
{
  return period <= 0.0 ? 1.0 : 1.0 - exp (-1.0 / period);
}

gdouble
gst_cl_tonemap_smooth (gdouble x, gdouble p_prev, gboolean first,
    gdouble threshold, gdouble period, gboolean * cut)
{
  *cut = first || fabs (x - p_prev) > threshold;
  if (*cut)
    return x;
  return p_prev + (x - p_prev) * gst_cl_tonemap_smoothing_coef (period);
}
