/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclkernel.h: kernels and their launches: the work decomposition a
 * tuning gives on a device, and enqueueing. */
#pragma once

#include "gstcldevice.h"
#include "gstclplane.h"
#include "gstclprofile.h"

G_BEGIN_DECLS

/**
 * GstClKernelShape:
 * @GST_CL_KERNEL_SHAPE_AUTO: @GST_CL_KERNEL_SHAPE_STRIPS on CPU devices,
 *   @GST_CL_KERNEL_SHAPE_TILES elsewhere
 * @GST_CL_KERNEL_SHAPE_STRIPS: each work-item filters whole rows (a strip),
 *   with work-groups of one item: the fast shape for CPUs
 * @GST_CL_KERNEL_SHAPE_TILES: each work-item filters a few bytes of a row,
 *   neighbouring items neighbouring bytes, in large work-groups: the shape
 *   for GPUs
 */
typedef enum
{
  GST_CL_KERNEL_SHAPE_AUTO,
  GST_CL_KERNEL_SHAPE_STRIPS,
  GST_CL_KERNEL_SHAPE_TILES,
} GstClKernelShape;

#define GST_TYPE_CL_KERNEL_SHAPE (gst_cl_kernel_shape_get_type ())
GType gst_cl_kernel_shape_get_type (void);

/**
 * GstClDecomposition:
 *
 * How a kernel's work is cut into work-items: the values of the tuning
 * properties (explicit, or chosen by the tuner, gstcltuner.h), 0 (or
 * auto) meaning the built-in default.
 */
typedef struct
{
  GstClKernelShape shape;
  guint work_group_size, rows_per_item, pixels_per_item;
} GstClDecomposition;

/* Work decomposition of one kernel launch (see kernels/common.cl). */
typedef struct
{
  size_t global[2];
  size_t local[2];
  cl_int chunk;                 /* units per work-item along a row */
  cl_int rows;                  /* rows per work-item */
  gboolean rows_auto;           /* rows is the automatic choice (no
                                 * rows-per-item set) */
  gboolean group_auto;          /* local[0] is the automatic choice (no
                                 * work-group-size set) */
} GstClLaunch;

cl_kernel gst_cl_kernel_new (cl_program program, const gchar * name,
    GError ** error);

gboolean gst_cl_tuning_uses_strips (const GstClDecomposition * tuning,
    GstClDevice * device);

void gst_cl_launch_shape (const GstClDecomposition * tuning, GstClDevice * device,
    const GstClPlane * plane, gboolean vectors, GstClLaunch * launch);

gboolean gst_cl_mem_is_aligned (cl_mem mem, gsize align);

gboolean gst_cl_launch_words8 (const GstClDecomposition * tuning,
    GstClDevice * device, const GstClPlane * src, const GstClPlane * dst,
    GstClLaunch * launch);

gboolean gst_cl_launch_words16 (const GstClDecomposition * tuning,
    GstClDevice * device, const GstClPlane * src, const GstClPlane * dst,
    GstClLaunch * launch);

gboolean gst_cl_launch_enqueue (cl_command_queue queue, cl_kernel kernel,
    const GstClLaunch * launch, guint n_wait, const cl_event * wait,
    cl_event * event, GError ** error);

G_END_DECLS
