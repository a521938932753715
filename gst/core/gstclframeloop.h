/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclframeloop.h: a filter's frames through the device: input brought
 * to it, the element's kernels enqueued after what the frame waits for,
 * its events set, the output's download started, and the frames in
 * flight retired. */
#pragma once

#include "gstclframework.h"
#include "gstclinflight.h"
#include "gstclmemory.h"
#include "gstclplane.h"

G_BEGIN_DECLS

/**
 * GstClFrameLoopKind:
 * @GST_CL_FRAME_LOOP_FILTER: the element filters the first plane into an
 *   output frame of the same format; the other planes are copied
 * @GST_CL_FRAME_LOOP_ANALYZER: the element reads the frame, in place
 * @GST_CL_FRAME_LOOP_CONVERTER: the element writes every plane of an
 *   output frame whose format may differ, from the whole input frame
 *   (buffers only: no stores, no copies)
 */
typedef enum
{
  GST_CL_FRAME_LOOP_FILTER,
  GST_CL_FRAME_LOOP_ANALYZER,
  GST_CL_FRAME_LOOP_CONVERTER,
} GstClFrameLoopKind;

/**
 * GstClFrameLoop:
 * @kind: what the element does with frames (current caps)
 * @in_store: the input's first plane as the kernels read it (current caps)
 * @out_store: the output's, for filters (current caps)
 * @import_pool: device frames for input copied in
 * @out_device: the output caps carry memory:OpenCLMemory
 * @frame_set: the device queues of the last frame (its stream's:
 *   docs/design.md)
 * @in_flight: frames whose device work may still run
 * @profile: what profiling measured since its last message
 * @running: from gst_cl_frame_loop_start() to gst_cl_frame_loop_stop()
 *
 * The streaming state of a filter (GstClBaseFilter), used by the
 * streaming thread and, between frames, at caps time.
 */
typedef struct
{
  GstClFrameLoopKind kind;
  GstClPlaneStore in_store, out_store;
  GstBufferPool *import_pool;
  gboolean out_device;
  guint frame_set;
  GstClInFlight in_flight;
  GstClProfile profile;
  gboolean running;
} GstClFrameLoop;

/* The element's kernels for one frame: @src and @dst the first planes
 * (@dst NULL for analyzers, both NULL for converters), @frames the whole
 * frames, @buffer the input (NULL while tuning). */
typedef gboolean (*GstClFrameLoopDispatch) (gpointer filter,
    GstClFrameWork * work, const GstClPlane * src, const GstClPlane * dst,
    const GstClFramePair * frames, GstBuffer * buffer, GError ** error);

/**
 * GstClFrameLoopFrame:
 *
 * One frame: @outbuf NULL for analyzers (in place, in passthrough).
 */
typedef struct
{
  GstClDevice *device;
  guint queue_set;              /* the element's own queues */
  const GstVideoInfo *in_info, *out_info;
  GstBuffer *inbuf, *outbuf;
  GstClDecomposition decomposition;
  gboolean profiling;
  const GstSegment *segment;    /* the input's, for running times */
  GstClFrameLoopDispatch dispatch;
  gpointer filter;
} GstClFrameLoopFrame;

void gst_cl_frame_loop_start (GstClFrameLoop * loop, guint queue_set);

void gst_cl_frame_loop_stop (GstClFrameLoop * loop, GstElement * element);

void gst_cl_frame_loop_sink_event (GstClFrameLoop * loop,
    GstElement * element, GstEvent * event);

void gst_cl_frame_loop_release_import_pool (GstClFrameLoop * loop);

void gst_cl_frame_loop_clear (GstClFrameLoop * loop);

cl_command_queue gst_cl_frame_loop_queue (GstClFrameLoop * loop,
    GstClDevice * device);

gboolean gst_cl_frame_loop_set_caps (GstClFrameLoop * loop,
    GstElement * element, GstClDevice * device, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info, gboolean image, GstClFrameLoopKind kind,
    GError ** error);

gboolean gst_cl_frame_loop_run (GstClFrameLoop * loop, GstElement * element,
    const GstClFrameLoopFrame * frame);

gboolean gst_cl_frame_loop_drain (GstClFrameLoop * loop,
    GstElement * element, GError ** error);

G_END_DECLS
