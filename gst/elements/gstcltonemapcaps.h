/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemapcaps.h: cltonemap's caps: the formats, what HDR input gives
 * on the other pad, and the caps-time constants of the kernels. */
#pragma once

#include "core/gstcl.h"
#include "gstclshared.h"

#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_CL_TONEMAP_SINK_FORMATS "{ P010_10LE, P016_LE, I420_10LE, " \
  "I420_12LE, Y444_16LE, RGBA64_LE }"
#define GST_CL_TONEMAP_SRC_FORMATS "{ NV12, I420, Y444, RGBA, P010_10LE, " \
  "P016_LE, I420_10LE, I420_12LE, Y444_16LE, RGBA64_LE }"

/**
 * GstClToneMapSetup:
 * @hdr: the input is PQ or HLG (else the element passes it through)
 * @cfg: the constants of tonemap.cl's `cfg` (GST_CL_TONEMAP_CFG_*)
 * @in_fmt, @out_fmt: the frames' formats as the kernels take them
 * @meta_peak: MaxCLL, else the mastering display's maximum luminance, in
 *   nits; 0 when the caps carry neither
 * @lut: tonemap.cl's `lut`: the input's transfer (PQ's EOTF in nits, or
 *   HLG's inverse OETF) over the signal, then BT.1886's inverse over
 *   sqrt (L / Lt), each GST_CL_TONEMAP_LUT pairs, then PQ's EOTF at the
 *   gain table's knots (gstclshared.h)
 *
 * What the caps decide, for set_info.
 */
typedef struct
{
  gboolean hdr;
  cl_float cfg[32];
  cl_int8 in_fmt, out_fmt;
  gdouble meta_peak;
  cl_float lut[GST_CL_TONEMAP_PQ_KNOTS + GST_CL_TONEMAP_LUT + 1];
} GstClToneMapSetup;

GstCaps *gst_cl_tonemap_transform_caps (GstPadDirection direction,
    GstCaps * caps);

gboolean gst_cl_tonemap_setup_from_caps (GstCaps * incaps,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info,
    GstClToneMapSetup * setup, gchar ** why);

void gst_cl_tonemap_geometry (const GstVideoInfo * layout, cl_int8 * geo);

G_END_DECLS
