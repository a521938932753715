/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcllaplace.h: Laplace sharpen and edge filter on OpenCL. */
#pragma once

#include "core/gstclbasefilter.h"

G_BEGIN_DECLS

/**
 * GstClLaplaceMode:
 * @GST_CL_LAPLACE_MODE_SHARPEN: out = clamp (c + strength * L)
 * @GST_CL_LAPLACE_MODE_EDGES: out = clamp (strength * |L|)
 *
 * What cllaplace outputs, L being the 3x3 Laplacian 8 * c - (sum of the 8
 * neighbours).
 */
typedef enum
{
  GST_CL_LAPLACE_MODE_SHARPEN,
  GST_CL_LAPLACE_MODE_EDGES,
} GstClLaplaceMode;

#define GST_TYPE_CL_LAPLACE_MODE (gst_cl_laplace_mode_get_type ())
GType gst_cl_laplace_mode_get_type (void);

#define GST_TYPE_CL_LAPLACE (gst_cl_laplace_get_type ())
G_DECLARE_FINAL_TYPE (GstClLaplace, gst_cl_laplace, GST, CL_LAPLACE,
    GstClBaseFilter);

#define GST_CL_LAPLACE_MAX_STRENGTH 16.0

GST_ELEMENT_REGISTER_DECLARE (cllaplace);

G_END_DECLS
