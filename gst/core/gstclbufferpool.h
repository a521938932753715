/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbufferpool.h: a buffer pool of frames on an OpenCL device. */
#pragma once

#include "gstclmemory.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BUFFER_POOL (gst_cl_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST,
    CL_BUFFER_POOL, GstBufferPool);

GstBufferPool *gst_cl_buffer_pool_new (GstClDevice * device);

GstClDevice *gst_cl_buffer_pool_get_device (GstBufferPool * pool);

GstBufferPool *gst_cl_buffer_pool_new_configured (GstClDevice * device,
    GstCaps * caps, gsize size, guint min);

gboolean gst_cl_buffer_pool_propose_allocation (GstQuery * query,
    GstClDevice * device);

gboolean gst_cl_buffer_pool_decide_allocation (GstQuery * query,
    GstClDevice * device);

G_END_DECLS
