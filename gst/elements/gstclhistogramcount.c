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
 * loads in flight): what bench/probes/histogram.c found best on the H100
 * over its pictures: larger groups, fewer copies, and one group per
 * compute unit, each walking many rows (every group's clearing and merge
 * into the totals is overhead; its walk keeps the loads in flight: 4K
 * RGBA luma 97-99 % of the read-only reduction, against 81-82 % at 6
 * groups a compute unit and 66 % at 12) */
#define VEC_GROUP 512
#define VEC_GROUPS_PER_CU 1
#define VEC_COPIES 4
/* formats of more than 8 bits (counts of 2^D levels per slot) */
#define MAX_DEPTH 16
#define DEEP_UNITS_PER_CU 2     /* strips: tables per compute unit */
#define MAX_DEEP_UNITS 64       /* strips: tables at most, whatever the
                                 * tuning (2^16 levels: 256 KiB each) */
#define DEEP_REDUCE_SPAN 64     /* 16-level vectors per reduce work-item */
#define DEEP_LOCAL_BYTES 32768  /* tiles: local tables up to this size (2^10
                                 * and 2^12 levels), else global atomics */

/* histogram_tiles built for one format and launch: its arguments as
 * constants of the build (GST_CL_HIST_* in kernels/histogram.cl), so that
 * the branches on the channels and pixel size and the table addressing
 * fold away (H100, bench/probes/histogram.c: RGBA luma 1.25-1.3x faster,
 * all channels 1.1x, GRAY8 1.05-1.1x). Built at caps time on devices that
 * take the GPU kernels; a frame the build does not match (channels
 * changed while playing, rows not of whole 16-byte vectors) takes the
 * general kernel, which counts the same. */
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
  cl_mem totals;                /* N_SLOTS * 256 sums of the partials */

  /* formats of more than 8 bits */
  cl_kernel k_deep_strips, k_deep_reduce, k_deep_tiles, k_deep_image;
  cl_mem deep_tables;           /* strips: per work-item tables, zero
                                 * between frames */
  gsize deep_tables_size;
  gboolean deep_tables_dirty;   /* a frame failed: zero them again */
  cl_mem deep_totals;           /* counted slots << D counts of a frame */
  gsize deep_totals_size;
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
      || !(count->k_deep_strips = gst_cl_kernel_new (program,
              "histogram_deep_strips", error))
      || !(count->k_deep_reduce = gst_cl_kernel_new (program,
              "histogram_deep_reduce", error))
      || !(count->k_deep_tiles = gst_cl_kernel_new (program,
              "histogram_deep_tiles", error)))
    goto failed;
  if (device->image_support &&
      (!(count->k_image = gst_cl_kernel_new (program, "histogram_image",
                  error))
          || !(count->k_deep_image = gst_cl_kernel_new (program,
                  "histogram_deep_image", error))))
    goto failed;
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
  g_clear_pointer (&count->k_deep_strips, clReleaseKernel);
  g_clear_pointer (&count->k_deep_reduce, clReleaseKernel);
  g_clear_pointer (&count->k_deep_tiles, clReleaseKernel);
  g_clear_pointer (&count->k_deep_image, clReleaseKernel);
  g_clear_pointer (&count->deep_tables, clReleaseMemObject);
  g_clear_pointer (&count->deep_totals, clReleaseMemObject);
  g_clear_pointer (&count->totals, clReleaseMemObject);
  g_clear_pointer (&count->tables, clReleaseMemObject);
  g_clear_pointer (&count->partials, clReleaseMemObject);
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
/* 8-bit formats: 256 levels per slot                                       */

static gboolean
ensure_partials (GstClHistogramCount * count, guint n_units, GError ** error)
{
  GstClDevice *device = count->device;
  gsize size = (gsize) N_SLOTS * n_units * 256 * sizeof (guint32);
  cl_int st;

  if (count->partials && count->partials_size >= size)
    return TRUE;
  if (count->partials)
    clReleaseMemObject (count->partials);
  count->partials = clCreateBuffer (device->context, CL_MEM_READ_WRITE, size,
      NULL, &st);
  if (st != CL_SUCCESS) {
    count->partials = NULL;
    return gst_cl_fail (error, st, "clCreateBuffer (partial histograms)");
  }
  count->partials_size = size;
  return TRUE;
}

/* n_units pair tables of 65536 counters, zero */
static gboolean
ensure_tables (GstClHistogramCount * count, GstClFrameWork * work,
    guint n_units, GError ** error)
{
  GstClDevice *device = work->device;
  gsize size = (gsize) n_units * PAIR_TABLE_SIZE * sizeof (guint32);
  const cl_uint zero = 0;
  cl_int st;

  if (!count->tables || count->tables_size < size) {
    if (count->tables)
      clReleaseMemObject (count->tables);
    count->tables = clCreateBuffer (device->context, CL_MEM_READ_WRITE, size,
        NULL, &st);
    if (st != CL_SUCCESS) {
      count->tables = NULL;
      count->tables_size = 0;
      return gst_cl_fail (error, st, "clCreateBuffer (pair tables)");
    }
    count->tables_size = size;
    count->tables_dirty = TRUE;
  }
  if (count->tables_dirty) {
    st = clEnqueueFillBuffer (work->queue, count->tables, &zero,
        sizeof (zero), 0, count->tables_size, 0, NULL, NULL);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueFillBuffer (pair tables)");
    count->tables_dirty = FALSE;
  }
  return TRUE;
}

/* 8-bit formats: 256 levels per slot, as n_units partial tables or totals */
static gboolean
count_bytes (GstClHistogramCount * count, const GstClPlane * src,
    GstClHistogramCounts * pf, GstClFrameWork * work, GError ** error)
{
  guint want = pf->want;
  GstClDevice *device = work->device;
  cl_command_queue queue = work->queue;
  cl_int iwant = want, n_units, copies, st;
  gboolean totals = FALSE;
  gsize local_bytes;
  cl_mem partials;
  gboolean pairs = FALSE;
  guint slot, v;
  GstClLaunch l;

  if (!src->is_image && gst_cl_frame_work_uses_strips (work)) {
    gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
    /* whole pixels per work-item */
    if (l.chunk % src->step)
      l.chunk += src->step - l.chunk % src->step;
    if (src->step == 1 && l.rows_auto) {
      /* pair tables: a few work-items per compute unit, each folding its
       * table once per frame */
      gsize items = MAX (1, 2 * device->compute_units / l.global[0]);
      l.rows = MAX (1, (src->height + items - 1) / items);
      l.global[1] = (src->height + l.rows - 1) / l.rows;
    }
    n_units = l.global[0] * l.global[1];
    /* pair tables only where a work-item counts more pixels than its
     * table has counters: its fold reads and zeroes all of them */
    if (src->step == 1 && n_units <= MAX_PAIR_UNITS &&
        (gsize) src->units * src->height / n_units >= 2 * PAIR_TABLE_SIZE) {
      pairs = TRUE;
      if (!ensure_partials (count, n_units, error)
          || !ensure_tables (count, work, n_units, error))
        return FALSE;
      /* until the frame is read back: a failed frame may leave counts in
       * the tables */
      count->tables_dirty = TRUE;
      if (!gst_cl_set_args (count->k_pairs, error, GST_CL_ARG (src->mem),
              GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
              GST_CL_ARG (src->height), GST_CL_ARG (l.chunk),
              GST_CL_ARG (l.rows), GST_CL_ARG (count->tables),
              GST_CL_ARG (count->partials), GST_CL_ARG (n_units),
              GST_CL_ARGS_END)
          || !gst_cl_frame_work_enqueue (work, count->k_pairs, &l, error))
        return FALSE;
    } else if (!ensure_partials (count, n_units, error)
        || !gst_cl_set_args (count->k_strips, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
            GST_CL_ARG (src->height), GST_CL_ARG (src->step),
            GST_CL_ARG (count->r_off), GST_CL_ARG (count->g_off),
            GST_CL_ARG (count->b_off), GST_CL_ARG (iwant),
            GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
            GST_CL_ARG (count->partials), GST_CL_ARG (n_units),
            GST_CL_ARGS_END)
        || !gst_cl_frame_work_enqueue (work, count->k_strips, &l, error))
      return FALSE;
  } else {
    /* a 2D range of work-groups: dimension 0 across a row (16 bytes,
     * four one-byte pixels or one pixel per work-item), dimension 1
     * striding over the rows (one group per compute unit on the 16-byte
     * paths, each walking many rows; else TILE_GROUPS_PER_CU); local tables
     * in as many copies as local memory holds, up to TILE_COPIES (VEC_COPIES
     * on the 16-byte paths) */
    gboolean quads = !src->is_image && src->step == 1;
    TilesBuild b;
    cl_int sixteen;
    gsize items, group, groups_x, groups_y;
    cl_kernel k;

    tiles_build_init (count, src, want, &b);
    sixteen = b.sixteen;
    items = sixteen && src->step == 1 ? (src->width + 15) / 16 :
        sixteen || quads ? (src->width + 3) / 4 : src->width;
    k = src->is_image ? count->k_image : tiles_kernel (count, &b, FALSE);

    gsize per_cu = sixteen ? VEC_GROUPS_PER_CU : TILE_GROUPS_PER_CU;

    gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
    if (l.group_auto)
      l.local[0] = MAX (1, MIN (sixteen ? VEC_GROUP : TILE_GROUP,
              device->max_work_group_size));
    group = l.local[0];
    groups_x = CLAMP ((items + group - 1) / group, 1, TILE_MAX_GROUPS_X);
    groups_y = CLAMP (per_cu * device->compute_units / groups_x,
        1, (gsize) src->height);
    copies = b.copies;
    local_bytes = (gsize) copies * N_SLOTS * 256 * sizeof (guint32);
    l.global[0] = groups_x * group;
    l.global[1] = groups_y;
    l.local[1] = 1;
    /* each group adds its counts into the totals (hundreds of groups on
     * GPUs: no partials to write, read or add up) */
    {
      const guint32 zero = 0;
      st = clEnqueueFillBuffer (queue, count->totals, &zero, sizeof (zero), 0,
          N_SLOTS * 256 * sizeof (guint32), 0, NULL, NULL);
      if (st != CL_SUCCESS)
        return gst_cl_fail (error, st, "clEnqueueFillBuffer (totals)");
    }
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
    if (!gst_cl_frame_work_enqueue (work, k, &l, error))
      return FALSE;
    totals = TRUE;
    n_units = 1;
  }

  partials = totals ? count->totals : count->partials;
  if (n_units > MAX_HOST_UNITS) {
    /* hundreds of partials (GPUs): added on the device into one partial
     * per slot, which is what the host then reads */
    GstClLaunch r = { {N_SLOTS * 256, 1}, {64, 1}, 1, 1, FALSE };
    if (!gst_cl_set_args (count->k_reduce, error, GST_CL_ARG (count->partials),
            GST_CL_ARG (n_units), GST_CL_ARG (iwant),
            GST_CL_ARG (count->totals), GST_CL_ARGS_END)
        || !gst_cl_frame_work_enqueue (work, count->k_reduce, &r, error))
      return FALSE;
    partials = count->totals;
    n_units = 1;
  }

  /* read back the partials of the counted slots, without waiting: the
   * next frames are counted meanwhile (the queue is in order, so they
   * overwrite the partials only after the reads) */
  pf->depth = 8;
  pf->n_units = n_units;
  pf->host = g_malloc ((gsize) N_SLOTS * n_units * 256 * sizeof (guint32));
  for (slot = 0, v = 0; slot < N_SLOTS; slot++) {
    gsize bytes = (gsize) n_units * 256 * sizeof (guint32);
    cl_event ev = NULL;
    if (!(want & (1u << slot)))
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
  /* the base class flushes the queue after the frame's marker */
  if (pairs)
    count->tables_dirty = FALSE;
  return TRUE;
}

/* a device buffer of at least @size bytes in *@mem */
static gboolean
ensure_buffer (GstClHistogramCount * count, cl_mem * mem, gsize * have,
    gsize size, gboolean * fresh, const gchar * what, GError ** error)
{
  GstClDevice *device = count->device;
  cl_int st;

  if (*mem && *have >= size)
    return TRUE;
  g_clear_pointer (mem, clReleaseMemObject);
  *have = 0;
  *mem = clCreateBuffer (device->context, CL_MEM_READ_WRITE, size, NULL, &st);
  if (st != CL_SUCCESS) {
    *mem = NULL;
    return gst_cl_fail (error, st, what);
  }
  *have = size;
  if (fresh)
    *fresh = TRUE;
  return TRUE;
}

static gboolean
zero_buffer (cl_command_queue queue, cl_mem mem, gsize size,
    GError ** error)
{
  const cl_uint zero = 0;
  cl_int st = clEnqueueFillBuffer (queue, mem, &zero, sizeof (zero), 0, size,
      0, NULL, NULL);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueFillBuffer (histograms)");
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Formats of more than 8 bits: 2^D levels per slot                         */

/* CPUs: a few work-items count whole strips into tables of their own (a
 * bounded number, whatever the tuning: 2^16 levels take 256 KiB a table),
 * then histogram_deep_reduce adds them into deep_totals and zeroes them. */
static gboolean
count_deep_strips (GstClHistogramCount * count, const GstClPlane * src,
    cl_int iwant, cl_int n_tables, GstClFrameWork * work, GError ** error)
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

  if (!ensure_buffer (count, &count->deep_tables, &count->deep_tables_size,
          ((gsize) n_units * n_tables * copies << depth) * sizeof (guint32),
          &count->deep_tables_dirty, "clCreateBuffer (histogram tables)",
          error))
    return FALSE;
  if (count->deep_tables_dirty) {
    if (!zero_buffer (work->queue, count->deep_tables,
            count->deep_tables_size, error))
      return FALSE;
    count->deep_tables_dirty = FALSE;
  }
  /* until the reduce has run: a failed frame may leave counts there */
  count->deep_tables_dirty = TRUE;

  l.global[0] = n_units;
  l.global[1] = 1;
  l.local[0] = l.local[1] = 1;
  if (!gst_cl_set_args (count->k_deep_strips, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (count->r_off), GST_CL_ARG (count->g_off),
          GST_CL_ARG (count->b_off), GST_CL_ARG (iwant), GST_CL_ARG (depth),
          GST_CL_ARG (shift), GST_CL_ARG (chunk), GST_CL_ARG (rows),
          GST_CL_ARG (n_cols), GST_CL_ARG (n_rects),
          GST_CL_ARG (count->deep_tables), GST_CL_ARG (n_units),
          GST_CL_ARG (copies), GST_CL_ARGS_END)
      || !gst_cl_frame_work_enqueue (work, count->k_deep_strips, &l, error))
    return FALSE;

  /* a work-item per DEEP_REDUCE_SPAN vectors of 16 levels: a few dozen for
   * 2^16 levels, one for 2^10 */
  vectors = (n_tables << depth) / 16;
  span = DEEP_REDUCE_SPAN;
  r = l;
  r.global[0] = (vectors + span - 1) / span;
  return gst_cl_set_args (count->k_deep_reduce, error,
      GST_CL_ARG (count->deep_tables), GST_CL_ARG (n_units),
      GST_CL_ARG (n_tables), GST_CL_ARG (copies), GST_CL_ARG (depth),
      GST_CL_ARG (span), GST_CL_ARG (count->deep_totals), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, count->k_deep_reduce, &r, error);
}

/* GPUs and images: work-groups add into deep_totals (zeroed first), from
 * local tables where they fit, else with global atomics. */
static gboolean
count_deep_tiles (GstClHistogramCount * count, const GstClPlane * src,
    cl_int iwant, cl_int n_tables, GstClFrameWork * work, GError ** error)
{
  GstClDevice *device = work->device;
  cl_int depth = src->depth, shift = src->shift, copies;
  gsize table_bytes = ((gsize) n_tables << depth) * sizeof (guint32);
  gsize items, group, groups_x, groups_y, budget, local_bytes;
  cl_kernel k = src->is_image ? count->k_deep_image : count->k_deep_tiles;
  GstClLaunch l;

  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  if (l.group_auto)
    l.local[0] = MAX (1, MIN (TILE_GROUP, device->max_work_group_size));
  /* eight one-sample pixels per work-item in buffers, else a pixel */
  items = !src->is_image && src->step == 1 ? (gsize) (src->units + 7) / 8 :
      (gsize) src->width;
  group = l.local[0];
  groups_x = CLAMP ((items + group - 1) / group, 1, TILE_MAX_GROUPS_X);
  groups_y = CLAMP (TILE_GROUPS_PER_CU * device->compute_units / groups_x, 1,
      (gsize) src->height);
  l.global[0] = groups_x * group;
  l.global[1] = groups_y;
  l.local[1] = 1;
  budget = MIN (DEEP_LOCAL_BYTES, device->local_mem_size);
  copies = MIN (TILE_COPIES, budget / table_bytes);
  /* a local argument cannot be empty */
  local_bytes = copies ? copies * table_bytes : sizeof (guint32);

  if (!zero_buffer (work->queue, count->deep_totals, table_bytes, error))
    return FALSE;
  if (src->is_image) {
    cl_int layout = count->has_rgb ? 4 : 0;
    if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->width), GST_CL_ARG (src->height),
            GST_CL_ARG (layout), GST_CL_ARG (count->r_off),
            GST_CL_ARG (count->g_off), GST_CL_ARG (count->b_off),
            GST_CL_ARG (iwant), GST_CL_ARG (depth), GST_CL_ARG (shift),
            GST_CL_ARG (count->deep_totals), GST_CL_ARG_LOCAL (local_bytes),
            GST_CL_ARG (copies), GST_CL_ARGS_END))
      return FALSE;
  } else if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (count->r_off), GST_CL_ARG (count->g_off),
          GST_CL_ARG (count->b_off), GST_CL_ARG (iwant), GST_CL_ARG (depth),
          GST_CL_ARG (shift), GST_CL_ARG (count->deep_totals),
          GST_CL_ARG_LOCAL (local_bytes), GST_CL_ARG (copies),
          GST_CL_ARGS_END)) {
    return FALSE;
  }
  return gst_cl_frame_work_enqueue (work, k, &l, error);
}

/* Formats of more than 8 bits: counts of all 2^D levels of each counted
 * slot, packed (the counted slots only) in deep_totals, read back in one
 * piece: 4 KiB (P010 luma) to 1 MiB (RGBA64 all channels). */
static gboolean
count_deep (GstClHistogramCount * count, const GstClPlane * src,
    GstClHistogramCounts * pf, GstClFrameWork * work, GError ** error)
{
  cl_int iwant = pf->want, n_tables = __builtin_popcount (pf->want);
  gsize bytes = ((gsize) n_tables << src->depth) * sizeof (guint32);
  gboolean ok;
  cl_int st;

  g_return_val_if_fail (src->depth > 8 && src->depth <= MAX_DEPTH, FALSE);
  if (!ensure_buffer (count, &count->deep_totals, &count->deep_totals_size,
          bytes, NULL, "clCreateBuffer (histogram totals)", error))
    return FALSE;
  if (!src->is_image && gst_cl_frame_work_uses_strips (work))
    ok = count_deep_strips (count, src, iwant, n_tables, work, error);
  else
    ok = count_deep_tiles (count, src, iwant, n_tables, work, error);
  if (!ok)
    return FALSE;

  pf->depth = src->depth;
  pf->n_units = 1;
  pf->host = g_malloc (bytes);
  st = clEnqueueReadBuffer (work->queue, count->deep_totals, CL_FALSE, 0,
      bytes, pf->host, 0, NULL, &pf->read);
  if (st != CL_SUCCESS) {
    pf->read = NULL;
    return gst_cl_fail (error, st, "clEnqueueReadBuffer (histograms)");
  }
  /* the base class flushes the queue after the frame's marker; the reduce
   * zeroed the tables */
  count->deep_tables_dirty = FALSE;
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
  if (GST_CL_PLANE_IS_WIDE (src))
    return count_deep (count, src, counts, work, error);
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
  g_clear_pointer (&counts->host, g_free);
}
