/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcldevice.h: an OpenCL device, its context and its shared programs. */
#pragma once

#include "gstcl.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_DEVICE (gst_cl_device_get_type ())
G_DECLARE_FINAL_TYPE (GstClDevice, gst_cl_device, GST, CL_DEVICE, GstObject);

/**
 * GstClDevice:
 *
 * One OpenCL device with its context and the programs built for it. There is
 * one GstClDevice per device in a process: every element that selects the
 * same device shares it (and its programs). It is a GstObject so that it can
 * later travel between elements in a GstContext.
 */
struct _GstClDevice
{
  GstObject parent;

  /*< public, read-only after creation >*/
  cl_platform_id platform_id;
  cl_device_id device_id;
  cl_context context;
  guint platform_index, device_index;
  gchar *name;                  /* CL_DEVICE_NAME */
  gchar *platform_name;         /* CL_PLATFORM_NAME */
  gchar *version;               /* CL_DEVICE_VERSION */
  gchar *driver_version;        /* CL_DRIVER_VERSION */
  cl_device_type type;
  gboolean host_unified;        /* device reads host memory in place */
  gboolean image_support;
  gsize image2d_max_width, image2d_max_height;
  cl_ulong local_mem_size;
  gsize max_work_group_size;
  guint compute_units;           /* CL_DEVICE_MAX_COMPUTE_UNITS */
  cl_ulong max_alloc;           /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */

  /*< private >*/
  GMutex lock;
  GHashTable *programs;         /* "name|options" -> cl_program */
};

GstClDevice *gst_cl_device_acquire (const gchar * selector, GError ** error);

gboolean gst_cl_device_is_cpu (GstClDevice * device);

cl_program gst_cl_device_get_program (GstClDevice * device,
    const gchar * name, const gchar * source, GError ** error);

cl_command_queue gst_cl_device_create_queue (GstClDevice * device,
    GError ** error);

gboolean gst_cl_device_has_image_format (GstClDevice * device,
    cl_channel_order order, cl_channel_type type);

gchar *gst_cl_device_describe_all (void);

G_END_DECLS
