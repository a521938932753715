/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/**
 * SECTION:element-clupload
 * @title: clupload
 * @see_also: cldownload, clgaussian
 *
 * Brings video frames to an OpenCL device: system memory in,
 * `video/x-raw(memory:OpenCLMemory)` out. Frames that already are on the
 * device pass through untouched.
 *
 * Upstream is offered a pool of device frames: a producer that uses it
 * writes into pinned host memory (devices that copy frames, which then
 * upload it asynchronously at the bus's speed) or straight into memory the
 * device reads in place (CPUs through POCL, integrated GPUs). Frames from
 * elsewhere are read in place on zero-copy devices and copied once
 * otherwise.
 *
 * The clfilters filters accept system memory themselves, so clupload is
 * only needed to be explicit, or in front of elements that take
 * `memory:OpenCLMemory` only.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! clupload ! clgaussian ! cllaplace ! cldownload ! videoconvert ! autovideosink
 * ]| Two filters on the default device, the frame uploaded and downloaded
 * once.
 */
/**
 * SECTION:element-cldownload
 * @title: cldownload
 * @see_also: clupload
 *
 * Brings video frames back from an OpenCL device:
 * `video/x-raw(memory:OpenCLMemory)` in, system memory out. Frames already
 * in system memory pass through untouched.
 *
 * cldownload does not wait: it starts the download of each frame into
 * pinned host memory and hands the frame on; the consumer's CPU map waits
 * for the download (on zero-copy devices it copies nothing). Put a `queue`
 * after cldownload to let the device work on the next frames while the
 * consumer reads this one.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! clupload ! clgaussian ! cldownload ! queue ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclmemorycopy.h"
#include "core/gstclbufferpool.h"
#include "core/gstclcontext.h"
#include "core/gstcllayout.h"
#include "core/gstclupload.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_memory_copy_debug);
#define GST_CAT_DEFAULT gst_cl_memory_copy_debug

enum
{
  PROP_0,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
};

typedef struct
{
  /* properties, under the object lock */
  gchar *device_selector;
  gchar *device_name;

  /* from start() to stop() */
  GstClDevice *device;
  guint queue_set;              /* the queues that upload its frames */
  GstVideoInfo info;
} GstClMemoryCopyPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClMemoryCopy, gst_cl_memory_copy,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstClMemoryCopy);
    GST_DEBUG_CATEGORY_INIT (gst_cl_memory_copy_debug, "clmemorycopy", 0,
        "clupload and cldownload"));

#define PRIV(self) ((GstClMemoryCopyPrivate *) \
    gst_cl_memory_copy_get_instance_private (GST_CL_MEMORY_COPY (self)))

struct _GstClUpload
{
  GstClMemoryCopy parent;
};

struct _GstClDownload
{
  GstClMemoryCopy parent;
};

G_DEFINE_TYPE (GstClUpload, gst_cl_upload, GST_TYPE_CL_MEMORY_COPY);
G_DEFINE_TYPE (GstClDownload, gst_cl_download, GST_TYPE_CL_MEMORY_COPY);
GST_ELEMENT_REGISTER_DEFINE (clupload, "clupload", GST_RANK_NONE,
    GST_TYPE_CL_UPLOAD);
GST_ELEMENT_REGISTER_DEFINE (cldownload, "cldownload", GST_RANK_NONE,
    GST_TYPE_CL_DOWNLOAD);

static gboolean
is_upload (gpointer self)
{
  return GST_CL_MEMORY_COPY_GET_CLASS (self)->upload;
}

static gboolean
gst_cl_memory_copy_start (GstBaseTransform * trans)
{
  GstClMemoryCopyPrivate *priv = PRIV (trans);
  GError *err = NULL;
  gchar *selector;

  GST_OBJECT_LOCK (trans);
  selector = g_strdup (priv->device_selector);
  GST_OBJECT_UNLOCK (trans);
  priv->device = gst_cl_ensure_element_device (GST_ELEMENT (trans), selector,
      &err);
  if (!priv->device) {
    GST_ELEMENT_ERROR (trans, RESOURCE, NOT_FOUND, ("%s", err->message),
        ("device property \"%s\", GST_CL_DEVICE \"%s\"", selector,
            GST_STR_NULL (g_getenv ("GST_CL_DEVICE"))));
    g_clear_error (&err);
    g_free (selector);
    return FALSE;
  }
  priv->queue_set = gst_cl_device_next_queue_set (priv->device);
  g_free (selector);
  GST_OBJECT_LOCK (trans);
  g_free (priv->device_name);
  priv->device_name = g_strdup (priv->device->name);
  GST_OBJECT_UNLOCK (trans);
  g_object_notify (G_OBJECT (trans), "device-name");
  return TRUE;
}

static gboolean
gst_cl_memory_copy_stop (GstBaseTransform * trans)
{
  gst_clear_object (&PRIV (trans)->device);
  return TRUE;
}

/* clupload: anything in, device frames out; cldownload: the reverse. */
static GstCaps *
gst_cl_memory_copy_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  gboolean to_src = direction == GST_PAD_SINK, up = is_upload (trans);
  GstCaps *res, *tmp;

  if (gst_caps_is_any (caps))
    return gst_caps_ref (caps);
  if (to_src)
    res = gst_cl_caps_with_memories (caps, up, !up);
  else
    res = gst_cl_caps_with_memories (caps, TRUE, TRUE);
  if (filter) {
    tmp = gst_caps_intersect_full (filter, res, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (res);
    res = tmp;
  }
  return res;
}

static gboolean
gst_cl_memory_copy_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstClMemoryCopyPrivate *priv = PRIV (trans);

  if (!gst_video_info_from_caps (&priv->info, incaps))
    return FALSE;
  GST_INFO_OBJECT (trans, "%s %" GST_PTR_FORMAT, gst_base_transform_is_passthrough
      (trans) ? "passthrough" : "to", outcaps);
  return TRUE;
}

static gboolean
gst_cl_memory_copy_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  if (gst_cl_handle_context_query (GST_ELEMENT (trans), query,
          PRIV (trans)->device))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (gst_cl_memory_copy_parent_class)->query
      (trans, direction, query);
}

static gboolean
gst_cl_memory_copy_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstClMemoryCopyPrivate *priv = PRIV (trans);

  if (!is_upload (trans) || !priv->device ||
      gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_cl_memory_copy_parent_class)->
        propose_allocation (trans, decide_query, query);
  return gst_cl_buffer_pool_propose_allocation (query, priv->device);
}

static gboolean
gst_cl_memory_copy_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstClMemoryCopyPrivate *priv = PRIV (trans);

  if (!is_upload (trans) || !priv->device)
    return GST_BASE_TRANSFORM_CLASS (gst_cl_memory_copy_parent_class)->
        decide_allocation (trans, query);
  return gst_cl_buffer_pool_decide_allocation (query, priv->device);
}

/* The buffer itself goes on whenever it can: frames of the device (upload:
 * their upload started; download: their download started, the consumer's
 * map waits for it), and host memory the device reads in place. Other
 * input is copied into a device frame in transform(). */
static GstFlowReturn
gst_cl_memory_copy_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstClMemoryCopyPrivate *priv = PRIV (trans);
  GstClMemory *mem;
  GError *err = NULL;
  gchar *reason = NULL;

  if (gst_base_transform_is_passthrough (trans)) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  if (!gst_cl_layout_check (&priv->info, gst_buffer_get_video_meta (inbuf),
          gst_buffer_get_size (inbuf), &reason)) {
    GST_ELEMENT_WARNING (trans, STREAM, FORMAT,
        ("Dropping a buffer that does not hold a whole frame of the "
            "negotiated format."), ("%s", reason));
    g_free (reason);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  mem = gst_cl_buffer_get_memory (inbuf, is_upload (trans) ? priv->device :
      NULL);
  if (mem) {
    if (!(is_upload (trans) ? gst_cl_memory_start_upload (mem, &err) :
            gst_cl_memory_start_download (mem, &err)))
      goto failed;
    /* the input itself goes on: GstBaseTransform then keeps its ref */
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  if (!is_upload (trans)) {
    *outbuf = inbuf;            /* system memory already */
    return GST_FLOW_OK;
  }
  if (gst_buffer_get_video_meta (inbuf) == NULL &&
      (mem = gst_cl_memory_wrap (priv->device, inbuf, &priv->info, &err))) {
    *outbuf = gst_buffer_new ();
    gst_buffer_append_memory (*outbuf, GST_MEMORY_CAST (mem));
    gst_buffer_copy_into (*outbuf, inbuf, GST_BUFFER_COPY_FLAGS |
        GST_BUFFER_COPY_TIMESTAMPS | GST_BUFFER_COPY_META, 0, -1);
    gst_buffer_add_video_meta_full (*outbuf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&priv->info),
        GST_VIDEO_INFO_WIDTH (&priv->info),
        GST_VIDEO_INFO_HEIGHT (&priv->info),
        GST_VIDEO_INFO_N_PLANES (&priv->info), priv->info.offset,
        priv->info.stride);
    GST_LOG_OBJECT (trans, "host memory read in place");
    return GST_FLOW_OK;
  }
  if (err)
    goto failed;
  return GST_BASE_TRANSFORM_CLASS (gst_cl_memory_copy_parent_class)->
      prepare_output_buffer (trans, inbuf, outbuf);

failed:
  GST_ELEMENT_ERROR (trans, RESOURCE, FAILED,
      ("OpenCL transfer failed on device \"%s\".", priv->device->name),
      ("%s", err->message));
  g_clear_error (&err);
  return GST_FLOW_ERROR;
}

/* clupload, input from elsewhere: the CPU copies it into the frame's
 * staging copy, piece by piece, each piece's upload starting as soon as it
 * is copied (gstclupload.c). */
static GstFlowReturn
gst_cl_memory_copy_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstClMemoryCopyPrivate *priv = PRIV (trans);
  GstVideoFrame src;
  GstClMemory *mem;
  GError *err = NULL;
  gboolean ok;

  if (inbuf == outbuf)
    return GST_FLOW_OK;
  mem = gst_cl_buffer_get_memory (outbuf, priv->device);
  if (!mem || !gst_video_frame_map (&src, &priv->info, inbuf, GST_MAP_READ))
    goto map_failed;
  ok = gst_cl_upload_frame (outbuf, priv->queue_set, &priv->info, &src,
      &err);
  gst_video_frame_unmap (&src);
  if (!ok) {
    GST_ELEMENT_ERROR (trans, RESOURCE, FAILED,
        ("OpenCL transfer failed on device \"%s\".", priv->device->name),
        ("%s", err->message));
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;

map_failed:
  GST_ELEMENT_ERROR (trans, RESOURCE, FAILED,
      ("Could not copy a frame to device \"%s\".", priv->device->name),
      (NULL));
  return GST_FLOW_ERROR;
}

static void
gst_cl_memory_copy_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClMemoryCopyPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE:
      g_free (priv->device_selector);
      priv->device_selector = g_value_dup_string (value);
      if (!priv->device_selector)
        priv->device_selector = g_strdup ("");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_memory_copy_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClMemoryCopyPrivate *priv = PRIV (object);

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
gst_cl_memory_copy_finalize (GObject * object)
{
  GstClMemoryCopyPrivate *priv = PRIV (object);
  g_free (priv->device_selector);
  g_free (priv->device_name);
  G_OBJECT_CLASS (gst_cl_memory_copy_parent_class)->finalize (object);
}

static void
gst_cl_memory_copy_class_init (GstClMemoryCopyClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cl_memory_copy_set_property;
  gobject_class->get_property = gst_cl_memory_copy_get_property;
  gobject_class->finalize = gst_cl_memory_copy_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: \"\" = the one of the neighbours or the "
          "application's context, else $GST_CL_DEVICE, else the first GPU, "
          "else the first device; or gpu, cpu, accelerator, a "
          "platform.device index such as 1.0, or part of the device or "
          "platform name", "",
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the OpenCL device in use once started", "",
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  trans_class->passthrough_on_same_caps = TRUE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_memory_copy_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_memory_copy_stop);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_memory_copy_transform_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_memory_copy_set_caps);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_memory_copy_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_memory_copy_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_memory_copy_decide_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_memory_copy_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_memory_copy_transform);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_MEMORY_COPY, 0);
}

static void
gst_cl_memory_copy_init (GstClMemoryCopy * self)
{
  GstClMemoryCopyPrivate *priv = PRIV (self);
  priv->device_selector = g_strdup ("");
  priv->device_name = g_strdup ("");
}

static void
gst_cl_upload_class_init (GstClUploadClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  GST_CL_MEMORY_COPY_CLASS (klass)->upload = TRUE;
  gst_element_class_set_static_metadata (element_class,
      "OpenCL upload", "Filter/Video",
      "Brings video frames to an OpenCL device (memory:OpenCLMemory)",
      "clfilters developers");
  gst_cl_element_class_add_pad_templates (element_class, TRUE, TRUE, TRUE,
      FALSE);
}

static void
gst_cl_upload_init (GstClUpload * self)
{
}

static void
gst_cl_download_class_init (GstClDownloadClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  GST_CL_MEMORY_COPY_CLASS (klass)->upload = FALSE;
  gst_element_class_set_static_metadata (element_class,
      "OpenCL download", "Filter/Video",
      "Brings video frames from an OpenCL device to system memory",
      "clfilters developers");
  gst_cl_element_class_add_pad_templates (element_class, TRUE, TRUE, FALSE,
      TRUE);
}

static void
gst_cl_download_init (GstClDownload * self)
{
}
