/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclgaussianweights.h: clgaussian's weights, plain C (no OpenCL). */
#pragma once

#include <glib.h>

/* GST_CL_GAUSSIAN_MAX_RADIUS, the largest radius (kernels up to 129x129),
 * which the kernels share */
#include "gstclshared.h"

G_BEGIN_DECLS

guint gst_cl_gaussian_weights_kernel (guint radius, gdouble sigma,
    gdouble k[2 * GST_CL_GAUSSIAN_MAX_RADIUS + 1]);

guint gst_cl_gaussian_weights_q8 (guint radius, gdouble sigma,
    guint16 weights[GST_CL_GAUSSIAN_MAX_RADIUS + 1]);

guint gst_cl_gaussian_weights_float (guint radius, gdouble sigma,
    gfloat weights[GST_CL_GAUSSIAN_MAX_RADIUS + 1], gboolean * binomial);

gboolean gst_cl_gaussian_weights_q8_is_binomial (guint radius,
    const guint16 * weights);

G_END_DECLS
