/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclframework.h: what one frame's kernels run with, handed by the
 * filters' base class to an element's process() or analyze(). */
#pragma once

#include "gstcldevice.h"
#include "gstclkernel.h"

#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstClFrameWork:
 * @device: the device
 * @queue: the frame's compute queue (of its stream: docs/design.md), in
 *   order, after everything the frame waits for
 * @decomposition: the work decomposition of the frame's kernels: the
 *   explicit tuning properties over the tuned or default choices, or the
 *   tuner's candidate
 * @tuning: the frame is one of the tuner's, which times the kernels that
 *   each candidate launches: a kernel the element would build in the
 *   background for a stream (and meanwhile run another) has to be built
 *   now
 * @events: where the kernels' events go, for profiling (at most
 *   GST_CL_MAX_KERNEL_EVENTS), or NULL
 * @n_events: how many @events hold
 * @last: (nullable): the event of the last command enqueued through the
 *   work (gst_cl_frame_work_enqueue(), gst_cl_frame_work_follow()), owned
 *   by the work; the queue being in order, the frame is done when it is,
 *   and the base class uses it as the frame's end instead of enqueuing a
 *   marker (on NVIDIA every command holds the device's lock, which all
 *   streams on it share: docs/performance.md, "Many streams")
 * @wait: (array length=n_wait): what the frame's first kernel waits for
 *   (the input's upload, the output's last download: commands of other
 *   queues), given to that kernel rather than to a barrier before it;
 *   consumed by the first gst_cl_frame_work_enqueue()
 * @n_wait: how many @wait holds
 *
 * Valid for the call it is passed to only. An element enqueues the
 * commands it ends a frame with through the work, or notes their events
 * with gst_cl_frame_work_follow(): a command after the last one the work
 * knows of would not be waited for. Commands before its first kernel may
 * touch only the element's own buffers (a fill of counts, weights), not
 * the frames: only that kernel waits for @wait.
 */
typedef struct
{
  GstClDevice *device;
  cl_command_queue queue;
  GstClDecomposition decomposition;
  gboolean tuning;
  cl_event *events;
  guint n_events;
  cl_event last;
  const cl_event *wait;
  guint n_wait;
} GstClFrameWork;

/**
 * GstClFramePair:
 * @in: the input frame's device buffer, every plane of it
 * @out: the output frame's, or NULL (analyzers)
 * @in_layout: where @in's planes lie: the offsets and strides of the
 *   frame's video meta, or of its caps
 * @out_layout: where @out's lie, or NULL
 *
 * The whole frames of a frame, for converters
 * (GstClBaseFilterClass.convert), whose kernels read every plane of one
 * format and write every plane of another.
 */
typedef struct
{
  cl_mem in, out;
  const GstVideoInfo *in_layout, *out_layout;
} GstClFramePair;

gboolean gst_cl_frame_work_uses_strips (const GstClFrameWork * work);

void gst_cl_frame_work_launch_shape (const GstClFrameWork * work,
    const GstClPlane * plane, gboolean vectors, GstClLaunch * launch);

gboolean gst_cl_frame_work_launch_words8 (const GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, GstClLaunch * launch);

gboolean gst_cl_frame_work_launch_words16 (const GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, GstClLaunch * launch);

gboolean gst_cl_frame_work_enqueue (GstClFrameWork * work, cl_kernel kernel,
    const GstClLaunch * launch, GError ** error);

void gst_cl_frame_work_follow (GstClFrameWork * work, cl_event event);

cl_event gst_cl_frame_work_take_last (GstClFrameWork * work);

G_END_DECLS
