/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclgaussian.h: Gaussian blur on OpenCL. */
#pragma once

#include "core/gstclbasefilter.h"
#include "elements/gstclgaussianweights.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_GAUSSIAN (gst_cl_gaussian_get_type ())
G_DECLARE_FINAL_TYPE (GstClGaussian, gst_cl_gaussian, GST, CL_GAUSSIAN,
    GstClBaseFilter);

GST_ELEMENT_REGISTER_DECLARE (clgaussian);

G_END_DECLS
