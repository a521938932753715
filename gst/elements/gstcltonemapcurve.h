/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemapcurve.h: the tone mapping math of cltonemap in plain C
 * (double precision, no OpenCL, no GStreamer objects), for the element's
 * host side (the gamut matrix, the peaks, the smoothing) and the unit
 * tests; tonemap.cl computes the same formulas per pixel in float. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * GstClToneCurve:
 * @GST_CL_TONE_CURVE_BT2390: the EETF of ITU-R BT.2390 (a Hermite knee in
 *   PQ)
 * @GST_CL_TONE_CURVE_REINHARD: extended Reinhard, reaching the target
 *   peak at the source peak
 * @GST_CL_TONE_CURVE_HABLE: Hable's filmic curve, scaled so that the
 *   source peak maps to the target peak
 * @GST_CL_TONE_CURVE_CLIP: min (s, target peak)
 *
 * cltonemap's curves (GType name "GstClToneCurve").
 */
typedef enum
{
  GST_CL_TONE_CURVE_BT2390,
  GST_CL_TONE_CURVE_REINHARD,
  GST_CL_TONE_CURVE_HABLE,
  GST_CL_TONE_CURVE_CLIP,
} GstClToneCurve;

/**
 * GstClTonePeakMode:
 * @GST_CL_TONE_PEAK_METADATA: MaxCLL, else the mastering display's maximum
 *   luminance, else `source-peak`
 * @GST_CL_TONE_PEAK_FIXED: `source-peak`
 * @GST_CL_TONE_PEAK_DYNAMIC: each frame's own peak (a percentile of its
 *   histogram), smoothed, with scene cuts
 *
 * Where cltonemap takes the source peak (GType name "GstClTonePeakMode").
 */
typedef enum
{
  GST_CL_TONE_PEAK_METADATA,
  GST_CL_TONE_PEAK_FIXED,
  GST_CL_TONE_PEAK_DYNAMIC,
} GstClTonePeakMode;

/* SMPTE ST 2084: PQ signal (0..1) to nits, and nits to PQ signal */
gdouble gst_cl_tonemap_pq_eotf (gdouble e);
gdouble gst_cl_tonemap_pq_inverse (gdouble nits);

/* BT.2100 HLG inverse OETF: signal to scene light (0..1) */
gdouble gst_cl_tonemap_hlg_inverse_oetf (gdouble e);

/* HLG's OOTF on scene-linear BT.2020 RGB: display nits, in place */
void gst_cl_tonemap_hlg_ootf (gdouble rgb[3], gdouble peak);

/* s' for the signal s (nits), source peak @lw and target peak @lt */
gdouble gst_cl_tonemap_curve (GstClToneCurve curve, gdouble s, gdouble lw,
    gdouble lt);

/* The linear RGB to RGB matrix (row major) from primaries @src to @dst,
 * each given as xy of red, green and blue, with the white point @white
 * (xy) shared: RGB to XYZ of @src, then XYZ to RGB of @dst. FALSE when a
 * set of primaries is degenerate. */
gboolean gst_cl_tonemap_gamut_matrix (const gdouble src[6],
    const gdouble dst[6], const gdouble white[2], gdouble m[9]);

/* the histogram bin of a PQ signal value (bins bins over 0..1) */
guint gst_cl_tonemap_bin (gdouble pq, guint bins);

/* the count that the cumulative histogram must reach for @percentile % of
 * @pixels (at least 1) */
guint64 gst_cl_tonemap_percentile_need (gdouble percentile, guint64 pixels);

/* the smoothing step's coefficient 1 - exp (-1 / period), 1 for period 0 */
gdouble gst_cl_tonemap_smoothing_coef (gdouble period);

/* One frame of the dynamic peak: the smoothed peak p (PQ) from the frame
 * peak @x and the last frame's @p_prev; @first: the first frame after
 * start, flush, new caps or a change of mode. @cut: (out): a scene cut. */
gdouble gst_cl_tonemap_smooth (gdouble x, gdouble p_prev, gboolean first,
    gdouble threshold, gdouble period, gboolean * cut);

G_END_DECLS
