/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclframework.c: kernel launches of one frame, with the frame's work
 * decomposition, on its queue, the last one's event kept as the frame's
 * end and each one's for profiling. */
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
 * gst_cl_frame_work_launch_words16:
 *
 * gst_cl_launch_words16() with the frame's work decomposition.
 */
gboolean
gst_cl_frame_work_launch_words16 (const GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, GstClLaunch * launch)
{
  return gst_cl_launch_words16 (&work->decomposition, work->device, src, dst,
      launch);
}

/**
 * gst_cl_frame_work_enqueue:
 *
 * Enqueues @kernel over @launch on the frame's queue, the first one of a
 * frame after the work's wait list; its event becomes the work's last one
 * (and a profiling event when profiling).
 */
gboolean
gst_cl_frame_work_enqueue (GstClFrameWork * work, cl_kernel kernel,
    const GstClLaunch * launch, GError ** error)
{
  cl_event ev = NULL;

  if (!gst_cl_launch_enqueue (work->queue, kernel, launch, work->n_wait,
          work->wait, &ev, error))
    return FALSE;
  work->n_wait = 0;
  if (work->events && work->n_events < GST_CL_MAX_KERNEL_EVENTS) {
    clRetainEvent (ev);
    work->events[work->n_events++] = ev;
  }
  if (work->last)
    clReleaseEvent (work->last);
  work->last = ev;
  return TRUE;
}

/**
 * gst_cl_frame_work_follow:
 * @event: (nullable): the event of a command just enqueued on the frame's
 *   queue
 *
 * Makes @event the work's last one (the work takes a reference of its
 * own).
 */
void
gst_cl_frame_work_follow (GstClFrameWork * work, cl_event event)
{
  if (!event)
    return;
  clRetainEvent (event);
  if (work->last)
    clReleaseEvent (work->last);
  work->last = event;
}

/**
 * gst_cl_frame_work_take_last:
 *
 * Returns: (transfer full) (nullable): the event of the last command the
 * work knows of, which the work no longer holds.
 */
cl_event
gst_cl_frame_work_take_last (GstClFrameWork * work)
{
  cl_event ev = work->last;

  work->last = NULL;
  return ev;
}
