/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogramdeep.h: clhistogram's counting of frames of more than 8 bits
 * per sample, used by gstclhistogramcount.c. */
#pragma once

#include "core/gstclframework.h"

G_BEGIN_DECLS

/**
 * GstClHistogramDeep:
 *
 * The kernels and device buffers that count frames of more than 8 bits per
 * sample for one element. Used from the streaming thread.
 */
typedef struct _GstClHistogramDeep GstClHistogramDeep;

GstClHistogramDeep *gst_cl_histogram_deep_new (GstClDevice * device,
    cl_program program, GError ** error);

void gst_cl_histogram_deep_free (GstClHistogramDeep * deep);

gboolean gst_cl_histogram_deep_count (GstClHistogramDeep * deep,
    GstClFrameWork * work, const GstClPlane * src, const gint offsets[3],
    gboolean rgb, guint want, guint32 ** host, cl_event * read,
    GError ** error);

G_END_DECLS
