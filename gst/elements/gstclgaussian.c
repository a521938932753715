/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/**
 * SECTION:element-clgaussian
 * @title: clgaussian
 * @see_also: cllaplace, clhistogram, cvsmooth, gaussianblur
 *
 * Blurs video with a Gaussian kernel on an OpenCL device (a GPU, or the CPU
 * through POCL). The default is the exact 3x3 binomial
 * [1 2 1] x [1 2 1] / 16, rounded to nearest; `radius` and `sigma` give any
 * Gaussian up to 129x129. The output equals OpenCV's
 * `GaussianBlur (src, (2r+1, 2r+1), sigma, borderType=BORDER_REPLICATE)`
 * on 8-bit data, within one level (bit for bit for the default).
 *
 * Every colour channel of packed RGB formats is blurred; alpha and padding
 * bytes pass through unchanged. In YUV formats the luma plane is blurred and
 * the chroma planes are copied unchanged. Borders replicate the edge pixel.
 *
 * Formats of more than 8 bits per sample (GRAY16_LE, P010_10LE, P016_LE,
 * I420_10LE, I420_12LE, Y444_16LE, RGBA64_LE) are blurred on their sample
 * values (D bits, levels 0 to 2^D - 1; bits of a word outside the value
 * are ignored and written as zero): the default 3x3 exactly, other kernels
 * within one level of OpenCV's double-precision kernel, with float weights
 * and sums.
 *
 * `radius` and `sigma` can be changed (or controlled) while playing: the new
 * kernel applies from the next frame and the stream never waits for a
 * compiler (on GPUs a radius of 2 to 16 gets a kernel built for it, in a
 * thread of its own, while the general kernel filters meanwhile).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! videoconvert ! clgaussian ! videoconvert ! autovideosink
 * ]| Blur with the 3x3 binomial on the default device.
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! decodebin ! videoconvert ! \
 *     clgaussian sigma=4 device=gpu ! videoconvert ! autovideosink
 * ]| A strong blur (radius 12, from sigma) on the first GPU.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclgaussian.h"
#include "gstclgaussianweights.h"
#include "gstclkernels.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_gaussian_debug);
#define GST_CAT_DEFAULT gst_cl_gaussian_debug

enum
{
  PROP_0,
  PROP_RADIUS,
  PROP_SIGMA,
};

#define TILE_GROUP 64           /* work-items (4 bytes each) per group, one-pass tiles */
#define TILE_ROWS 16            /* rows per group, one-pass tiles */
#define TILE16_GROUP 64         /* work-items (4 samples each) per group,
                                 * one-pass tiles of 16-bit samples */
/* gaussian_band (kernels/gaussian_band.cl), GPUs, radius 1 to
 * BAND_MAX_RADIUS: the best of a sweep of groups 64-256, blocks of 4-16
 * rows and bands of 16-64 rows on an H100 at radius 7 (4K and 8K GRAY8 and
 * RGBA; bench/probes/radius.c, bench/probes/band.c) */
#define BAND_MAX_RADIUS 16      /* beyond: the tile (registers, build time) */
#define BAND_GROUP 128          /* work-items (4 bytes each) across a band */

/* The rows of a block of gaussian_band (BAND_ROWS of the kernel): 16 for
 * 4-byte pixels, 8 otherwise (H100, radius 7, bench/probes/band.c: 16 rows
 * took 8K RGBA from 0.205 to 0.193 ms, but 8K GRAY8 from 0.059 to 0.073);
 * in dot products 12 for 4-byte pixels (16 ran 2x slower there).
 * A band walks one block by default (the tuner's choice in 5 of 6 H100
 * cases with blocks of 8 rows). */
static guint
band_block_rows (guint step, gboolean dot)
{
  return step == 4 ? (dot ? 12 : 16) : 8;
}

/* What a build of gaussian_band is for: its radius, pixel size, alpha (or
 * padding) byte (-1: none), Q8 weights and work-group size are constants
 * of the build, so that the taps are immediates, the alpha plane costs
 * nothing and local memory is addressed by immediate offsets (H100, radius
 * 7: 1.05-1.1x for the first three, up to 1.06x for the group) */
typedef struct
{
  guint radius, step;
  gint alpha;
  guint16 weights[BAND_MAX_RADIUS + 1];
  guint group;
  GstClDotProducts dot;         /* GST_CL_DOT_NONE: multiply-adds */
} BandBuild;

#define DEFAULT_RADIUS 0
#define DEFAULT_SIGMA 0.0


struct _GstClGaussian
{
  GstClBaseFilter parent;

  /* properties, under the object lock */
  guint radius;
  gdouble sigma;

  /* streaming thread */
  guint cur_radius_prop;
  gdouble cur_sigma_prop;
  guint radius_in_use;
  guint16 weights[GST_CL_GAUSSIAN_MAX_RADIUS + 1];
  gfloat weights_f[GST_CL_GAUSSIAN_MAX_RADIUS + 1];
  gboolean exact_binomial;      /* the double kernel is [1 2 1] / 4 */
  gboolean weights_valid;
  gboolean wide;                /* the caps have more than 8 bits a sample */

  cl_kernel k3_buffer, k3_words8, k3_words8_any, k_fused, k_tile, k_vpass, k_hpass;
  /* gaussian_band, built for `band` (NULL if that build failed: the tile
   * runs instead; band.radius 0: none built) */
  cl_kernel k_band;
  BandBuild band;
  gsize band_max_group;         /* CL_KERNEL_WORK_GROUP_SIZE of k_band */
  /* the blur changed while playing: band_thread builds the kernel of
   * band_next (set before it starts) while the tile filters;
   * band_next_kernel, band_next_error and band_next_done are its result,
   * under band_lock */
  GThread *band_thread;
  BandBuild band_next;
  GMutex band_lock;
  cl_kernel band_next_kernel;
  gchar *band_next_error;
  gboolean band_next_done;
  cl_kernel k3_image, k_vpass_image, k_hpass_image;
  /* formats of more than 8 bits */
  cl_kernel k3_buffer16, k_fused16, k_tile16, k_vpass16, k_hpass16;
  cl_kernel k_vpass_image16, k_hpass_image16;
  cl_mem weights_mem;           /* __constant ushort[65] */
  cl_mem weights_f_mem;         /* __constant float[65] */
  cl_mem tmp;                   /* intermediate plane of two-pass kernels */
  gsize tmp_size;
};

static gboolean collect_band_build (GstClGaussian * self, gboolean wait);
static void gst_cl_gaussian_finalize (GObject * object);

G_DEFINE_TYPE_WITH_CODE (GstClGaussian, gst_cl_gaussian,
    GST_TYPE_CL_BASE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cl_gaussian_debug, "clgaussian", 0,
        "OpenCL Gaussian blur"));
GST_ELEMENT_REGISTER_DEFINE (clgaussian, "clgaussian", GST_RANK_NONE,
    GST_TYPE_CL_GAUSSIAN);

/* ------------------------------------------------------------------------ */
/* Kernels                                                                  */

static gboolean
gst_cl_gaussian_setup (GstClBaseFilter * base, cl_program program,
    GError ** error)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (base);
  GstClDevice *device = GST_CL_BASE_TRANSFORM (base)->device;
  cl_int st;

  if (!(self->k3_buffer = gst_cl_kernel_new (program, "gaussian3_buffer", error))
      || !(self->k3_words8 = gst_cl_kernel_new (program, "gaussian3_words8",
              error))
      || !(self->k3_words8_any = gst_cl_kernel_new (program,
              "gaussian3_words8_any", error))
      || !(self->k_fused = gst_cl_kernel_new (program, "gaussian_buffer_fused",
              error))
      || !(self->k_tile = gst_cl_kernel_new (program, "gaussian_buffer_tile",
              error))
      || !(self->k_vpass = gst_cl_kernel_new (program, "gaussian_buffer_vpass",
              error))
      || !(self->k_hpass = gst_cl_kernel_new (program, "gaussian_buffer_hpass",
              error)))
    return FALSE;
  if (device->image_support &&
      (!(self->k3_image = gst_cl_kernel_new (program, "gaussian3_image", error))
          || !(self->k_vpass_image = gst_cl_kernel_new (program,
                  "gaussian_image_vpass", error))
          || !(self->k_hpass_image = gst_cl_kernel_new (program,
                  "gaussian_image_hpass", error))))
    return FALSE;
  if (!(self->k3_buffer16 = gst_cl_kernel_new (program, "gaussian3_buffer16",
              error))
      || !(self->k_fused16 = gst_cl_kernel_new (program,
              "gaussian16_buffer_fused", error))
      || !(self->k_tile16 = gst_cl_kernel_new (program,
              "gaussian16_buffer_tile", error))
      || !(self->k_vpass16 = gst_cl_kernel_new (program,
              "gaussian16_buffer_vpass", error))
      || !(self->k_hpass16 = gst_cl_kernel_new (program,
              "gaussian16_buffer_hpass", error)))
    return FALSE;
  if (device->image_support &&
      (!(self->k_vpass_image16 = gst_cl_kernel_new (program,
                  "gaussian16_image_vpass", error))
          || !(self->k_hpass_image16 = gst_cl_kernel_new (program,
                  "gaussian16_image_hpass", error))))
    return FALSE;
  self->weights_mem = clCreateBuffer (device->context, CL_MEM_READ_ONLY,
      sizeof (self->weights), NULL, &st);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clCreateBuffer");
  self->weights_f_mem = clCreateBuffer (device->context, CL_MEM_READ_ONLY,
      sizeof (self->weights_f), NULL, &st);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clCreateBuffer");
  self->weights_valid = FALSE;
  return TRUE;
}

static void
release_kernel (cl_kernel * k)
{
  if (*k)
    clReleaseKernel (*k);
  *k = NULL;
}

static void
release_mem (cl_mem * m)
{
  if (*m)
    clReleaseMemObject (*m);
  *m = NULL;
}

static void
gst_cl_gaussian_cleanup (GstClBaseFilter * base)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (base);

  release_kernel (&self->k3_buffer);
  release_kernel (&self->k3_words8);
  release_kernel (&self->k3_words8_any);
  release_kernel (&self->k_fused);
  release_kernel (&self->k_tile);
  collect_band_build (self, TRUE);
  release_kernel (&self->k_band);
  memset (&self->band, 0, sizeof (self->band));
  release_kernel (&self->k_vpass);
  release_kernel (&self->k_hpass);
  release_kernel (&self->k3_image);
  release_kernel (&self->k_vpass_image);
  release_kernel (&self->k_hpass_image);
  release_kernel (&self->k3_buffer16);
  release_kernel (&self->k_fused16);
  release_kernel (&self->k_tile16);
  release_kernel (&self->k_vpass16);
  release_kernel (&self->k_hpass16);
  release_kernel (&self->k_vpass_image16);
  release_kernel (&self->k_hpass_image16);
  release_mem (&self->weights_mem);
  release_mem (&self->weights_f_mem);
  release_mem (&self->tmp);
  self->tmp_size = 0;
}

/* the build options of @b (kernels/gaussian_band.cl) */
static gchar *
band_defines (const BandBuild * b)
{
  GString *defines = g_string_new (NULL);
  guint i;

  g_string_printf (defines, "-DGST_CL_RADIUS=%u -DGST_CL_STEP=%u "
      "-DGST_CL_ALPHA=%d -DGST_CL_GROUP=%u -DGST_CL_WEIGHTS=%u", b->radius,
      b->step, b->alpha, b->group, b->weights[0]);
  for (i = 1; i <= b->radius; i++)
    g_string_append_printf (defines, ",%u", b->weights[i]);
  if (b->dot != GST_CL_DOT_NONE)
    g_string_append_printf (defines, " -DGST_CL_DOT=%d", b->dot);
  return g_string_free (defines, FALSE);
}

static cl_kernel
build_band_kernel (GstClDevice * device, const BandBuild * b, GError ** error)
{
  gchar *defines = band_defines (b);
  cl_program program;
  cl_kernel k = NULL;

  program = gst_cl_device_get_program_with_defines (device, "gaussian_band",
      gst_cl_source_gaussian_band, defines, error);
  g_free (defines);
  if (program) {
    k = gst_cl_kernel_new (program, "gaussian_band", error);
    clReleaseProgram (program);
  }
  return k;
}

static gpointer
band_thread_func (gpointer data)
{
  GstClGaussian *self = data;
  GError *err = NULL;
  cl_kernel k = build_band_kernel (GST_CL_BASE_TRANSFORM (self)->device,
      &self->band_next, &err);

  g_mutex_lock (&self->band_lock);
  self->band_next_kernel = k;
  self->band_next_error = err ? g_strdup (err->message) : NULL;
  self->band_next_done = TRUE;
  g_mutex_unlock (&self->band_lock);
  g_clear_error (&err);
  return NULL;
}

/* The words at each end of a band of gaussian_band that only feed their
 * neighbours (HALO_ITEMS of kernels/gaussian_band.cl): the radius' bytes in
 * whole words, and for 4-byte pixels in whole blocks of 4 pixels. */
static gsize
band_halo_items (guint radius, guint step)
{
  if (step == 4)
    return GST_ROUND_UP_4 (radius);
  return ((gsize) radius * step + 3) / 4;
}

/* @k (NULL: its build failed, for @why) becomes the band kernel of @b */
static void
install_band_kernel (GstClGaussian * self, cl_kernel k, const BandBuild * b,
    const gchar * why)
{
  GstClDevice *device = GST_CL_BASE_TRANSFORM (self)->device;
  const guint radius = b->radius;

  release_kernel (&self->k_band);
  self->k_band = k;
  self->band = *b;
  if (k && clGetKernelWorkGroupInfo (k, device->device_id,
          CL_KERNEL_WORK_GROUP_SIZE, sizeof (self->band_max_group),
          &self->band_max_group, NULL) != CL_SUCCESS)
    self->band_max_group = 64;
  if (!k)
    GST_ELEMENT_WARNING (self, LIBRARY, INIT, ("The faster blur kernel for "
            "radius %u could not be built: using the general one.", radius),
        ("%s", GST_STR_NULL (why)));
  else
    GST_DEBUG_OBJECT (self, "band kernel for radius %u, %u-byte pixels, "
        "alpha byte %d", radius, b->step, b->alpha);
}

/* Takes the background build's kernel once it is done (@wait: waits for
 * it). Returns FALSE while a build is still running. */
static gboolean
collect_band_build (GstClGaussian * self, gboolean wait)
{
  gboolean done;

  if (!self->band_thread)
    return TRUE;
  g_mutex_lock (&self->band_lock);
  done = self->band_next_done;
  g_mutex_unlock (&self->band_lock);
  if (!done && !wait)
    return FALSE;
  g_thread_join (self->band_thread);
  self->band_thread = NULL;
  install_band_kernel (self, self->band_next_kernel, &self->band_next,
      self->band_next_error);
  self->band_next_kernel = NULL;
  g_clear_pointer (&self->band_next_error, g_free);
  self->band_next_done = FALSE;
  return TRUE;
}

/* The work-items across a band of gaussian_band for @requested (0: the
 * default): at least 8 words of the band write besides the halo_items each
 * side that only feed their neighbours; for 4-byte pixels a multiple of 4
 * (the horizontal pass takes blocks of 4 work-items' sums) */
static gsize
band_group (gsize requested, guint radius, guint step)
{
  gsize group = requested ? requested : BAND_GROUP;

  group = MAX (group, 2 * band_halo_items (radius, step) + 8);
  return step == 4 ? GST_ROUND_UP_4 (group) : group;
}

/* @b: the build of the band kernel for a blur of @radius with Q8
 * @weights (centre first) on pixels of @step bytes whose byte @alpha (-1:
 * none) is copied, in work-groups of @group, on @device: in dot products
 * where it has them, for 1- and 4-byte pixels and weights that fit a byte
 * (all but the narrowest blurs; H100, radius 7: 1.1-1.2x,
 * docs/performance.md) */
static void
band_build_init (BandBuild * b, GstClDevice * device, guint radius,
    guint step, gint alpha, const guint16 * weights, gsize group)
{
  guint i;

  memset (b, 0, sizeof (*b));
  b->radius = radius;
  b->step = step;
  b->alpha = alpha;
  memcpy (b->weights, weights, (radius + 1) * sizeof (guint16));
  b->group = group;
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
  return a->radius == b->radius && a->step == b->step
      && a->alpha == b->alpha && a->group == b->group && a->dot == b->dot
      && memcmp (a->weights, b->weights, sizeof (a->weights)) == 0;
}

/* The band kernel of @b: one program per radius, weights, pixel size,
 * alpha byte and work-group size (kernels/gaussian_band.cl). With @now
 * (caps time, the tuner's frames), or where the device built it before,
 * it is built here; otherwise (the blur or work-group size changed while
 * playing) in a thread of its own, so that the stream never waits for a
 * compile: NULL until it is ready, and the tile filters meanwhile (same
 * output). NULL also where the build failed (warned once). */
static cl_kernel
ensure_band_kernel (GstClGaussian * self, const BandBuild * b, gboolean now)
{
  GstClDevice *device = GST_CL_BASE_TRANSFORM (self)->device;
  GError *err = NULL;

  if (!collect_band_build (self, now))
    return NULL;
  if (band_build_equal (&self->band, b))
    return self->k_band;
  /* a build the device made before (the tuner's, or a blur set back)
   * costs nothing */
  if (!now) {
    gchar *defines = band_defines (b);
    now = gst_cl_device_has_program_with_defines (device, "gaussian_band",
        defines);
    g_free (defines);
  }
  if (!now) {
    self->band_next = *b;
    self->band_thread = g_thread_try_new ("clgaussian-build",
        band_thread_func, self, &err);
    if (self->band_thread) {
      GST_DEBUG_OBJECT (self, "building the band kernel of radius %u in "
          "the background", b->radius);
      return NULL;
    }
    GST_WARNING_OBJECT (self, "no build thread (%s): building now",
        err->message);
    g_clear_error (&err);
  }
  install_band_kernel (self, build_band_kernel (device, b, &err), b,
      err ? err->message : NULL);
  g_clear_error (&err);
  return self->k_band;
}

/* gaussian_band over @src into @dst where it applies (GPU shape, 8-bit
 * buffers, radius 1 to BAND_MAX_RADIUS, rows on 4-byte aligned addresses,
 * planes under 2 GiB, pixels-per-item unset: @l as
 * gst_cl_frame_work_launch_shape() gave it);
 * FALSE where the tile must run instead, with @error unset. */
static gboolean
launch_band (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, const GstClLaunch * l, GstClFrameWork * work,
    gboolean * done, GError ** error)
{
  GstClDevice *device = work->device;
  const cl_int r = self->radius_in_use;
  guint block_rows;
  gsize group, halo_items, local_bytes;
  cl_int rows;
  cl_kernel k;
  GstClLaunch b = *l;
  BandBuild build;

  *done = FALSE;
  /* the kernel's byte offsets are 32-bit: planes under 2 GiB */
  if (r > BAND_MAX_RADIUS || l->chunk != 1 || src->stride % 4
      || dst->stride % 4 || (src->alpha >= 0 && 4 % src->step)
      || (guint64) src->stride * src->height > G_MAXINT32
      || (guint64) dst->stride * src->height > G_MAXINT32
      || !gst_cl_mem_is_aligned (src->mem, 4)
      || !gst_cl_mem_is_aligned (dst->mem, 4))
    return TRUE;
  /* a band: `group` words across, halo_items of them each side feeding
   * only their neighbours */
  halo_items = band_halo_items (r, src->step);
  group = band_group (l->group_auto ? 0 : l->local[0], r, src->step);
  band_build_init (&build, device, r, src->step, src->alpha, self->weights,
      group);
  /* the block's sums: 4 floats a work-item and row, or 4 16-bit values */
  block_rows = band_block_rows (src->step, build.dot != GST_CL_DOT_NONE);
  local_bytes = group * block_rows * 4 * (build.dot != GST_CL_DOT_NONE ?
      sizeof (guint16) : sizeof (gfloat));
  if (group > device->max_work_group_size
      || local_bytes > device->local_mem_size)
    return TRUE;
  /* the tuner times the kernel it asks for: built now, not meanwhile */
  if (!(k = ensure_band_kernel (self, &build, work->tuning)))
    return TRUE;
  if (group > self->band_max_group)
    return TRUE;
  rows = l->rows_auto ? (cl_int) block_rows : l->rows;
  b.local[0] = group;
  b.local[1] = 1;
  b.global[0] = (src->units + (group - 2 * halo_items) * 4 - 1) /
      ((group - 2 * halo_items) * 4) * group;
  b.global[1] = (src->height + rows - 1) / rows;
  *done = TRUE;
  return gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
      GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
      GST_CL_ARG (src->height), GST_CL_ARG (src->alpha), GST_CL_ARG (rows),
      GST_CL_ARG (self->weights_mem), GST_CL_ARG_LOCAL (local_bytes),
      GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, k, &b, error);
}

static gboolean
gst_cl_gaussian_configure (GstClBaseFilter * base, const GstVideoInfo * info,
    const GstClPlane * plane, GError ** error)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (base);

  /* the intermediate plane is allocated on first need, for these caps */
  release_mem (&self->tmp);
  self->tmp_size = 0;
  /* before the tuning asks for its case (gst_cl_gaussian_tuning_case) */
  self->wide = GST_CL_PLANE_IS_WIDE (plane);
  /* where frames take the GPU shape, build the band kernel of the radius
   * now rather than while frames wait (ensure_band_kernel) */
  if (!self->wide && !plane->is_image
      && gst_cl_base_filter_expects_tiles (base)) {
    guint16 w[GST_CL_GAUSSIAN_MAX_RADIUS + 1];
    guint radius;
    gdouble sigma;
    BandBuild build;
    GST_OBJECT_LOCK (self);
    radius = self->radius;
    sigma = self->sigma;
    GST_OBJECT_UNLOCK (self);
    radius = gst_cl_gaussian_weights_q8 (radius, sigma, w);
    if (!gst_cl_gaussian_weights_q8_is_binomial (radius, w)
        && radius <= BAND_MAX_RADIUS) {
      band_build_init (&build, GST_CL_BASE_TRANSFORM (base)->device, radius,
          plane->step, plane->alpha, w, band_group (gst_cl_base_filter_expected_group (base), radius,
              plane->step));
      ensure_band_kernel (self, &build, TRUE);
    }
  }
  return TRUE;
}

static gboolean
ensure_tmp (GstClGaussian * self, gsize size, GError ** error)
{
  GstClDevice *device = GST_CL_BASE_TRANSFORM (self)->device;
  cl_int st;

  if (self->tmp && self->tmp_size >= size)
    return TRUE;
  release_mem (&self->tmp);
  self->tmp = clCreateBuffer (device->context, CL_MEM_READ_WRITE, size, NULL,
      &st);
  if (st != CL_SUCCESS) {
    self->tmp = NULL;
    return gst_cl_fail (error, st, "clCreateBuffer (intermediate plane)");
  }
  self->tmp_size = size;
  return TRUE;
}

/* Recomputes and uploads the weights when the properties changed. */
static gboolean
update_weights (GstClGaussian * self, cl_command_queue queue,
    GError ** error)
{
  guint radius;
  gdouble sigma;
  cl_int st;

  GST_OBJECT_LOCK (self);
  radius = self->radius;
  sigma = self->sigma;
  GST_OBJECT_UNLOCK (self);

  if (self->weights_valid && radius == self->cur_radius_prop
      && sigma == self->cur_sigma_prop)
    return TRUE;
  self->radius_in_use = gst_cl_gaussian_weights_q8 (radius, sigma,
      self->weights);
  gst_cl_gaussian_weights_float (radius, sigma, self->weights_f,
      &self->exact_binomial);
  self->cur_radius_prop = radius;
  self->cur_sigma_prop = sigma;
  GST_DEBUG_OBJECT (self, "radius %u sigma %g: radius %u, centre weight %u/256",
      radius, sigma, self->radius_in_use, self->weights[0]);
  /* blocking: the host array changes again with the next property change,
   * while frames are in flight (a host wait only when properties change) */
  st = clEnqueueWriteBuffer (queue, self->weights_mem, CL_TRUE, 0,
      sizeof (self->weights), self->weights, 0, NULL, NULL);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueWriteBuffer (weights)");
  st = clEnqueueWriteBuffer (queue, self->weights_f_mem, CL_TRUE, 0,
      sizeof (self->weights_f), self->weights_f, 0, NULL, NULL);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueWriteBuffer (float weights)");
  self->weights_valid = TRUE;
  return TRUE;
}

/* The kernels are the binomial 3x3 or those of a radius (as process()
 * picks them: by the Q8 weights for 8 bits, by the double kernel above). */
static gchar *
gst_cl_gaussian_tuning_case (GstClBaseFilter * base)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (base);
  guint16 w[GST_CL_GAUSSIAN_MAX_RADIUS + 1];
  gfloat wf[GST_CL_GAUSSIAN_MAX_RADIUS + 1];
  gboolean binomial;
  guint radius;
  gdouble sigma;

  GST_OBJECT_LOCK (self);
  radius = self->radius;
  sigma = self->sigma;
  GST_OBJECT_UNLOCK (self);
  if (self->wide) {
    radius = gst_cl_gaussian_weights_float (radius, sigma, wf, &binomial);
  } else {
    radius = gst_cl_gaussian_weights_q8 (radius, sigma, w);
    binomial = gst_cl_gaussian_weights_q8_is_binomial (radius, w);
  }
  if (binomial)
    return g_strdup ("3x3");
  return g_strdup_printf ("radius=%u", radius);
}

/* Formats of more than 8 bits (kernels/gaussian.cl, "More than 8 bits per
 * sample"): the exact 3x3 binomial where the double kernel is [1 2 1] / 4,
 * else the float kernels: strips of rows through a row of local memory on
 * CPUs, a one-pass tile on GPUs, two passes through a float plane where
 * neither fits local memory, two passes for images. Every choice computes
 * the same float operations in the same order, so tunings and memory kinds
 * give identical output. */
static gboolean
process_wide (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work,
    GError ** error)
{
  GstClDevice *device = work->device;
  const cl_int shift = src->shift;
  const cl_uint wmask = ((1u << src->depth) - 1) << src->shift;
  cl_int r = self->radius_in_use;
  GstClLaunch l;

  if (src->is_image) {
    gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
    if (self->exact_binomial)
      return gst_cl_set_args (self->k3_image, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (dst->mem), GST_CL_ARG (src->width),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
          GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARGS_END)
          && gst_cl_frame_work_enqueue (work, self->k3_image, &l, error);
    /* one texel a pixel (CL_R, or CL_RGBA for RGBA64_LE): step is 1 */
    g_assert (src->step == 1);
    return ensure_tmp (self, (gsize) src->width * src->height * 16, error)
        && gst_cl_set_args (self->k_vpass_image16, error,
        GST_CL_ARG (src->mem), GST_CL_ARG (self->tmp),
        GST_CL_ARG (src->width), GST_CL_ARG (src->height),
        GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r), GST_CL_ARG (wmask),
        GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_vpass_image16, &l, error)
        && gst_cl_set_args (self->k_hpass_image16, error,
        GST_CL_ARG (self->tmp), GST_CL_ARG (src->mem), GST_CL_ARG (dst->mem),
        GST_CL_ARG (src->width), GST_CL_ARG (src->height),
        GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r), GST_CL_ARG (shift),
        GST_CL_ARG (wmask), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_hpass_image16, &l, error);
  }

  if (self->exact_binomial) {
    gst_cl_frame_work_launch_shape (work, src, TRUE, &l);
    return gst_cl_set_args (self->k3_buffer16, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
        GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
        GST_CL_ARG (src->height), GST_CL_ARG (src->step),
        GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k3_buffer16, &l, error);
  }

  if (gst_cl_frame_work_uses_strips (work)) {
    gsize scratch;
    gst_cl_frame_work_launch_shape (work, src, TRUE, &l);
    scratch = (gsize) (l.chunk + 2 * r * src->step) * sizeof (gfloat) *
        l.local[0];
    if (scratch <= device->local_mem_size)
      return gst_cl_set_args (self->k_fused16, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
          GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
          GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r),
          GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARG_LOCAL (scratch),
          GST_CL_ARGS_END)
          && gst_cl_frame_work_enqueue (work, self->k_fused16, &l, error);
    GST_LOG_OBJECT (self, "row scratch of %" G_GSIZE_FORMAT " bytes exceeds "
        "local memory: two passes", scratch);
  }

  /* GPU shape: one pass through a tile in local memory where it fits and
   * a work-item covers one unit of a row (pixels-per-item unset); with
   * the automatic rows per group, fewer rows where 16 do not fit (the
   * halo of a large radius of four-sample pixels) */
  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  if (!gst_cl_frame_work_uses_strips (work) && l.chunk == 1) {
    gsize group = l.group_auto ? MIN (TILE16_GROUP,
        device->max_work_group_size) : l.local[0];
    gsize rows = l.rows_auto ? TILE_ROWS : (gsize) l.rows;
    /* radius pixels each side, rounded up to a work-item's 4 samples */
    cl_int halo = ((gsize) r * src->step + 3) / 4 * 4;
    gsize tw4 = group + (gsize) halo / 2;
    gsize bytes;

    for (;;) {
      bytes = (rows + 2 * r) * tw4 * 8 + rows * tw4 * 16;
      if (bytes <= device->local_mem_size || !l.rows_auto || rows == 1)
        break;
      rows /= 2;
    }
    if (bytes <= device->local_mem_size) {
      cl_int trows = rows;
      GstClLaunch t = l;
      t.local[0] = group;
      t.local[1] = 1;
      t.global[0] = (src->units + 4 * group - 1) / (4 * group) * group;
      t.global[1] = (src->height + rows - 1) / rows;
      return gst_cl_set_args (self->k_tile16, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
          GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (src->alpha), GST_CL_ARG (trows),
          GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r), GST_CL_ARG (halo),
          GST_CL_ARG (shift), GST_CL_ARG (wmask),
          GST_CL_ARG_LOCAL ((rows + 2 * r) * tw4 * 8),
          GST_CL_ARG_LOCAL (rows * tw4 * 16), GST_CL_ARGS_END)
          && gst_cl_frame_work_enqueue (work, self->k_tile16, &t, error);
    }
    GST_LOG_OBJECT (self, "a tile of %" G_GSIZE_FORMAT " bytes exceeds "
        "local memory: two passes", bytes);
  }

  /* two passes through a float plane */
  {
    cl_int tstride = src->units;
    return ensure_tmp (self, (gsize) src->units * src->height * 4, error)
        && gst_cl_set_args (self->k_vpass16, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (self->tmp), GST_CL_ARG (tstride),
        GST_CL_ARG (src->units), GST_CL_ARG (src->height), GST_CL_ARG (l.chunk),
        GST_CL_ARG (l.rows), GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r),
        GST_CL_ARG (wmask), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_vpass16, &l, error)
        && gst_cl_set_args (self->k_hpass16, error, GST_CL_ARG (self->tmp),
        GST_CL_ARG (tstride), GST_CL_ARG (src->mem), GST_CL_ARG (src->stride),
        GST_CL_ARG (dst->mem), GST_CL_ARG (dst->stride),
        GST_CL_ARG (src->units), GST_CL_ARG (src->height),
        GST_CL_ARG (src->step), GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk),
        GST_CL_ARG (l.rows), GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r),
        GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_hpass16, &l, error);
  }
}

static gboolean
gst_cl_gaussian_process (GstClBaseFilter * base, GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, GError ** error)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (base);
  GstClDevice *device = work->device;
  gboolean binomial;
  GstClLaunch l;
  cl_int r;

  if (!update_weights (self, work->queue, error))
    return FALSE;
  if (GST_CL_PLANE_IS_WIDE (src))
    return process_wide (self, src, dst, work, error);
  r = self->radius_in_use;
  binomial = gst_cl_gaussian_weights_q8_is_binomial (r, self->weights);

  if (src->is_image) {
    const cl_int shift = 0;
    const cl_uint wmask = 0xff;
    gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
    if (binomial)
      return gst_cl_set_args (self->k3_image, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (dst->mem), GST_CL_ARG (src->width),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
          GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARGS_END)
          && gst_cl_frame_work_enqueue (work, self->k3_image, &l, error);
    return ensure_tmp (self, (gsize) src->units * src->height * 8, error)
        && gst_cl_set_args (self->k_vpass_image, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (self->tmp), GST_CL_ARG (src->width),
        GST_CL_ARG (src->height), GST_CL_ARG (src->step), GST_CL_ARG (l.chunk),
        GST_CL_ARG (l.rows), GST_CL_ARG (self->weights_mem), GST_CL_ARG (r),
        GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_vpass_image, &l, error)
        && gst_cl_set_args (self->k_hpass_image, error, GST_CL_ARG (self->tmp),
        GST_CL_ARG (src->mem), GST_CL_ARG (dst->mem), GST_CL_ARG (src->width),
        GST_CL_ARG (src->height), GST_CL_ARG (src->step),
        GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARG (self->weights_mem), GST_CL_ARG (r), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_hpass_image, &l, error);
  }

  if (binomial) {
    /* GPUs: 8-byte words of rows where they fit; the common pixel sizes
     * in a kernel of their own (gaussian3_words8 in kernels/gaussian.cl) */
    cl_kernel k = src->step == 4 || src->step == 1 ? self->k3_words8 :
        self->k3_words8_any;
    if (!gst_cl_frame_work_launch_words8 (work, src, dst, &l)) {
      k = self->k3_buffer;
      gst_cl_frame_work_launch_shape (work, src, TRUE, &l);
    }
    return gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
        GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
        GST_CL_ARG (src->height), GST_CL_ARG (src->step),
        GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, k, &l, error);
  }

  if (gst_cl_frame_work_uses_strips (work)) {
    gsize scratch;
    gst_cl_frame_work_launch_shape (work, src, TRUE, &l);
    scratch = (gsize) (l.chunk + 2 * r * src->step) * sizeof (gfloat) *
        l.local[0];
    if (scratch <= device->local_mem_size)
      return gst_cl_set_args (self->k_fused, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
          GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
          GST_CL_ARG (self->weights_mem), GST_CL_ARG (r),
          GST_CL_ARG_LOCAL (scratch), GST_CL_ARGS_END)
          && gst_cl_frame_work_enqueue (work, self->k_fused, &l, error);
    GST_LOG_OBJECT (self, "row scratch of %" G_GSIZE_FORMAT " bytes exceeds "
        "local memory: two passes", scratch);
  }

  /* GPU shape: one pass through a tile in local memory, where it fits and
   * a work-item covers one unit of a row (pixels-per-item unset) */
  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  if (!gst_cl_frame_work_uses_strips (work)) {
    gboolean done;
    gboolean ok = launch_band (self, src, dst, &l, work, &done,
        error);
    if (done || !ok)
      return ok;
  }
  if (!gst_cl_frame_work_uses_strips (work) && l.chunk == 1) {
    /* a work-item: four bytes of each row; a tile row: the group's bytes
     * and, each side, radius pixels rounded up to a 32-bit word */
    gsize group = l.group_auto ? MIN (TILE_GROUP, device->max_work_group_size)
        : l.local[0];
    gsize rows = l.rows_auto ? TILE_ROWS : (gsize) l.rows;
    cl_int halo = ((gsize) r * src->step + 3) / 4 * 4;
    gsize tw = 4 * group + 2 * (gsize) halo;
    /* in_bytes rounded up to 16 bytes: the second local buffer holds
     * vectors and must stay aligned wherever the runtime puts it */
    gsize in_bytes = ((rows + 2 * r) * tw + 15) / 16 * 16;
    gsize vs_bytes = rows * tw * 2;
    if (in_bytes + vs_bytes <= device->local_mem_size) {
      cl_int trows = rows;
      GstClLaunch t = l;
      t.local[0] = group;
      t.local[1] = 1;
      t.global[0] = (src->units + 4 * group - 1) / (4 * group) * group;
      t.global[1] = (src->height + rows - 1) / rows;
      return gst_cl_set_args (self->k_tile, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
          GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (src->alpha), GST_CL_ARG (trows),
          GST_CL_ARG (self->weights_mem), GST_CL_ARG (r), GST_CL_ARG (halo),
          GST_CL_ARG_LOCAL (in_bytes), GST_CL_ARG_LOCAL (vs_bytes),
          GST_CL_ARGS_END)
          && gst_cl_frame_work_enqueue (work, self->k_tile, &t, error);
    }
    GST_LOG_OBJECT (self, "a tile of %" G_GSIZE_FORMAT " bytes exceeds "
        "local memory: two passes", in_bytes + vs_bytes);
  }

  /* two passes through a 16-bit plane */
  {
    cl_int tstride = src->units;
    return ensure_tmp (self, (gsize) src->units * src->height * 2, error)
        && gst_cl_set_args (self->k_vpass, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (self->tmp), GST_CL_ARG (tstride),
        GST_CL_ARG (src->units), GST_CL_ARG (src->height), GST_CL_ARG (l.chunk),
        GST_CL_ARG (l.rows), GST_CL_ARG (self->weights_mem), GST_CL_ARG (r),
        GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_vpass, &l, error)
        && gst_cl_set_args (self->k_hpass, error, GST_CL_ARG (self->tmp),
        GST_CL_ARG (tstride), GST_CL_ARG (src->mem), GST_CL_ARG (src->stride),
        GST_CL_ARG (dst->mem), GST_CL_ARG (dst->stride),
        GST_CL_ARG (src->units), GST_CL_ARG (src->height),
        GST_CL_ARG (src->step), GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk),
        GST_CL_ARG (l.rows), GST_CL_ARG (self->weights_mem), GST_CL_ARG (r),
        GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_hpass, &l, error);
  }
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
gst_cl_gaussian_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RADIUS:
      self->radius = g_value_get_uint (value);
      break;
    case PROP_SIGMA:
      self->sigma = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_gaussian_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RADIUS:
      g_value_set_uint (value, self->radius);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, self->sigma);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_gaussian_class_init (GstClGaussianClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClBaseFilterClass *base_class = GST_CL_BASE_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cl_gaussian_set_property;
  gobject_class->get_property = gst_cl_gaussian_get_property;
  gobject_class->finalize = gst_cl_gaussian_finalize;

  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_uint ("radius", "Radius",
          "Kernel half-width: the kernel is (2r+1)x(2r+1); 0 = automatic "
          "(1 when sigma is 0, else ceil(3*sigma))", 0,
          GST_CL_GAUSSIAN_MAX_RADIUS, DEFAULT_RADIUS, flags));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation in pixels; 0 = automatic from the radius, as "
          "OpenCV does (radius 1: the exact binomial [1 2 1]/4)", 0.0, 64.0,
          DEFAULT_SIGMA, flags));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL Gaussian blur", "Filter/Effect/Video",
      "Blurs video with a Gaussian kernel on an OpenCL device",
      "clfilters developers");
  gst_cl_element_class_add_pad_templates (element_class, TRUE, TRUE, TRUE,
      TRUE);

  base_class->program_name = "gaussian";
  base_class->program_source = gst_cl_source_gaussian;
  base_class->setup = gst_cl_gaussian_setup;
  base_class->cleanup = gst_cl_gaussian_cleanup;
  base_class->configure = gst_cl_gaussian_configure;
  base_class->process = gst_cl_gaussian_process;
  base_class->tuning_case = gst_cl_gaussian_tuning_case;
}

static void
gst_cl_gaussian_finalize (GObject * object)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (object);

  g_mutex_clear (&self->band_lock);
  G_OBJECT_CLASS (gst_cl_gaussian_parent_class)->finalize (object);
}

static void
gst_cl_gaussian_init (GstClGaussian * self)
{
  self->radius = DEFAULT_RADIUS;
  self->sigma = DEFAULT_SIGMA;
  g_mutex_init (&self->band_lock);
}
