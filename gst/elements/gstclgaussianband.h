/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclgaussianband.h: clgaussian's band kernels (kernels/gaussian_band.cl,
 * gaussian_band_wide.cl), their builds and their launch. */
#pragma once

#include "core/gstclframework.h"
#include "core/gstclplane.h"

G_BEGIN_DECLS

/* beyond this radius the tile runs instead (registers, build time) */
#define GST_CL_GAUSSIAN_BAND_MAX_RADIUS 16

typedef struct _GstClGaussianBand GstClGaussianBand;

GstClGaussianBand *gst_cl_gaussian_band_new (GstElement * owner);
void gst_cl_gaussian_band_free (GstClGaussianBand * band);
void gst_cl_gaussian_band_reset (GstClGaussianBand * band);

void gst_cl_gaussian_band_prepare (GstClGaussianBand * band,
    GstClDevice * device, guint radius, const guint16 * weights,
    const gfloat * weights_f, const GstClPlane * plane,
    gsize requested_group);

gboolean gst_cl_gaussian_band_launch (GstClGaussianBand * band,
    GstClFrameWork * work, const GstClPlane * src, const GstClPlane * dst,
    const GstClLaunch * l, guint radius, const guint16 * weights,
    const gfloat * weights_f, cl_mem weights_mem, gboolean * done,
    GError ** error);

G_END_DECLS
