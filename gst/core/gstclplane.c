/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclplane.c: storage of one frame plane on an OpenCL device. */
#include "gstclplane.h"
#include "gstcllayout.h"

#include <string.h>

/* Bytes of a sample of @plane: 2 in the formats of more than 8 bits (all
 * little-endian with 16-bit containers: GRAY16_LE, P010_10LE, RGBA64_LE...). */
static gint
plane_sample_bytes (const GstVideoInfo * info, guint plane)
{
  gint comps[GST_VIDEO_MAX_COMPONENTS];
  gst_video_format_info_component (info->finfo, plane, comps);
  return GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, comps[0]) > 8 ? 2 : 1;
}

/* samples per pixel and the sample kept unchanged in each pixel of a plane */
static void
plane_pixel (const GstVideoInfo * info, guint plane, gint * step, gint * alpha)
{
  gint comps[GST_VIDEO_MAX_COMPONENTS];
  gint bytes = plane_sample_bytes (info, plane);
  guint32 used = 0;
  gint i, n = 0;

  gst_video_format_info_component (info->finfo, plane, comps);
  *step = GST_VIDEO_INFO_COMP_PSTRIDE (info, comps[0]) / bytes;
  *alpha = -1;
  /* colour components are filtered; alpha and samples no component uses
   * (the x of RGBx) pass through. Only packed 4-sample pixels have one. */
  for (i = 0; i < GST_VIDEO_MAX_COMPONENTS && comps[i] >= 0; i++) {
    gint c = comps[i];
    if (GST_VIDEO_FORMAT_INFO_HAS_ALPHA (info->finfo) && c == GST_VIDEO_COMP_A)
      continue;
    used |= 1u << (GST_VIDEO_INFO_COMP_POFFSET (info, c) / bytes);
    n++;
  }
  if (*step == 4 && n == 3) {
    for (i = 0; i < 4; i++)
      if (!(used & (1u << i)))
        *alpha = i;
  }
}

static gboolean
image_format_for (gint step, gint sample_bytes, cl_image_format * fmt,
    gint * texels_per_px)
{
  fmt->image_channel_data_type = sample_bytes == 2 ? CL_UNSIGNED_INT16 :
      CL_UNSIGNED_INT8;
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
  gint step, alpha, tpp, bytes = plane_sample_bytes (info, plane);
  gsize units, rows;

  plane_pixel (info, plane, &step, &alpha);
  image_format_for (step, bytes, &fmt, &tpp);
  units = (gsize) (gst_cl_layout_row_bytes (info, plane) / (step * bytes)) *
      tpp;
  rows = gst_cl_layout_plane_rows (info, plane);
  if (!device->image_support) {
    *why = g_strdup_printf ("device \"%s\" has no image support",
        device->name);
    return FALSE;
  }
  if (!gst_cl_device_has_image_format (device, fmt.image_channel_order,
          fmt.image_channel_data_type)) {
    *why = g_strdup_printf ("device \"%s\" cannot read and write %s "
        "UNSIGNED_INT%d images", device->name,
        fmt.image_channel_order == CL_RGBA ? "CL_RGBA" : "CL_R", 8 * bytes);
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

/**
 * gst_cl_plane_store_configure:
 * @image: keep the plane in an OpenCL image of the element's own (filled
 *   from, or copied back to, the frame's buffer on the device)
 *
 * Prepares the geometry of @plane of frames described by @info, and the
 * image when @image is set. Called when caps are set, never per frame.
 */
gboolean
gst_cl_plane_store_configure (GstClPlaneStore * store, GstClDevice * device,
    const GstVideoInfo * info, guint plane, gboolean image, gboolean output,
    GError ** error)
{
  cl_mem_flags flags = CL_MEM_READ_WRITE;
  GstClPlane *d = &store->desc;
  gint step, alpha, tpp = 1, comps[GST_VIDEO_MAX_COMPONENTS];
  cl_int st;

  gst_cl_plane_store_clear (store);
  store->device = gst_object_ref (device);
  store->output = output;
  store->row_bytes = gst_cl_layout_row_bytes (info, plane);
  plane_pixel (info, plane, &step, &alpha);
  gst_video_format_info_component (info->finfo, plane, comps);
  d->sample_bytes = plane_sample_bytes (info, plane);
  d->depth = GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, comps[0]);
  d->shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, comps[0]);
  d->is_image = image;
  d->width = store->row_bytes / (step * d->sample_bytes);
  d->height = gst_cl_layout_plane_rows (info, plane);
  if (image) {
    image_format_for (step, d->sample_bytes, &store->image_format, &tpp);
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
    if (st != CL_SUCCESS) {
      d->mem = NULL;
      return gst_cl_fail (error, st, "clCreateImage");
    }
    return TRUE;
  }
  d->step = step;
  /* the kernels' vector path needs pixels that tile 16 bytes for alpha */
  d->alpha = (16 % step == 0) ? alpha : -1;
  g_assert (alpha < 0 || d->alpha >= 0);
  d->units = d->width * step;
  d->stride = 0;                /* the frame's, set per frame */
  d->mem = NULL;
  return TRUE;
}

void
gst_cl_plane_store_clear (GstClPlaneStore * store)
{
  if (store->desc.mem)
    clReleaseMemObject (store->desc.mem);
  if (store->packed)
    clReleaseMemObject (store->packed);
  gst_clear_object (&store->device);
  memset (store, 0, sizeof (*store));
}

/* Images are filled from and copied to buffers whose rows are packed; a
 * frame with padded rows goes through a packed copy first. */
static gboolean
ensure_packed (GstClPlaneStore * store, GError ** error)
{
  cl_int st;
  if (store->packed)
    return TRUE;
  store->packed = clCreateBuffer (store->device->context, CL_MEM_READ_WRITE,
      store->row_bytes * store->desc.height, NULL, &st);
  if (st != CL_SUCCESS) {
    store->packed = NULL;
    return gst_cl_fail (error, st, "clCreateBuffer (packed plane)");
  }
  return TRUE;
}

/**
 * gst_cl_plane_store_view:
 * @mem: the frame's memory; @plane 0 of @layout must start at offset 0
 *
 * What kernels see of plane 0 of @mem: the buffer itself, or the store's
 * image, filled from the buffer on @queue first when @fill is set.
 */
gboolean
gst_cl_plane_store_view (GstClPlaneStore * store, cl_command_queue queue,
    cl_mem mem, const GstVideoInfo * layout, gboolean fill, GstClPlane * out,
    GError ** error)
{
  GstClPlane *d = &store->desc;
  gint stride = GST_VIDEO_INFO_PLANE_STRIDE (layout, 0);
  const size_t origin[3] = { 0, 0, 0 };
  const size_t region[3] = { d->units, d->height, 1 };
  const size_t rect[3] = { store->row_bytes, d->height, 1 };
  cl_mem src = mem;
  cl_int st;

  *out = *d;
  if (!d->is_image) {
    out->mem = mem;
    out->stride = stride;
    return TRUE;
  }
  if (!fill)
    return TRUE;
  if ((gsize) stride != store->row_bytes) {
    if (!ensure_packed (store, error))
      return FALSE;
    st = clEnqueueCopyBufferRect (queue, mem, store->packed, origin, origin,
        rect, stride, 0, store->row_bytes, 0, 0, NULL, NULL);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueCopyBufferRect (to image)");
    src = store->packed;
  }
  st = clEnqueueCopyBufferToImage (queue, src, d->mem, 0, origin, region, 0,
      NULL, NULL);
  return st == CL_SUCCESS ||
      gst_cl_fail (error, st, "clEnqueueCopyBufferToImage");
}

/**
 * gst_cl_plane_store_write_back:
 *
 * @event: (out) (optional): the event of the last copy, when there is one
 *
 * For image stores: copies the image kernels wrote into plane 0 of @mem.
 */
gboolean
gst_cl_plane_store_write_back (GstClPlaneStore * store, cl_command_queue queue,
    cl_mem mem, const GstVideoInfo * layout, cl_event * event, GError ** error)
{
  GstClPlane *d = &store->desc;
  gint stride = GST_VIDEO_INFO_PLANE_STRIDE (layout, 0);
  const size_t origin[3] = { 0, 0, 0 };
  const size_t region[3] = { d->units, d->height, 1 };
  const size_t rect[3] = { store->row_bytes, d->height, 1 };
  gboolean packed = (gsize) stride != store->row_bytes;
  cl_int st;

  if (!d->is_image)
    return TRUE;
  if (packed && !ensure_packed (store, error))
    return FALSE;
  st = clEnqueueCopyImageToBuffer (queue, d->mem, packed ? store->packed :
      mem, origin, region, 0, 0, NULL, packed ? NULL : event);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueCopyImageToBuffer");
  if (!packed)
    return TRUE;
  st = clEnqueueCopyBufferRect (queue, store->packed, mem, origin, origin,
      rect, store->row_bytes, 0, stride, 0, 0, NULL, event);
  return st == CL_SUCCESS ||
      gst_cl_fail (error, st, "clEnqueueCopyBufferRect (from image)");
}
