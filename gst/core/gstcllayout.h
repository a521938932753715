/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcllayout.h: the memory layout of a frame: validation of an input's,
 * and the layout a buffer's GstVideoMeta gives.
 *
 * Pure C over GstVideoInfo and GstVideoMeta, no OpenCL: it decides whether a
 * buffer can be read as a frame without touching memory outside it.
 */
#pragma once

#include <gst/video/video.h>

G_BEGIN_DECLS

/* Bytes of one row of @plane (samples only, without row padding). */
gsize gst_cl_layout_row_bytes (const GstVideoInfo * info, guint plane);

/* Rows of @plane. */
guint gst_cl_layout_plane_rows (const GstVideoInfo * info, guint plane);

/**
 * gst_cl_layout_check:
 * @info: the negotiated frame description
 * @meta: (nullable): the buffer's video meta, whose offsets and strides
 *   replace those of @info
 * @buffer_size: the buffer's size in bytes
 * @reason: (out) (optional): why the layout is invalid (free with g_free)
 *
 * Returns: TRUE when every plane lies inside the buffer, strides are positive
 * and at least a row wide, and the meta agrees with @info.
 */
gboolean gst_cl_layout_check (const GstVideoInfo * info,
    const GstVideoMeta * meta, gsize buffer_size, gchar ** reason);

void gst_cl_layout_from_buffer (const GstVideoInfo * info, GstBuffer * buf,
    GstVideoInfo * out);

G_END_DECLS
