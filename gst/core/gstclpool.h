/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclpool.h: a buffer pool of video frames in host memory that the OpenCL
 * device transfers at full speed (pinned, page-locked memory). */
#pragma once

#include "gstcldevice.h"
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_PINNED_POOL (gst_cl_pinned_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstClPinnedPool, gst_cl_pinned_pool, GST,
    CL_PINNED_POOL, GstBufferPool);

GstBufferPool *gst_cl_pinned_pool_new (GstClDevice * device);

gboolean gst_cl_pinned_pool_wanted (GstClDevice * device);

G_END_DECLS
