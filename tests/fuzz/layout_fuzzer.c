/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* layout_fuzzer.c: libFuzzer target for gst_cl_layout_check().
 *
 * The input picks a format, a size, a buffer size and a GstVideoMeta's
 * planes, offsets and strides. When the check accepts the layout, every
 * byte of every row of every plane is read from a heap buffer of exactly
 * the buffer size: under AddressSanitizer an accepted layout that reaches
 * outside the buffer crashes the fuzzer. An accepted plane of 16-bit
 * samples with an odd stride or offset (kernels read it as words) aborts.
 *
 * Build and run: scripts/fuzz.sh [seconds]
 */
#include "core/gstcllayout.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_Y444_16LE,
  GST_VIDEO_FORMAT_RGBA64_LE,
};

typedef struct
{
  const uint8_t *p;
  size_t n;
} Reader;

static uint32_t
take (Reader * r, int bytes)
{
  uint32_t v = 0;
  for (int i = 0; i < bytes; i++) {
    v = (v << 8) | (r->n ? *r->p : 0);
    if (r->n) {
      r->p++;
      r->n--;
    }
  }
  return v;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  Reader r = { data, size };
  GstVideoInfo info;
  GstVideoMeta meta;
  gboolean use_meta;
  size_t buf_size;
  uint8_t *buf;
  volatile uint8_t sink = 0;
  guint p;

  GstVideoFormat format = formats[take (&r, 1) % G_N_ELEMENTS (formats)];
  guint width = take (&r, 2) % 600 + 1;
  guint height = take (&r, 2) % 400 + 1;
  gst_video_info_init (&info);
  if (!gst_video_info_set_format (&info, format, width, height))
    return 0;

  memset (&meta, 0, sizeof (meta));
  use_meta = take (&r, 1) & 1;
  meta.format = take (&r, 1) & 1 ? format : formats[take (&r, 1) %
      G_N_ELEMENTS (formats)];
  meta.width = take (&r, 1) & 1 ? width : take (&r, 2);
  meta.height = take (&r, 1) & 1 ? height : take (&r, 2);
  meta.n_planes = take (&r, 1) & 1 ? GST_VIDEO_INFO_N_PLANES (&info) :
      take (&r, 1) % 5;
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    /* near the defaults, or anything */
    if (take (&r, 1) & 1) {
      meta.offset[p] = GST_VIDEO_INFO_PLANE_OFFSET (&info, p) +
          (int8_t) take (&r, 1);
      meta.stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p) +
          (int8_t) take (&r, 1);
    } else {
      meta.offset[p] = take (&r, 4);
      meta.stride[p] = (gint) take (&r, 4);
    }
  }
  buf_size = take (&r, 1) & 1 ? info.size + (int8_t) take (&r, 1) :
      take (&r, 3);
  if (buf_size > (1 << 24))
    return 0;

  if (!gst_cl_layout_check (&info, use_meta ? &meta : NULL, buf_size, NULL))
    return 0;

  /* accepted: read every sample the filters would read */
  buf = malloc (buf_size ? buf_size : 1);
  memset (buf, 0, buf_size);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    gsize off = use_meta ? meta.offset[p] : GST_VIDEO_INFO_PLANE_OFFSET (&info,
        p);
    gint stride = use_meta ? meta.stride[p] : GST_VIDEO_INFO_PLANE_STRIDE (&info,
        p);
    gsize row = gst_cl_layout_row_bytes (&info, p);
    guint rows = gst_cl_layout_plane_rows (&info, p), y;
    if (GST_VIDEO_FORMAT_INFO_DEPTH (info.finfo, 0) > 8 && ((off | stride) & 1))
      abort ();
    for (y = 0; y < rows; y++) {
      const uint8_t *line = buf + off + (gsize) y * stride;
      sink ^= line[0];
      sink ^= line[row - 1];
    }
  }
  free (buf);
  (void) sink;
  return 0;
}
