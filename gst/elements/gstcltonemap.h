/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemap.h: HDR (PQ, HLG) to SDR BT.709 tone mapping on OpenCL, the
 * curve from each frame's own histogram. */
#pragma once

#include "core/gstclbasefilter.h"
#include "gstcltonemapcurve.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_TONE_CURVE (gst_cl_tone_curve_get_type ())
GType gst_cl_tone_curve_get_type (void);

#define GST_TYPE_CL_TONE_PEAK_MODE (gst_cl_tone_peak_mode_get_type ())
GType gst_cl_tone_peak_mode_get_type (void);

#define GST_TYPE_CL_TONE_MAP (gst_cl_tone_map_get_type ())
G_DECLARE_FINAL_TYPE (GstClToneMap, gst_cl_tone_map, GST, CL_TONE_MAP,
    GstClBaseFilter);

GST_ELEMENT_REGISTER_DECLARE (cltonemap);

G_END_DECLS
