/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/**
 * SECTION:element-cllaplace
 * @title: cllaplace
 * @see_also: clgaussian, clhistogram, cvlaplace, edgetv
 *
 * Sharpens video, or extracts its edges, with the 3x3 Laplacian on an
 * OpenCL device (a GPU, or the CPU through POCL). With L = 8 * c - (sum of
 * the 8 neighbours of c):
 *
 * - `mode=sharpen` (the default): out = clamp (c + strength * L, 0, maxv);
 * - `mode=edges`: out = clamp (strength * |L|, 0, maxv).
 *
 * maxv = 2^D - 1 is the top level of a sample of D bits: 255 in 8-bit
 * formats, 1023 in P010_10LE, 65535 in GRAY16_LE. With the default strength
 * 1 the output is exact: clamp (9 * c - sum of the 8 neighbours, 0, maxv)
 * for sharpen. Other strengths are applied in fixed point (1/16384 steps,
 * 1/2^18 with more than 8 bits) and rounded to nearest.
 *
 * Every colour channel of packed RGB formats is filtered; alpha and padding
 * samples pass through unchanged. In YUV formats the luma plane is filtered
 * and the chroma planes are copied unchanged. Borders replicate the edge
 * pixel. In formats of more than 8 bits the filter works on the D-bit
 * values of the 16-bit words (P010_10LE's at bit 6): bits outside them are
 * ignored and written as zero.
 *
 * `mode` and `strength` can be changed (or controlled) while playing: they
 * apply from the next frame, without rebuilding anything.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! videoconvert ! cllaplace ! videoconvert ! autovideosink
 * ]| Sharpen with the exact 3x3 Laplacian on the default device.
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! \
 *     cllaplace mode=edges strength=2 ! videoconvert ! autovideosink
 * ]| Edges of a grey picture, twice as bright.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcllaplace.h"
#include "gstclkernels.h"
#include "gstclshared.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_laplace_debug);
#define GST_CAT_DEFAULT gst_cl_laplace_debug

enum
{
  PROP_0,
  PROP_MODE,
  PROP_STRENGTH,
};

#define DEFAULT_MODE GST_CL_LAPLACE_MODE_SHARPEN
#define DEFAULT_STRENGTH 1.0

/* strength in Q14, as the kernels take it (laplace.cl); Q18 for samples of
 * more than 8 bits, whose |L| reaches 8 * 65535 */
#define STRENGTH_ONE GST_CL_LAPLACE_Q14_ONE
#define STRENGTH_ONE_WIDE GST_CL_LAPLACE_Q18_ONE

/* the kernels take the mode as this enum's value */
G_STATIC_ASSERT (GST_CL_LAPLACE_MODE_SHARPEN == GST_CL_LAPLACE_SHARPEN);
G_STATIC_ASSERT (GST_CL_LAPLACE_MODE_EDGES == GST_CL_LAPLACE_EDGES);


struct _GstClLaplace
{
  GstClBaseFilter parent;

  /* properties, under the object lock */
  GstClLaplaceMode mode;
  gdouble strength;

  /* streaming thread; the "16" kernels take formats of more than 8 bits */
  cl_kernel k_buffer, k_words8, k_words8_any, k_words8_scaled, k_image;
  cl_kernel k_buffer16, k_words16, k_image16;
};

G_DEFINE_TYPE_WITH_CODE (GstClLaplace, gst_cl_laplace,
    GST_TYPE_CL_BASE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cl_laplace_debug, "cllaplace", 0,
        "OpenCL Laplace sharpen and edges"));
GST_ELEMENT_REGISTER_DEFINE (cllaplace, "cllaplace", GST_RANK_NONE,
    GST_TYPE_CL_LAPLACE);

GType
gst_cl_laplace_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_LAPLACE_MODE_SHARPEN, "Sharpen: c + strength * L", "sharpen"},
    {GST_CL_LAPLACE_MODE_EDGES, "Edges: strength * |L|", "edges"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClLaplaceMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                  */

static gboolean
gst_cl_laplace_setup (GstClBaseFilter * base, cl_program program,
    GError ** error)
{
  GstClLaplace *self = GST_CL_LAPLACE (base);
  GstClDevice *device = GST_CL_BASE_TRANSFORM (base)->device;

  if (!(self->k_buffer = gst_cl_kernel_new (program, "laplace_buffer", error))
      || !(self->k_words8 = gst_cl_kernel_new (program, "laplace_words8",
              error))
      || !(self->k_words8_any = gst_cl_kernel_new (program,
              "laplace_words8_any", error))
      || !(self->k_words8_scaled = gst_cl_kernel_new (program,
              "laplace_words8_scaled", error))
      || !(self->k_words16 = gst_cl_kernel_new (program, "laplace_words16",
              error))
      || !(self->k_buffer16 = gst_cl_kernel_new (program, "laplace_buffer16",
              error)))
    return FALSE;
  if (device->image_support &&
      (!(self->k_image = gst_cl_kernel_new (program, "laplace_image", error))
          || !(self->k_image16 = gst_cl_kernel_new (program,
                  "laplace_image16", error))))
    return FALSE;
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
gst_cl_laplace_cleanup (GstClBaseFilter * base)
{
  GstClLaplace *self = GST_CL_LAPLACE (base);

  release_kernel (&self->k_buffer);
  release_kernel (&self->k_words8);
  release_kernel (&self->k_words8_any);
  release_kernel (&self->k_words8_scaled);
  release_kernel (&self->k_image);
  release_kernel (&self->k_buffer16);
  release_kernel (&self->k_words16);
  release_kernel (&self->k_image16);
}

/* Enqueues @k_buffer, @k_words8 or @k_image over @src: the 8-bit kernels
 * and the 16-bit ones ("16", formats of more than 8 bits) take the same
 * arguments (the 8-bit ones get shift 0 and maxv 255). @k_words8: the GPU
 * kernel of 8-byte words, used where gst_cl_launch_words8() fits (NULL
 * for 16-bit samples). */
static gboolean
gst_cl_laplace_launch (GstClLaplace * self, cl_kernel k_buffer,
    cl_kernel k_words8, cl_kernel k_image, const GstClPlane * src, const GstClPlane * dst,
    cl_int m, cl_int q, cl_int shift, cl_int maxv, GstClFrameWork * work,
    GError ** error)
{
  GstClLaunch l;

  if (src->is_image) {
    gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
    return gst_cl_set_args (k_image, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (dst->mem), GST_CL_ARG (src->width),
        GST_CL_ARG (src->height), GST_CL_ARG (src->step),
        GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
        GST_CL_ARG (m), GST_CL_ARG (q), GST_CL_ARG (shift),
        GST_CL_ARG (maxv), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, k_image, &l, error);
  }

  if (k_words8 && gst_cl_frame_work_launch_words8 (work, src, dst, &l))
    k_buffer = k_words8;
  else
    gst_cl_frame_work_launch_shape (work, src, TRUE, &l);
  return gst_cl_set_args (k_buffer, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
      GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
      GST_CL_ARG (src->height), GST_CL_ARG (src->step),
      GST_CL_ARG (src->alpha), GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
      GST_CL_ARG (m), GST_CL_ARG (q), GST_CL_ARG (shift), GST_CL_ARG (maxv),
      GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, k_buffer, &l, error);
}

static gboolean
gst_cl_laplace_process (GstClBaseFilter * base, GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, GError ** error)
{
  GstClLaplace *self = GST_CL_LAPLACE (base);
  const gboolean wide = GST_CL_PLANE_IS_WIDE (src);
  GstClLaplaceMode mode;
  gdouble strength;
  cl_int m, q, maxv;
  cl_kernel k_words8;
  GstClLaunch l;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  strength = self->strength;
  GST_OBJECT_UNLOCK (self);

  /* formats of more than 8 bits: a finer strength, Q18, since |L| reaches
   * 8 * 65535 there and Q14 would be off by up to 16 levels */
  m = mode;
  q = (cl_int) lrint (CLAMP (strength, 0.0, GST_CL_LAPLACE_MAX_STRENGTH) *
      (wide ? STRENGTH_ONE_WIDE : STRENGTH_ONE));
  maxv = (cl_int) ((1u << src->depth) - 1);
  GST_LOG_OBJECT (self, "mode %d, strength %g = %d/%d, %d bits at bit %d",
      m, strength, q, wide ? STRENGTH_ONE_WIDE : STRENGTH_ONE, src->depth,
      src->shift);

  if (wide && q == STRENGTH_ONE_WIDE && src->step == 1 && src->depth <= 12
      && !src->is_image && gst_cl_frame_work_launch_words16 (work, src, dst,
          &l))
    return gst_cl_set_args (self->k_words16, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
        GST_CL_ARG (dst->stride), GST_CL_ARG (src->units),
        GST_CL_ARG (src->height), GST_CL_ARG (l.rows), GST_CL_ARG (m),
        GST_CL_ARG (src->shift), GST_CL_ARG (maxv), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, self->k_words16, &l, error);
  if (wide)
    return gst_cl_laplace_launch (self, self->k_buffer16, NULL,
        self->k_image16, src, dst, m, q, src->shift, maxv, work, error);
  /* the words kernel of strength 1 and pixels of 4 or 1 bytes apart from
   * the others: see laplace_words8 in kernels/laplace.cl */
  if (q != STRENGTH_ONE)
    k_words8 = self->k_words8_scaled;
  else if (src->step == 4 || src->step == 1)
    k_words8 = self->k_words8;
  else
    k_words8 = self->k_words8_any;
  return gst_cl_laplace_launch (self, self->k_buffer, k_words8,
      self->k_image, src, dst, m, q, 0, maxv, work, error);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
gst_cl_laplace_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClLaplace *self = GST_CL_LAPLACE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      break;
    case PROP_STRENGTH:
      self->strength = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_laplace_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClLaplace *self = GST_CL_LAPLACE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_STRENGTH:
      g_value_set_double (value, self->strength);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_laplace_class_init (GstClLaplaceClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClBaseFilterClass *base_class = GST_CL_BASE_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cl_laplace_set_property;
  gobject_class->get_property = gst_cl_laplace_get_property;

  /**
   * GstClLaplace:mode:
   *
   * Sharpen (add the Laplacian to the picture) or output its edges (the
   * Laplacian's magnitude).
   */
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "sharpen: c + strength * L; edges: strength * |L| (L = 8 * c - "
          "sum of the 8 neighbours)", GST_TYPE_CL_LAPLACE_MODE, DEFAULT_MODE,
          flags));
  /**
   * GstClLaplace:strength:
   *
   * Multiplier of the Laplacian response, applied in steps of 1/16384
   * (1/2^18 in formats of more than 8 bits) and rounded to nearest; 1 is
   * exact.
   */
  g_object_class_install_property (gobject_class, PROP_STRENGTH,
      g_param_spec_double ("strength", "Strength",
          "Multiplier of the Laplacian response (1: exact 9c - sum of 8 for "
          "sharpen)", 0.0, GST_CL_LAPLACE_MAX_STRENGTH, DEFAULT_STRENGTH,
          flags));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL Laplace sharpen and edges", "Filter/Effect/Video",
      "Sharpens video or extracts its edges with the 3x3 Laplacian on an "
      "OpenCL device", "clfilters developers");
  gst_cl_element_class_add_pad_templates (element_class, TRUE, TRUE, TRUE,
      TRUE);

  base_class->program_name = "laplace";
  base_class->program_source = gst_cl_source_laplace;
  base_class->setup = gst_cl_laplace_setup;
  base_class->cleanup = gst_cl_laplace_cleanup;
  base_class->process = gst_cl_laplace_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CL_LAPLACE_MODE, 0);
}

static void
gst_cl_laplace_init (GstClLaplace * self)
{
  self->mode = DEFAULT_MODE;
  self->strength = DEFAULT_STRENGTH;
}
