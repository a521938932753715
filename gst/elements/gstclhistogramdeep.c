/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogramdeep.c: clhistogram's counting of frames of more than 8
 * bits per sample (gstclhistogramdeep.h): all 2^D levels a counted slot,
 * by the histogram_deep_* kernels of kernels/histogram.cl. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclhistogramdeep.h"

#define MAX_DEPTH 16
#define DEEP_UNITS_PER_CU 2     /* strips: tables per compute unit */
#define MAX_DEEP_UNITS 64       /* strips: tables at most, whatever the
                                 * tuning (2^16 levels: 256 KiB each) */
#define DEEP_REDUCE_SPAN 64     /* 16-level vectors per reduce work-item */
#define DEEP_LOCAL_BYTES 32768  /* tiles: local tables up to this size (2^10
                                 * and 2^12 levels), else global atomics */
#define TILE_GROUP 256          /* work-items per group (automatic) */
#define TILE_MAX_GROUPS_X 64    /* groups across a row */
#define TILE_GROUPS_PER_CU 4    /* groups per compute unit */
#define TILE_COPIES 8           /* copies of the local tables at most */
/* one-sample planes in buffers: each work-item walks down its column of
 * 8-sample vectors with the next rows' loads in flight (as 8-bit tiles do,
 * gstclhistogramcount.c), in larger groups, fewer of them */
#define WALK_GROUP 512
#define WALK_ITEMS_PER_CU 512
#define WALK_COPIES 4

struct _GstClHistogramDeep
{
  GstClDevice *device;
  cl_kernel k_strips, k_reduce, k_tiles, k_image;
  cl_mem tables;                /* strips: per work-item tables, zero
                                 * between frames */
  gsize tables_size;
  gboolean tables_dirty;        /* a frame failed: zero them again */
  cl_mem totals;                /* counted slots << D counts of a frame */
  gsize totals_size;
};

/**
 * gst_cl_histogram_deep_new:
 * @program: the histogram program, built for @device
 *
 * Returns: (transfer full) (nullable): the counting of frames of more than
 *   8 bits, or NULL with @error set
 */
GstClHistogramDeep *
gst_cl_histogram_deep_new (GstClDevice * device, cl_program program,
    GError ** error)
{
  GstClHistogramDeep *deep = g_new0 (GstClHistogramDeep, 1);

  deep->device = gst_object_ref (device);
  if (!(deep->k_strips = gst_cl_kernel_new (program, "histogram_deep_strips",
              error))
      || !(deep->k_reduce = gst_cl_kernel_new (program,
              "histogram_deep_reduce", error))
      || !(deep->k_tiles = gst_cl_kernel_new (program, "histogram_deep_tiles",
              error))
      || (device->image_support && !(deep->k_image =
              gst_cl_kernel_new (program, "histogram_deep_image", error)))) {
    gst_cl_histogram_deep_free (deep);
    return NULL;
  }
  return deep;
}

/**
 * gst_cl_histogram_deep_free:
 *
 * Releases @deep's kernels and buffers; no read of its counts may still be
 * under way.
 */
void
gst_cl_histogram_deep_free (GstClHistogramDeep * deep)
{
  if (!deep)
    return;
  g_clear_pointer (&deep->k_strips, clReleaseKernel);
  g_clear_pointer (&deep->k_reduce, clReleaseKernel);
  g_clear_pointer (&deep->k_tiles, clReleaseKernel);
  g_clear_pointer (&deep->k_image, clReleaseKernel);
  g_clear_pointer (&deep->tables, clReleaseMemObject);
  g_clear_pointer (&deep->totals, clReleaseMemObject);
  gst_object_unref (deep->device);
  g_free (deep);
}

/* CPUs: a few work-items count whole strips into tables of their own (a
 * bounded number, whatever the tuning: 2^16 levels take 256 KiB a table),
 * then histogram_deep_reduce adds them into deep_totals and zeroes them. */
static gboolean
count_strips (GstClHistogramDeep * deep, const GstClPlane * src,
    const gint * off, cl_int iwant, cl_int n_tables, GstClFrameWork * work,
    GError ** error)
{
  GstClDevice *device = work->device;
  cl_int depth = src->depth, shift = src->shift, copies, n_units, n_cols;
  cl_int n_rects, chunk, rows, vectors, span;
  GstClLaunch l, r;
  gsize target;

  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  /* whole pixels per rectangle */
  chunk = l.chunk;
  if (chunk % src->step)
    chunk += src->step - chunk % src->step;
  rows = l.rows;
  target = CLAMP (DEEP_UNITS_PER_CU * device->compute_units, 1,
      MAX_DEEP_UNITS);
  n_cols = (src->units + chunk - 1) / chunk;
  if (l.rows_auto) {
    /* one strip per work-item, read in row order */
    gsize per_col = MAX (1, target / n_cols);
    rows = MAX (1, (src->height + per_col - 1) / per_col);
  }
  n_rects = n_cols * ((src->height + rows - 1) / rows);
  n_units = MIN ((gsize) n_rects, target);
  /* copies of one-sample tables spread repeated levels over several
   * counters: 4 for 2^10 and 2^12 levels (16 and 64 KiB in all, in the
   * core's caches), 2 for 2^16 (512 KiB); RGB pixels count their runs */
  copies = src->step != 1 ? 1 : depth <= 12 ? 4 : 2;

  if (!gst_cl_buffer_ensure (deep->device->context, &deep->tables, &deep->tables_size,
          ((gsize) n_units * n_tables * copies << depth) * sizeof (guint32),
          &deep->tables_dirty, "clCreateBuffer (histogram tables)",
          error))
    return FALSE;
  if (deep->tables_dirty) {
    if (!gst_cl_buffer_zero (work->queue, deep->tables,
            deep->tables_size, "clEnqueueFillBuffer (histograms)",
            error))
      return FALSE;
    deep->tables_dirty = FALSE;
  }
  /* until the reduce has run: a failed frame may leave counts there */
  deep->tables_dirty = TRUE;

  l.global[0] = n_units;
  l.global[1] = 1;
  l.local[0] = l.local[1] = 1;
  if (!gst_cl_set_args (deep->k_strips, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (off[0]), GST_CL_ARG (off[1]),
          GST_CL_ARG (off[2]), GST_CL_ARG (iwant), GST_CL_ARG (depth),
          GST_CL_ARG (shift), GST_CL_ARG (chunk), GST_CL_ARG (rows),
          GST_CL_ARG (n_cols), GST_CL_ARG (n_rects),
          GST_CL_ARG (deep->tables), GST_CL_ARG (n_units),
          GST_CL_ARG (copies), GST_CL_ARGS_END)
      || !gst_cl_frame_work_enqueue (work, deep->k_strips, &l, error))
    return FALSE;

  /* a work-item per DEEP_REDUCE_SPAN vectors of 16 levels: a few dozen for
   * 2^16 levels, one for 2^10 */
  vectors = (n_tables << depth) / 16;
  span = DEEP_REDUCE_SPAN;
  r = l;
  r.global[0] = (vectors + span - 1) / span;
  return gst_cl_set_args (deep->k_reduce, error,
      GST_CL_ARG (deep->tables), GST_CL_ARG (n_units),
      GST_CL_ARG (n_tables), GST_CL_ARG (copies), GST_CL_ARG (depth),
      GST_CL_ARG (span), GST_CL_ARG (deep->totals), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, deep->k_reduce, &r, error);
}

/* GPUs and images: work-groups add into deep_totals (zeroed first), from
 * local tables where they fit, else with global atomics. */
static gboolean
count_tiles (GstClHistogramDeep * deep, const GstClPlane * src,
    const gint * off, gboolean rgb, cl_int iwant, cl_int n_tables,
    GstClFrameWork * work, GError ** error)
{
  GstClDevice *device = work->device;
  cl_int depth = src->depth, shift = src->shift, copies;
  /* one-sample planes in buffers: the kernel's column walk */
  const gboolean walk = !src->is_image && src->step == 1;
  gsize table_bytes = ((gsize) n_tables << depth) * sizeof (guint32);
  gsize items, group, groups_x, groups_y, budget, local_bytes;
  cl_kernel k = src->is_image ? deep->k_image : deep->k_tiles;
  GstClLaunch l;

  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  if (l.group_auto)
    l.local[0] = MAX (1, MIN (walk ? WALK_GROUP : TILE_GROUP,
            device->max_work_group_size));
  /* eight one-sample pixels per work-item in walks, else a pixel */
  items = walk ? (gsize) (src->units + 7) / 8 : (gsize) src->width;
  group = l.local[0];
  groups_x = CLAMP ((items + group - 1) / group, 1, TILE_MAX_GROUPS_X);
  /* walks: WALK_ITEMS_PER_CU work-items a compute unit in any group size */
  groups_y = walk ? WALK_ITEMS_PER_CU * device->compute_units / (groups_x *
      group) : TILE_GROUPS_PER_CU * device->compute_units / groups_x;
  l.global[0] = groups_x * group;
  l.global[1] = CLAMP (groups_y, 1, (gsize) src->height);
  l.local[1] = 1;
  budget = MIN (DEEP_LOCAL_BYTES, device->local_mem_size);
  copies = MIN (walk ? WALK_COPIES : TILE_COPIES, budget / table_bytes);
  /* a local argument cannot be empty */
  local_bytes = copies ? copies * table_bytes : sizeof (guint32);

  if (!gst_cl_buffer_zero (work->queue, deep->totals, table_bytes,
          "clEnqueueFillBuffer (histograms)", error))
    return FALSE;
  if (src->is_image) {
    cl_int layout = rgb ? 4 : 0;
    if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->width), GST_CL_ARG (src->height),
            GST_CL_ARG (layout), GST_CL_ARG (off[0]),
            GST_CL_ARG (off[1]), GST_CL_ARG (off[2]),
            GST_CL_ARG (iwant), GST_CL_ARG (depth), GST_CL_ARG (shift),
            GST_CL_ARG (deep->totals), GST_CL_ARG_LOCAL (local_bytes),
            GST_CL_ARG (copies), GST_CL_ARGS_END))
      return FALSE;
  } else if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (off[0]), GST_CL_ARG (off[1]),
          GST_CL_ARG (off[2]), GST_CL_ARG (iwant), GST_CL_ARG (depth),
          GST_CL_ARG (shift), GST_CL_ARG (deep->totals),
          GST_CL_ARG_LOCAL (local_bytes), GST_CL_ARG (copies),
          GST_CL_ARGS_END)) {
    return FALSE;
  }
  return gst_cl_frame_work_enqueue (work, k, &l, error);
}

/**
 * gst_cl_histogram_deep_count:
 * @src: a plane of more than 8 bits per sample
 * @offsets: the red, green and blue samples' offsets in a pixel
 * @rgb: @src holds RGB pixels (an image's layout)
 * @want: the slots to count (luma, red, green, blue bits)
 * @host: (out): where the counts arrive: the counted slots' tables of
 *   2^depth levels, in slot order, once @read completes (g_free() it)
 * @read: (out): the read of the counts into *@host
 *
 * Counts all 2^D levels of each counted slot, packed (the counted slots
 * only) in the totals, and enqueues their read back in one piece: 4 KiB
 * (P010 luma) to 1 MiB (RGBA64 all channels).
 */
gboolean
gst_cl_histogram_deep_count (GstClHistogramDeep * deep, GstClFrameWork * work,
    const GstClPlane * src, const gint offsets[3], gboolean rgb, guint want,
    guint32 ** host, cl_event * read, GError ** error)
{
  cl_int iwant = want, n_tables = __builtin_popcount (want);
  gsize bytes = ((gsize) n_tables << src->depth) * sizeof (guint32);
  gboolean ok;
  cl_int st;

  g_return_val_if_fail (src->depth > 8 && src->depth <= MAX_DEPTH, FALSE);
  if (!gst_cl_buffer_ensure (deep->device->context, &deep->totals,
          &deep->totals_size, bytes, NULL,
          "clCreateBuffer (histogram totals)", error))
    return FALSE;
  if (!src->is_image && gst_cl_frame_work_uses_strips (work))
    ok = count_strips (deep, src, offsets, iwant, n_tables, work, error);
  else
    ok = count_tiles (deep, src, offsets, rgb, iwant, n_tables, work, error);
  if (!ok)
    return FALSE;
  *host = g_malloc (bytes);
  st = clEnqueueReadBuffer (work->queue, deep->totals, CL_FALSE, 0, bytes,
      *host, 0, NULL, read);
  if (st != CL_SUCCESS) {
    *read = NULL;
    return gst_cl_fail (error, st, "clEnqueueReadBuffer (histograms)");
  }
  /* the frame ends with the read (the base class submits the queue); the
   * reduce zeroed the tables */
  gst_cl_frame_work_follow (work, *read);
  deep->tables_dirty = FALSE;
  return TRUE;
}
