/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclupload.h: a frame in host memory copied into a device frame. */
#pragma once

#include "gstclmemory.h"

G_BEGIN_DECLS

gboolean gst_cl_upload_frame (GstBuffer * dst, guint set,
    const GstVideoInfo * info, const GstVideoFrame * src, GError ** error);

G_END_DECLS
