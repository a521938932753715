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
#include "core/gstclupload.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_memory_copy_debug);
#define GST_CAT_DEFAULT gst_cl_memory_copy_debug

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClMemoryCopy, gst_cl_memory_copy,
    GST_TYPE_CL_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_cl_memory_copy_debug, "clmemorycopy", 0,
        "clupload and cldownload"));

#define BASE(self) GST_CL_BASE_TRANSFORM (self)

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
gst_cl_memory_copy_set_info (GstClBaseTransform * base, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GST_INFO_OBJECT (base, "%s %" GST_PTR_FORMAT,
      gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (base)) ?
      "passthrough" : "to", outcaps);
  return TRUE;
}

/* The buffer itself goes on whenever it can: frames of the device (upload:
 * their upload started; download: their download started, the consumer's
 * map waits for it), and host memory the device reads in place. Other
 * input is copied into a device frame in transform(). */
static GstFlowReturn
gst_cl_memory_copy_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstClBaseTransform *base = BASE (trans);
  GstFlowReturn ret;
  GstClMemory *mem;
  GError *err = NULL;

  if (gst_base_transform_is_passthrough (trans)) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  if ((ret = gst_cl_base_transform_check_input (base, inbuf)) != GST_FLOW_OK)
    return ret;
  mem = gst_cl_buffer_get_memory (inbuf, is_upload (trans) ? base->device :
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
      (mem = gst_cl_memory_wrap (base->device, inbuf, &base->in_info, &err))) {
    *outbuf = gst_buffer_new ();
    gst_buffer_append_memory (*outbuf, GST_MEMORY_CAST (mem));
    gst_buffer_copy_into (*outbuf, inbuf, GST_BUFFER_COPY_FLAGS |
        GST_BUFFER_COPY_TIMESTAMPS | GST_BUFFER_COPY_META, 0, -1);
    gst_buffer_add_video_meta_full (*outbuf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&base->in_info),
        GST_VIDEO_INFO_WIDTH (&base->in_info),
        GST_VIDEO_INFO_HEIGHT (&base->in_info),
        GST_VIDEO_INFO_N_PLANES (&base->in_info), base->in_info.offset,
        base->in_info.stride);
    GST_LOG_OBJECT (trans, "host memory read in place");
    return GST_FLOW_OK;
  }
  if (err)
    goto failed;
  return GST_BASE_TRANSFORM_CLASS (gst_cl_memory_copy_parent_class)->
      prepare_output_buffer (trans, inbuf, outbuf);

failed:
  GST_ELEMENT_ERROR (trans, RESOURCE, FAILED,
      ("OpenCL transfer failed on device \"%s\".", base->device->name),
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
  GstClBaseTransform *base = BASE (trans);
  GstVideoFrame src;
  GstClMemory *mem;
  GError *err = NULL;
  gboolean ok;

  if (inbuf == outbuf)
    return GST_FLOW_OK;
  mem = gst_cl_buffer_get_memory (outbuf, base->device);
  if (!mem || !gst_video_frame_map (&src, &base->in_info, inbuf, GST_MAP_READ))
    goto map_failed;
  ok = gst_cl_upload_frame (outbuf, base->queue_set, &base->in_info, &src,
      &err);
  gst_video_frame_unmap (&src);
  if (!ok) {
    GST_ELEMENT_ERROR (trans, RESOURCE, FAILED,
        ("OpenCL transfer failed on device \"%s\".", base->device->name),
        ("%s", err->message));
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;

map_failed:
  GST_ELEMENT_ERROR (trans, RESOURCE, FAILED,
      ("Could not copy a frame to device \"%s\".", base->device->name),
      (NULL));
  return GST_FLOW_ERROR;
}

static void
gst_cl_memory_copy_class_init (GstClMemoryCopyClass * klass)
{
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstClBaseTransformClass *base_class = GST_CL_BASE_TRANSFORM_CLASS (klass);

  trans_class->passthrough_on_same_caps = TRUE;
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_memory_copy_transform_caps);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_memory_copy_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_memory_copy_transform);
  base_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_memory_copy_set_info);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_MEMORY_COPY, 0);
}

static void
gst_cl_memory_copy_init (GstClMemoryCopy * self)
{
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
  /* its output is system memory, its input anyone's */
  GST_CL_BASE_TRANSFORM_CLASS (klass)->device_frames = FALSE;
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
