/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogramring.h: partial histograms the host reads where the device
 * wrote them (fine-grained SVM), a few frames' worth in turn. */
#pragma once

#include "core/gstcldevice.h"

G_BEGIN_DECLS

typedef struct _GstClHistogramRing GstClHistogramRing;

GstClHistogramRing *gst_cl_histogram_ring_new (GstClDevice * device);

void gst_cl_histogram_ring_free (GstClHistogramRing * ring);

gboolean gst_cl_histogram_ring_take (GstClHistogramRing * ring, gsize size,
    cl_mem * mem, guint32 ** host, gint ** busy);

G_END_DECLS
