/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclcontext.h: sharing an OpenCL device between elements and pipelines
 * through GstContext. */
#pragma once

#include "gstcldevice.h"

G_BEGIN_DECLS

/**
 * GST_CL_DEVICE_CONTEXT_TYPE:
 *
 * The GstContext type that carries a #GstClDevice. Its structure holds
 * `device` (the #GstClDevice) and, for applications, `device-name`,
 * `platform-name` and `device-type` (`gpu`, `cpu`, `accelerator`,
 * `other`). A context made by an application may hold only `device-name`
 * (or `device-type`): it then selects the device as the `device` property
 * would.
 */
#define GST_CL_DEVICE_CONTEXT_TYPE "gst.cl.device"

GstContext *gst_context_new_cl_device (GstClDevice * device);

GstClDevice *gst_context_get_cl_device (GstContext * context,
    GError ** error);

GstClDevice *gst_cl_ensure_element_device (GstElement * element,
    const gchar * selector, GError ** error);

gboolean gst_cl_handle_context_query (GstElement * element, GstQuery * query,
    GstClDevice * device);

G_END_DECLS
