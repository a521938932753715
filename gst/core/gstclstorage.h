/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclstorage.h: how the filters' kernels hold a frame on the device,
 * OpenCL buffers or images: the `storage` property. */
#pragma once

#include "gstcldevice.h"

#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstClStorage:
 * @GST_CL_STORAGE_AUTO: the kind measured faster: buffers (see
 *   gst_cl_storage_measured())
 * @GST_CL_STORAGE_BUFFER: OpenCL buffers
 * @GST_CL_STORAGE_IMAGE: OpenCL images
 *
 * How the kernels hold a frame on the device: the `storage` property.
 * The deprecated `memory` property sets the same value through the enum
 * GType "GstClMemoryKind" (GST_TYPE_CL_MEMORY_KIND, same nicks and values).
 */
typedef enum
{
  GST_CL_STORAGE_AUTO,
  GST_CL_STORAGE_BUFFER,
  GST_CL_STORAGE_IMAGE,
} GstClStorage;

#define GST_TYPE_CL_STORAGE (gst_cl_storage_get_type ())
GType gst_cl_storage_get_type (void);

#define GST_TYPE_CL_MEMORY_KIND (gst_cl_memory_kind_get_type ())
GType gst_cl_memory_kind_get_type (void);

GstClStorage gst_cl_storage_measured (GstClDevice * device,
    const GstVideoInfo * info);

gboolean gst_cl_storage_use_images (GstElement * element,
    GstClStorage storage, gboolean automatic, GstClDevice * device,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info);

void gst_cl_storage_install_properties (GObjectClass * klass,
    guint storage_id, guint memory_id);

void gst_cl_storage_warn_memory_alias (GObject * object);

G_END_DECLS
