/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclplane.h: storage of one frame plane on an OpenCL device.
 *
 * Frames live in OpenCL buffers (GstClMemory). Kernels read and write the
 * first plane of a frame either in the frame's buffer itself, or, for
 * `storage=image`, in an OpenCL image the store owns: the plane is copied
 * into it on the device before the kernels and back after them.
 */
#pragma once

#include "gstcldevice.h"
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstClPlane:
 *
 * What a kernel needs to know of a plane, for one frame. A unit is a
 * sample in a buffer (a byte in 8-bit formats, two little-endian bytes in
 * the formats of more than 8 bits) and a texel in an image (CL_UNSIGNED_INT8
 * or CL_UNSIGNED_INT16 channels).
 *
 * A stored sample holds its value v (@depth bits) at bit @shift:
 * v = (sample >> shift) & (2^depth - 1). Bits outside the value are ignored
 * on input and written as zero; P010_10LE has shift 6 (its low 6 bits stay
 * zero), the other formats shift 0.
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
  gint sample_bytes;            /* 1, or 2 for more than 8 bits */
  gint depth;                   /* bits of a sample value: 8 to 16 */
  gint shift;                   /* bits below the value in a sample */
} GstClPlane;

/* whether @plane's samples take two bytes (formats of more than 8 bits) */
#define GST_CL_PLANE_IS_WIDE(plane) ((plane)->sample_bytes == 2)

typedef struct
{
  GstClDevice *device;
  GstClPlane desc;              /* geometry; mem: the image, if any */
  cl_image_format image_format;
  gsize row_bytes;
  gboolean output;
  cl_mem packed;                /* packed rows, for images of padded frames */
} GstClPlaneStore;

gboolean gst_cl_plane_image_possible (GstClDevice * device,
    const GstVideoInfo * info, guint plane, gchar ** why);

gboolean gst_cl_plane_store_configure (GstClPlaneStore * store,
    GstClDevice * device, const GstVideoInfo * info, guint plane,
    gboolean image, gboolean output, GError ** error);

void gst_cl_plane_store_clear (GstClPlaneStore * store);

gboolean gst_cl_plane_store_view (GstClPlaneStore * store,
    cl_command_queue queue, cl_mem mem, const GstVideoInfo * layout,
    gboolean fill, GstClPlane * out, GError ** error);

gboolean gst_cl_plane_store_write_back (GstClPlaneStore * store,
    cl_command_queue queue, cl_mem mem, const GstVideoInfo * layout,
    cl_event * event, GError ** error);

G_END_DECLS
