/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcllayout.c: validation of the memory layout of an input frame. */
#include "gstcllayout.h"

/* the first component stored in a plane */
static gint
plane_component (const GstVideoInfo * info, guint plane)
{
  gint comps[GST_VIDEO_MAX_COMPONENTS];
  gst_video_format_info_component (info->finfo, plane, comps);
  return comps[0];
}

gsize
gst_cl_layout_row_bytes (const GstVideoInfo * info, guint plane)
{
  gint comp = plane_component (info, plane);
  if (comp < 0)
    return 0;
  return (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp) *
      GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
}

guint
gst_cl_layout_plane_rows (const GstVideoInfo * info, guint plane)
{
  gint comp = plane_component (info, plane);
  if (comp < 0)
    return 0;
  return GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
}

static gboolean
fail (gchar ** reason, const gchar * format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (gchar ** reason, const gchar * format, ...)
{
  if (reason) {
    va_list ap;
    va_start (ap, format);
    *reason = g_strdup_vprintf (format, ap);
    va_end (ap);
  }
  return FALSE;
}

gboolean
gst_cl_layout_check (const GstVideoInfo * info, const GstVideoMeta * meta,
    gsize buffer_size, gchar ** reason)
{
  guint p, n_planes = GST_VIDEO_INFO_N_PLANES (info);

  if (reason)
    *reason = NULL;
  if (GST_VIDEO_INFO_WIDTH (info) <= 0 || GST_VIDEO_INFO_HEIGHT (info) <= 0)
    return fail (reason, "empty frame size %dx%d", GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info));
  if (meta) {
    if (meta->format != GST_VIDEO_INFO_FORMAT (info)
        || meta->width != (guint) GST_VIDEO_INFO_WIDTH (info)
        || meta->height != (guint) GST_VIDEO_INFO_HEIGHT (info)
        || meta->n_planes != n_planes)
      return fail (reason, "video meta (%s %ux%u, %u planes) does not match "
          "the caps (%s %dx%d, %u planes)",
          gst_video_format_to_string (meta->format), meta->width,
          meta->height, meta->n_planes,
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), n_planes);
  }

  for (p = 0; p < n_planes; p++) {
    guint64 row = gst_cl_layout_row_bytes (info, p);
    guint64 rows = gst_cl_layout_plane_rows (info, p);
    gint64 stride = meta ? meta->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE (info,
        p);
    guint64 offset = meta ? meta->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET (info,
        p);
    guint64 end;

    if (row == 0 || rows == 0)
      return fail (reason, "plane %u is empty", p);
    if (stride <= 0 || (guint64) stride < row)
      return fail (reason, "plane %u: stride %" G_GINT64_FORMAT " is smaller "
          "than a row of %" G_GUINT64_FORMAT " bytes", p, stride, row);
    /* kernels read samples of more than 8 bits as 16-bit words */
    if (GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, plane_component (info,
                p)) > 8 && ((stride | offset) & 1))
      return fail (reason, "plane %u: stride %" G_GINT64_FORMAT " or offset %"
          G_GUINT64_FORMAT " is odd, but its samples are 16-bit words", p,
          stride, offset);
    /* no overflow: stride < 2^31, rows < 2^31, offset < 2^64 / 2 checked */
    if (offset > buffer_size)
      return fail (reason, "plane %u starts at %" G_GUINT64_FORMAT ", past "
          "the end of the %" G_GSIZE_FORMAT "-byte buffer", p, offset,
          buffer_size);
    end = offset + (rows - 1) * (guint64) stride + row;
    if (end > buffer_size)
      return fail (reason, "plane %u needs bytes up to %" G_GUINT64_FORMAT
          " but the buffer has %" G_GSIZE_FORMAT, p, end, buffer_size);
  }
  return TRUE;
}

/**
 * gst_cl_layout_from_buffer:
 *
 * The layout of @buf: @info with the offsets and strides of its
 * GstVideoMeta, if it has one.
 */
void
gst_cl_layout_from_buffer (const GstVideoInfo * info, GstBuffer * buf,
    GstVideoInfo * out)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  guint p;

  *out = *info;
  if (!meta)
    return;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info) && p < meta->n_planes; p++) {
    out->offset[p] = meta->offset[p];
    out->stride[p] = meta->stride[p];
  }
}
