/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclmemorycopy.h: clupload and cldownload, between system memory and
 * memory:OpenCLMemory. */
#pragma once

#include "core/gstclbasetransform.h"
#include "core/gstclcaps.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_MEMORY_COPY (gst_cl_memory_copy_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClMemoryCopy, gst_cl_memory_copy, GST,
    CL_MEMORY_COPY, GstClBaseTransform);

/**
 * GstClMemoryCopyClass:
 * @upload: TRUE for clupload (frames go to the device), FALSE for
 *   cldownload
 */
struct _GstClMemoryCopyClass
{
  GstClBaseTransformClass parent_class;

  gboolean upload;
};

#define GST_TYPE_CL_UPLOAD (gst_cl_upload_get_type ())
G_DECLARE_FINAL_TYPE (GstClUpload, gst_cl_upload, GST, CL_UPLOAD,
    GstClMemoryCopy);

#define GST_TYPE_CL_DOWNLOAD (gst_cl_download_get_type ())
G_DECLARE_FINAL_TYPE (GstClDownload, gst_cl_download, GST, CL_DOWNLOAD,
    GstClMemoryCopy);

GST_ELEMENT_REGISTER_DECLARE (clupload);
GST_ELEMENT_REGISTER_DECLARE (cldownload);

G_END_DECLS
