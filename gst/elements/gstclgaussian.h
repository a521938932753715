/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclgaussian.h: Gaussian blur on OpenCL. */
#pragma once

#include "core/gstclbasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_GAUSSIAN (gst_cl_gaussian_get_type ())
G_DECLARE_FINAL_TYPE (GstClGaussian, gst_cl_gaussian, GST, CL_GAUSSIAN,
    GstClBaseFilter);

#define GST_CL_GAUSSIAN_MAX_RADIUS 64

/* Q8 weights (centre first) of the blur the properties describe, as OpenCV
 * computes them for 8-bit images; returns the radius. Exposed for tests. */
guint gst_cl_gaussian_weights (guint radius, gdouble sigma,
    guint16 weights[GST_CL_GAUSSIAN_MAX_RADIUS + 1]);

GST_ELEMENT_REGISTER_DECLARE (clgaussian);

G_END_DECLS
