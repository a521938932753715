/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclplane.c: storage of one frame plane on an OpenCL device. */
#include "gstclplane.h"
#include "gstcllayout.h"

#include <string.h>

/* pixel stride and the byte kept unchanged in each pixel of a plane */
static void
plane_pixel (const GstVideoInfo * info, guint plane, gint * step, gint * alpha)
{
  gint comps[GST_VIDEO_MAX_COMPONENTS];
  guint32 used = 0;
  gint i, n = 0;

  gst_video_format_info_component (info->finfo, plane, comps);
  *step = GST_VIDEO_INFO_COMP_PSTRIDE (info, comps[0]);
  *alpha = -1;
  /* colour components are filtered; alpha and bytes no component uses (the
   * x of RGBx) pass through. Only packed 4-byte pixels have such a byte. */
  for (i = 0; i < GST_VIDEO_MAX_COMPONENTS && comps[i] >= 0; i++) {
    gint c = comps[i];
    if (GST_VIDEO_FORMAT_INFO_HAS_ALPHA (info->finfo) && c == GST_VIDEO_COMP_A)
      continue;
    used |= 1u << GST_VIDEO_INFO_COMP_POFFSET (info, c);
    n++;
  }
  if (*step == 4 && n == 3) {
    for (i = 0; i < 4; i++)
      if (!(used & (1u << i)))
        *alpha = i;
  }
}

static gboolean
image_format_for (gint step, cl_image_format * fmt, gint * texels_per_px)
{
  fmt->image_channel_data_type = CL_UNSIGNED_INT8;
  if (step == 4) {
    fmt->image_channel_order = CL_RGBA;
    *texels_per_px = 1;
  } else {
    /* one sample per texel: GRAY8 and Y planes, and packed RGB stored as a
     * one-channel image three times as wide (no device needs CL_RGB with
     * 8-bit channels, POCL has none) */
    fmt->image_channel_order = CL_R;
    *texels_per_px = step;
  }
  return TRUE;
}

/**
 * gst_cl_plane_image_possible:
 *
 * Whether @plane of @info fits in an OpenCL image on @device; if not, @why
 * says what is missing.
 */
gboolean
gst_cl_plane_image_possible (GstClDevice * device, const GstVideoInfo * info,
    guint plane, gchar ** why)
{
  cl_image_format fmt;
  gint step, alpha, tpp;
  gsize units, rows;

  plane_pixel (info, plane, &step, &alpha);
  image_format_for (step, &fmt, &tpp);
  units = (gsize) (gst_cl_layout_row_bytes (info, plane) / step) * tpp;
  rows = gst_cl_layout_plane_rows (info, plane);
  if (!device->image_support) {
    *why = g_strdup_printf ("device \"%s\" has no image support",
        device->name);
    return FALSE;
  }
  if (!gst_cl_device_has_image_format (device, fmt.image_channel_order,
          fmt.image_channel_data_type)) {
    *why = g_strdup_printf ("device \"%s\" cannot read and write %s "
        "UNSIGNED_INT8 images", device->name,
        fmt.image_channel_order == CL_RGBA ? "CL_RGBA" : "CL_R");
    return FALSE;
  }
  if (units > device->image2d_max_width || rows > device->image2d_max_height) {
    *why = g_strdup_printf ("a %" G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT
        " image exceeds the device's maximum of %" G_GSIZE_FORMAT "x%"
        G_GSIZE_FORMAT, units, rows, device->image2d_max_width,
        device->image2d_max_height);
    return FALSE;
  }
  return TRUE;
}

static gboolean
zero_copy_allowed (GstClDevice * device)
{
  /* GST_CL_ZERO_COPY=0 forces the copying path of discrete GPUs, so that it
   * can be tested on a CPU device */
  const gchar *env = g_getenv ("GST_CL_ZERO_COPY");
  return device->host_unified && !(env && g_str_equal (env, "0"));
}

/**
 * gst_cl_plane_store_configure:
 *
 * Prepares the storage of @plane of frames described by @info: its geometry,
 * and the device object used for every frame unless host memory is wrapped.
 * Called when caps are set, never per frame.
 */
gboolean
gst_cl_plane_store_configure (GstClPlaneStore * store, GstClDevice * device,
    const GstVideoInfo * info, guint plane, gboolean image, gboolean output,
    GError ** error)
{
  cl_mem_flags flags = output ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY;
  GstClPlane *d = &store->desc;
  gint step, alpha, tpp = 1;
  cl_int st;

  gst_cl_plane_store_clear (store);
  store->device = gst_object_ref (device);
  store->output = output;
  store->row_bytes = gst_cl_layout_row_bytes (info, plane);
  plane_pixel (info, plane, &step, &alpha);
  {
    guint64 bytes = (guint64) GST_VIDEO_INFO_PLANE_STRIDE (info, plane) *
        gst_cl_layout_plane_rows (info, plane);
    if (device->max_alloc && bytes > device->max_alloc) {
      g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
          "a plane of %" G_GUINT64_FORMAT " bytes exceeds the largest "
          "memory object of device \"%s\" (%" G_GUINT64_FORMAT " bytes)",
          bytes, device->name, (guint64) device->max_alloc);
      return FALSE;
    }
  }
  d->is_image = image;
  d->width = store->row_bytes / step;
  d->height = gst_cl_layout_plane_rows (info, plane);
  if (image) {
    image_format_for (step, &store->image_format, &tpp);
    d->step = tpp;
    d->alpha = tpp == 1 && step == 4 ? alpha : -1;
    d->units = d->width * tpp;
    d->stride = 0;
    cl_image_desc desc = { 0, };
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = d->units;
    desc.image_height = d->height;
    d->mem = clCreateImage (device->context, flags, &store->image_format,
        &desc, NULL, &st);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clCreateImage");
    return TRUE;
  }
  d->step = step;
  /* the kernels' vector path needs pixels that tile 16 bytes for alpha */
  d->alpha = (16 % step == 0) ? alpha : -1;
  g_assert (alpha < 0 || d->alpha >= 0);
  d->units = store->row_bytes;
  store->wrap = zero_copy_allowed (device);
  if (store->wrap) {
    d->stride = 0;              /* the frame's, set per frame */
    d->mem = NULL;
    return TRUE;
  }
  d->stride = GST_ROUND_UP_64 (store->row_bytes);
  d->mem = clCreateBuffer (device->context, flags,
      (gsize) d->stride * d->height, NULL, &st);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clCreateBuffer");
  return TRUE;
}

void
gst_cl_plane_store_clear (GstClPlaneStore * store)
{
  gst_cl_plane_store_end_frame (store);
  if (store->desc.mem)
    clReleaseMemObject (store->desc.mem);
  gst_clear_object (&store->device);
  memset (store, 0, sizeof (*store));
}

static gsize
plane_extent (GstClPlaneStore * store, gint stride)
{
  return (gsize) stride * (store->desc.height - 1) + store->row_bytes;
}

static gboolean
wrap_frame (GstClPlaneStore * store, const GstVideoFrame * frame, guint plane,
    GstClPlane * out, GError ** error)
{
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
  cl_mem_flags flags = CL_MEM_USE_HOST_PTR |
      (store->output ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY);
  cl_int st;

  g_assert (store->frame_mem == NULL);
  store->frame_mem = clCreateBuffer (store->device->context, flags,
      plane_extent (store, stride), GST_VIDEO_FRAME_PLANE_DATA (frame, plane),
      &st);
  if (st != CL_SUCCESS) {
    store->frame_mem = NULL;
    return gst_cl_fail (error, st, "clCreateBuffer (CL_MEM_USE_HOST_PTR)");
  }
  *out = store->desc;
  out->mem = store->frame_mem;
  out->stride = stride;
  return TRUE;
}

/**
 * gst_cl_plane_store_upload:
 * @event: (out) (optional): the transfer's event, NULL when nothing was copied
 *
 * Makes @plane of the input @frame available to kernels as @out. The frame
 * must stay mapped until the queue has finished with it.
 */
gboolean
gst_cl_plane_store_upload (GstClPlaneStore * store, cl_command_queue queue,
    const GstVideoFrame * frame, guint plane, GstClPlane * out,
    cl_event * event, GError ** error)
{
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
  const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
  GstClPlane *d = &store->desc;
  cl_int st;

  if (event)
    *event = NULL;
  if (store->wrap)
    return wrap_frame (store, frame, plane, out, error);
  *out = *d;
  if (d->is_image) {
    const size_t origin[3] = { 0, 0, 0 };
    const size_t region[3] = { d->units, d->height, 1 };
    st = clEnqueueWriteImage (queue, d->mem, CL_FALSE, origin, region,
        stride, 0, data, 0, NULL, event);
    return st == CL_SUCCESS || gst_cl_fail (error, st, "clEnqueueWriteImage");
  } else {
    const size_t origin[3] = { 0, 0, 0 };
    const size_t region[3] = { store->row_bytes, d->height, 1 };
    st = clEnqueueWriteBufferRect (queue, d->mem, CL_FALSE, origin, origin,
        region, d->stride, 0, stride, 0, data, 0, NULL, event);
    return st == CL_SUCCESS ||
        gst_cl_fail (error, st, "clEnqueueWriteBufferRect");
  }
}

/**
 * gst_cl_plane_store_bind:
 *
 * The device object kernels write @plane of the output @frame to.
 */
gboolean
gst_cl_plane_store_bind (GstClPlaneStore * store, GstVideoFrame * frame,
    guint plane, GstClPlane * out, GError ** error)
{
  if (store->wrap)
    return wrap_frame (store, frame, plane, out, error);
  *out = store->desc;
  return TRUE;
}

/**
 * gst_cl_plane_store_download:
 * @blocking: return once the plane is in @frame; if FALSE, the transfer is
 *   only enqueued (stores that wrap the frame's memory always block) and
 *   the caller waits for the queue before using the frame
 *
 * Brings the kernels' output into @plane of @frame.
 */
gboolean
gst_cl_plane_store_download (GstClPlaneStore * store, cl_command_queue queue,
    GstVideoFrame * frame, guint plane, gboolean blocking, cl_event * event,
    GError ** error)
{
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
  guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
  GstClPlane *d = &store->desc;
  cl_int st;

  if (event)
    *event = NULL;
  if (store->wrap) {
    /* mapping a USE_HOST_PTR buffer makes the host copy current; on
     * devices sharing host memory it copies nothing */
    gsize size = plane_extent (store, stride);
    void *p = clEnqueueMapBuffer (queue, store->frame_mem, CL_TRUE,
        CL_MAP_READ, 0, size, 0, NULL, event, &st);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueMapBuffer");
    if (p != (void *) data)
      memcpy (data, p, size);   /* not reached on conformant drivers */
    st = clEnqueueUnmapMemObject (queue, store->frame_mem, p, 0, NULL, NULL);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueUnmapMemObject");
    return TRUE;
  }
  if (d->is_image) {
    const size_t origin[3] = { 0, 0, 0 };
    const size_t region[3] = { d->units, d->height, 1 };
    st = clEnqueueReadImage (queue, d->mem, blocking ? CL_TRUE : CL_FALSE,
        origin, region, stride, 0, data, 0, NULL, event);
    return st == CL_SUCCESS || gst_cl_fail (error, st, "clEnqueueReadImage");
  } else {
    const size_t origin[3] = { 0, 0, 0 };
    const size_t region[3] = { store->row_bytes, d->height, 1 };
    st = clEnqueueReadBufferRect (queue, d->mem, blocking ? CL_TRUE :
        CL_FALSE, origin, origin, region, d->stride, 0, stride, 0, data, 0,
        NULL, event);
    return st == CL_SUCCESS ||
        gst_cl_fail (error, st, "clEnqueueReadBufferRect");
  }
}

/* Whether the store wraps the frames' own memory (zero copy) instead of
 * keeping the plane in a device object of its own. */
gboolean
gst_cl_plane_store_wraps (const GstClPlaneStore * store)
{
  return store->wrap;
}

/* Releases this frame's wrapper of host memory, if any. */
void
gst_cl_plane_store_end_frame (GstClPlaneStore * store)
{
  if (store->frame_mem) {
    clReleaseMemObject (store->frame_mem);
    store->frame_mem = NULL;
  }
}
