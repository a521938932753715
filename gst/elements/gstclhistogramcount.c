/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogramcount.c: clhistogram's counting (gstclhistogramcount.h).
 * Two families of kernels (kernels/histogram.cl): 8-bit frames count 256
 * levels a slot, as partial tables (strips and pair tables, for CPUs) or
 * into totals (tiles and images, for GPUs); frames of more than 8 bits
 * count all 2^D levels a slot into one table per slot. Either way the
 * counts are read back without waiting: the element adds them to its
 * interval frames later. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclhistogramcount.h"
#include "gstclhistogramdeep.h"
#include "gstclhistogramring.h"
#include "gstclhistogramstats.h"
#include "gstclkernels.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_histogram_count_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_count_debug

#define N_SLOTS GST_CL_HISTOGRAM_SLOTS     /* luma, red, green, blue */
#define PAIR_TABLE_SIZE 65536   /* counters per work-item in histogram_pairs */
#define MAX_PAIR_UNITS 64       /* above: plain counting (histogram_strips) */
#define MAX_HOST_UNITS 64       /* above: partials added on the device */
#define TILE_GROUP 256          /* work-items per group in tiles (automatic) */
#define TILE_MAX_GROUPS_X 64    /* groups across a row in tiles */
#define TILE_GROUPS_PER_CU 4    /* groups per compute unit in tiles */
#define TILE_COPIES 8           /* copies of the local tables in tiles */
/* tiles on rows of whole 16-byte vectors (one-byte and 4-byte pixels, 16
 * bytes per work-item, each walking down its column with the next rows'
 * loads in flight): larger groups, fewer copies, and one group per compute
 * unit walking many rows, because every group's clearing and merge into
 * the totals is overhead while its walk keeps the loads in flight
 * (bench/probes/histogram.c measures the choice; docs/performance.md, "GPU:
 * kernels against the device's copy", has what the kernels reach) */
#define VEC_GROUP 512
#define VEC_GROUPS_PER_CU 1
#define VEC_COPIES 4

/* histogram_tiles built for one format and launch: its arguments as
 * constants of the build (GST_CL_HIST_* in kernels/histogram.cl), so that
 * the branches on the channels and pixel size and the table addressing
 * fold away (docs/design.md, the builds with -D; bench/probes/histogram.c
 * times it against the general kernel). Built at caps time on devices that
 * take the GPU kernels; a frame the build does not match (channels changed
 * while playing, rows not of whole 16-byte vectors) takes the general
 * kernel, which counts the same. */
typedef struct
{
  gint step, r_off, g_off, b_off, want, copies, sixteen;
} TilesBuild;

struct _GstClHistogramCount
{
  GstClDevice *device;
  GstObject *owner;             /* log lines name it (not a reference: the
                                 * owner holds the count) */

  /* caps */
  gboolean has_rgb;
  gint r_off, g_off, b_off;     /* in units: bytes, 16-bit samples or image
                                 * components */

  /* formats of 8 bits */
  cl_kernel k_strips, k_tiles, k_image, k_pairs, k_reduce;
  cl_kernel k_tiles_fixed;      /* histogram_tiles built for tiles_fixed */
  TilesBuild tiles_fixed;
  TilesBuild tiles_unbuilt;     /* the frames' build last found not made
                                 * (valid if unbuilt_set): the general
                                 * kernel, without looking again */
  gboolean unbuilt_set;
  cl_mem tables;                /* pair tables of histogram_pairs, zero
                                 * between frames */
  gsize tables_size;
  gboolean tables_dirty;        /* a frame failed: zero them again */
  cl_mem partials;
  gsize partials_size;
  GstClHistogramRing *ring;     /* partials read in place (SVM devices) */
  cl_mem totals;                /* N_SLOTS * 256 sums of the partials */

  /* formats of more than 8 bits */
  GstClHistogramDeep *deep;
};

/* ------------------------------------------------------------------------ */
/* Life                                                                     */

/**
 * gst_cl_histogram_count_new:
 * @device: the device @program was built for
 * @program: the histogram program
 * @owner: the object that log lines name
 *
 * Creates the counting kernels and the totals of 8-bit frames; the other
 * buffers come with the frames that need them.
 *
 * Returns: (transfer full) (nullable): the counting object, or NULL with
 *   @error set
 */
GstClHistogramCount *
gst_cl_histogram_count_new (GstClDevice * device, cl_program program,
    GstObject * owner, GError ** error)
{
  static gsize debug_done = 0;
  GstClHistogramCount *count;
  cl_int st;

  if (g_once_init_enter (&debug_done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_histogram_count_debug,
        "clhistogramcount", 0, "OpenCL histograms: the counting");
    g_once_init_leave (&debug_done, 1);
  }
  count = g_new0 (GstClHistogramCount, 1);
  count->device = gst_object_ref (device);
  count->owner = owner;
  if (!(count->k_strips = gst_cl_kernel_new (program, "histogram_strips",
              error))
      || !(count->k_pairs = gst_cl_kernel_new (program, "histogram_pairs",
              error))
      || !(count->k_reduce = gst_cl_kernel_new (program, "histogram_reduce",
              error))
      || !(count->k_tiles = gst_cl_kernel_new (program, "histogram_tiles",
              error))
      || !(count->deep = gst_cl_histogram_deep_new (device, program, error)))
    goto failed;
  if (device->image_support &&
      !(count->k_image = gst_cl_kernel_new (program, "histogram_image",
              error)))
    goto failed;
  count->ring = gst_cl_histogram_ring_new (device);
  count->totals = clCreateBuffer (device->context, CL_MEM_READ_WRITE,
      N_SLOTS * 256 * sizeof (guint32), NULL, &st);
  if (st != CL_SUCCESS) {
    count->totals = NULL;
    gst_cl_fail (error, st, "clCreateBuffer (histogram totals)");
    goto failed;
  }
  return count;

  /* ERRORS */
failed:
  gst_cl_histogram_count_free (count);
  return NULL;
}

/**
 * gst_cl_histogram_count_free:
 *
 * Releases @count's kernels and buffers. No read into a
 * #GstClHistogramCounts may still be under way.
 */
void
gst_cl_histogram_count_free (GstClHistogramCount * count)
{
  if (!count)
    return;
  g_clear_pointer (&count->k_strips, clReleaseKernel);
  g_clear_pointer (&count->k_tiles, clReleaseKernel);
  g_clear_pointer (&count->k_image, clReleaseKernel);
  g_clear_pointer (&count->k_pairs, clReleaseKernel);
  g_clear_pointer (&count->k_reduce, clReleaseKernel);
  g_clear_pointer (&count->k_tiles_fixed, clReleaseKernel);
  g_clear_pointer (&count->deep, gst_cl_histogram_deep_free);
  g_clear_pointer (&count->totals, clReleaseMemObject);
  g_clear_pointer (&count->tables, clReleaseMemObject);
  g_clear_pointer (&count->partials, clReleaseMemObject);
  g_clear_pointer (&count->ring, gst_cl_histogram_ring_free);
  gst_object_unref (count->device);
  g_free (count);
}

/* ------------------------------------------------------------------------ */
/* The tiles kernel built per format                                        */

/* @b: what histogram_tiles takes for the 8-bit buffer @src counted in the
 * slots of @want */
static void
tiles_build_init (GstClHistogramCount * count, const GstClPlane * src,
    guint want, TilesBuild * b)
{
  b->step = src->step;
  b->r_off = count->r_off;
  b->g_off = count->g_off;
  b->b_off = count->b_off;
  b->want = want;
  /* 16 bytes per item on rows of whole 16-byte vectors: sixteen one-byte
   * pixels or four 4-byte ones */
  b->sixteen = !src->is_image && (src->step == 1 || src->step == 4)
      && src->stride % 16 == 0;
  /* local tables in as many copies as local memory holds, up to
   * TILE_COPIES (VEC_COPIES on the 16-byte paths) */
  b->copies = MAX (1, MIN (b->sixteen ? VEC_COPIES : TILE_COPIES,
          count->device->local_mem_size / (N_SLOTS * 256 *
              sizeof (guint32))));
}

/* The histogram_tiles kernel for @b: the build for it where there is one
 * (made here at caps time, @now, or one the device made before), else the
 * general kernel. */
static cl_kernel
tiles_kernel (GstClHistogramCount * count, const TilesBuild * b,
    gboolean now)
{
  GstClDevice *device = count->device;
  GError *err = NULL;
  cl_program program;
  gchar *defines;
  cl_kernel k;

  if (count->k_tiles_fixed
      && memcmp (&count->tiles_fixed, b, sizeof (*b)) == 0)
    return count->k_tiles_fixed;
  if (!gst_cl_device_builds_gpu_kernels (device) || (!now
          && count->unbuilt_set
          && memcmp (&count->tiles_unbuilt, b, sizeof (*b)) == 0))
    return count->k_tiles;
  defines = g_strdup_printf ("-DGST_CL_HIST_STEP=%d -DGST_CL_HIST_R=%d "
      "-DGST_CL_HIST_G=%d -DGST_CL_HIST_B=%d -DGST_CL_HIST_WANT=%d "
      "-DGST_CL_HIST_COPIES=%d -DGST_CL_HIST_SIXTEEN=%d", b->step, b->r_off,
      b->g_off, b->b_off, b->want, b->copies, b->sixteen);
  if (!now && !gst_cl_device_has_program_with_defines (device, "histogram",
          defines)) {
    g_free (defines);
    count->tiles_unbuilt = *b;
    count->unbuilt_set = TRUE;
    return count->k_tiles;
  }
  program = gst_cl_device_get_program_with_defines (device, "histogram",
      gst_cl_source_histogram, defines, &err);
  g_free (defines);
  k = program ? gst_cl_kernel_new (program, "histogram_tiles", &err) : NULL;
  if (program)
    clReleaseProgram (program);
  if (!k) {
    GST_WARNING_OBJECT (count->owner, "no histogram_tiles built for the "
        "format, the general kernel counts: %s", err->message);
    g_clear_error (&err);
    return count->k_tiles;
  }
  g_clear_pointer (&count->k_tiles_fixed, clReleaseKernel);
  count->k_tiles_fixed = k;
  count->tiles_fixed = *b;
  return k;
}

/**
 * gst_cl_histogram_count_configure:
 * @info: the caps' video info
 * @plane: the plane that frames will count
 *
 * Takes the caps: where the colour channels lie in a pixel. A build of
 * histogram_tiles found missing for the previous caps is looked for again.
 */
void
gst_cl_histogram_count_configure (GstClHistogramCount * count,
    const GstVideoInfo * info, const GstClPlane * plane)
{
  /* kernels index samples (two bytes each in 16-bit formats) or, in
   * images of 4-channel texels, components */
  const gint bytes = plane->sample_bytes;

  count->has_rgb = GST_VIDEO_INFO_IS_RGB (info);
  count->r_off = count->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_R) / bytes : 0;
  count->g_off = count->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_G) / bytes : 0;
  count->b_off = count->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_B) / bytes : 0;
  count->unbuilt_set = FALSE;
}

/**
 * gst_cl_histogram_count_prepare_tiles:
 * @plane: the 8-bit buffer plane that frames will count
 * @want: the slots they will count
 *
 * Builds histogram_tiles for the caps now, for frames that will take the
 * GPU kernels, so that the first frames need not wait for the build.
 */
void
gst_cl_histogram_count_prepare_tiles (GstClHistogramCount * count,
    const GstClPlane * plane, guint want)
{
  TilesBuild b;

  tiles_build_init (count, plane, want, &b);
  tiles_kernel (count, &b, TRUE);
}

/* ------------------------------------------------------------------------ */
/* Buffers                                                                  */

static gboolean
ensure_partials (GstClHistogramCount * count, guint n_units, GError ** error)
{
  return gst_cl_buffer_ensure (count->device->context, &count->partials, &count->partials_size,
      (gsize) N_SLOTS * n_units * 256 * sizeof (guint32), NULL,
      "clCreateBuffer (partial histograms)", error);
}

/* n_units pair tables of 65536 counters, zero */
static gboolean
ensure_tables (GstClHistogramCount * count, GstClFrameWork * work,
    guint n_units, GError ** error)
{
  if (!gst_cl_buffer_ensure (count->device->context, &count->tables, &count->tables_size,
          (gsize) n_units * PAIR_TABLE_SIZE * sizeof (guint32),
          &count->tables_dirty, "clCreateBuffer (pair tables)", error))
    return FALSE;
  if (count->tables_dirty) {
    if (!gst_cl_buffer_zero (work->queue, count->tables, count->tables_size,
            "clEnqueueFillBuffer (pair tables)", error))
      return FALSE;
    count->tables_dirty = FALSE;
  }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* 8-bit formats: 256 levels per slot                                       */

/* The launch of histogram_strips and histogram_pairs: strips of whole
 * pixels; for pair tables, a few work-items per compute unit, each folding
 * its table once per frame. */
static void
strips_shape (GstClFrameWork * work, const GstClPlane * src,
    GstClLaunch * l)
{
  gst_cl_frame_work_launch_shape (work, src, FALSE, l);
  /* whole pixels per work-item */
  if (l->chunk % src->step)
    l->chunk += src->step - l->chunk % src->step;
  if (src->step == 1 && l->rows_auto) {
    gsize items = MAX (1, 2 * work->device->compute_units / l->global[0]);
    l->rows = MAX (1, (src->height + items - 1) / items);
    l->global[1] = (src->height + l->rows - 1) / l->rows;
  }
}

/* histogram_pairs: the pair tables, folded into @n_units partials */
static gboolean
count_pairs (GstClHistogramCount * count, const GstClPlane * src,
    GstClFrameWork * work, GstClLaunch * l, cl_int n_units, cl_mem partials,
    GError ** error)
{
  if (!ensure_tables (count, work, n_units, error))
    return FALSE;
  /* until the frame is read back: a failed frame may leave counts in the
   * tables */
  count->tables_dirty = TRUE;
  return gst_cl_set_args (count->k_pairs, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
      GST_CL_ARG (src->height), GST_CL_ARG (l->chunk),
      GST_CL_ARG (l->rows), GST_CL_ARG (count->tables),
      GST_CL_ARG (partials), GST_CL_ARG (n_units), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, count->k_pairs, l, error);
}

/* Where a frame's @n_units partials a slot go: a ring slot the host reads
 * in place (@pf then holds it), else the count's own buffer */
static gboolean
strips_target (GstClHistogramCount * count, cl_int n_units,
    GstClHistogramCounts * pf, cl_mem * partials, GError ** error)
{
  gsize bytes = (gsize) N_SLOTS * n_units * 256 * sizeof (guint32);

  if (n_units <= MAX_HOST_UNITS && gst_cl_histogram_ring_take (count->ring,
          bytes, partials, &pf->host, &pf->slot_busy)) {
    pf->sparse = TRUE;
    return TRUE;
  }
  *partials = NULL;
  if (!ensure_partials (count, n_units, error))
    return FALSE;
  *partials = count->partials;
  return TRUE;
}

/* CPUs: strips counted into *@n_units partial tables a slot, by
 * histogram_pairs (*@pairs) or histogram_strips, into a ring slot of @pf
 * or the count's partials */
static gboolean
count_strips (GstClHistogramCount * count, const GstClPlane * src,
    GstClHistogramCounts * pf, GstClFrameWork * work, cl_int * n_units,
    gboolean * pairs, GError ** error)
{
  cl_int iwant = pf->want;
  cl_mem partials;
  GstClLaunch l;

  strips_shape (work, src, &l);
  *n_units = l.global[0] * l.global[1];
  if (!strips_target (count, *n_units, pf, &partials, error))
    return FALSE;
  /* pair tables only where a work-item counts more pixels than its table
   * has counters: its fold reads and zeroes all of them */
  *pairs = src->step == 1 && *n_units <= MAX_PAIR_UNITS &&
      (gsize) src->units * src->height / *n_units >= 2 * PAIR_TABLE_SIZE;
  if (*pairs)
    return count_pairs (count, src, work, &l, *n_units, partials, error);
  return gst_cl_set_args (count->k_strips, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
      GST_CL_ARG (src->height), GST_CL_ARG (src->step),
      GST_CL_ARG (count->r_off), GST_CL_ARG (count->g_off),
      GST_CL_ARG (count->b_off), GST_CL_ARG (iwant), GST_CL_ARG (l.chunk),
      GST_CL_ARG (l.rows), GST_CL_ARG (partials),
      GST_CL_ARG (*n_units), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, count->k_strips, &l, error);
}

/* A 2D range of work-groups: dimension 0 across a row (16 bytes, four
 * one-byte pixels or one pixel per work-item), dimension 1 striding over
 * the rows (one group per compute unit on the 16-byte paths, each walking
 * many rows; else TILE_GROUPS_PER_CU). */
static void
tiles_shape (GstClFrameWork * work, const GstClPlane * src,
    gboolean sixteen, GstClLaunch * l)
{
  GstClDevice *device = work->device;
  gboolean quads = !src->is_image && src->step == 1;
  gsize items, group, groups_x, groups_y;
  gsize per_cu = sixteen ? VEC_GROUPS_PER_CU : TILE_GROUPS_PER_CU;

  items = sixteen && src->step == 1 ? (src->width + 15) / 16 :
      sixteen || quads ? (src->width + 3) / 4 : src->width;
  gst_cl_frame_work_launch_shape (work, src, FALSE, l);
  if (l->group_auto)
    l->local[0] = MAX (1, MIN (sixteen ? VEC_GROUP : TILE_GROUP,
            device->max_work_group_size));
  group = l->local[0];
  groups_x = CLAMP ((items + group - 1) / group, 1, TILE_MAX_GROUPS_X);
  groups_y = CLAMP (per_cu * device->compute_units / groups_x,
      1, (gsize) src->height);
  l->global[0] = groups_x * group;
  l->global[1] = groups_y;
  l->local[1] = 1;
}

/* GPUs and images: each group adds its counts into the totals (hundreds of
 * groups on GPUs: no partials to write, read or add up), from local tables
 * in the copies that tiles_build_init() chose. */
static gboolean
count_tiles (GstClHistogramCount * count, const GstClPlane * src,
    guint want, GstClFrameWork * work, GError ** error)
{
  cl_int iwant = want, copies, sixteen;
  gsize local_bytes;
  TilesBuild b;
  GstClLaunch l;
  cl_kernel k;

  tiles_build_init (count, src, want, &b);
  sixteen = b.sixteen;
  k = src->is_image ? count->k_image : tiles_kernel (count, &b, FALSE);
  tiles_shape (work, src, sixteen, &l);
  copies = b.copies;
  local_bytes = (gsize) copies * N_SLOTS * 256 * sizeof (guint32);
  if (!gst_cl_buffer_zero (work->queue, count->totals,
          N_SLOTS * 256 * sizeof (guint32), "clEnqueueFillBuffer (totals)",
          error))
    return FALSE;
  if (src->is_image) {
    cl_int layout = src->step == 3 ? 3 : count->has_rgb ? 4 : 0;
    if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->width), GST_CL_ARG (src->height),
            GST_CL_ARG (layout), GST_CL_ARG (count->r_off),
            GST_CL_ARG (count->g_off), GST_CL_ARG (count->b_off),
            GST_CL_ARG (iwant), GST_CL_ARG (count->totals),
            GST_CL_ARG_LOCAL (local_bytes), GST_CL_ARG (copies),
            GST_CL_ARGS_END))
      return FALSE;
  } else if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (count->r_off), GST_CL_ARG (count->g_off),
          GST_CL_ARG (count->b_off), GST_CL_ARG (iwant),
          GST_CL_ARG (count->totals), GST_CL_ARG_LOCAL (local_bytes),
          GST_CL_ARG (copies), GST_CL_ARG (sixteen), GST_CL_ARGS_END)) {
    return FALSE;
  }
  return gst_cl_frame_work_enqueue (work, k, &l, error);
}

/* hundreds of partials (GPUs): added on the device into one partial per
 * slot, in the totals, which is what the host then reads */
static gboolean
reduce_partials (GstClHistogramCount * count, GstClFrameWork * work,
    cl_int n_units, cl_int iwant, GError ** error)
{
  GstClLaunch r = { {N_SLOTS * 256, 1}, {64, 1}, 1, 1, FALSE };

  return gst_cl_set_args (count->k_reduce, error,
      GST_CL_ARG (count->partials), GST_CL_ARG (n_units), GST_CL_ARG (iwant),
      GST_CL_ARG (count->totals), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, count->k_reduce, &r, error);
}

/* Reads back the @n_units partials of each counted slot from @partials,
 * without waiting: the next frames are counted meanwhile (the queue is in
 * order, so they overwrite the partials only after the reads). */
static gboolean
read_bytes (cl_command_queue queue, cl_mem partials, cl_int n_units,
    GstClHistogramCounts * pf, GError ** error)
{
  gsize bytes = (gsize) n_units * 256 * sizeof (guint32);
  guint slot, v;
  cl_int st;

  pf->depth = 8;
  pf->n_units = n_units;
  pf->host = g_malloc ((gsize) N_SLOTS * n_units * 256 * sizeof (guint32));
  for (slot = 0, v = 0; slot < N_SLOTS; slot++) {
    cl_event ev = NULL;
    if (!(pf->want & (1u << slot)))
      continue;
    st = clEnqueueReadBuffer (queue, partials, CL_FALSE,
        (gsize) slot * n_units * 256 * sizeof (guint32), bytes,
        pf->host + (gsize) v++ * n_units * 256, 0, NULL, &ev);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueReadBuffer (histograms)");
    if (pf->read)
      clReleaseEvent (pf->read);
    pf->read = ev;
  }
  return TRUE;
}

/* 8-bit formats: 256 levels per slot, as n_units partial tables or totals */
static gboolean
count_bytes (GstClHistogramCount * count, const GstClPlane * src,
    GstClHistogramCounts * pf, GstClFrameWork * work, GError ** error)
{
  gboolean pairs = FALSE;
  cl_int n_units;
  cl_mem partials;

  if (!src->is_image && gst_cl_frame_work_uses_strips (work)) {
    if (!count_strips (count, src, pf, work, &n_units, &pairs, error))
      return FALSE;
    if (pf->sparse) {
      /* written in place: the counts are there once the kernel is done */
      pf->depth = 8;
      pf->n_units = n_units;
      pf->read = work->last;
      clRetainEvent (pf->read);
      if (pairs)
        count->tables_dirty = FALSE;
      return TRUE;
    }
    partials = count->partials;
  } else {
    if (!count_tiles (count, src, pf->want, work, error))
      return FALSE;
    partials = count->totals;
    n_units = 1;
  }
  if (n_units > MAX_HOST_UNITS) {
    if (!reduce_partials (count, work, n_units, pf->want, error))
      return FALSE;
    partials = count->totals;
    n_units = 1;
  }
  if (!read_bytes (work->queue, partials, n_units, pf, error))
    return FALSE;
  /* the frame ends with the read; the base class submits the queue */
  gst_cl_frame_work_follow (work, pf->read);
  if (pairs)
    count->tables_dirty = FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */

/**
 * gst_cl_histogram_count_frame:
 * @work: the frame's work: its queue, device and decomposition
 * @src: the plane to count (the first: luma, or packed RGB)
 * @counts: the slots to count in @counts->want (not 0); receives the
 *   counts
 *
 * Enqueues the counting of @src and the read of its counts into
 * @counts->host, without waiting: they are there once @counts->read
 * completes. Whatever @counts holds on failure goes with
 * gst_cl_histogram_counts_clear().
 *
 * Returns: FALSE with @error set if a command could not be enqueued
 */
gboolean
gst_cl_histogram_count_frame (GstClHistogramCount * count,
    GstClFrameWork * work, const GstClPlane * src,
    GstClHistogramCounts * counts, GError ** error)
{
  if (GST_CL_PLANE_IS_WIDE (src)) {
    const gint offsets[3] = { count->r_off, count->g_off, count->b_off };
    counts->depth = src->depth;
    counts->n_units = 1;
    return gst_cl_histogram_deep_count (count->deep, work, src, offsets,
        count->has_rgb, counts->want, &counts->host, &counts->read, error);
  }
  return count_bytes (count, src, counts, work, error);
}

/**
 * gst_cl_histogram_counts_add:
 * @counts: counts whose read completed
 * @sums: GST_CL_HISTOGRAM_SLOTS << @counts->depth sums: slot s, level v at
 *   (s << depth) + v
 * @first: set the sums of the counted slots instead of adding to them
 *
 * Adds up the partial tables of each slot counted into @sums.
 */
void
gst_cl_histogram_counts_add (const GstClHistogramCounts * counts,
    guint64 * sums, gboolean first)
{
  const guint32 *p = counts->host;
  const guint levels = 1u << counts->depth;
  guint slot, unit, v;

  for (slot = 0; slot < N_SLOTS; slot++) {
    guint64 *c = sums + ((gsize) slot << counts->depth);
    if (!(counts->want & (1u << slot)))
      continue;
    if (counts->sparse)
      p = counts->host + (gsize) slot * counts->n_units * levels;
    unit = 0;
    if (first) {
      for (v = 0; v < levels; v++)
        c[v] = p[v];
      unit = 1;
      p += levels;
    }
    for (; unit < (guint) counts->n_units; unit++, p += levels)
      for (v = 0; v < levels; v++)
        c[v] += p[v];
  }
}

/**
 * gst_cl_histogram_counts_clear:
 *
 * Waits for the read into @counts->host if one is under way, then frees
 * what @counts holds.
 */
void
gst_cl_histogram_counts_clear (GstClHistogramCounts * counts)
{
  if (counts->read) {
    /* the read writes into counts->host until it completes */
    gst_cl_event_wait (counts->read, NULL);
    clReleaseEvent (counts->read);
    counts->read = NULL;
  }
  if (counts->slot_busy) {
    /* the ring's: free for another frame */
    g_atomic_int_set (counts->slot_busy, 0);
    counts->slot_busy = NULL;
    counts->host = NULL;
  }
  g_clear_pointer (&counts->host, g_free);
}
