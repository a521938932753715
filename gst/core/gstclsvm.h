/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclsvm.h: fine-grained shared virtual memory (OpenCL 2.0), where a
 * zero-copy device has it.
 *
 * A frame in fine-grained SVM is host memory that the device reads and
 * writes in place and that the CPU may touch without mapping: a CPU map is
 * a wait for the frame's events, with no command enqueued. On POCL every
 * command is a hand-over to the device's thread, so the map and unmap
 * commands of a mapped buffer cost more than a small kernel's launch. */
#pragma once

#include "gstcl.h"

G_BEGIN_DECLS

gboolean gst_cl_svm_fine_grain_supported (cl_device_id device);

gpointer gst_cl_svm_alloc (cl_context context, gsize size, guint alignment);

void gst_cl_svm_free (cl_context context, gpointer ptr);

G_END_DECLS
