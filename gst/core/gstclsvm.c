/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclsvm.c: fine-grained shared virtual memory. The rest of the core is
 * built against OpenCL 1.2; only this file sees the 2.0 declarations, and
 * calls them only on devices that report 2.0 or later with fine-grained
 * buffer SVM. */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 200
#include <CL/cl.h>

#include "gstclsvm.h"

#include <stdio.h>

/**
 * gst_cl_svm_fine_grain_supported:
 *
 * Returns: whether @device is OpenCL 2.0 or later and shares buffers of
 * fine-grained SVM with the host
 */
gboolean
gst_cl_svm_fine_grain_supported (cl_device_id device)
{
  cl_device_svm_capabilities caps = 0;
  gchar version[128] = "";
  int major = 0, minor = 0;

  if (clGetDeviceInfo (device, CL_DEVICE_VERSION, sizeof (version) - 1,
          version, NULL) != CL_SUCCESS
      || sscanf (version, "OpenCL %d.%d", &major, &minor) != 2 || major < 2)
    return FALSE;
  if (clGetDeviceInfo (device, CL_DEVICE_SVM_CAPABILITIES, sizeof (caps),
          &caps, NULL) != CL_SUCCESS)
    return FALSE;
  return (caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
}

/**
 * gst_cl_svm_alloc:
 *
 * Returns: @size bytes of fine-grained SVM aligned to @alignment, or NULL
 */
gpointer
gst_cl_svm_alloc (cl_context context, gsize size, guint alignment)
{
  return clSVMAlloc (context, CL_MEM_READ_WRITE |
      CL_MEM_SVM_FINE_GRAIN_BUFFER, size, alignment);
}

/**
 * gst_cl_svm_free:
 *
 * Frees @ptr at once: the caller has waited for every command using it.
 */
void
gst_cl_svm_free (cl_context context, gpointer ptr)
{
  if (ptr)
    clSVMFree (context, ptr);
}
