/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasefilter.c: base class of the clfilters elements.
 *
 * Finds and shares the device (gstclcontext), builds the element's
 * program, negotiates system memory or memory:OpenCLMemory on each pad,
 * brings each input frame to the device (in place, or once into a device
 * frame), enqueues the element's kernels on the device's compute queue and
 * pushes the output without waiting for them: the events on the frames'
 * memory order the next consumer after them (docs/design.md). The kernels'
 * work decomposition is tuned per device when caps are set
 * (gstclbasefiltertuning.c).
 */
#include "gstclbasefilter.h"
#include "gstclbufferpool.h"
#include "gstclcaps.h"
#include "gstclframe.h"
#include "gstclcontext.h"
#include "gstclinflight.h"
#include "gstcllayout.h"
#include "gstclbasefilter-private.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

enum
{
  PROP_0,
  PROP_STORAGE,
  PROP_MEMORY,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_PROFILING,
  PROP_TUNING,
  PROP_KERNEL_SHAPE,
  PROP_WORK_GROUP_SIZE,
  PROP_ROWS_PER_ITEM,
  PROP_PIXELS_PER_ITEM,
};

#define DEFAULT_STORAGE GST_CL_STORAGE_AUTO
#define DEFAULT_DEVICE ""
#define DEFAULT_PROFILING FALSE
#define DEFAULT_KERNEL_SHAPE GST_CL_KERNEL_SHAPE_AUTO
#define DEFAULT_TUNING GST_CL_TUNING_AUTO


G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClBaseFilter, gst_cl_base_filter,
    GST_TYPE_VIDEO_FILTER, G_ADD_PRIVATE (GstClBaseFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cl_base_filter_debug, "clbasefilter", 0,
        "clfilters base class"));

#define PRIV(self) \
  ((GstClBaseFilterPrivate *) gst_cl_base_filter_get_instance_private (self))

GstClBaseFilterPrivate *
gst_cl_base_filter_get_private (GstClBaseFilter * self)
{
  return PRIV (self);
}

GType
gst_cl_tuning_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_TUNING_AUTO, "The work decomposition measured fastest on this "
          "device, measured once and kept on disk", "auto"},
    {GST_CL_TUNING_DEFAULTS, "The built-in choices, nothing measured or "
          "stored", "defaults"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClTuning", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ------------------------------------------------------------------------ */
/* For subclasses                                                           */

GstClDevice *
gst_cl_base_filter_get_device (GstClBaseFilter * self)
{
  return PRIV (self)->device;
}

cl_command_queue
gst_cl_base_filter_get_queue (GstClBaseFilter * self)
{
  return gst_cl_device_get_queue (PRIV (self)->device,
      GST_CL_QUEUE_OF_SET (PRIV (self)->frame_set, GST_CL_QUEUE_COMPUTE));
}

/**
 * gst_cl_base_filter_uses_strips:
 *
 * Whether the frame being filtered uses the CPU shape of kernels (strips of
 * rows) rather than the GPU shape (tiles).
 */
gboolean
gst_cl_base_filter_uses_strips (GstClBaseFilter * self)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  return gst_cl_tuning_uses_strips (&priv->frame_tuning, priv->device);
}

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
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstClDecomposition t;

  GST_OBJECT_LOCK (self);
  t = priv->tuning;
  GST_OBJECT_UNLOCK (self);
  return !gst_cl_tuning_uses_strips (&t, priv->device);
}

/**
 * gst_cl_base_filter_is_tuning:
 * @self: a #GstClBaseFilter
 *
 * Whether the frame being filtered (process() or analyze()) is one of the
 * tuner's, which times the kernels that each candidate launches: a kernel
 * the subclass would build in the background for a stream (and meanwhile
 * run another) has to be built now.
 *
 * Returns: TRUE while the tuner runs the subclass
 */
gboolean
gst_cl_base_filter_is_tuning (GstClBaseFilter * self)
{
  return PRIV (self)->tuning_run;
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
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstClDecomposition t;

  GST_OBJECT_LOCK (self);
  gst_cl_tuning_merge (&priv->tuning, &priv->tuned, &t);
  GST_OBJECT_UNLOCK (self);
  return MIN (t.work_group_size, priv->device->max_work_group_size);
}

/**
 * gst_cl_base_filter_launch_shape:
 *
 * gst_cl_launch_shape() with the tuning properties of the frame being
 * filtered.
 */
void
gst_cl_base_filter_launch_shape (GstClBaseFilter * self,
    const GstClPlane * plane, gboolean vectors, GstClLaunch * launch)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  gst_cl_launch_shape (&priv->frame_tuning, priv->device, plane, vectors,
      launch);
}

/**
 * gst_cl_base_filter_launch_words8:
 *
 * gst_cl_launch_words8() with the tuning properties of the frame being
 * filtered.
 */
gboolean
gst_cl_base_filter_launch_words8 (GstClBaseFilter * self,
    const GstClPlane * src, const GstClPlane * dst, GstClLaunch * launch)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  return gst_cl_launch_words8 (&priv->frame_tuning, priv->device, src, dst,
      launch);
}

/**
 * gst_cl_base_filter_enqueue:
 *
 * gst_cl_launch_enqueue() on the device's compute queue.
 */
gboolean
gst_cl_base_filter_enqueue (GstClBaseFilter * self, cl_kernel kernel,
    const GstClLaunch * launch, cl_event * events, guint * n_events,
    GError ** error)
{
  return gst_cl_launch_enqueue (gst_cl_base_filter_get_queue (self), kernel,
      launch, events, n_events, error);
}

/* ------------------------------------------------------------------------ */
/* Caps                                                                     */

/* Filters take and give both memories, the device's first: two clfilters
 * neighbours keep frames on the device, system memory neighbours get
 * system memory. Analyzers pass their caps through unchanged. */
static GstCaps *
gst_cl_base_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (trans);
  GstCaps *res, *tmp;

  if (klass->analyze || gst_caps_is_any (caps))
    return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->
        transform_caps (trans, direction, caps, filter);
  res = gst_cl_caps_with_memories (caps, TRUE, TRUE);
  if (filter) {
    tmp = gst_caps_intersect_full (filter, res, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (res);
    res = tmp;
  }
  return res;
}

static GstCaps *
gst_cl_base_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->
      fixate_caps (trans, direction, caps,
      gst_cl_caps_prefer_device (othercaps));
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
  gchar *selector;

  GST_OBJECT_LOCK (self);
  selector = g_strdup (priv->device_selector);
  GST_OBJECT_UNLOCK (self);

  priv->device = gst_cl_ensure_element_device (GST_ELEMENT (self), selector,
      &err);
  if (!priv->device)
    goto no_device;
  priv->queue_set = priv->frame_set =
      gst_cl_device_next_queue_set (priv->device);
  GST_OBJECT_LOCK (self);
  g_free (priv->device_name);
  priv->device_name = g_strdup (priv->device->name);
  GST_OBJECT_UNLOCK (self);
  g_object_notify (G_OBJECT (self), "device-name");
  GST_INFO_OBJECT (self, "using OpenCL device %u.%u \"%s\" (%s)%s",
      priv->device->platform_index, priv->device->device_index,
      priv->device->name, priv->device->platform_name,
      priv->device->zero_copy ? ", zero copy" : ", frames copied");

  priv->program = gst_cl_device_get_program (priv->device,
      klass->program_name, klass->program_source, &err);
  if (!priv->program)
    goto build_failed;
  if (klass->setup && !klass->setup (self, priv->program, &err))
    goto failed;
  priv->set_up = TRUE;
  gst_cl_in_flight_init (&priv->in_flight, FRAMES_IN_FLIGHT);
  gst_cl_profile_reset (&priv->profile);
  g_free (selector);
  return TRUE;

  /* ERRORS */
no_device:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", err->message),
        ("device property \"%s\", GST_CL_DEVICE \"%s\"", selector,
            GST_STR_NULL (g_getenv ("GST_CL_DEVICE"))));
    goto cleanup;
  }
build_failed:
  {
    /* the debug text carries the build log */
    GST_ELEMENT_ERROR (self, LIBRARY, INIT,
        ("Could not build the OpenCL kernels %s.cl for device \"%s\".",
            klass->program_name, priv->device->name), ("%s", err->message));
    goto cleanup;
  }
failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not set up OpenCL on device \"%s\".", priv->device->name),
        ("%s", err->message));
    goto cleanup;
  }
cleanup:
  {
    g_clear_error (&err);
    g_free (selector);
    gst_cl_base_filter_stop (trans);
    return FALSE;
  }
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
  GstClBaseFilterPrivate *priv = PRIV (self);
  GPtrArray *messages = g_ptr_array_new ();
  gboolean ok;
  guint i;

  ok = gst_cl_in_flight_retire (&priv->in_flight, 0, &priv->profile,
      messages, error);
  for (i = 0; i < messages->len; i++)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_element (GST_OBJECT (self), messages->pdata[i]));
  g_ptr_array_free (messages, TRUE);
  return ok;
}

static void
release_import_pool (GstClBaseFilterPrivate * priv)
{
  if (priv->import_pool) {
    gst_buffer_pool_set_active (priv->import_pool, FALSE);
    gst_clear_object (&priv->import_pool);
  }
}

static gboolean
gst_cl_base_filter_stop (GstBaseTransform * trans)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);

  if (priv->set_up)
    gst_cl_base_filter_drain (self, NULL);
  if (priv->device)
    gst_cl_device_finish (priv->device, NULL);
  /* also after a failed setup: cleanup releases what setup created */
  if (klass->cleanup)
    klass->cleanup (self);
  priv->set_up = FALSE;
  gst_cl_plane_store_clear (&priv->in_store);
  gst_cl_plane_store_clear (&priv->out_store);
  release_import_pool (priv);
  if (priv->program)
    clReleaseProgram (priv->program);
  priv->program = NULL;
  gst_clear_object (&priv->device);
  g_clear_pointer (&priv->case_key, g_free);
  g_clear_pointer (&priv->source_sum, g_free);
  return TRUE;
}

static gboolean
gst_cl_base_filter_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (filter);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstClStorage kind;
  gboolean automatic;
  GError *err = NULL;

  if (!priv->set_up)
    return FALSE;
  /* frames of the old caps finish with the old state */
  gst_cl_base_filter_drain (self, NULL);
  GST_OBJECT_LOCK (self);
  kind = priv->storage;
  GST_OBJECT_UNLOCK (self);
  automatic = kind == GST_CL_STORAGE_AUTO;
  if (automatic)
    kind = klass->auto_storage ? klass->auto_storage (self, priv->device,
        in_info) : gst_cl_storage_measured (priv->device, in_info);
  priv->image = gst_cl_storage_use_images (GST_ELEMENT (self), kind,
      automatic, priv->device, in_info, out_info);
  priv->out_device = gst_cl_caps_on_device (outcaps);
  GST_INFO_OBJECT (self, "%s %dx%d in OpenCL %s, from %s to %s memory",
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
      priv->image ? "images" : "buffers",
      gst_cl_caps_on_device (incaps) ? "device" : "system",
      priv->out_device ? "device" : "system");

  release_import_pool (priv);
  if (!gst_cl_plane_store_configure (&priv->in_store, priv->device, in_info,
          0, priv->image, FALSE, &err)
      || (!klass->analyze && !gst_cl_plane_store_configure (&priv->out_store,
              priv->device, out_info, 0, priv->image, TRUE, &err))
      || (klass->configure && !klass->configure (self, in_info,
              &priv->in_store.desc, &err)))
    goto failed;
  gst_cl_base_filter_tune (self, in_info, out_info);
  return TRUE;

failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Could not allocate OpenCL memory for %dx%d frames on \"%s\".",
          GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
          priv->device->name), ("%s", err->message));
  g_clear_error (&err);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Streaming                                                                */

static GstClockTime
running_time (GstClBaseFilter * self, GstBuffer * buf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  if (trans->segment.format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  return gst_segment_to_running_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buf));
}

/* One frame through the element: @outbuf NULL for analyzers. */
static GstFlowReturn
run_frame (GstClBaseFilter * self, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstClWaitList wl = { {0}, 0 };
  GstClProfileFrame prof = { 0, };
  GstVideoInfo in_layout, out_layout;
  GstClMemory *in, *out = NULL;
  GstBuffer *imported = NULL;
  cl_command_queue q;
  guint set, compute;
  cl_event done = NULL;
  gboolean profiling;
  GstClPlane src, dst;
  GError *err = NULL;
  GPtrArray *messages;
  cl_int st;
  guint i;

  gst_cl_base_filter_retune (self);
  GST_OBJECT_LOCK (self);
  profiling = priv->profiling;
  if (priv->tuning_mode == GST_CL_TUNING_AUTO)
    gst_cl_tuning_merge (&priv->tuning, &priv->tuned, &priv->frame_tuning);
  else
    priv->frame_tuning = priv->tuning;
  GST_OBJECT_UNLOCK (self);
  if (!(in = gst_cl_frame_input (priv->device, priv->queue_set,
              &priv->import_pool, &GST_VIDEO_FILTER (self)->in_info, inbuf,
              &in_layout, &imported, &err)))
    goto failed;
  /* the stream follows the frame: a device frame's work stays on the
   * queues that wrote it, so that neighbours need no wait between them */
  set = in->write_event ? GST_CL_QUEUE_SET (in->write_queue) :
      priv->queue_set;
  /* the element's own buffers (intermediate planes, counts) are used in
   * frame order: after a change of queues, after the last frame */
  if (set != priv->frame_set)
    gst_cl_wait_list_add (&wl, gst_cl_in_flight_newest (&priv->in_flight));
  priv->frame_set = set;
  compute = GST_CL_QUEUE_OF_SET (set, GST_CL_QUEUE_COMPUTE);
  q = gst_cl_device_get_queue (priv->device, compute);
  if (outbuf) {
    out = gst_cl_buffer_get_memory (outbuf, priv->device);
    if (!out) {
      g_set_error (&err, GST_CL_ERROR, GST_CL_ERROR_FAILED,
          "the output buffer is not a frame of the device");
      goto failed;
    }
    gst_cl_frame_layout (&GST_VIDEO_FILTER (self)->out_info, outbuf,
        &out_layout);
  }
  /* after what wrote the input and what still uses the output, when that
   * ran on another queue (an upload); the compute queue is in order */
  if (!gst_cl_memory_get_wait_list (in, compute, FALSE, &wl,
          &err) || (out && !gst_cl_memory_get_wait_list (out,
              compute, TRUE, &wl, &err)))
    goto failed;
  if (profiling && in->write_event &&
      in->write_queue == GST_CL_QUEUE_OF_SET (priv->frame_set,
          GST_CL_QUEUE_UPLOAD) && !priv->device->zero_copy) {
    prof.upload = in->write_event;
    clRetainEvent (prof.upload);
  }
  if (wl.n > 0) {
    st = clEnqueueBarrierWithWaitList (q, wl.n, wl.events, NULL);
    if (st != CL_SUCCESS) {
      gst_cl_fail (&err, st, "clEnqueueBarrierWithWaitList");
      goto failed;
    }
  }
  if (!gst_cl_plane_store_view (&priv->in_store, q, in->buffer, &in_layout,
          TRUE, &src, &err))
    goto failed;
  if (out) {
    if (!gst_cl_plane_store_view (&priv->out_store, q, out->buffer,
            &out_layout, FALSE, &dst, &err)
        || !klass->process (self, &src, &dst, profiling ? prof.kernels :
            NULL, &prof.n_kernels, &err)
        || !gst_cl_plane_store_write_back (&priv->out_store, q, out->buffer,
            &out_layout, &err)
        || !gst_cl_frame_copy_planes (q, in, &in_layout, out, &out_layout,
            &err))
      goto failed;
  } else if (!klass->analyze (self, &src, inbuf, profiling ? prof.kernels :
          NULL, &prof.n_kernels, &err)) {
    goto failed;
  }
  st = clEnqueueMarkerWithWaitList (q, 0, NULL, &done);
  if (st != CL_SUCCESS) {
    gst_cl_fail (&err, st, "clEnqueueMarkerWithWaitList");
    goto failed;
  }
  gst_cl_memory_set_event (in, compute, done, FALSE);
  if (out) {
    gst_cl_memory_set_event (out, compute, done, TRUE);
    /* system memory downstream: the download starts now, so that the
     * consumer's map finds the frame there or on its way */
    if (!priv->out_device && !gst_cl_memory_start_download (out, &err))
      goto failed;
    if (profiling && !priv->out_device && out->staging_event) {
      prof.download = out->staging_event;
      clRetainEvent (prof.download);
    }
  }
  /* the transfers flushed their own queues */
  clFlush (q);
  gst_cl_wait_list_clear (&wl);

  prof.pts = GST_BUFFER_PTS (inbuf);
  prof.running_time = running_time (self, inbuf);
  gst_cl_in_flight_push (&priv->in_flight, done, inbuf, imported,
      profiling ? &prof : NULL);
  if (!profiling)
    gst_cl_profile_frame_clear (&prof);
  clReleaseEvent (done);
  if (imported)
    gst_buffer_unref (imported);

  messages = g_ptr_array_new ();
  if (!gst_cl_in_flight_retire (&priv->in_flight, priv->in_flight.depth,
          &priv->profile, messages, &err)) {
    g_ptr_array_free (messages, TRUE);
    goto device_failed;
  }
  for (i = 0; i < messages->len; i++)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_element (GST_OBJECT (self), messages->pdata[i]));
  g_ptr_array_free (messages, TRUE);
  return GST_FLOW_OK;

failed:
  /* nothing may still use the frames once they are released */
  gst_cl_device_finish (priv->device, NULL);
  gst_cl_wait_list_clear (&wl);
  gst_cl_profile_frame_clear (&prof);
  if (done)
    clReleaseEvent (done);
  if (imported)
    gst_buffer_unref (imported);
device_failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("OpenCL processing failed on device \"%s\".", priv->device->name),
      ("%s", err ? err->message : "unknown"));
  g_clear_error (&err);
  return GST_FLOW_ERROR;
}

/* A buffer that does not hold a whole frame of the caps is dropped with a
 * warning, instead of letting an unwritten output buffer go downstream. */
static gboolean
check_input (GstBaseTransform * trans, GstBuffer * buf)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);
  gchar *reason = NULL;

  if (gst_cl_layout_check (&filter->in_info, gst_buffer_get_video_meta (buf),
          gst_buffer_get_size (buf), &reason))
    return TRUE;
  GST_ELEMENT_WARNING (trans, STREAM, FORMAT,
      ("Dropping a buffer that does not hold a whole frame of the "
          "negotiated format."), ("%s", reason));
  g_free (reason);
  return FALSE;
}

static GstFlowReturn
gst_cl_base_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  if (G_UNLIKELY (!GST_VIDEO_FILTER (trans)->negotiated)) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!check_input (trans, inbuf))
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  return run_frame (GST_CL_BASE_FILTER (trans), inbuf, outbuf);
}

/* In place: analyzers, in passthrough. */
static GstFlowReturn
gst_cl_base_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  if (G_UNLIKELY (!GST_VIDEO_FILTER (trans)->negotiated)) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!check_input (trans, buf))
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  return run_frame (GST_CL_BASE_FILTER (trans), buf, NULL);
}

/* GstVideoFilter needs them set; transform() and transform_ip() above
 * replace its frame mapping, so they are never called. */
static GstFlowReturn
gst_cl_base_filter_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in, GstVideoFrame * out)
{
  g_return_val_if_reached (GST_FLOW_ERROR);
}

static GstFlowReturn
gst_cl_base_filter_transform_frame_ip (GstVideoFilter * filter,
    GstVideoFrame * frame)
{
  g_return_val_if_reached (GST_FLOW_ERROR);
}

static void
gst_cl_base_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime ts;

  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  ts = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (trans), ts);
}

static gboolean
gst_cl_base_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstStructure *s;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      /* every frame's work done (and measured) before EOS goes on */
      if (priv->set_up)
        gst_cl_base_filter_drain (self, NULL);
      if ((s = gst_cl_profile_flush (&priv->profile)))
        gst_element_post_message (GST_ELEMENT (self),
            gst_message_new_element (GST_OBJECT (self), s));
      break;
    case GST_EVENT_FLUSH_STOP:
      if (priv->set_up)
        gst_cl_base_filter_drain (self, NULL);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->sink_event
      (trans, event);
}

/* ------------------------------------------------------------------------ */
/* Allocation: frames of the device on both sides                          */

/* Upstream is offered device frames, downstream's are used if they are
 * of this device, else the element's own (gstclbufferpool.c says why). */
static gboolean
gst_cl_base_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (trans));

  if (!priv->device || gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->
        propose_allocation (trans, decide_query, query);
  gst_cl_buffer_pool_propose_allocation (query, priv->device);
  return TRUE;
}

static gboolean
gst_cl_base_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (trans));

  if (!priv->device)
    return FALSE;
  return gst_cl_buffer_pool_decide_allocation (query, priv->device);
}

/* Context queries get the device; analyzers in passthrough offer device
 * frames upstream when downstream brings no pool. */
static gboolean
gst_cl_base_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (trans));
  GstBufferPool *theirs = NULL;
  GstCaps *caps;
  gboolean need_pool, ret;

  if (gst_cl_handle_context_query (GST_ELEMENT (trans), query, priv->device))
    return TRUE;
  ret = GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->query
      (trans, direction, query);
  if (direction != GST_PAD_SINK || GST_QUERY_TYPE (query) !=
      GST_QUERY_ALLOCATION || !gst_base_transform_is_passthrough (trans) ||
      !priv->device)
    return ret;
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &theirs, NULL, NULL, NULL);
  if (theirs) {
    gst_object_unref (theirs);
    return ret;
  }
  if (need_pool) {
    GST_DEBUG_OBJECT (trans, "offering device frames upstream");
    ret = gst_cl_buffer_pool_propose_allocation (query, priv->device) || ret;
  }
  return ret;
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
    case PROP_DEVICE:
      g_free (priv->device_selector);
      priv->device_selector = g_value_dup_string (value);
      if (!priv->device_selector)
        priv->device_selector = g_strdup ("");
      break;
    case PROP_PROFILING:
      priv->profiling = g_value_get_boolean (value);
      break;
    case PROP_TUNING:
      priv->tuning_mode = g_value_get_enum (value);
      break;
    case PROP_KERNEL_SHAPE:
      priv->tuning.shape = g_value_get_enum (value);
      break;
    case PROP_WORK_GROUP_SIZE:
      priv->tuning.work_group_size = g_value_get_uint (value);
      break;
    case PROP_ROWS_PER_ITEM:
      priv->tuning.rows_per_item = g_value_get_uint (value);
      break;
    case PROP_PIXELS_PER_ITEM:
      priv->tuning.pixels_per_item = g_value_get_uint (value);
      break;
    default:
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
    case PROP_DEVICE:
      g_value_set_string (value, priv->device_selector);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, priv->device_name);
      break;
    case PROP_PROFILING:
      g_value_set_boolean (value, priv->profiling);
      break;
    case PROP_TUNING:
      g_value_set_enum (value, priv->tuning_mode);
      break;
    case PROP_KERNEL_SHAPE:
      g_value_set_enum (value, priv->tuning.shape);
      break;
    case PROP_WORK_GROUP_SIZE:
      g_value_set_uint (value, priv->tuning.work_group_size);
      break;
    case PROP_ROWS_PER_ITEM:
      g_value_set_uint (value, priv->tuning.rows_per_item);
      break;
    case PROP_PIXELS_PER_ITEM:
      g_value_set_uint (value, priv->tuning.pixels_per_item);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_filter_finalize (GObject * object)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (object));
  g_free (priv->device_selector);
  g_free (priv->device_name);
  G_OBJECT_CLASS (gst_cl_base_filter_parent_class)->finalize (object);
}

static void
gst_cl_base_filter_class_init (GstClBaseFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_cl_base_filter_set_property;
  gobject_class->get_property = gst_cl_base_filter_get_property;
  gobject_class->finalize = gst_cl_base_filter_finalize;
  klass->tiles_fields = GST_CL_TUNE_ALL;

  gst_cl_storage_install_properties (gobject_class, PROP_STORAGE,
      PROP_MEMORY);
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: \"\" = $GST_CL_DEVICE, else the first GPU, else the "
          "first device; or gpu, cpu, accelerator, a platform.device index "
          "such as 1.0, or part of the device or platform name",
          DEFAULT_DEVICE, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the OpenCL device in use once started", "",
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_PROFILING,
      g_param_spec_boolean ("profiling", "Profiling",
          "Measure upload, kernel and download times and post them in "
          "\"cl-profile\" element messages, at most once a second",
          DEFAULT_PROFILING, rw | GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstClBaseFilter:tuning:
   *
   * The work decomposition of the kernels: measured on the device the
   * first time a case (settings, format, size) needs it and kept on disk
   * under $XDG_CACHE_HOME/clfilters, or the built-in defaults. Explicit
   * tuning properties override it. Applies from the next caps.
   */
  g_object_class_install_property (gobject_class, PROP_TUNING,
      g_param_spec_enum ("tuning", "Tuning",
          "Work decomposition of the kernels: auto = measured on this device "
          "once (before the first frame of a new size, at most 2 s) and kept "
          "on disk; defaults = the built-in choices. Explicit tuning "
          "properties override it; every choice gives the same output",
          GST_TYPE_CL_TUNING_MODE, DEFAULT_TUNING,
          rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_KERNEL_SHAPE,
      g_param_spec_enum ("kernel-shape", "Kernel shape",
          "Tuning: how work is split among work-items (every value gives the "
          "same output)", GST_TYPE_CL_KERNEL_SHAPE, DEFAULT_KERNEL_SHAPE,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_WORK_GROUP_SIZE,
      g_param_spec_uint ("work-group-size", "Work-group size",
          "Tuning: work-items per work-group (0 = automatic: 1 in strips; "
          "in tiles 64, 128 for the 3x3 kernels of 8-byte words and for "
          "clgaussian's radius band (four bytes each), 256 for "
          "clhistogram, 512 where it reads 16 bytes per item)", 0, 1024, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_ROWS_PER_ITEM,
      g_param_spec_uint ("rows-per-item", "Rows per work-item",
          "Tuning: rows each work-item filters (0 = automatic)", 0, 4096, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_PIXELS_PER_ITEM,
      g_param_spec_uint ("pixels-per-item", "Pixels per work-item",
          "Tuning: pixels of a row each work-item filters (0 = automatic: "
          "the whole row in strips, 16 bytes in tiles, 8 in the 3x3 kernels "
          "of 8-byte words and 4 in clgaussian's radius band, which a value "
          "set here turns off)", 0, 65536, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_base_filter_start);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cl_base_filter_fixate_caps);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_meta);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_decide_allocation);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_base_filter_query);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_base_filter_stop);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_before_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_base_filter_sink_event);
  vfilter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_info);
  vfilter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_frame);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_ip);
  vfilter_class->transform_frame_ip =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_frame_ip);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BASE_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_KERNEL_SHAPE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_TUNING_MODE, 0);
}

static void
gst_cl_base_filter_init (GstClBaseFilter * self)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  priv->storage = DEFAULT_STORAGE;
  priv->device_selector = g_strdup (DEFAULT_DEVICE);
  priv->device_name = g_strdup ("");
  priv->profiling = DEFAULT_PROFILING;
  priv->tuning.shape = DEFAULT_KERNEL_SHAPE;
  priv->tuning_mode = DEFAULT_TUNING;
}
