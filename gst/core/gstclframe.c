/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclframe.c: a buffer's frame as the device sees it.
 *
 * Whatever memory a buffer holds, an element gets one GstClMemory of its
 * device for the frame, with the frame's layout: its own memory when it is
 * a frame of the device (no work at all), host memory wrapped in place on
 * zero-copy devices, or one copy through a pinned staging frame. */
#include "gstclframe.h"
#include "gstclbufferpool.h"
#include "gstcllayout.h"
#include "gstclupload.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_frame_debug);
#define GST_CAT_DEFAULT gst_cl_frame_debug

static void
debug_init (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_frame_debug, "clframe", 0,
        "clfilters frames on the device");
    g_once_init_leave (&done, 1);
  }
}

/* A device frame holding a copy of @inbuf (system memory, or the memory of
 * another device), made by the CPU into the frame's staging copy while its
 * upload runs, piece by piece (gstclupload.c). */
static GstBuffer *
copy_in (GstClDevice * device, guint set, GstBufferPool ** pool,
    const GstVideoInfo * info, GstBuffer * inbuf, GError ** error)
{
  GstVideoFrame src;
  GstBuffer *out = NULL;
  gboolean ok;

  if (!*pool) {
    GstCaps *caps = gst_video_info_to_caps (info);
    *pool = gst_cl_buffer_pool_new_configured (device, caps, info->size, 2);
    gst_caps_unref (caps);
    if (!*pool || !gst_buffer_pool_set_active (*pool, TRUE)) {
      g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
          "could not start a pool of device frames");
      return NULL;
    }
  }
  if (gst_buffer_pool_acquire_buffer (*pool, &out, NULL) !=
      GST_FLOW_OK) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "could not allocate a device frame");
    return NULL;
  }
  if (!gst_video_frame_map (&src, info, inbuf, GST_MAP_READ)) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "could not map the input frame");
    gst_buffer_unref (out);
    return NULL;
  }
  ok = gst_cl_upload_frame (out, set, info, &src, error);
  gst_video_frame_unmap (&src);
  if (!ok)
    gst_clear_buffer (&out);
  GST_LOG ("input copied into a device frame");
  return out;
}

/**
 * gst_cl_frame_input:
 * @set: the set of queues that uploads a copy
 * @pool: (inout): device frames for copies, made on first need
 * @info: the caps of @inbuf
 * @inbuf: the input buffer, checked against @info
 * @layout: (out): the layout of the returned memory
 * @imported: (out): a buffer made for the input, to keep until the device
 *   is done with it, or NULL
 *
 * The input frame as memory of @device: @inbuf's own memory when it is a
 * frame of @device; else @inbuf's host memory read in place (zero-copy
 * devices); else a copy made by the CPU into a device frame's staging
 * copy, uploaded piece by piece as it is made (gstclupload.c).
 *
 * Returns: (transfer none): the memory, or NULL with @error set
 */
GstClMemory *
gst_cl_frame_input (GstClDevice * device, guint set, GstBufferPool ** pool,
    const GstVideoInfo * info, GstBuffer * inbuf, GstVideoInfo * layout,
    GstBuffer ** imported, GError ** error)
{
  GstClMemory *mem;

  debug_init ();
  *imported = NULL;
  gst_cl_layout_from_buffer (info, inbuf, layout);
  mem = gst_cl_buffer_get_memory (inbuf, device);
  /* kernels take plane 0 at the start of the memory object */
  if (mem && layout->offset[0] == 0 && GST_MEMORY_CAST (mem)->offset == 0)
    return mem;
  if (!mem && layout->offset[0] == 0 &&
      (mem = gst_cl_memory_wrap (device, inbuf, layout, error))) {
    *imported = gst_buffer_new ();
    gst_buffer_append_memory (*imported, GST_MEMORY_CAST (mem));
    return mem;
  }
  if (error && *error)
    return NULL;
  GST_DEBUG ("input %s: copied to the device",
      gst_cl_buffer_get_memory (inbuf, NULL) ? "on another device" :
      "in system memory");
  *imported = copy_in (device, set, pool, info, inbuf, error);
  if (!*imported)
    return NULL;
  *layout = *info;
  return gst_cl_buffer_get_memory (*imported, device);
}

/**
 * gst_cl_frame_copy_planes:
 *
 * @event: (out) (optional): the event of the last copy, when there is one
 *
 * Copies, on @q, every plane of @in but the first into @out: the planes
 * the kernels do not filter (chroma).
 */
gboolean
gst_cl_frame_copy_planes (cl_command_queue q, GstClMemory * in,
    const GstVideoInfo * in_layout, GstClMemory * out,
    const GstVideoInfo * out_layout, cl_event * event, GError ** error)
{
  guint p, n_planes = GST_VIDEO_INFO_N_PLANES (in_layout);
  cl_int st;

  for (p = 1; p < n_planes; p++) {
    const size_t src[3] = { in_layout->offset[p], 0, 0 };
    const size_t dst[3] = { out_layout->offset[p], 0, 0 };
    const size_t region[3] = { gst_cl_layout_row_bytes (in_layout, p),
      gst_cl_layout_plane_rows (in_layout, p), 1
    };
    st = clEnqueueCopyBufferRect (q, in->buffer, out->buffer, src, dst,
        region, in_layout->stride[p], 0, out_layout->stride[p], 0, 0, NULL,
        p + 1 == n_planes ? event : NULL);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueCopyBufferRect (planes)");
  }
  return TRUE;
}

