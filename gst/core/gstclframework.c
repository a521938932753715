/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclframework.c: kernel launches of one frame, with the frame's work
 * decomposition, on its queue, its events kept for profiling. */
#include "gstclframework.h"

/**
 * gst_cl_frame_work_uses_strips:
 *
 * Whether the frame's kernels take the CPU shape (strips of rows) rather
 * than the GPU shape (tiles).
 */
gboolean
gst_cl_frame_work_uses_strips (const GstClFrameWork * work)
{
  return gst_cl_tuning_uses_strips (&work->decomposition, work->device);
}

/**
 * gst_cl_frame_work_launch_shape:
 *
 * gst_cl_launch_shape() with the frame's work decomposition.
 */
void
gst_cl_frame_work_launch_shape (const GstClFrameWork * work,
    const GstClPlane * plane, gboolean vectors, GstClLaunch * launch)
{
  gst_cl_launch_shape (&work->decomposition, work->device, plane, vectors,
      launch);
}

/**
 * gst_cl_frame_work_launch_words8:
 *
 * gst_cl_launch_words8() with the frame's work decomposition.
 */
gboolean
gst_cl_frame_work_launch_words8 (const GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, GstClLaunch * launch)
{
  return gst_cl_launch_words8 (&work->decomposition, work->device, src, dst,
      launch);
}

/**
 * gst_cl_frame_work_enqueue:
 *
 * gst_cl_launch_enqueue() on the frame's queue, the kernel's event kept
 * when the frame is profiled.
 */
gboolean
gst_cl_frame_work_enqueue (GstClFrameWork * work, cl_kernel kernel,
    const GstClLaunch * launch, GError ** error)
{
  return gst_cl_launch_enqueue (work->queue, kernel, launch, work->events,
      &work->n_events, error);
}
