/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/**
 * SECTION:element-cltonemap
 * @title: cltonemap
 * @see_also: clhistogram, clupload, cldownload, vapostproc
 *
 * Maps HDR video (PQ or HLG, in P010_10LE, P016_LE, I420_10LE, I420_12LE,
 * Y444_16LE or RGBA64_LE) to SDR BT.709 on an OpenCL device, into the
 * input's 8-bit sibling (NV12, NV12, I420, I420, Y444, RGBA) or the input
 * format itself, as downstream accepts (the 8-bit sibling preferred).
 * Input that is not HDR passes through untouched.
 *
 * Each pixel is decoded to R'G'B', linearised (PQ EOTF, or HLG's inverse
 * OETF and OOTF), its signal s = max (R, G, B) mapped by the `curve` from
 * the source peak Lw to `target-peak` (R, G and B scaled by s'/s),
 * converted from BT.2020 to BT.709 primaries, clamped, and encoded with
 * BT.1886 and the BT.709 matrix (docs/elements/cltonemap.md).
 *
 * The source peak comes from the caps' HDR metadata, a fixed value, or
 * (`peak-mode=dynamic`) the frame itself: a percentile of the histogram
 * of PQ (max (R, G, B)) of the frame, smoothed over frames, with scene
 * cuts. The histogram, the curve and the mapping are three kernels on one
 * queue with no host wait: the frame that is measured is the frame that
 * is mapped. With `post-messages`, an element message "cltonemap" per
 * frame gives the peaks, read back without stalling the stream.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=hdr.mkv ! matroskademux ! h265parse ! \
 *     avdec_h265 ! cltonemap peak-mode=dynamic ! videoconvert ! autovideosink
 * ]| A PQ file to an SDR display, the peak measured in every frame.
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=30 ! \
 *     video/x-raw,format=P010_10LE,colorimetry=bt2100-pq ! \
 *     cltonemap peak-mode=dynamic post-messages=true ! fakesink
 * ]| The detected peaks as element messages.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcltonemap.h"
#include "gstcltonemapcaps.h"
#include "gstcltonemapkernels.h"
#include "core/gstclcaps.h"
#include "gstclkernels.h"
#include "gstclshared.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_tone_map_debug);
#define GST_CAT_DEFAULT gst_cl_tone_map_debug

enum
{
  PROP_0,
  PROP_CURVE,
  PROP_PEAK_MODE,
  PROP_SOURCE_PEAK,
  PROP_TARGET_PEAK,
  PROP_HLG_PEAK,
  PROP_PERCENTILE,
  PROP_SCENE_THRESHOLD,
  PROP_SMOOTHING_PERIOD,
  PROP_POST_MESSAGES,
};

#define DEFAULT_CURVE GST_CL_TONE_CURVE_BT2390
#define DEFAULT_PEAK_MODE GST_CL_TONE_PEAK_METADATA
#define DEFAULT_SOURCE_PEAK 1000.0
#define DEFAULT_TARGET_PEAK 100.0
#define DEFAULT_HLG_PEAK 1000.0
#define DEFAULT_PERCENTILE 99.99
#define DEFAULT_SCENE_THRESHOLD 0.1
#define DEFAULT_SMOOTHING_PERIOD 20.0

struct _GstClToneMap
{
  GstClBaseFilter parent;

  /* properties, under the object lock */
  GstClToneMapSettings settings;

  /* streaming: the device side (gstcltonemapkernels.c); hdr: the current
   * caps are HDR (else in passthrough) */
  GstClToneMapKernels kernels;
  gboolean hdr;
};

G_DEFINE_TYPE_WITH_CODE (GstClToneMap, gst_cl_tone_map,
    GST_TYPE_CL_BASE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cl_tone_map_debug, "cltonemap", 0,
        "OpenCL HDR to SDR tone mapping"));
GST_ELEMENT_REGISTER_DEFINE (cltonemap, "cltonemap", GST_RANK_NONE,
    GST_TYPE_CL_TONE_MAP);

GType
gst_cl_tone_curve_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_TONE_CURVE_BT2390, "ITU-R BT.2390 EETF (a knee in PQ)", "bt2390"},
    {GST_CL_TONE_CURVE_REINHARD, "Extended Reinhard", "reinhard"},
    {GST_CL_TONE_CURVE_HABLE, "Hable's filmic curve", "hable"},
    {GST_CL_TONE_CURVE_CLIP, "Clip at the target peak", "clip"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClToneCurve", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_tone_peak_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_TONE_PEAK_METADATA, "MaxCLL, else the mastering display's peak, "
          "else source-peak", "metadata"},
    {GST_CL_TONE_PEAK_FIXED, "source-peak", "fixed"},
    {GST_CL_TONE_PEAK_DYNAMIC, "Each frame's own peak, smoothed, with scene "
          "cuts", "dynamic"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClTonePeakMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ------------------------------------------------------------------------ */
/* Caps                                                                     */

static GstCaps *
gst_cl_tone_map_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *res, *tmp;

  if (gst_caps_is_any (caps))
    return filter ? gst_caps_ref (filter) : gst_caps_new_any ();
  res = gst_cl_tonemap_transform_caps (direction, caps);
  if (filter) {
    tmp = gst_caps_intersect_full (filter, res, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (res);
    res = tmp;
  }
  return res;
}

/* The base class's caps (the frames of the old caps drained, the frame
 * loop and the tuning), then the caps' constants on the device; HDR caps
 * whose transfer or primaries the element does not know fail here with a
 * negotiation error, not a guess; SDR caps pass through. */
static gboolean
gst_cl_tone_map_set_info (GstClBaseTransform * base, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClToneMap *self = GST_CL_TONE_MAP (base);
  GstClToneMapSetup setup;
  gchar *why = NULL;
  GError *err = NULL;

  /* frames and messages of the old caps finish with the old state */
  gst_cl_base_filter_drain (GST_CL_BASE_FILTER (self), NULL);
  gst_cl_tone_map_kernels_post (&self->kernels, GST_ELEMENT (self), TRUE);
  if (!gst_cl_tonemap_setup_from_caps (incaps, in_info, out_info, &setup,
          &why)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("cltonemap cannot map this input: %s.", why),
        ("input %" GST_PTR_FORMAT ", output %" GST_PTR_FORMAT, incaps,
            outcaps));
    g_free (why);
    return FALSE;
  }
  self->hdr = setup.hdr;
  if (!setup.hdr) {
    GST_INFO_OBJECT (self, "not HDR: passing through");
    return TRUE;
  }
  /* before the base class, whose tuner runs the kernels */
  if (!gst_cl_tone_map_kernels_configure (&self->kernels, base->device,
          gst_cl_device_get_queue (base->device,
              GST_CL_QUEUE_OF_SET (base->queue_set, GST_CL_QUEUE_COMPUTE)),
          &setup, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not prepare OpenCL tone mapping on \"%s\".",
            base->device->name), ("%s", err->message));
    g_clear_error (&err);
    return FALSE;
  }
  if (!GST_CL_BASE_TRANSFORM_CLASS (gst_cl_tone_map_parent_class)->set_info
      (base, incaps, in_info, outcaps, out_info))
    return FALSE;
  /* the tuner's frames moved the smoothing: the stream starts afresh */
  self->kernels.reset = TRUE;
  GST_INFO_OBJECT (self, "%" GST_PTR_FORMAT " to %" GST_PTR_FORMAT, incaps,
      outcaps);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* The device side                                                          */

static gboolean
gst_cl_tone_map_setup (GstClBaseFilter * base, cl_program program,
    GError ** error)
{
  GstClToneMap *self = GST_CL_TONE_MAP (base);
  GstClBaseTransform *trans = GST_CL_BASE_TRANSFORM (base);

  return gst_cl_tone_map_kernels_setup (&self->kernels, trans->device,
      program, gst_cl_device_get_queue (trans->device,
          GST_CL_QUEUE_OF_SET (trans->queue_set, GST_CL_QUEUE_COMPUTE)),
      error);
}

static void
gst_cl_tone_map_cleanup (GstClBaseFilter * base)
{
  gst_cl_tone_map_kernels_cleanup (&GST_CL_TONE_MAP (base)->kernels);
}

/* A frame's three kernels, and the messages of earlier frames whose
 * records are read. */
static gboolean
gst_cl_tone_map_convert (GstClBaseFilter * base, GstClFrameWork * work,
    const GstClFramePair * frames, GstBuffer * buffer, GError ** error)
{
  GstClToneMap *self = GST_CL_TONE_MAP (base);
  GstClToneMapSettings settings;

  GST_OBJECT_LOCK (self);
  settings = self->settings;
  GST_OBJECT_UNLOCK (self);
  if (!gst_cl_tone_map_kernels_enqueue (&self->kernels, work, frames,
          &settings, buffer, error))
    return FALSE;
  if (buffer)
    gst_cl_tone_map_kernels_post (&self->kernels, GST_ELEMENT (self), FALSE);
  return TRUE;
}

/* Every frame's message posted before EOS goes on (the base class waited
 * for the frames); the next frame after a flush starts the dynamic peak
 * afresh. */
static gboolean
gst_cl_tone_map_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstClToneMap *self = GST_CL_TONE_MAP (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
    case GST_EVENT_FLUSH_STOP:
      gst_cl_base_filter_drain (GST_CL_BASE_FILTER (self), NULL);
      gst_cl_tone_map_kernels_post (&self->kernels, GST_ELEMENT (self), TRUE);
      if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
        self->kernels.reset = TRUE;
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cl_tone_map_parent_class)->sink_event
      (trans, event);
}

/* The messages of the last frames, before the base class releases the
 * kernels. */
static gboolean
gst_cl_tone_map_stop (GstBaseTransform * trans)
{
  GstClToneMap *self = GST_CL_TONE_MAP (trans);

  gst_cl_base_filter_drain (GST_CL_BASE_FILTER (self), NULL);
  gst_cl_tone_map_kernels_post (&self->kernels, GST_ELEMENT (self), TRUE);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_tone_map_parent_class)->stop
      (trans);
}

/* ------------------------------------------------------------------------ */
/* Properties                                                               */

static void
gst_cl_tone_map_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClToneMap *self = GST_CL_TONE_MAP (object);
  GstClToneMapSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CURVE:
      s->curve = g_value_get_enum (value);
      break;
    case PROP_PEAK_MODE:
      s->peak_mode = g_value_get_enum (value);
      break;
    case PROP_SOURCE_PEAK:
      s->source_peak = g_value_get_double (value);
      break;
    case PROP_TARGET_PEAK:
      s->target_peak = g_value_get_double (value);
      break;
    case PROP_HLG_PEAK:
      s->hlg_peak = g_value_get_double (value);
      break;
    case PROP_PERCENTILE:
      s->percentile = g_value_get_double (value);
      break;
    case PROP_SCENE_THRESHOLD:
      s->scene_threshold = g_value_get_double (value);
      break;
    case PROP_SMOOTHING_PERIOD:
      s->smoothing_period = g_value_get_double (value);
      break;
    case PROP_POST_MESSAGES:
      s->post_messages = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_tone_map_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClToneMap *self = GST_CL_TONE_MAP (object);
  GstClToneMapSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CURVE:
      g_value_set_enum (value, s->curve);
      break;
    case PROP_PEAK_MODE:
      g_value_set_enum (value, s->peak_mode);
      break;
    case PROP_SOURCE_PEAK:
      g_value_set_double (value, s->source_peak);
      break;
    case PROP_TARGET_PEAK:
      g_value_set_double (value, s->target_peak);
      break;
    case PROP_HLG_PEAK:
      g_value_set_double (value, s->hlg_peak);
      break;
    case PROP_PERCENTILE:
      g_value_set_double (value, s->percentile);
      break;
    case PROP_SCENE_THRESHOLD:
      g_value_set_double (value, s->scene_threshold);
      break;
    case PROP_SMOOTHING_PERIOD:
      g_value_set_double (value, s->smoothing_period);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, s->post_messages);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
install_double (GObjectClass * klass, guint id, const gchar * name,
    const gchar * nick, const gchar * blurb, gdouble min, gdouble max,
    gdouble def)
{
  g_object_class_install_property (klass, id, g_param_spec_double (name,
          nick, blurb, min, max, def, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING));
}

/* the curve and where its source peak comes from */
static void
install_curve_properties (GObjectClass * klass, GParamFlags flags)
{
  /**
   * GstClToneMap:curve:
   *
   * The tone curve from the source peak to `target-peak`
   * (docs/elements/cltonemap.md, "The curves").
   */
  g_object_class_install_property (klass, PROP_CURVE,
      g_param_spec_enum ("curve", "Curve", "The tone curve",
          GST_TYPE_CL_TONE_CURVE, DEFAULT_CURVE, flags));
  /**
   * GstClToneMap:peak-mode:
   *
   * Where the source peak Lw comes from: the caps' MaxCLL or mastering
   * display, `source-peak`, or each frame's own histogram (smoothed, with
   * scene cuts).
   */
  g_object_class_install_property (klass, PROP_PEAK_MODE,
      g_param_spec_enum ("peak-mode", "Peak mode",
          "Where the source peak comes from", GST_TYPE_CL_TONE_PEAK_MODE,
          DEFAULT_PEAK_MODE, flags));
}

/* the properties of the source peak (peak-mode=metadata, fixed, dynamic) */
static void
install_peak_properties (GObjectClass * klass)
{
  /**
   * GstClToneMap:source-peak:
   *
   * The source peak in nits with `peak-mode=fixed`, and with
   * `peak-mode=metadata` for caps without HDR metadata.
   */
  install_double (klass, PROP_SOURCE_PEAK, "source-peak", "Source peak",
      "Source peak in nits (peak-mode=fixed, or metadata without any)",
      100.0, 10000.0, DEFAULT_SOURCE_PEAK);
  /**
   * GstClToneMap:target-peak:
   *
   * The SDR display's peak in nits: the output's full level.
   */
  install_double (klass, PROP_TARGET_PEAK, "target-peak", "Target peak",
      "Peak of the SDR display in nits", 48.0, 1000.0, DEFAULT_TARGET_PEAK);
  /**
   * GstClToneMap:hlg-peak:
   *
   * The nominal peak of HLG's OOTF (BT.2100), in nits.
   */
  install_double (klass, PROP_HLG_PEAK, "hlg-peak", "HLG peak",
      "Nominal peak of HLG's OOTF in nits", 100.0, 10000.0,
      DEFAULT_HLG_PEAK);
  /**
   * GstClToneMap:percentile:
   *
   * `peak-mode=dynamic`: the frame peak is the smallest histogram bin of
   * PQ (max (R, G, B)) whose cumulative count reaches this percentage of
   * the frame's pixels (100: the brightest pixel's bin).
   */
  install_double (klass, PROP_PERCENTILE, "percentile", "Percentile",
      "peak-mode=dynamic: the frame peak is this percentile of the pixels' "
      "PQ (max (R, G, B)) (100: the maximum)", 0.0, 100.0,
      DEFAULT_PERCENTILE);
  /**
   * GstClToneMap:scene-threshold:
   *
   * `peak-mode=dynamic`: a frame whose peak is further than this (in PQ)
   * from the smoothed peak is a scene cut, mapped with its own peak.
   */
  install_double (klass, PROP_SCENE_THRESHOLD, "scene-threshold",
      "Scene threshold", "peak-mode=dynamic: a frame peak this far (PQ) "
      "from the smoothed peak is a scene cut", 0.0, 1.0,
      DEFAULT_SCENE_THRESHOLD);
  /**
   * GstClToneMap:smoothing-period:
   *
   * `peak-mode=dynamic`: the time constant, in frames, of the exponential
   * smoothing of the peak between scene cuts; 0 for none.
   */
  install_double (klass, PROP_SMOOTHING_PERIOD, "smoothing-period",
      "Smoothing period", "peak-mode=dynamic: time constant of the peak's "
      "smoothing in frames (0: none)", 0.0, 10000.0,
      DEFAULT_SMOOTHING_PERIOD);
}

static void
install_properties (GObjectClass * klass)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  install_curve_properties (klass, flags);
  install_peak_properties (klass);
  /**
   * GstClToneMap:post-messages:
   *
   * Post an element message "cltonemap" per frame (`timestamp`,
   * `frame-peak`, `peak`, `scene-cut`), in frame order, all before EOS.
   */
  g_object_class_install_property (klass, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post an element message \"cltonemap\" per frame with the frame "
          "peak, the peak used and scene cuts", FALSE, flags));
}

static void
gst_cl_tone_map_class_init (GstClToneMapClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstClBaseTransformClass *base_class = GST_CL_BASE_TRANSFORM_CLASS (klass);
  GstClBaseFilterClass *filter_class = GST_CL_BASE_FILTER_CLASS (klass);
  GstCaps *caps, *tmp;

  gobject_class->set_property = gst_cl_tone_map_set_property;
  gobject_class->get_property = gst_cl_tone_map_get_property;
  install_properties (gobject_class);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL HDR to SDR tone mapping", "Filter/Converter/Video",
      "Maps PQ and HLG video to SDR BT.709 on an OpenCL device, the curve "
      "from each frame's own histogram", "clfilters developers");
  tmp = gst_caps_from_string (GST_VIDEO_CAPS_MAKE
      (GST_CL_TONEMAP_SINK_FORMATS));
  caps = gst_cl_caps_with_memories (tmp, TRUE, TRUE);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  gst_caps_unref (tmp);
  tmp = gst_caps_from_string (GST_VIDEO_CAPS_MAKE
      (GST_CL_TONEMAP_SRC_FORMATS));
  caps = gst_cl_caps_with_memories (tmp, TRUE, TRUE);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  gst_caps_unref (tmp);

  /* SDR input: the same caps on both pads, and the buffers untouched */
  trans_class->passthrough_on_same_caps = TRUE;
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_tone_map_stop);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_tone_map_transform_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_tone_map_sink_event);
  base_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_tone_map_set_info);

  /* one program of two files: the general kernels and the CPUs' ones */
  filter_class->program_name = "tonemap";
  filter_class->program_source = g_strconcat (gst_cl_source_tonemap,
      gst_cl_source_tonemap_x8, NULL);
  filter_class->setup = gst_cl_tone_map_setup;
  filter_class->cleanup = gst_cl_tone_map_cleanup;
  filter_class->convert = gst_cl_tone_map_convert;
  /* SDR caps pass through untouched, with no pool of the element's */
  base_class->passthrough_pool = FALSE;
  /* the GPU mapping reads the work-group size; the CPU kernels nothing */
  filter_class->strips_fields = 0;
  filter_class->tiles_fields = GST_CL_TUNE_GROUP;

  gst_type_mark_as_plugin_api (GST_TYPE_CL_TONE_CURVE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_TONE_PEAK_MODE, 0);
}

static void
gst_cl_tone_map_init (GstClToneMap * self)
{
  GstClToneMapSettings *s = &self->settings;

  s->curve = DEFAULT_CURVE;
  s->peak_mode = DEFAULT_PEAK_MODE;
  s->source_peak = DEFAULT_SOURCE_PEAK;
  s->target_peak = DEFAULT_TARGET_PEAK;
  s->hlg_peak = DEFAULT_HLG_PEAK;
  s->percentile = DEFAULT_PERCENTILE;
  s->scene_threshold = DEFAULT_SCENE_THRESHOLD;
  s->smoothing_period = DEFAULT_SMOOTHING_PERIOD;
  s->post_messages = FALSE;
}
