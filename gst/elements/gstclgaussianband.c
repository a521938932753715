/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclgaussianband.c: clgaussian's band kernels on GPUs
 * (kernels/gaussian_band.cl for 8-bit planes, gaussian_band_wide.cl for
 * one-sample planes of 16-bit samples): a program built for each blur,
 * pixel format and work-group size, so that its taps are immediates, the
 * alpha byte costs nothing and local memory is addressed by immediate
 * offsets (docs/design.md, "Kernels"). A build for caps or for the
 * tuner's frames happens at once; one for a blur changed while playing happens in a
 * thread of its own, the element's other kernels filtering meanwhile, so
 * that the stream never waits for a compiler. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclgaussianband.h"
#include "gstclkernels.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_gaussian_band_debug);
#define GST_CAT_DEFAULT gst_cl_gaussian_band_debug

/* the work-items (4 bytes each) across a band by default, the best of a
 * sweep on a GPU (bench/probes/band.c); the tuner may pick others
 * (docs/tuning.md) */
#define BAND_GROUP 128
/* the same, of two 16-bit samples each, and the rows of a block and of a
 * band, for gaussian_band_wide: the fastest of sweeps on an H200 (4K
 * P010_10LE, radius 7: two and four samples a work-item, blocks of 2 to 8
 * rows, 64 to 256 work-items, bands of 16 to 64 rows; docs/performance.md) */
#define WIDE_GROUP 128
#define WIDE_BLOCK_ROWS 4
#define WIDE_ROWS 16

/* What a build of gaussian_band is for: each field is a constant of the
 * program (its -D options, band_defines) */
typedef struct
{
  gboolean wide;                /* gaussian_band_wide: 16-bit samples */
  guint radius, step;
  gint alpha;                   /* the byte copied unchanged; -1: none */
  guint16 weights[GST_CL_GAUSSIAN_BAND_MAX_RADIUS + 1];
  gfloat weights_f[GST_CL_GAUSSIAN_BAND_MAX_RADIUS + 1];   /* wide */
  guint group;
  GstClDotProducts dot;         /* GST_CL_DOT_NONE: multiply-adds */
} BandBuild;

/**
 * GstClGaussianBand:
 *
 * The band kernel of one clgaussian: the build in use and at most one
 * build in the background. Used from the streaming thread (and the
 * element's configure and cleanup); only the fields under @lock are shared
 * with the build thread.
 */
struct _GstClGaussianBand
{
  GstElement *owner;            /* not a reference: the owner holds us */

  /* the kernel of `build` (NULL if that build failed: the tile runs
   * instead; build.radius 0: none built) */
  cl_kernel kernel;
  BandBuild build;
  gsize max_group;              /* CL_KERNEL_WORK_GROUP_SIZE of kernel */

  /* the build of `next` in `thread` (set before it starts, with a
   * reference to `next_device`); next_kernel, next_error and next_done
   * are its result, under `lock` */
  GThread *thread;
  BandBuild next;
  GstClDevice *next_device;
  GMutex lock;
  cl_kernel next_kernel;
  gchar *next_error;
  gboolean next_done;
};

/* The rows of a block of gaussian_band (BAND_ROWS of the kernel): 16 for
 * 4-byte pixels (12 in dot products), 8 otherwise, the fastest of a sweep
 * on a GPU (bench/probes/band.c); a band walks one block unless the tuner
 * picks more rows (docs/tuning.md). */
static guint
band_block_rows (guint step, gboolean dot)
{
  return step == 4 ? (dot ? 12 : 16) : 8;
}

/* The words at each end of a band of gaussian_band that only feed their
 * neighbours (HALO_ITEMS of kernels/gaussian_band.cl): the radius' bytes in
 * whole words, and for 4-byte pixels in whole blocks of 4 pixels;
 * gaussian_band_wide's work-items of 2 samples (HALO_ITEMS there). */
static gsize
band_halo_items (guint radius, guint step, gboolean wide)
{
  if (wide)
    return (radius + 1) / 2;
  if (step == 4)
    return GST_ROUND_UP_4 (radius);
  return ((gsize) radius * step + 3) / 4;
}

/* The work-items across a band of gaussian_band for @requested (0: the
 * default): at least 8 words of the band write besides the halo_items each
 * side that only feed their neighbours; for 4-byte pixels a multiple of 4
 * (the horizontal pass takes blocks of 4 work-items' sums) */
static gsize
band_group (gsize requested, guint radius, guint step, gboolean wide)
{
  gsize group = requested ? requested : wide ? WIDE_GROUP : BAND_GROUP;

  group = MAX (group, 2 * band_halo_items (radius, step, wide) + 8);
  return step == 4 ? GST_ROUND_UP_4 (group) : group;
}

/* @b: the build of the band kernel for a blur of @radius with Q8
 * @weights (centre first) on pixels of @step bytes whose byte @alpha (-1:
 * none) is copied, in work-groups of @group, on @device: in dot products
 * where it has them, for 1- and 4-byte pixels and weights that fit a byte
 * (all but the narrowest blurs; docs/performance.md). @wide: of
 * gaussian_band_wide, for one-sample planes of 16-bit samples, with the
 * float @weights_f instead. */
static void
band_build_init (BandBuild * b, GstClDevice * device, guint radius,
    guint step, gint alpha, const guint16 * weights, const gfloat * weights_f,
    gboolean wide, gsize group)
{
  guint i;

  memset (b, 0, sizeof (*b));
  b->wide = wide;
  b->radius = radius;
  b->group = group;
  if (wide) {
    b->step = 1;
    b->alpha = -1;
    memcpy (b->weights_f, weights_f, (radius + 1) * sizeof (gfloat));
    return;
  }
  b->step = step;
  b->alpha = alpha;
  memcpy (b->weights, weights, (radius + 1) * sizeof (guint16));
  b->dot = step == 1 || step == 4 ? device->dot_products : GST_CL_DOT_NONE;
  for (i = 0; i <= radius; i++)
    if (weights[i] > 255)
      b->dot = GST_CL_DOT_NONE;
}

/* whether @a and @b are the same build (field by field: a struct's
 * padding need not be copied by an assignment) */
static gboolean
band_build_equal (const BandBuild * a, const BandBuild * b)
{
  return a->wide == b->wide && a->radius == b->radius && a->step == b->step
      && a->alpha == b->alpha && a->group == b->group && a->dot == b->dot
      && memcmp (a->weights, b->weights, sizeof (a->weights)) == 0
      && memcmp (a->weights_f, b->weights_f, sizeof (a->weights_f)) == 0;
}

/* the build options of @b (kernels/gaussian_band.cl, or
 * gaussian_band_wide.cl: the float weights as hexadecimal literals, which
 * are exact) */
static gchar *
band_defines (const BandBuild * b)
{
  GString *defines = g_string_new (NULL);
  guint i;

  if (b->wide) {
    g_string_printf (defines, "-DGST_CL_RADIUS=%u -DGST_CL_GROUP=%u "
        "-DGST_CL_BLOCK=%u -DGST_CL_FWEIGHTS=", b->radius, b->group,
        WIDE_BLOCK_ROWS);
    for (i = 0; i <= b->radius; i++)
      g_string_append_printf (defines, "%s%af", i ? "," : "",
          (gdouble) b->weights_f[i]);
    return g_string_free (defines, FALSE);
  }
  g_string_printf (defines, "-DGST_CL_RADIUS=%u -DGST_CL_STEP=%u "
      "-DGST_CL_ALPHA=%d -DGST_CL_GROUP=%u -DGST_CL_WEIGHTS=%u", b->radius,
      b->step, b->alpha, b->group, b->weights[0]);
  for (i = 1; i <= b->radius; i++)
    g_string_append_printf (defines, ",%u", b->weights[i]);
  if (b->dot != GST_CL_DOT_NONE)
    g_string_append_printf (defines, " -DGST_CL_DOT=%d", b->dot);
  return g_string_free (defines, FALSE);
}

/* the program of @b, and its kernel's name */
static const gchar *
band_program (const BandBuild * b)
{
  return b->wide ? "gaussian_band_wide" : "gaussian_band";
}

static cl_kernel
build_band_kernel (GstClDevice * device, const BandBuild * b, GError ** error)
{
  gchar *defines = band_defines (b);
  const gchar *name = band_program (b);
  cl_program program;
  cl_kernel k = NULL;

  program = gst_cl_device_get_program_with_defines (device, name,
      b->wide ? gst_cl_source_gaussian_band_wide :
      gst_cl_source_gaussian_band, defines, error);
  g_free (defines);
  if (program) {
    k = gst_cl_kernel_new (program, name, error);
    clReleaseProgram (program);
  }
  return k;
}

static gpointer
band_thread_func (gpointer data)
{
  GstClGaussianBand *band = data;
  GError *err = NULL;
  cl_kernel k = build_band_kernel (band->next_device, &band->next, &err);

  g_mutex_lock (&band->lock);
  band->next_kernel = k;
  band->next_error = err ? g_strdup (err->message) : NULL;
  band->next_done = TRUE;
  g_mutex_unlock (&band->lock);
  g_clear_error (&err);
  return NULL;
}

/* @k (NULL: its build on @device failed, for @why) becomes the kernel of
 * @b */
static void
install_band_kernel (GstClGaussianBand * band, GstClDevice * device,
    cl_kernel k, const BandBuild * b, const gchar * why)
{
  if (band->kernel)
    clReleaseKernel (band->kernel);
  band->kernel = k;
  band->build = *b;
  if (k && clGetKernelWorkGroupInfo (k, device->device_id,
          CL_KERNEL_WORK_GROUP_SIZE, sizeof (band->max_group),
          &band->max_group, NULL) != CL_SUCCESS)
    band->max_group = 64;
  if (!k)
    GST_ELEMENT_WARNING (band->owner, LIBRARY, INIT, ("The faster blur "
            "kernel for radius %u could not be built: using the general "
            "one.", b->radius), ("%s", GST_STR_NULL (why)));
  else
    GST_DEBUG_OBJECT (band->owner, "band kernel for radius %u, %u-byte "
        "pixels, alpha byte %d%s", b->radius, b->step, b->alpha,
        b->wide ? ", 16-bit samples" : "");
}

/* Takes the background build's kernel once it is done (@wait: waits for
 * it). Returns FALSE while a build is still running. */
static gboolean
collect_band_build (GstClGaussianBand * band, gboolean wait)
{
  gboolean done;

  if (!band->thread)
    return TRUE;
  g_mutex_lock (&band->lock);
  done = band->next_done;
  g_mutex_unlock (&band->lock);
  if (!done && !wait)
    return FALSE;
  g_thread_join (band->thread);
  band->thread = NULL;
  install_band_kernel (band, band->next_device, band->next_kernel,
      &band->next, band->next_error);
  gst_clear_object (&band->next_device);
  band->next_kernel = NULL;
  g_clear_pointer (&band->next_error, g_free);
  band->next_done = FALSE;
  return TRUE;
}

/* Starts the build of @b on @device in a thread of its own; FALSE where
 * no thread could be started */
static gboolean
start_band_build (GstClGaussianBand * band, GstClDevice * device,
    const BandBuild * b)
{
  GError *err = NULL;

  band->next = *b;
  band->next_device = gst_object_ref (device);
  band->thread = g_thread_try_new ("clgaussian-build", band_thread_func,
      band, &err);
  if (band->thread) {
    GST_DEBUG_OBJECT (band->owner, "building the band kernel of radius %u "
        "in the background", b->radius);
    return TRUE;
  }
  GST_WARNING_OBJECT (band->owner, "no build thread (%s): building now",
      err->message);
  g_clear_error (&err);
  gst_clear_object (&band->next_device);
  return FALSE;
}

/* The kernel of @b: with @now, or where the device built it before, built
 * here; otherwise in the background: NULL until it is ready, so that the
 * caller runs its general kernel meanwhile (same output). NULL also where
 * the build failed (warned once). */
static cl_kernel
ensure_band_kernel (GstClGaussianBand * band, GstClDevice * device,
    const BandBuild * b, gboolean now)
{
  GError *err = NULL;

  if (!collect_band_build (band, now))
    return NULL;
  if (band_build_equal (&band->build, b))
    return band->kernel;
  /* a build the device made before (the tuner's, or a blur set back)
   * costs nothing */
  if (!now) {
    gchar *defines = band_defines (b);
    now = gst_cl_device_has_program_with_defines (device, band_program (b),
        defines);
    g_free (defines);
  }
  if (!now && start_band_build (band, device, b))
    return NULL;
  install_band_kernel (band, device, build_band_kernel (device, b, &err), b,
      err ? err->message : NULL);
  g_clear_error (&err);
  return band->kernel;
}

/**
 * gst_cl_gaussian_band_new:
 * @owner: the element whose warnings and debug logs name it
 *
 * Returns: (transfer full): a band kernel with no build yet
 */
GstClGaussianBand *
gst_cl_gaussian_band_new (GstElement * owner)
{
  static gsize debug_once = 0;
  GstClGaussianBand *band;

  if (g_once_init_enter (&debug_once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_gaussian_band_debug, "clgaussianband",
        0, "clgaussian's band kernel");
    g_once_init_leave (&debug_once, 1);
  }
  band = g_new0 (GstClGaussianBand, 1);
  band->owner = owner;
  g_mutex_init (&band->lock);
  return band;
}

/**
 * gst_cl_gaussian_band_reset:
 * @band: a band kernel
 *
 * Waits for a build in the background and releases the kernel (the
 * element's cleanup, before its device goes).
 */
void
gst_cl_gaussian_band_reset (GstClGaussianBand * band)
{
  collect_band_build (band, TRUE);
  if (band->kernel)
    clReleaseKernel (band->kernel);
  band->kernel = NULL;
  memset (&band->build, 0, sizeof (band->build));
}

/**
 * gst_cl_gaussian_band_free:
 * @band: (transfer full): a band kernel
 */
void
gst_cl_gaussian_band_free (GstClGaussianBand * band)
{
  gst_cl_gaussian_band_reset (band);
  g_mutex_clear (&band->lock);
  g_free (band);
}

/**
 * gst_cl_gaussian_band_prepare:
 * @band: a band kernel
 * @device: the device
 * @radius: the blur's radius (beyond %GST_CL_GAUSSIAN_BAND_MAX_RADIUS:
 *   nothing to build)
 * @weights: its Q8 weights, centre first
 * @weights_f: its float weights, centre first (planes of 16-bit samples)
 * @plane: the plane the caps give
 * @requested_group: the work-group size frames will ask for (0: default)
 *
 * Builds the kernel that frames of @plane will ask for, now (caps time)
 * rather than while frames wait.
 */
void
gst_cl_gaussian_band_prepare (GstClGaussianBand * band, GstClDevice * device,
    guint radius, const guint16 * weights, const gfloat * weights_f,
    const GstClPlane * plane, gsize requested_group)
{
  const gboolean wide = GST_CL_PLANE_IS_WIDE (plane);
  BandBuild b;

  if (radius > GST_CL_GAUSSIAN_BAND_MAX_RADIUS || (wide && plane->step != 1))
    return;
  band_build_init (&b, device, radius, plane->step, plane->alpha, weights,
      weights_f, wide, band_group (requested_group, radius, plane->step,
          wide));
  ensure_band_kernel (band, device, &b, TRUE);
}

/* whether gaussian_band can filter @src into @dst with @l: radius up to
 * the maximum, a work-item a unit, rows of whole words on word-aligned
 * memory, and planes under 2 GiB (the kernel's byte offsets are 32-bit);
 * gaussian_band_wide: one-sample pixels */
static gboolean
band_applies (const GstClPlane * src, const GstClPlane * dst,
    const GstClLaunch * l, guint radius, gboolean wide)
{
  return radius <= GST_CL_GAUSSIAN_BAND_MAX_RADIUS && l->chunk == 1
      && src->stride % 4 == 0 && dst->stride % 4 == 0
      && (!wide || src->step == 1)
      && (src->alpha < 0 || 4 % src->step == 0)
      && (guint64) src->stride * src->height <= G_MAXINT32
      && (guint64) dst->stride * src->height <= G_MAXINT32
      && gst_cl_mem_is_aligned (src->mem, 4)
      && gst_cl_mem_is_aligned (dst->mem, 4);
}

/**
 * gst_cl_gaussian_band_launch:
 * @band: a band kernel
 * @work: the frame's work
 * @src: the source plane (a buffer)
 * @dst: the destination plane
 * @l: the GPU shape, as gst_cl_frame_work_launch_shape() gave it
 * @radius: the blur's radius
 * @weights: its Q8 weights, centre first
 * @weights_f: its float weights, centre first (planes of 16-bit samples)
 * @weights_mem: the Q8 weights on the device
 * @done: (out): whether the band kernel was enqueued
 * @error: a #GError
 *
 * Enqueues gaussian_band over @src into @dst where it applies and its
 * kernel is ready: built now for the tuner's frames (it times the kernel
 * it asks for), else in the background while the caller's tile filters.
 *
 * Returns: FALSE on an OpenCL error; with @done FALSE and no error, the
 * caller runs its other kernels instead.
 */
gboolean
gst_cl_gaussian_band_launch (GstClGaussianBand * band, GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, const GstClLaunch * l,
    guint radius, const guint16 * weights, const gfloat * weights_f,
    cl_mem weights_mem, gboolean * done, GError ** error)
{
  GstClDevice *device = work->device;
  const gboolean wide = GST_CL_PLANE_IS_WIDE (src);
  /* the units (bytes, or 16-bit samples) a work-item covers */
  const gsize per_item = wide ? 2 : 4;
  guint block_rows;
  gsize group, halo_items, local_bytes;
  cl_int rows;
  cl_kernel k;
  GstClLaunch b = *l;
  BandBuild build;

  *done = FALSE;
  if (!band_applies (src, dst, l, radius, wide))
    return TRUE;
  /* a band: `group` work-items across, halo_items of them each side
   * feeding only their neighbours */
  halo_items = band_halo_items (radius, src->step, wide);
  group = band_group (l->group_auto ? 0 : l->local[0], radius, src->step,
      wide);
  band_build_init (&build, device, radius, src->step, src->alpha, weights,
      weights_f, wide, group);
  /* the block's sums: a float a unit of a work-item and row, or a 16-bit
   * value */
  block_rows = wide ? WIDE_BLOCK_ROWS : band_block_rows (src->step,
      build.dot != GST_CL_DOT_NONE);
  local_bytes = group * block_rows * per_item *
      (build.dot != GST_CL_DOT_NONE ?
      sizeof (guint16) : sizeof (gfloat));
  if (group > device->max_work_group_size
      || local_bytes > device->local_mem_size)
    return TRUE;
  if (!(k = ensure_band_kernel (band, device, &build, work->tuning))
      || group > band->max_group)
    return TRUE;
  rows = !l->rows_auto ? l->rows : wide ? WIDE_ROWS : (cl_int) block_rows;
  b.local[0] = group;
  b.local[1] = 1;
  b.global[0] = (src->units + (group - 2 * halo_items) * per_item - 1) /
      ((group - 2 * halo_items) * per_item) * group;
  b.global[1] = (src->height + rows - 1) / rows;
  *done = TRUE;
  if (wide) {
    const cl_int shift = src->shift;
    const cl_uint wmask = ((1u << src->depth) - 1) << src->shift;
    return gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
        GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
        GST_CL_ARG (src->height), GST_CL_ARG (rows), GST_CL_ARG (shift),
        GST_CL_ARG (wmask), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, k, &b, error);
  }
  return gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
      GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
      GST_CL_ARG (src->height), GST_CL_ARG (src->alpha), GST_CL_ARG (rows),
      GST_CL_ARG (weights_mem), GST_CL_ARG_LOCAL (local_bytes),
      GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, k, &b, error);
}
