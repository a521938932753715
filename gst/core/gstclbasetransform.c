/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasetransform.c: the device layer under every clfilters element.
 *
 * Selects the device in start() (its own `device` property, else a device
 * shared through GstContext by the application or a neighbour, else
 * GST_CL_DEVICE or the default: gstclcontext.c), answers the neighbours'
 * context queries with it, parses the caps into video infos for the
 * subclass, and proposes and decides device frames (gstclbufferpool.c).
 * What an element does with frames is its subclass's: clupload and
 * cldownload (gstclmemorycopy.c) move them, GstClBaseFilter runs kernels.
 */
#include "gstclbasetransform.h"
#include "gstclbufferpool.h"
#include "gstclcaps.h"
#include "gstclcontext.h"
#include "gstcllayout.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_transform_debug);
#define GST_CAT_DEFAULT gst_cl_base_transform_debug

enum
{
  PROP_0,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
};

#define DEFAULT_DEVICE ""

typedef struct
{
  /* properties, under the object lock */
  gchar *device_selector;
  gchar *device_name;
} GstClBaseTransformPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClBaseTransform, gst_cl_base_transform,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstClBaseTransform);
    GST_DEBUG_CATEGORY_INIT (gst_cl_base_transform_debug, "clbasetransform",
        0, "clfilters device base class"));

#define PRIV(self) ((GstClBaseTransformPrivate *) \
    gst_cl_base_transform_get_instance_private (GST_CL_BASE_TRANSFORM (self)))

/* ------------------------------------------------------------------------ */
/* Lifecycle                                                                */

static gboolean
gst_cl_base_transform_start (GstBaseTransform * trans)
{
  GstClBaseTransform *self = GST_CL_BASE_TRANSFORM (trans);
  GstClBaseTransformPrivate *priv = PRIV (self);
  GError *err = NULL;
  gchar *selector;

  GST_OBJECT_LOCK (self);
  selector = g_strdup (priv->device_selector);
  GST_OBJECT_UNLOCK (self);

  self->device = gst_cl_ensure_element_device (GST_ELEMENT (self), selector,
      &err);
  if (!self->device) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", err->message),
        ("device property \"%s\", GST_CL_DEVICE \"%s\"", selector,
            GST_STR_NULL (g_getenv ("GST_CL_DEVICE"))));
    g_clear_error (&err);
    g_free (selector);
    return FALSE;
  }
  g_free (selector);
  self->queue_set = gst_cl_device_next_queue_set (self->device);
  GST_OBJECT_LOCK (self);
  g_free (priv->device_name);
  priv->device_name = g_strdup (self->device->name);
  GST_OBJECT_UNLOCK (self);
  g_object_notify (G_OBJECT (self), "device-name");
  GST_INFO_OBJECT (self, "using OpenCL device %u.%u \"%s\" (%s)%s",
      self->device->platform_index, self->device->device_index,
      self->device->name, self->device->platform_name,
      self->device->zero_copy ? ", zero copy" : ", frames copied");
  return TRUE;
}

static gboolean
gst_cl_base_transform_stop (GstBaseTransform * trans)
{
  gst_clear_object (&GST_CL_BASE_TRANSFORM (trans)->device);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Caps                                                                     */

/* Both memories on the other pad, the device's first: two clfilters
 * neighbours keep frames on the device, system memory neighbours get
 * system memory. clupload and cldownload restrict one side. */
static GstCaps *
gst_cl_base_transform_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *res, *tmp;

  if (gst_caps_is_any (caps))
    return GST_BASE_TRANSFORM_CLASS (gst_cl_base_transform_parent_class)->
        transform_caps (trans, direction, caps, filter);
  res = gst_cl_caps_with_memories (caps, TRUE, TRUE);
  if (filter) {
    tmp = gst_caps_intersect_full (filter, res, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (res);
    res = tmp;
  }
  return res;
}

/* Frames stay on the device whenever the peer accepts it. */
static GstCaps *
gst_cl_base_transform_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_transform_parent_class)->
      fixate_caps (trans, direction, caps,
      gst_cl_caps_prefer_device (othercaps));
}

static gboolean
gst_cl_base_transform_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstClBaseTransform *self = GST_CL_BASE_TRANSFORM (trans);
  GstClBaseTransformClass *klass = GST_CL_BASE_TRANSFORM_GET_CLASS (self);
  GstVideoInfo in_info, out_info;
  gboolean ok;

  if (!gst_video_info_from_caps (&in_info, incaps) ||
      !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ERROR_OBJECT (self, "invalid caps");
    self->negotiated = FALSE;
    return FALSE;
  }
  ok = !klass->set_info || klass->set_info (self, incaps, &in_info, outcaps,
      &out_info);
  if (ok) {
    self->in_info = in_info;
    self->out_info = out_info;
  }
  self->negotiated = ok;
  return ok;
}

static gboolean
gst_cl_base_transform_get_unit_size (GstBaseTransform * trans,
    GstCaps * caps, gsize * size)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  *size = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

/* Controlled properties (GstController) take their values at each
 * buffer's stream time. */
static void
gst_cl_base_transform_before_transform (GstBaseTransform * trans,
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

/**
 * gst_cl_base_transform_check_input:
 *
 * For subclasses, before they use @buf: whether caps are set and @buf
 * holds a whole frame of them. A buffer that does not is dropped with a
 * warning, instead of letting an unwritten output buffer go downstream.
 *
 * Returns: GST_FLOW_OK, GST_FLOW_NOT_NEGOTIATED (an error posted) or
 *   GST_BASE_TRANSFORM_FLOW_DROPPED (a warning posted)
 */
GstFlowReturn
gst_cl_base_transform_check_input (GstClBaseTransform * self, GstBuffer * buf)
{
  gchar *reason = NULL;

  if (G_UNLIKELY (!self->negotiated)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (gst_cl_layout_check (&self->in_info, gst_buffer_get_video_meta (buf),
          gst_buffer_get_size (buf), &reason))
    return GST_FLOW_OK;
  GST_ELEMENT_WARNING (self, STREAM, FORMAT,
      ("Dropping a buffer that does not hold a whole frame of the "
          "negotiated format."), ("%s", reason));
  g_free (reason);
  return GST_BASE_TRANSFORM_FLOW_DROPPED;
}

/* ------------------------------------------------------------------------ */
/* Queries and allocation                                                   */

/* In passthrough, with passthrough_pool: upstream's allocation query went
 * downstream; device frames are offered where it brought no pool. */
static gboolean
offer_pool_in_passthrough (GstClBaseTransform * self, GstQuery * query)
{
  GstBufferPool *theirs = NULL;
  GstCaps *caps;
  gboolean need_pool;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &theirs, NULL, NULL, NULL);
  if (theirs) {
    gst_object_unref (theirs);
    return FALSE;
  }
  if (!need_pool)
    return FALSE;
  GST_DEBUG_OBJECT (self, "offering device frames upstream");
  return gst_cl_buffer_pool_propose_allocation (query, self->device);
}

/* Context queries get the device. */
static gboolean
gst_cl_base_transform_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstClBaseTransform *self = GST_CL_BASE_TRANSFORM (trans);
  gboolean ret;

  if (gst_cl_handle_context_query (GST_ELEMENT (trans), query, self->device))
    return TRUE;
  ret = GST_BASE_TRANSFORM_CLASS (gst_cl_base_transform_parent_class)->query
      (trans, direction, query);
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) ==
      GST_QUERY_ALLOCATION && gst_base_transform_is_passthrough (trans) &&
      GST_CL_BASE_TRANSFORM_GET_CLASS (self)->passthrough_pool &&
      self->device)
    ret = offer_pool_in_passthrough (self, query) || ret;
  return ret;
}

/* Upstream is offered device frames (pinned host memory on devices that
 * copy frames), downstream's are used if they are of this device, else
 * the element's own (gstclbufferpool.c says why). */
static gboolean
gst_cl_base_transform_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstClBaseTransform *self = GST_CL_BASE_TRANSFORM (trans);

  if (!GST_CL_BASE_TRANSFORM_GET_CLASS (self)->device_frames ||
      !self->device || gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_cl_base_transform_parent_class)->
        propose_allocation (trans, decide_query, query);
  return gst_cl_buffer_pool_propose_allocation (query, self->device);
}

static gboolean
gst_cl_base_transform_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstClBaseTransform *self = GST_CL_BASE_TRANSFORM (trans);

  if (!GST_CL_BASE_TRANSFORM_GET_CLASS (self)->device_frames ||
      !self->device)
    return GST_BASE_TRANSFORM_CLASS (gst_cl_base_transform_parent_class)->
        decide_allocation (trans, query);
  return gst_cl_buffer_pool_decide_allocation (query, self->device);
}

/* ------------------------------------------------------------------------ */
/* Properties                                                               */

static void
gst_cl_base_transform_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClBaseTransformPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE:
      g_free (priv->device_selector);
      priv->device_selector = g_value_dup_string (value);
      if (!priv->device_selector)
        priv->device_selector = g_strdup (DEFAULT_DEVICE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_transform_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClBaseTransformPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE:
      g_value_set_string (value, priv->device_selector);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, priv->device_name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_transform_finalize (GObject * object)
{
  GstClBaseTransformPrivate *priv = PRIV (object);

  g_free (priv->device_selector);
  g_free (priv->device_name);
  G_OBJECT_CLASS (gst_cl_base_transform_parent_class)->finalize (object);
}

static void
gst_cl_base_transform_class_init (GstClBaseTransformClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cl_base_transform_set_property;
  gobject_class->get_property = gst_cl_base_transform_get_property;
  gobject_class->finalize = gst_cl_base_transform_finalize;
  klass->device_frames = TRUE;

  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: \"\" = the one of the neighbours or the "
          "application's context, else $GST_CL_DEVICE, else the first GPU, "
          "else the first device; or gpu, cpu, accelerator, a "
          "platform.device index such as 1.0, or part of the device or "
          "platform name", DEFAULT_DEVICE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the OpenCL device in use once started", "",
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_base_transform_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_base_transform_stop);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_base_transform_set_caps);
  trans_class->get_unit_size =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_get_unit_size);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_before_transform);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_base_transform_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_decide_allocation);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BASE_TRANSFORM, 0);
}

static void
gst_cl_base_transform_init (GstClBaseTransform * self)
{
  GstClBaseTransformPrivate *priv = PRIV (self);

  priv->device_selector = g_strdup (DEFAULT_DEVICE);
  priv->device_name = g_strdup ("");
}
