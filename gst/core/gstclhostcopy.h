/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhostcopy.h: copies of rows in host memory, spread over a few worker
 * threads shared by every element of the process.
 *
 * One CPU thread copies a fraction of what a bus to a GPU moves
 * (docs/performance.md, "Any producer"). Frames that reach a device from memory it cannot read in place
 * (a producer that ignores the proposed pool) are copied by several
 * threads at once, so that the copy keeps pace with the transfer. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * GstClRows:
 *
 * @rows rows of @row_bytes bytes, from @src (@src_stride bytes apart) to
 * @dst (@dst_stride bytes apart).
 */
typedef struct
{
  guint8 *dst;
  const guint8 *src;
  gsize dst_stride, src_stride;
  gsize row_bytes;
  guint rows;
} GstClRows;

typedef struct _GstClHostCopy GstClHostCopy;

GstClHostCopy *gst_cl_host_copy_start (const GstClRows * rows,
    const guint * piece_rows, guint n_pieces);

void gst_cl_host_copy_wait_piece (GstClHostCopy * copy, guint piece);

void gst_cl_host_copy_finish (GstClHostCopy * copy);

G_END_DECLS
