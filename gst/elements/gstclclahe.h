/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclclahe.h: contrast-limited adaptive histogram equalization (OpenCV's
 * CLAHE) on OpenCL. */
#pragma once

#include "core/gstclbasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_CLAHE (gst_cl_clahe_get_type ())
G_DECLARE_FINAL_TYPE (GstClClahe, gst_cl_clahe, GST, CL_CLAHE,
    GstClBaseFilter);

#define GST_CL_CLAHE_MAX_CLIP_LIMIT 1000.0
#define GST_CL_CLAHE_MAX_TILES 64

GST_ELEMENT_REGISTER_DECLARE (clclahe);

G_END_DECLS
