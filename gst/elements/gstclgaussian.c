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
#define BAND16_GROUP 64         /* the same, bands of one-sample pixels */
#define BAND16_ROWS 32          /* rows a band walks */
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
  cl_kernel k3_buffer16, k3_words16, k_fused16, k_tile16, k_band16, k_vpass16,
      k_hpass16;
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
      || !(self->k3_words16 = gst_cl_kernel_new (program,
              "gaussian3_words16", error))
      || !(self->k_fused16 = gst_cl_kernel_new (program,
              "gaussian16_buffer_fused", error))
      || !(self->k_tile16 = gst_cl_kernel_new (program,
              "gaussian16_buffer_tile", error))
      || !(self->k_band16 = gst_cl_kernel_new (program,
              "gaussian16_buffer_band", error))
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
  release_kernel (&self->k3_words16);
  release_kernel (&self->k_fused16);
  release_kernel (&self->k_tile16);
  release_kernel (&self->k_band16);
  release_kernel (&self->k_vpass16);
  release_kernel (&self->k_hpass16);
  release_kernel (&self->k_vpass_image16);
  release_kernel (&self->k_hpass_image16);
  release_mem (&self->weights_mem);
  release_mem (&self->weights_f_mem);
  release_mem (&self->tmp);
  self->tmp_size = 0;
}

/* the radius and sigma properties, read together under the object lock */
static void
read_blur_properties (GstClGaussian * self, guint * radius, gdouble * sigma)
{
  GST_OBJECT_LOCK (self);
  *radius = self->radius;
  *sigma = self->sigma;
  GST_OBJECT_UNLOCK (self);
}

/* The blur the properties ask for, as the kernels take it: its Q8 (@w)
 * and float (@wf) weights, the radius in use (returned: both kinds of
 * weights come from the same double kernel) and whether it is the exact
 * binomial 3x3, by the float weights for planes of 16-bit samples and by
 * the Q8 ones for bytes, as process() picks the kernels. */
static guint
blur_of_properties (GstClGaussian * self, guint16 * w, gfloat * wf,
    gboolean * binomial)
{
  guint radius, radius_in_use;
  gdouble sigma;
  gboolean float_binomial;

  read_blur_properties (self, &radius, &sigma);
  radius_in_use = gst_cl_gaussian_weights_q8 (radius, sigma, w);
  gst_cl_gaussian_weights_float (radius, sigma, wf, &float_binomial);
  *binomial = self->wide ? float_binomial :
      gst_cl_gaussian_weights_q8_is_binomial (radius_in_use, w);
  return radius_in_use;
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
  if (!plane->is_image && gst_cl_base_filter_expects_tiles (base)) {
    guint16 w[GST_CL_GAUSSIAN_MAX_RADIUS + 1];
    gfloat wf[GST_CL_GAUSSIAN_MAX_RADIUS + 1];
    guint radius_in_use;
    gboolean binomial;
    radius_in_use = blur_of_properties (self, w, wf, &binomial);
    if (!binomial)
      gst_cl_gaussian_band_prepare (self->band,
          GST_CL_BASE_TRANSFORM (base)->device, radius_in_use, w, wf, plane,
          gst_cl_base_filter_expected_group (base));
  }
  return TRUE;
}

/* the intermediate plane of the two-pass kernels, at least @size bytes */
static gboolean
ensure_tmp (GstClGaussian * self, gsize size, GError ** error)
{
  return gst_cl_buffer_ensure (GST_CL_BASE_TRANSFORM (self)->device->context,
      &self->tmp, &self->tmp_size, size, NULL,
      "clCreateBuffer (intermediate plane)", error);
}

/* Recomputes and uploads the weights when the properties changed. */
static gboolean
update_weights (GstClGaussian * self, cl_command_queue queue,
    GError ** error)
{
  guint radius;
  gdouble sigma;
  cl_int st;

  read_blur_properties (self, &radius, &sigma);
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
  const guint radius = blur_of_properties (self, w, wf, &binomial);

  if (binomial)
    return g_strdup ("3x3");
  return g_strdup_printf ("radius=%u", radius);
}

/* The paths of a frame, for both depths: formats of more than 8 bits
 * (kernels/gaussian16.cl) take float weights and sums and kernels of their
 * own, but the same choices in the same order as 8 bits: the exact 3x3
 * binomial where the kernel is [1 2 1] / 4 (for more than 8 bits, where the
 * double kernel is), else strips of rows through a row of local memory on
 * CPUs, on GPUs the band kernel (8 bits) or a one-pass tile, and two passes
 * through an intermediate plane where none of these fits local memory,
 * two passes for images. For more than 8 bits every choice computes the
 * same float operations in the same order, so tunings and storage kinds
 * give identical output. */

/* images: the 3x3 binomial or two passes through an intermediate plane
 * (one texel a pixel for more than 8 bits: CL_R, or CL_RGBA for
 * RGBA64_LE) */
static gboolean
launch_images (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work, gboolean wide,
    gboolean binomial, GError ** error)
{
  const cl_int shift = wide ? src->shift : 0;
  const cl_uint wmask = wide ? ((1u << src->depth) - 1) << src->shift : 0xff;
  const cl_int r = self->radius_in_use;
  GstClLaunch l;

  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  if (binomial)
    return gst_cl_set_args (self->k3_image, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (dst->mem), GST_CL_ARG (src->width),
        GST_CL_ARG (src->height), GST_CL_ARG (src->step),
        GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k3_image, &l, error);
  if (!wide)
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

/* buffers, the exact 3x3 binomial: for 8 bits on GPUs 8-byte words of rows
 * where they fit, the common pixel sizes in a kernel of their own
 * (gaussian3_words8 in kernels/gaussian.cl); for planes of one sample of
 * up to 12 bits a pixel, 16-byte words (gaussian3_words16 in
 * kernels/gaussian16.cl) */
static gboolean
launch_binomial (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work, gboolean wide,
    GError ** error)
{
  const cl_int shift = src->shift;
  const cl_uint wmask = ((1u << src->depth) - 1) << src->shift;
  cl_kernel k = src->step == 4 || src->step == 1 ? self->k3_words8 :
      self->k3_words8_any;
  GstClLaunch l;

  if (wide && src->step == 1 && src->depth <= 12 &&
      gst_cl_frame_work_launch_words16 (work, src, dst, &l))
    return gst_cl_set_args (self->k3_words16, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
        GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
        GST_CL_ARG (src->height), GST_CL_ARG (l.rows), GST_CL_ARG (shift),
        GST_CL_ARG (wmask), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k3_words16, &l, error);
  if (wide) {
    gst_cl_frame_work_launch_shape (work, src, TRUE, &l);
    return gst_cl_set_args (self->k3_buffer16, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
        GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
        GST_CL_ARG (src->height), GST_CL_ARG (src->step),
        GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k3_buffer16, &l, error);
  }
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

/* CPU shape: strips of rows, each row's vertical sums (the work-item's
 * columns plus radius pixels each side) in a float row of local memory;
 * @done FALSE where that row does not fit */
static gboolean
launch_strips (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work, gboolean wide,
    gboolean * done, GError ** error)
{
  const cl_int shift = src->shift;
  const cl_uint wmask = ((1u << src->depth) - 1) << src->shift;
  const cl_int r = self->radius_in_use;
  gsize scratch;
  GstClLaunch l;

  gst_cl_frame_work_launch_shape (work, src, TRUE, &l);
  scratch = (gsize) (l.chunk + 2 * r * src->step) * sizeof (gfloat) *
      l.local[0];
  *done = scratch <= work->device->local_mem_size;
  if (!*done) {
    GST_LOG_OBJECT (self, "row scratch of %" G_GSIZE_FORMAT " bytes exceeds "
        "local memory: two passes", scratch);
    return TRUE;
  }
  if (!wide)
    return gst_cl_set_args (self->k_fused, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
        GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
        GST_CL_ARG (src->height), GST_CL_ARG (src->step),
        GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARG (self->weights_mem), GST_CL_ARG (r),
        GST_CL_ARG_LOCAL (scratch), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_fused, &l, error);
  return gst_cl_set_args (self->k_fused16, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
      GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
      GST_CL_ARG (src->height), GST_CL_ARG (src->step),
      GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
      GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r),
      GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARG_LOCAL (scratch),
      GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, self->k_fused16, &l, error);
}

/* GPU shape, 8 bits: one pass through a tile in local memory, a
 * work-item four bytes of each row; a tile row: the group's bytes and,
 * each side, radius pixels rounded up to a 32-bit word. @done FALSE where
 * the tile does not fit local memory. */
static gboolean
launch_tile (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work, const GstClLaunch * l,
    gboolean * done, GError ** error)
{
  GstClDevice *device = work->device;
  const cl_int r = self->radius_in_use;
  gsize group = l->group_auto ? MIN (TILE_GROUP, device->max_work_group_size)
      : l->local[0];
  gsize rows = l->rows_auto ? TILE_ROWS : (gsize) l->rows;
  cl_int halo = ((gsize) r * src->step + 3) / 4 * 4;
  gsize tw = 4 * group + 2 * (gsize) halo;
  /* in_bytes rounded up to 16 bytes: the second local buffer holds
   * vectors and must stay aligned wherever the runtime puts it */
  gsize in_bytes = ((rows + 2 * r) * tw + 15) / 16 * 16;
  gsize vs_bytes = rows * tw * 2;
  cl_int trows = rows;
  GstClLaunch t = *l;

  *done = in_bytes + vs_bytes <= device->local_mem_size;
  if (!*done) {
    GST_LOG_OBJECT (self, "a tile of %" G_GSIZE_FORMAT " bytes exceeds "
        "local memory: two passes", in_bytes + vs_bytes);
    return TRUE;
  }
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

/* GPU shape, more than 8 bits: as launch_tile, a work-item four samples;
 * with the automatic rows per group, fewer rows where 16 do not fit (the
 * halo of a large radius of four-sample pixels) */
static gboolean
launch_tile16 (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work, const GstClLaunch * l,
    gboolean * done, GError ** error)
{
  GstClDevice *device = work->device;
  const cl_int shift = src->shift;
  const cl_uint wmask = ((1u << src->depth) - 1) << src->shift;
  const cl_int r = self->radius_in_use;
  gsize group = l->group_auto ? MIN (TILE16_GROUP,
      device->max_work_group_size) : l->local[0];
  gsize rows = l->rows_auto ? TILE_ROWS : (gsize) l->rows;
  /* radius pixels each side, rounded up to a work-item's 4 samples */
  cl_int halo = ((gsize) r * src->step + 3) / 4 * 4;
  gsize tw4 = group + (gsize) halo / 2;
  gsize bytes;
  cl_int trows;
  GstClLaunch t = *l;

  for (;;) {
    bytes = (rows + 2 * r) * tw4 * 8 + rows * tw4 * 16;
    if (bytes <= device->local_mem_size || !l->rows_auto || rows == 1)
      break;
    rows /= 2;
  }
  *done = bytes <= device->local_mem_size;
  if (!*done) {
    GST_LOG_OBJECT (self, "a tile of %" G_GSIZE_FORMAT " bytes exceeds "
        "local memory: two passes", bytes);
    return TRUE;
  }
  trows = rows;
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

/* GPU shape, more than 8 bits, one-sample pixels: bands walking down
 * (gaussian16_buffer_band); @done FALSE where the ring of rows does not fit
 * local memory */
static gboolean
launch_band16 (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work, const GstClLaunch * l,
    gboolean * done, GError ** error)
{
  GstClDevice *device = work->device;
  const cl_int shift = src->shift;
  const cl_uint wmask = ((1u << src->depth) - 1) << src->shift;
  const cl_int r = self->radius_in_use;
  const cl_int halo_items = (r + 3) / 4;
  gsize group = l->group_auto ? MIN (BAND16_GROUP,
      device->max_work_group_size) : l->local[0];
  const cl_int rows = l->rows_auto ? BAND16_ROWS : l->rows;
  gsize ring, outs;
  GstClLaunch b = *l;

  *done = FALSE;
  if (group <= (gsize) 2 * halo_items)
    return TRUE;
  /* float4 slots of 2r + 2 rows, the vertical sums of two rows */
  ring = (gsize) (2 * r + 2) * group * 16;
  if (ring + group * 32 > device->local_mem_size)
    return TRUE;
  *done = TRUE;
  outs = group - 2 * halo_items;
  b.local[0] = group;
  b.local[1] = 1;
  b.global[0] = (src->units + 4 * outs - 1) / (4 * outs) * group;
  b.global[1] = (src->height + rows - 1) / rows;
  return gst_cl_set_args (self->k_band16, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
      GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
      GST_CL_ARG (src->height), GST_CL_ARG (rows),
      GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r),
      GST_CL_ARG (halo_items), GST_CL_ARG (shift), GST_CL_ARG (wmask),
      GST_CL_ARG_LOCAL (ring), GST_CL_ARG_LOCAL (group * 32),
      GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, self->k_band16, &b, error);
}

/* two passes through an intermediate plane: 16-bit sums for 8 bits, float
 * sums for more */
static gboolean
launch_two_passes (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work, const GstClLaunch * l,
    gboolean wide, GError ** error)
{
  const cl_int shift = src->shift;
  const cl_uint wmask = ((1u << src->depth) - 1) << src->shift;
  const cl_int r = self->radius_in_use;
  const cl_int tstride = src->units;

  if (!ensure_tmp (self, (gsize) src->units * src->height * (wide ? 4 : 2),
          error))
    return FALSE;
  if (!wide)
    return gst_cl_set_args (self->k_vpass, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (self->tmp), GST_CL_ARG (tstride),
        GST_CL_ARG (src->units), GST_CL_ARG (src->height),
        GST_CL_ARG (l->chunk), GST_CL_ARG (l->rows),
        GST_CL_ARG (self->weights_mem), GST_CL_ARG (r), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_vpass, l, error)
        && gst_cl_set_args (self->k_hpass, error, GST_CL_ARG (self->tmp),
        GST_CL_ARG (tstride), GST_CL_ARG (src->mem), GST_CL_ARG (src->stride),
        GST_CL_ARG (dst->mem), GST_CL_ARG (dst->stride),
        GST_CL_ARG (src->units), GST_CL_ARG (src->height),
        GST_CL_ARG (src->step), GST_CL_ARG (src->alpha),
        GST_CL_ARG (l->chunk), GST_CL_ARG (l->rows),
        GST_CL_ARG (self->weights_mem), GST_CL_ARG (r), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_hpass, l, error);
  return gst_cl_set_args (self->k_vpass16, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (self->tmp), GST_CL_ARG (tstride),
      GST_CL_ARG (src->units), GST_CL_ARG (src->height), GST_CL_ARG (l->chunk),
      GST_CL_ARG (l->rows), GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r),
      GST_CL_ARG (wmask), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, self->k_vpass16, l, error)
      && gst_cl_set_args (self->k_hpass16, error, GST_CL_ARG (self->tmp),
      GST_CL_ARG (tstride), GST_CL_ARG (src->mem), GST_CL_ARG (src->stride),
      GST_CL_ARG (dst->mem), GST_CL_ARG (dst->stride),
      GST_CL_ARG (src->units), GST_CL_ARG (src->height),
      GST_CL_ARG (src->step), GST_CL_ARG (src->alpha), GST_CL_ARG (l->chunk),
      GST_CL_ARG (l->rows), GST_CL_ARG (self->weights_f_mem), GST_CL_ARG (r),
      GST_CL_ARG (shift), GST_CL_ARG (wmask), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, self->k_hpass16, l, error);
}

/* GPU shape: the band kernel (8 bits), else the one-pass tile where a
 * work-item covers one unit of a row (pixels-per-item unset); @done FALSE
 * where neither runs */
static gboolean
launch_gpu_one_pass (GstClGaussian * self, const GstClPlane * src,
    const GstClPlane * dst, GstClFrameWork * work, const GstClLaunch * l,
    gboolean wide, gboolean * done, GError ** error)
{
  *done = FALSE;
  if (!gst_cl_gaussian_band_launch (self->band, work, src, dst, l,
          self->radius_in_use, self->weights, self->weights_f,
          self->weights_mem, done, error))
    return FALSE;
  if (*done || l->chunk != 1)
    return TRUE;
  if (wide && src->step == 1
      && !launch_band16 (self, src, dst, work, l, done, error))
    return FALSE;
  if (*done)
    return TRUE;
  return wide ? launch_tile16 (self, src, dst, work, l, done, error)
      : launch_tile (self, src, dst, work, l, done, error);
}

static gboolean
gst_cl_gaussian_process (GstClBaseFilter * base, GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, GError ** error)
{
  GstClGaussian *self = GST_CL_GAUSSIAN (base);
  const gboolean wide = GST_CL_PLANE_IS_WIDE (src);
  gboolean binomial, done = FALSE;
  GstClLaunch l;

  if (!update_weights (self, work->queue, error))
    return FALSE;
  binomial = wide ? self->exact_binomial :
      gst_cl_gaussian_weights_q8_is_binomial (self->radius_in_use,
      self->weights);
  if (src->is_image)
    return launch_images (self, src, dst, work, wide, binomial, error);
  if (binomial)
    return launch_binomial (self, src, dst, work, wide, error);
  if (gst_cl_frame_work_uses_strips (work)) {
    if (!launch_strips (self, src, dst, work, wide, &done, error))
      return FALSE;
    if (done)
      return TRUE;
  }
  /* the shape of the GPU kernels, and of the two passes on both */
  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  if (!gst_cl_frame_work_uses_strips (work)) {
    if (!launch_gpu_one_pass (self, src, dst, work, &l, wide, &done, error))
      return FALSE;
    if (done)
      return TRUE;
  }
  return launch_two_passes (self, src, dst, work, &l, wide, error);
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
