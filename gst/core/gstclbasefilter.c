/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasefilter.c: base class of the clfilters elements.
 *
 * On the device that GstClBaseTransform found, builds the element's
 * program, negotiates system memory or memory:OpenCLMemory on each pad,
 * chooses the storage (gstclstorage.c) and runs each frame through the
 * device (gstclframeloop.c): the element's kernels enqueued, the output
 * pushed without waiting for them. The kernels' work decomposition is
 * tuned per device when caps are set (gstclfiltertuning.c).
 */
#include "gstclbasefilter.h"
#include "gstclfiltertuning.h"
#include "gstclframeloop.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

enum
{
  PROP_0,
  PROP_STORAGE,
  PROP_MEMORY,
  PROP_PROFILING,
  PROP_TUNING,                  /* the first of the tuning properties */
};

#define DEFAULT_STORAGE GST_CL_STORAGE_AUTO
#define DEFAULT_PROFILING FALSE


typedef struct
{
  /* properties, under the object lock */
  GstClStorage storage;
  gboolean profiling;

  /* from start() to stop() */
  cl_program program;

  /* for the current caps, and the frames */
  gboolean image;               /* kernels work on images */
  GstClFilterTuning tuning;    /* its settings are properties */
  GstClFrameLoop loop;
} GstClBaseFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClBaseFilter, gst_cl_base_filter,
    GST_TYPE_CL_BASE_TRANSFORM, G_ADD_PRIVATE (GstClBaseFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cl_base_filter_debug, "clbasefilter", 0,
        "clfilters base class"));

#define PRIV(self) \
  ((GstClBaseFilterPrivate *) gst_cl_base_filter_get_instance_private (self))
#define BASE(self) GST_CL_BASE_TRANSFORM (self)
#define DEVICE(self) (BASE (self)->device)

/* ------------------------------------------------------------------------ */
/* For subclasses, at caps time                                            */

/**
 * gst_cl_base_filter_expects_tiles:
 *
 * Whether frames will take the GPU shape (tiles) as the `kernel-shape`
 * property stands (by default: on devices other than CPUs), before any
 * frame: for kernels worth preparing at caps time. tuning=auto may still
 * choose otherwise per case.
 */
gboolean
gst_cl_base_filter_expects_tiles (GstClBaseFilter * self)
{
  return gst_cl_filter_tuning_expects_tiles (&PRIV (self)->tuning,
      GST_OBJECT (self), DEVICE (self));
}

/**
 * gst_cl_base_filter_expected_group:
 * @self: a #GstClBaseFilter
 *
 * The work-group size that frames will ask for, as far as it is known
 * before they come (the explicit `work-group-size` over a stored tuning),
 * for kernels built per group size: 0 for the kernel's default.
 *
 * Returns: the size, at most the device's largest
 */
guint
gst_cl_base_filter_expected_group (GstClBaseFilter * self)
{
  return gst_cl_filter_tuning_expected_group (&PRIV (self)->tuning,
      GST_OBJECT (self), DEVICE (self));
}

/* ------------------------------------------------------------------------ */
/* Caps                                                                     */

/* Filters take and give both memories (the parent class); analyzers pass
 * their caps through unchanged. */
static GstCaps *
gst_cl_base_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  if (!GST_CL_BASE_FILTER_GET_CLASS (trans)->analyze)
    return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->
        transform_caps (trans, direction, caps, filter);
  return filter ? gst_caps_intersect_full (filter, caps,
      GST_CAPS_INTERSECT_FIRST) : gst_caps_ref (caps);
}

/* Metas that describe the picture only (no size, no layout) follow it. */
static gboolean
gst_cl_base_filter_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);

  if (!tags || (g_strv_length ((gchar **) tags) == 1 &&
          gst_meta_api_type_has_tag (meta->info->api,
              g_quark_from_string (GST_META_TAG_VIDEO_STR))))
    return TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Lifecycle                                                                */

static gboolean gst_cl_base_filter_stop (GstBaseTransform * trans);

static gboolean
gst_cl_base_filter_start (GstBaseTransform * trans)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GError *err = NULL;

  /* the device (an error posted if there is none) */
  if (!GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->start
      (trans))
    return FALSE;
  priv->program = gst_cl_device_get_program (DEVICE (self),
      klass->program_name, klass->program_source, &err);
  if (!priv->program)
    goto build_failed;
  if (klass->setup && !klass->setup (self, priv->program, &err))
    goto failed;
  gst_cl_frame_loop_start (&priv->loop, BASE (self)->queue_set);
  return TRUE;

  /* ERRORS */
build_failed:
  /* the debug text carries the build log */
  GST_ELEMENT_ERROR (self, LIBRARY, INIT,
      ("Could not build the OpenCL kernels %s.cl for device \"%s\".",
          klass->program_name, DEVICE (self)->name), ("%s", err->message));
  goto cleanup;
failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Could not set up OpenCL on device \"%s\".", DEVICE (self)->name),
      ("%s", err->message));
cleanup:
  g_clear_error (&err);
  gst_cl_base_filter_stop (trans);
  return FALSE;
}

/**
 * gst_cl_base_filter_drain:
 *
 * Waits for every frame the element still has on the device (stop, flush,
 * EOS, new caps; an analyzer that must hand its frame over unshared),
 * releases the element's references to them and posts what profiling
 * measured of them.
 */
gboolean
gst_cl_base_filter_drain (GstClBaseFilter * self, GError ** error)
{
  return gst_cl_frame_loop_drain (&PRIV (self)->loop, GST_ELEMENT (self),
      error);
}

static gboolean
gst_cl_base_filter_stop (GstBaseTransform * trans)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);

  gst_cl_frame_loop_stop (&priv->loop, GST_ELEMENT (self));
  if (DEVICE (self))
    gst_cl_device_finish (DEVICE (self), NULL);
  /* also after a failed setup: cleanup releases what setup created */
  if (klass->cleanup)
    klass->cleanup (self);
  gst_cl_frame_loop_clear (&priv->loop);
  if (priv->program)
    clReleaseProgram (priv->program);
  priv->program = NULL;
  gst_cl_filter_tuning_clear (&priv->tuning);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->stop
      (trans);
}

/* ------------------------------------------------------------------------ */
/* Caps time: storage, stores, tuning (gstclfiltertuning.c)                 */

static gchar *
tuning_case (GstClBaseFilter * self, const GstVideoInfo * info)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  gchar *extra = klass->tuning_case ? klass->tuning_case (self) : NULL;
  gchar *key = g_strdup_printf ("%s%s%s %s %dx%d %s",
      G_OBJECT_TYPE_NAME (self), extra ? " " : "", extra ? extra : "",
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
      PRIV (self)->image ? "image" : "buffer");
  g_free (extra);
  return key;
}

/* The element's kernels, for a frame or the tuner. */
static gboolean
dispatch (gpointer filter, GstClFrameWork * work, const GstClPlane * src,
    const GstClPlane * dst, const GstClFramePair * frames, GstBuffer * buffer,
    GError ** error)
{
  GstClBaseFilter *self = filter;
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);

  if (klass->convert)
    return klass->convert (self, work, frames, buffer, error);
  if (klass->analyze)
    return klass->analyze (self, work, src, buffer, error);
  return klass->process (self, work, src, dst, error);
}

/* Whether the kernels take frames in images: the `storage` property, or
 * what `storage=auto` measured, where the device can; converters take
 * whole frames in buffers. */
static gboolean
choose_images (GstClBaseFilter * self, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClStorage kind;
  gboolean automatic;

  GST_OBJECT_LOCK (self);
  kind = PRIV (self)->storage;
  GST_OBJECT_UNLOCK (self);
  if (klass->convert) {
    if (kind == GST_CL_STORAGE_IMAGE)
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
          ("%s holds frames in OpenCL buffers: storage=image falls back to "
              "buffers.", GST_ELEMENT_NAME (self)), (NULL));
    return FALSE;
  }
  automatic = kind == GST_CL_STORAGE_AUTO;
  if (automatic)
    kind = klass->auto_storage ? klass->auto_storage (self, DEVICE (self),
        in_info) : gst_cl_storage_measured (DEVICE (self), in_info);
  return gst_cl_storage_use_images (GST_ELEMENT (self), kind, automatic,
      DEVICE (self), in_info, out_info);
}

static gboolean
gst_cl_base_filter_set_info (GstClBaseTransform * base, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (base);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstClFilterTuningCase tune_case = {.element = GST_ELEMENT (self),
    .device = DEVICE (self), .strips_fields = klass->strips_fields,
    .tiles_fields = klass->tiles_fields,
    .program_source = klass->program_source,
    .in_store = &priv->loop.in_store, .in_info = in_info,
    .out_info = out_info, .run = dispatch, .filter = self,
  };
  GstClFrameLoopKind loop_kind = klass->convert ? GST_CL_FRAME_LOOP_CONVERTER
      : klass->analyze ? GST_CL_FRAME_LOOP_ANALYZER : GST_CL_FRAME_LOOP_FILTER;
  GError *err = NULL;

  if (!priv->loop.running)
    return FALSE;
  /* frames of the old caps finish with the old state */
  gst_cl_base_filter_drain (self, NULL);
  priv->image = choose_images (self, in_info, out_info);
  if (!gst_cl_frame_loop_set_caps (&priv->loop, GST_ELEMENT (self),
          DEVICE (self), incaps, in_info, outcaps, out_info, priv->image,
          loop_kind, &err)
      || (klass->configure && !klass->configure (self, in_info,
              &priv->loop.in_store.desc, &err)))
    goto failed;
  tune_case.queue = gst_cl_frame_loop_queue (&priv->loop, DEVICE (self));
  tune_case.has_output = !klass->analyze;
  tune_case.in_store = klass->convert ? NULL : &priv->loop.in_store;
  tune_case.out_store = klass->analyze || klass->convert ? NULL :
      &priv->loop.out_store;
  gst_cl_filter_tuning_tune (&priv->tuning, &tune_case,
      tuning_case (self, in_info));
  return TRUE;

failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Could not allocate OpenCL memory for %dx%d frames on \"%s\".",
          GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
          DEVICE (self)->name), ("%s", err->message));
  g_clear_error (&err);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Streaming                                                                */

/* One frame through the element: @outbuf NULL for analyzers. */
static GstFlowReturn
run_frame (GstClBaseFilter * self, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstClFrameLoopFrame f = { DEVICE (self), BASE (self)->queue_set,
    &BASE (self)->in_info, &BASE (self)->out_info, inbuf, outbuf,
  };

  /* a setting that chooses other kernels changed while playing */
  if (priv->tuning.case_key && klass->tuning_case)
    gst_cl_filter_tuning_retune (&priv->tuning, GST_OBJECT (self),
        DEVICE (self), tuning_case (self, &BASE (self)->in_info));
  gst_cl_filter_tuning_for_frame (&priv->tuning, GST_OBJECT (self),
      &f.decomposition);
  GST_OBJECT_LOCK (self);
  f.profiling = priv->profiling;
  GST_OBJECT_UNLOCK (self);
  f.segment = &GST_BASE_TRANSFORM (self)->segment;
  f.dispatch = dispatch;
  f.filter = self;
  return gst_cl_frame_loop_run (&priv->loop, GST_ELEMENT (self), &f) ?
      GST_FLOW_OK : GST_FLOW_ERROR;
}

static GstFlowReturn
gst_cl_base_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstFlowReturn ret = gst_cl_base_transform_check_input (BASE (trans), inbuf);

  if (ret != GST_FLOW_OK)
    return ret;
  return run_frame (GST_CL_BASE_FILTER (trans), inbuf, outbuf);
}

/* In place: analyzers, in passthrough; a converter in passthrough (equal
 * caps) has nothing to do. */
static GstFlowReturn
gst_cl_base_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstFlowReturn ret;

  if (!GST_CL_BASE_FILTER_GET_CLASS (trans)->analyze)
    return GST_FLOW_OK;
  ret = gst_cl_base_transform_check_input (BASE (trans), buf);

  if (ret != GST_FLOW_OK)
    return ret;
  return run_frame (GST_CL_BASE_FILTER (trans), buf, NULL);
}

static gboolean
gst_cl_base_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (trans));

  gst_cl_frame_loop_sink_event (&priv->loop, GST_ELEMENT (trans), event);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->sink_event
      (trans, event);
}

/* ------------------------------------------------------------------------ */
/* Properties                                                               */

static void
gst_cl_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_MEMORY:
      gst_cl_storage_warn_memory_alias (object);
      /* fall through */
    case PROP_STORAGE:
      priv->storage = g_value_get_enum (value);
      break;
    case PROP_PROFILING:
      priv->profiling = g_value_get_boolean (value);
      break;
    default:
      if (prop_id < PROP_TUNING || !gst_cl_tuning_settings_set
          (&priv->tuning.settings, prop_id - PROP_TUNING, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_MEMORY:
    case PROP_STORAGE:
      g_value_set_enum (value, priv->storage);
      break;
    case PROP_PROFILING:
      g_value_set_boolean (value, priv->profiling);
      break;
    default:
      if (prop_id < PROP_TUNING || !gst_cl_tuning_settings_get
          (&priv->tuning.settings, prop_id - PROP_TUNING, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_filter_class_init (GstClBaseFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstClBaseTransformClass *base_class = GST_CL_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_cl_base_filter_set_property;
  gobject_class->get_property = gst_cl_base_filter_get_property;
  klass->strips_fields = klass->tiles_fields = GST_CL_TUNE_ALL;
  /* analyzers run in passthrough */
  base_class->passthrough_pool = TRUE;

  gst_cl_storage_install_properties (gobject_class, PROP_STORAGE,
      PROP_MEMORY);
  g_object_class_install_property (gobject_class, PROP_PROFILING,
      g_param_spec_boolean ("profiling", "Profiling",
          "Measure upload, kernel and download times and post them in "
          "\"cl-profile\" element messages, at most once a second",
          DEFAULT_PROFILING, rw | GST_PARAM_MUTABLE_PLAYING));
  gst_cl_tuning_settings_install (gobject_class, PROP_TUNING);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_base_filter_start);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_caps);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_meta);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_base_filter_stop);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_base_filter_sink_event);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_ip);
  base_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_info);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BASE_FILTER, 0);
}

static void
gst_cl_base_filter_init (GstClBaseFilter * self)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  /* QoS on, as video filters have it: a frame already late is dropped
   * before its kernels are enqueued */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  priv->storage = DEFAULT_STORAGE;
  priv->profiling = DEFAULT_PROFILING;
  gst_cl_tuning_settings_init (&priv->tuning.settings);
}
