/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclframe.h: a buffer's frame as the device sees it. */
#pragma once

#include "gstclmemory.h"

G_BEGIN_DECLS

GstClMemory *gst_cl_frame_input (GstClDevice * device, guint set,
    GstBufferPool ** pool, const GstVideoInfo * info, GstBuffer * inbuf, GstVideoInfo * layout,
    GstBuffer ** imported, GError ** error);

gboolean gst_cl_frame_copy_planes (cl_command_queue q, GstClMemory * in,
    const GstVideoInfo * in_layout, GstClMemory * out,
    const GstVideoInfo * out_layout, cl_event * event, GError ** error);

G_END_DECLS
