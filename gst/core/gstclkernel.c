/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclkernel.c: kernels and their launches.
 *
 * One geometry serves every kernel (kernels/common.cl): work-item (gx, gy)
 * covers `chunk` units of `rows` rows. Local sizes are fixed and global
 * sizes rounded up to them, so that a new resolution never makes the
 * driver compile a new variant. */
#include "gstclkernel.h"

/* automatic work decomposition */
#define STRIP_MAX_ROWS 16       /* rows per work-item in strips */
#define TILE_GROUP_SIZE 64      /* work-group size of tiles */
/* kernels of 8-byte words (gst_cl_launch_words8): the best of a sweep of
 * rows 1-32 and groups of 32-256 on a GPU, 4K and 8K GRAY8 and RGBA
 * (bench/probes/words8.c, bench/results/performance-history.md) */
#define WORDS8_ROWS 4
#define WORDS8_GROUP 128
/* gst_cl_launch_words16's defaults: the best shape of bench/probes/wide3.c
 * on a GPU (4 rows a work-item, groups of 256) */
#define WORDS16_ROWS 4
#define WORDS16_GROUP 256

GType
gst_cl_kernel_shape_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_KERNEL_SHAPE_AUTO, "Strips on CPU devices, tiles elsewhere",
        "auto"},
    {GST_CL_KERNEL_SHAPE_STRIPS, "Each work-item filters whole rows "
          "(CPU shape)", "strips"},
    {GST_CL_KERNEL_SHAPE_TILES, "Each work-item filters a few bytes of a row "
          "in large work-groups (GPU shape)", "tiles"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClKernelShape", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/**
 * gst_cl_kernel_new:
 *
 * Returns: the kernel @name of @program, or NULL with @error set
 */
cl_kernel
gst_cl_kernel_new (cl_program program, const gchar * name, GError ** error)
{
  cl_int st;
  cl_kernel k = clCreateKernel (program, name, &st);
  if (st != CL_SUCCESS) {
    gchar *what = g_strdup_printf ("clCreateKernel (%s)", name);
    gst_cl_fail (error, st, what);
    g_free (what);
    return NULL;
  }
  return k;
}

/**
 * gst_cl_tuning_uses_strips:
 *
 * Whether kernels take the CPU shape (strips of rows) rather than the GPU
 * shape (tiles): `kernel-shape`, or by default the device type.
 */
gboolean
gst_cl_tuning_uses_strips (const GstClDecomposition * tuning, GstClDevice * device)
{
  switch (tuning->shape) {
    case GST_CL_KERNEL_SHAPE_STRIPS:
      return TRUE;
    case GST_CL_KERNEL_SHAPE_TILES:
      return FALSE;
    default:
      return gst_cl_device_is_cpu (device);
  }
}

/* @launch over @plane: @chunk units and @rows rows a work-item, groups of
 * @group along the rows (at most the device's), the automatic flags from
 * @t */
static void
launch_fill (const GstClDecomposition * t, GstClDevice * device,
    const GstClPlane * plane, gsize chunk, gsize rows, gsize group,
    GstClLaunch * launch)
{
  const gsize n = (plane->units + chunk - 1) / chunk;

  group = MAX (1, MIN (group, device->max_work_group_size));
  launch->global[0] = (n + group - 1) / group * group;
  launch->global[1] = (plane->height + rows - 1) / rows;
  launch->local[0] = group;
  launch->local[1] = 1;
  launch->chunk = chunk;
  launch->rows = rows;
  launch->rows_auto = t->rows_per_item == 0;
  launch->group_auto = t->work_group_size == 0;
}

/**
 * gst_cl_launch_shape:
 * @vectors: the kernel works on 16-byte vectors: chunks are multiples of 16
 *
 * The work decomposition of a kernel over @plane, from @tuning (0 =
 * automatic).
 */
void
gst_cl_launch_shape (const GstClDecomposition * t, GstClDevice * device,
    const GstClPlane * plane, gboolean vectors, GstClLaunch * launch)
{
  gsize chunk, rows, group;

  if (gst_cl_tuning_uses_strips (t, device)) {
    chunk = t->pixels_per_item ? t->pixels_per_item * (gsize) plane->step :
        (gsize) plane->units;
    rows = t->rows_per_item ? t->rows_per_item :
        (gsize) CLAMP (plane->height / 32, 1, STRIP_MAX_ROWS);
    group = t->work_group_size ? t->work_group_size : 1;
  } else {
    chunk = t->pixels_per_item ? t->pixels_per_item * (gsize) plane->step :
        (vectors ? 16 : 1);
    /* 4 rows per item for texel kernels: measured faster than 1 and 2 on a
     * GPU (bench/results/tuning-history.md, "Images on the GPU") */
    rows = t->rows_per_item ? t->rows_per_item : (vectors ? 2 : 4);
    group = t->work_group_size ? t->work_group_size : TILE_GROUP_SIZE;
  }
  if (vectors)
    chunk = GST_ROUND_UP_16 (chunk);
  launch_fill (t, device, plane, MAX (chunk, 1), rows, group, launch);
}

/**
 * gst_cl_mem_is_aligned:
 * @align: a power of two, at most 128
 *
 * Whether @mem's first byte is @align-byte aligned: device memory always is
 * (CL_DEVICE_MEM_BASE_ADDR_ALIGN), a zero-copy frame wrapping GStreamer's
 * memory (CL_MEM_USE_HOST_PTR) is where that memory is.
 */
gboolean
gst_cl_mem_is_aligned (cl_mem mem, gsize align)
{
  void *host = NULL;
  if (clGetMemObjectInfo (mem, CL_MEM_HOST_PTR, sizeof (host), &host, NULL)
      != CL_SUCCESS)
    return FALSE;
  return ((guintptr) host & (align - 1)) == 0;
}

/* gst_cl_launch_words8 and gst_cl_launch_words16: words of @bytes bytes,
 * of @sample_bytes samples */
static gboolean
launch_words (const GstClDecomposition * t, GstClDevice * device,
    const GstClPlane * src, const GstClPlane * dst, gint bytes,
    gint sample_bytes, gsize default_rows, gsize default_group,
    GstClLaunch * launch)
{
  const gint per_word = bytes / sample_bytes;

  if (gst_cl_tuning_uses_strips (t, device) || t->pixels_per_item ||
      src->is_image || dst->is_image || src->sample_bytes != sample_bytes ||
      src->units < per_word || src->units % per_word || src->stride % bytes
      || dst->stride % bytes || !gst_cl_mem_is_aligned (src->mem, bytes)
      || !gst_cl_mem_is_aligned (dst->mem, bytes))
    return FALSE;
  launch_fill (t, device, src, per_word,
      t->rows_per_item ? t->rows_per_item : default_rows,
      t->work_group_size ? t->work_group_size : default_group, launch);
  return TRUE;
}

/**
 * gst_cl_launch_words8:
 *
 * The GPU kernels that take one 8-byte word of a row per work-item and
 * walk down `rows` rows (gst_cl_load_aligned8 in kernels/common.cl): whether
 * they fit @src and @dst (the tiles shape, no pixels-per-item set, 8-bit
 * buffer planes whose row length and strides are multiples of 8, starting
 * at 8-byte aligned addresses), and then their decomposition: work-item
 * (gx, gy) covers the bytes [8 gx, 8 gx + 8) of the rows
 * [gy * rows, gy * rows + rows).
 *
 * Returns: FALSE where the general kernels must run instead
 */
gboolean
gst_cl_launch_words8 (const GstClDecomposition * t, GstClDevice * device,
    const GstClPlane * src, const GstClPlane * dst, GstClLaunch * launch)
{
  return launch_words (t, device, src, dst, 8, 1, WORDS8_ROWS, WORDS8_GROUP,
      launch);
}

/**
 * gst_cl_launch_words16:
 *
 * gst_cl_launch_words8 for planes of 16-bit samples and 16-byte words:
 * work-item (gx, gy) covers the 8 samples [8 gx, 8 gx + 8) of the rows
 * [gy * rows, gy * rows + rows); rows of whole words, starting at 16-byte
 * aligned addresses.
 *
 * Returns: FALSE where the general kernels must run instead
 */
gboolean
gst_cl_launch_words16 (const GstClDecomposition * t, GstClDevice * device,
    const GstClPlane * src, const GstClPlane * dst, GstClLaunch * launch)
{
  return launch_words (t, device, src, dst, 16, 2, WORDS16_ROWS,
      WORDS16_GROUP, launch);
}

/**
 * gst_cl_launch_enqueue:
 * @wait: (array length=n_wait): events the launch waits for
 * @event: (out) (optional): the launch's event
 *
 * Enqueues @kernel over @launch on @queue, without waiting.
 */
gboolean
gst_cl_launch_enqueue (cl_command_queue queue, cl_kernel kernel,
    const GstClLaunch * launch, guint n_wait, const cl_event * wait,
    cl_event * event, GError ** error)
{
  cl_int st = clEnqueueNDRangeKernel (queue, kernel, 2, NULL, launch->global,
      launch->local, n_wait, n_wait ? wait : NULL, event);

  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueNDRangeKernel");
  return TRUE;
}
