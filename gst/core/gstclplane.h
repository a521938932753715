/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclplane.h: storage of one frame plane on an OpenCL device.
 *
 * A plane lives in an OpenCL buffer or an OpenCL image. On devices that
 * read host memory in place (CPUs through POCL, integrated GPUs) a buffer
 * plane wraps the mapped GstBuffer memory for the frame: nothing is copied.
 * Elsewhere the store keeps a device object allocated once per caps and
 * copies rows in and out with pitched transfers. Device-resident frames
 * (a memory:OpenCL caps feature) will be a third source of the cl_mem that
 * a GstClPlane hands to the kernels.
 */
#pragma once

#include "gstcldevice.h"
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstClPlane:
 *
 * What a kernel needs to know of a plane, for one frame. A unit is a byte
 * in a buffer and a texel in an image.
 */
typedef struct
{
  cl_mem mem;                   /* the memory object of this frame */
  gboolean is_image;
  gint width;                   /* pixels per row */
  gint height;                  /* rows */
  gint step;                    /* units per pixel */
  gint units;                   /* units per row: width * step */
  gint stride;                  /* bytes from row to row (buffers) */
  gint alpha;                   /* unit (buffer) or component (image) of each
                                 * pixel copied unchanged (alpha or padding),
                                 * -1 when none */
} GstClPlane;

typedef struct
{
  GstClDevice *device;
  GstClPlane desc;              /* mem: the persistent object, if any */
  cl_image_format image_format;
  gsize row_bytes;
  gboolean output;
  gboolean wrap;                /* wrap host memory per frame (zero-copy) */
  cl_mem frame_mem;             /* this frame's wrapper, when wrapping */
} GstClPlaneStore;

gboolean gst_cl_plane_image_possible (GstClDevice * device,
    const GstVideoInfo * info, guint plane, gchar ** why);

gboolean gst_cl_plane_store_configure (GstClPlaneStore * store,
    GstClDevice * device, const GstVideoInfo * info, guint plane,
    gboolean image, gboolean output, GError ** error);

void gst_cl_plane_store_clear (GstClPlaneStore * store);

gboolean gst_cl_plane_store_upload (GstClPlaneStore * store,
    cl_command_queue queue, const GstVideoFrame * frame, guint plane,
    GstClPlane * out, cl_event * event, GError ** error);

gboolean gst_cl_plane_store_bind (GstClPlaneStore * store,
    GstVideoFrame * frame, guint plane, GstClPlane * out, GError ** error);

gboolean gst_cl_plane_store_download (GstClPlaneStore * store,
    cl_command_queue queue, GstVideoFrame * frame, guint plane,
    gboolean blocking, cl_event * event, GError ** error);
gboolean gst_cl_plane_store_wraps (const GstClPlaneStore * store);

void gst_cl_plane_store_end_frame (GstClPlaneStore * store);

G_END_DECLS
