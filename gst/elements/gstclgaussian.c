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
#include "gstclgaussianband.h"
#include "gstclgaussianweights.h"
#include "gstclkernels.h"


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
  /* gaussian_band on GPUs, for radius 1 to GST_CL_GAUSSIAN_BAND_MAX_RADIUS
   * (beyond: the tile) */
  GstClGaussianBand *band;
  cl_kernel k3_image, k_vpass_image, k_hpass_image;
  /* formats of more than 8 bits */
  cl_kernel k3_buffer16, k_fused16, k_tile16, k_vpass16, k_hpass16;
  cl_kernel k_vpass_image16, k_hpass_image16;
  cl_mem weights_mem;           /* __constant ushort[65] */
  cl_mem weights_f_mem;         /* __constant float[65] */
  cl_mem tmp;                   /* intermediate plane of two-pass kernels */
  gsize tmp_size;
};

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
  gst_cl_gaussian_band_reset (self->band);
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
    GST_OBJECT_LOCK (self);
    radius = self->radius;
    sigma = self->sigma;
    GST_OBJECT_UNLOCK (self);
    radius = gst_cl_gaussian_weights_q8 (radius, sigma, w);
    if (!gst_cl_gaussian_weights_q8_is_binomial (radius, w))
      gst_cl_gaussian_band_prepare (self->band,
          GST_CL_BASE_TRANSFORM (base)->device, radius, w, plane,
          gst_cl_base_filter_expected_group (base));
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
    gboolean ok = gst_cl_gaussian_band_launch (self->band, work, src, dst,
        &l, r, self->weights, self->weights_mem, &done, error);
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

  gst_cl_gaussian_band_free (self->band);
  G_OBJECT_CLASS (gst_cl_gaussian_parent_class)->finalize (object);
}

static void
gst_cl_gaussian_init (GstClGaussian * self)
{
  self->radius = DEFAULT_RADIUS;
  self->sigma = DEFAULT_SIGMA;
  self->band = gst_cl_gaussian_band_new (GST_ELEMENT (self));
}
