/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcl.h: common includes and small helpers of the clfilters core.
 *
 * The core (gst/core/) owns everything that talks to OpenCL: devices and
 * their shared programs (gstcldevice), frame storage on the device
 * (gstclplane), layout validation of input buffers (gstcllayout) and the base
 * class the elements derive from (gstclbasefilter). Elements (gst/elements/)
 * only describe their kernels and launch them.
 */
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_CL_ERROR (gst_cl_error_quark ())
GQuark gst_cl_error_quark (void);

typedef enum
{
  GST_CL_ERROR_NO_PLATFORM,     /* no OpenCL platform (ICD) installed */
  GST_CL_ERROR_NO_DEVICE,       /* platforms, but no device */
  GST_CL_ERROR_NO_MATCH,        /* the device selector matched nothing */
  GST_CL_ERROR_BUILD,           /* program build failed (log in the message) */
  GST_CL_ERROR_FAILED,          /* any other OpenCL call failed */
} GstClError;

const gchar *gst_cl_status_name (cl_int status);

/* Sets *error from a failed OpenCL call; returns FALSE so callers can write
 * `if (st != CL_SUCCESS) return gst_cl_fail (error, st, "clFoo");` */
gboolean gst_cl_fail (GError ** error, cl_int status, const gchar * what);

/* clSetKernelArg over a list of (size, pointer) pairs ended by 0. */
gboolean gst_cl_set_args (cl_kernel kernel, GError ** error, ...);

gboolean gst_cl_buffer_ensure (cl_context context, cl_mem * mem,
    gsize * have, gsize size, gboolean * fresh, const gchar * what,
    GError ** error);

gboolean gst_cl_buffer_zero (cl_command_queue queue, cl_mem mem, gsize size,
    const gchar * what, GError ** error);



gboolean gst_cl_event_wait (cl_event event, GError ** error);
gboolean gst_cl_event_done (cl_event event);

/* Argument pairs for gst_cl_set_args(). */
#define GST_CL_ARG(v) (gsize) sizeof (v), (const void *) &(v)
#define GST_CL_ARG_LOCAL(bytes) (gsize) (bytes), (const void *) NULL
#define GST_CL_ARGS_END (gsize) 0
G_END_DECLS
