/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclupload.c: a frame in host memory copied into a device frame.
 *
 * A producer that ignores the pool an element proposes (appsrc with the
 * application's buffers, imagefreeze, a tee, many decoders) hands over
 * frames in pageable memory, which a GPU cannot read at the bus's speed:
 * the driver's own path for it copies through a bounce buffer with one
 * thread. Here the CPU copies the frame into the device frame's pinned
 * host copy in pieces, each piece over the worker threads of
 * gstclhostcopy (each thread woken once a frame), and each piece's
 * upload starts as soon as it is copied,
 * so that the copy of a piece overlaps the transfer of the one before
 * (docs/design.md, "Input of any kind"). On devices that read host memory
 * in place there is no transfer: the copy alone, over the same threads. */
#include "gstclupload.h"
#include "gstclhostcopy.h"
#include "gstcllayout.h"

#include <stdlib.h>

/* Pieces: enough that the last piece's transfer, which nothing overlaps,
 * is short; few enough that each command's cost stays small. */
#define MAX_PIECES 32
#define MIN_PIECE (1024 * 1024)
#define DEFAULT_PIECES 8

/* GST_CL_UPLOAD_PIECES: at most this many pieces a frame */
static guint
max_pieces (void)
{
  static gsize value = 0;

  if (g_once_init_enter (&value)) {
    const gchar *env = g_getenv ("GST_CL_UPLOAD_PIECES");
    g_once_init_leave (&value, env ? CLAMP (atoi (env), 1, MAX_PIECES) :
        DEFAULT_PIECES);
  }
  return value;
}

typedef struct
{
  GstClRows rows[MAX_PIECES + GST_VIDEO_MAX_PLANES];
  guint n_rows;
  GstClPiece pieces[MAX_PIECES + GST_VIDEO_MAX_PLANES];
  guint first_rows[MAX_PIECES + GST_VIDEO_MAX_PLANES + 1];
  guint n;
  GstClHostCopy *copy;
} Plan;

/* Starts copying every piece into the frame at @base (the rows'
 * destinations are offsets into it). */
static void
start_copy (Plan * plan, guint8 * base)
{
  guint i;

  for (i = 0; i < plan->n_rows; i++)
    plan->rows[i].dst = base + (gsize) plan->rows[i].dst;
  plan->copy = gst_cl_host_copy_start (plan->rows, plan->first_rows, plan->n);
}

/* The first piece starts the copy of all of them into @staging; each
 * call returns once its piece is there. */
static void
fill_piece (guint8 * staging, guint piece, gpointer user_data)
{
  Plan *plan = user_data;

  if (piece == 0)
    start_copy (plan, staging);
  gst_cl_host_copy_wait_piece (plan->copy, piece);
}

/* Rows @first to @end of plane @p, the destination an offset into the
 * device frame. */
static void
add_rows (Plan * plan, const GstVideoInfo * layout, const GstVideoFrame * src,
    guint p, guint first, guint end)
{
  GstClRows *r = &plan->rows[plan->n_rows++];

  r->dst_stride = layout->stride[p];
  r->src_stride = GST_VIDEO_FRAME_PLANE_STRIDE (src, p);
  r->dst = (guint8 *) (layout->offset[p] + first * r->dst_stride);
  r->src = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (src, p) +
      first * r->src_stride;
  r->row_bytes = gst_cl_layout_row_bytes (layout, p);
  r->rows = end - first;
}

/* the piece made of the rows added since the last one: the bytes from the
 * first of their rows to the end of the last (planes may lie in any order:
 * YV12) */
static void
close_piece (Plan * plan)
{
  gsize start = G_MAXSIZE, end = 0;
  guint i;

  for (i = plan->first_rows[plan->n]; i < plan->n_rows; i++) {
    const GstClRows *r = &plan->rows[i];
    start = MIN (start, (gsize) r->dst);
    end = MAX (end, (gsize) r->dst + (r->rows - 1) * r->dst_stride +
        r->row_bytes);
  }
  plan->pieces[plan->n].offset = start;
  plan->pieces[plan->n].size = end - start;
  plan->first_rows[++plan->n] = plan->n_rows;
}

/* A small frame, or one that is not transferred (@most 1), is one piece;
 * a large one is pieces of whole rows of one plane each, about equal in
 * bytes, at most @most. */
static void
plan_pieces (const GstVideoInfo * layout, const GstVideoFrame * src,
    guint most, Plan * plan)
{
  guint n_planes = GST_VIDEO_INFO_N_PLANES (layout), p, k;
  gsize total = 0, bytes[GST_VIDEO_MAX_PLANES];
  guint n_pieces;

  for (p = 0; p < n_planes; p++) {
    bytes[p] = gst_cl_layout_row_bytes (layout, p) *
        gst_cl_layout_plane_rows (layout, p);
    total += bytes[p];
  }
  n_pieces = CLAMP (total / MIN_PIECE, 1, most);
  plan->n = plan->n_rows = 0;
  plan->copy = NULL;
  plan->first_rows[0] = 0;
  for (p = 0; p < n_planes; p++) {
    guint rows = gst_cl_layout_plane_rows (layout, p), first = 0;
    guint parts = CLAMP ((guint) (n_pieces * bytes[p] / MAX (total, 1)), 1,
        MAX (rows, 1));
    for (k = 0; k < parts && rows > 0; k++) {
      guint end = (guint) ((guint64) rows * (k + 1) / parts);
      add_rows (plan, layout, src, p, first, end);
      if (n_pieces > 1)
        close_piece (plan);
      first = end;
    }
  }
  if (n_pieces == 1 && plan->n_rows > 0)
    close_piece (plan);
}

/* zero-copy devices: the copy alone, over the threads */
static gboolean
copy_mapped (GstBuffer * dst, const GstVideoInfo * info,
    const GstVideoFrame * src, GError ** error)
{
  GstVideoInfo layout;
  GstMapInfo map;
  Plan plan;

  if (!gst_buffer_map (dst, &map, GST_MAP_WRITE)) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "could not map a device frame");
    return FALSE;
  }
  gst_cl_layout_from_buffer (info, dst, &layout);
  plan_pieces (&layout, src, 1, &plan);
  start_copy (&plan, map.data);
  gst_cl_host_copy_finish (plan.copy);
  gst_buffer_unmap (dst, &map);
  return TRUE;
}

/**
 * gst_cl_upload_frame:
 * @dst: a buffer holding one device frame (a #GstClMemory)
 * @set: the set of queues whose upload queue carries it
 * @info: the frame's format, as @src has it
 * @src: the frame to copy, mapped for reading
 *
 * Copies @src into @dst, at @dst's own strides, and starts the transfer to
 * the device (copying devices). Returns without waiting for it: the
 * frame's next device use waits on the device.
 */
gboolean
gst_cl_upload_frame (GstBuffer * dst, guint set, const GstVideoInfo * info,
    const GstVideoFrame * src, GError ** error)
{
  GstClMemory *mem = gst_cl_buffer_get_memory (dst, NULL);
  GstVideoInfo layout;
  Plan plan;
  gboolean ok;

  if (!mem || mem->device->zero_copy)
    return copy_mapped (dst, info, src, error);
  gst_cl_layout_from_buffer (info, dst, &layout);
  plan_pieces (&layout, src, max_pieces (), &plan);
  ok = gst_cl_memory_write_in_pieces (mem, set, plan.pieces, plan.n,
      fill_piece, &plan, error);
  /* an upload that failed leaves the threads' shares running */
  if (plan.copy)
    gst_cl_host_copy_finish (plan.copy);
  return ok;
}
