/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclframeloop.c: one frame of a filter through the device.
 *
 * The input becomes device memory (in place, or once into a device frame:
 * gstclframe.c), the compute queue waits for what wrote it and what still
 * reads the output, the element's kernels are enqueued, the chroma planes
 * copied on the device, and the last command's event set on both frames'
 * memory, so that the next consumer is ordered after them without a host
 * wait (docs/design.md). The host waits only for frames beyond the number
 * in flight. */
#include "gstclframeloop.h"
#include "gstclcaps.h"
#include "gstclframe.h"
#include "gstcllayout.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_frame_loop_debug);
#define GST_CAT_DEFAULT gst_cl_frame_loop_debug

/* frames of an element on the device at once, beyond which it waits for
 * the oldest (also what it keeps of upstream's buffers) */
#define FRAMES_IN_FLIGHT 2

/* One frame's state between its steps. */
typedef struct
{
  GstClMemory *in, *out;
  GstBuffer *imported;
  GstVideoInfo in_layout, out_layout;
  GstClWaitList wl;
  GstClProfileFrame prof;
  guint compute;
  cl_command_queue q;
  GstClFrameWork work;
  cl_event done;
} Frame;

void
gst_cl_frame_loop_start (GstClFrameLoop * loop, guint queue_set)
{
  static gsize debug_done = 0;

  if (g_once_init_enter (&debug_done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_frame_loop_debug, "clframeloop", 0,
        "clfilters frame loop");
    g_once_init_leave (&debug_done, 1);
  }
  loop->frame_set = queue_set;
  loop->running = TRUE;
  gst_cl_in_flight_init (&loop->in_flight, FRAMES_IN_FLIGHT);
  gst_cl_profile_reset (&loop->profile);
}

/* Frames still in flight drained, on stop. */
void
gst_cl_frame_loop_stop (GstClFrameLoop * loop, GstElement * element)
{
  if (loop->running)
    gst_cl_frame_loop_drain (loop, element, NULL);
  loop->running = FALSE;
}

/* Every frame's work done (and measured) before EOS goes on, and none of
 * them left after a flush. */
void
gst_cl_frame_loop_sink_event (GstClFrameLoop * loop, GstElement * element,
    GstEvent * event)
{
  GstStructure *s;

  if (GST_EVENT_TYPE (event) != GST_EVENT_EOS &&
      GST_EVENT_TYPE (event) != GST_EVENT_FLUSH_STOP)
    return;
  if (loop->running)
    gst_cl_frame_loop_drain (loop, element, NULL);
  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS &&
      (s = gst_cl_profile_flush (&loop->profile)))
    gst_element_post_message (element,
        gst_message_new_element (GST_OBJECT (element), s));
}

/* Its device frames for input copied in, of the old caps. */
void
gst_cl_frame_loop_release_import_pool (GstClFrameLoop * loop)
{
  if (loop->import_pool) {
    gst_buffer_pool_set_active (loop->import_pool, FALSE);
    gst_clear_object (&loop->import_pool);
  }
}

/* What the caps made: the stores and the import pool. */
void
gst_cl_frame_loop_clear (GstClFrameLoop * loop)
{
  gst_cl_plane_store_clear (&loop->in_store);
  gst_cl_plane_store_clear (&loop->out_store);
  gst_cl_frame_loop_release_import_pool (loop);
}

/**
 * gst_cl_frame_loop_set_caps:
 * @image: the kernels hold frames in images (filters and analyzers)
 * @kind: what the element does with frames
 *
 * Prepares the stores for frames of new caps (the frames of the old ones
 * drained before).
 */
gboolean
gst_cl_frame_loop_set_caps (GstClFrameLoop * loop, GstElement * element,
    GstClDevice * device, GstCaps * incaps, const GstVideoInfo * in_info,
    GstCaps * outcaps, const GstVideoInfo * out_info, gboolean image,
    GstClFrameLoopKind kind, GError ** error)
{
  loop->kind = kind;
  loop->out_device = gst_cl_caps_on_device (outcaps);
  GST_INFO_OBJECT (element, "%s %dx%d in OpenCL %s, from %s to %s memory",
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
      image ? "images" : "buffers",
      gst_cl_caps_on_device (incaps) ? "device" : "system",
      loop->out_device ? "device" : "system");
  gst_cl_frame_loop_release_import_pool (loop);
  if (kind == GST_CL_FRAME_LOOP_CONVERTER)
    return TRUE;
  return gst_cl_plane_store_configure (&loop->in_store, device, in_info, 0,
      image, FALSE, error) && (kind == GST_CL_FRAME_LOOP_ANALYZER
      || gst_cl_plane_store_configure (&loop->out_store, device, out_info, 0,
          image, TRUE, error));
}

/* The compute queue of the last frame's stream. */
cl_command_queue
gst_cl_frame_loop_queue (GstClFrameLoop * loop, GstClDevice * device)
{
  return gst_cl_device_get_queue (device,
      GST_CL_QUEUE_OF_SET (loop->frame_set, GST_CL_QUEUE_COMPUTE));
}

/* The input on the device, the queue the frame runs on, and a barrier
 * after what it waits for. */
static gboolean
frame_begin (GstClFrameLoop * loop, const GstClFrameLoopFrame * f,
    Frame * fr, GError ** error)
{
  gboolean set_changed;
  guint set;
  cl_int st;

  if (!(fr->in = gst_cl_frame_input (f->device, f->queue_set,
              &loop->import_pool, f->in_info, f->inbuf, &fr->in_layout,
              &fr->imported, error)))
    return FALSE;
  /* the stream follows the frame: a device frame's work stays on the
   * queues that wrote it, so that neighbours need no wait between them */
  set = fr->in->write_event ? GST_CL_QUEUE_SET (fr->in->write_queue) :
      f->queue_set;
  /* the element's own buffers (intermediate planes, counts) are used in
   * frame order: after a change of queues, after the last frame */
  set_changed = set != loop->frame_set;
  if (set_changed)
    gst_cl_wait_list_add (&fr->wl, gst_cl_in_flight_newest (&loop->in_flight));
  loop->frame_set = set;
  fr->compute = GST_CL_QUEUE_OF_SET (set, GST_CL_QUEUE_COMPUTE);
  fr->q = gst_cl_device_get_queue (f->device, fr->compute);
  if (f->outbuf) {
    fr->out = gst_cl_buffer_get_memory (f->outbuf, f->device);
    if (!fr->out) {
      g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
          "the output buffer is not a frame of the device");
      return FALSE;
    }
    gst_cl_layout_from_buffer (f->out_info, f->outbuf, &fr->out_layout);
  }
  /* after what wrote the input and what still uses the output, when that
   * ran on another queue (an upload); the compute queue is in order */
  if (!gst_cl_memory_get_wait_list (fr->in, fr->compute, FALSE, &fr->wl,
          error) || (fr->out && !gst_cl_memory_get_wait_list (fr->out,
              fr->compute, TRUE, &fr->wl, error)))
    return FALSE;
  if (f->profiling && fr->in->write_event &&
      fr->in->write_queue == GST_CL_QUEUE_OF_SET (loop->frame_set,
          GST_CL_QUEUE_UPLOAD) && !f->device->zero_copy) {
    fr->prof.upload = fr->in->write_event;
    clRetainEvent (fr->prof.upload);
  }
  /* The element's first kernel waits (gstclframework.h), one command
   * less a frame; a barrier still where commands before it use what is
   * waited for: the input's copy into an image, or the element's own
   * buffers after a change of queues. */
  if (fr->wl.n > 0 && (set_changed || loop->in_store.desc.is_image)) {
    st = clEnqueueBarrierWithWaitList (fr->q, fr->wl.n, fr->wl.events, NULL);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueBarrierWithWaitList");
    gst_cl_wait_list_clear (&fr->wl);
  }
  return TRUE;
}

/* What the frame's first kernel has not waited for (the element enqueued
 * none): waited for by a barrier before the next command. */
static gboolean
wait_pending (Frame * fr, GError ** error)
{
  cl_int st;

  if (fr->work.n_wait == 0)
    return TRUE;
  st = clEnqueueBarrierWithWaitList (fr->q, fr->work.n_wait, fr->work.wait,
      NULL);
  fr->work.n_wait = 0;
  return st == CL_SUCCESS ||
      gst_cl_fail (error, st, "clEnqueueBarrierWithWaitList");
}

/* Makes @event, when there is one, the work's last. */
static void
follow (GstClFrameWork * work, cl_event event)
{
  if (!event)
    return;
  gst_cl_frame_work_follow (work, event);
  clReleaseEvent (event);
}

/* For filters: the element's kernels into the output frame, and its other
 * planes copied. */
static gboolean
dispatch_filter (GstClFrameLoop * loop, const GstClFrameLoopFrame * f,
    Frame * fr, const GstClPlane * src, const GstClFramePair * frames,
    GError ** error)
{
  GstClPlane dst;
  cl_event ev = NULL;
  gboolean ok;

  ok = gst_cl_plane_store_view (&loop->out_store, fr->q, fr->out->buffer,
      &fr->out_layout, FALSE, &dst, error)
      && f->dispatch (f->filter, &fr->work, src, &dst, frames, f->inbuf,
      error)
      && wait_pending (fr, error)
      && gst_cl_plane_store_write_back (&loop->out_store, fr->q,
      fr->out->buffer, &fr->out_layout, &ev, error);
  follow (&fr->work, ev);
  ev = NULL;
  ok = ok && gst_cl_frame_copy_planes (fr->q, fr->in, &fr->in_layout,
      fr->out, &fr->out_layout, &ev, error);
  follow (&fr->work, ev);
  return ok;
}

/* The element's kernels, and for filters the output's other planes. */
static gboolean
frame_dispatch (GstClFrameLoop * loop, const GstClFrameLoopFrame * f,
    Frame * fr, GError ** error)
{
  GstClFrameWork work = { f->device, fr->q, f->decomposition, FALSE,
    f->profiling ? fr->prof.kernels : NULL, 0, NULL, fr->wl.events, fr->wl.n
  };
  GstClFramePair frames = { fr->in->buffer, fr->out ? fr->out->buffer : NULL,
    &fr->in_layout, fr->out ? &fr->out_layout : NULL
  };
  GstClPlane src;
  gboolean ok;

  fr->work = work;
  if (loop->kind == GST_CL_FRAME_LOOP_CONVERTER)
    ok = f->dispatch (f->filter, &fr->work, NULL, NULL, &frames, f->inbuf,
        error) && wait_pending (fr, error);
  else if (!gst_cl_plane_store_view (&loop->in_store, fr->q, fr->in->buffer,
          &fr->in_layout, TRUE, &src, error))
    ok = FALSE;
  else if (fr->out)
    ok = dispatch_filter (loop, f, fr, &src, &frames, error);
  else
    ok = f->dispatch (f->filter, &fr->work, &src, NULL, &frames, f->inbuf,
        error);
  fr->prof.n_kernels = fr->work.n_events;
  return ok;
}

/* The frame's end: its last command's event, or a marker's where the
 * element enqueued nothing (on an in-order queue the last command ends
 * after all others). */
static gboolean
frame_done (Frame * fr, GError ** error)
{
  cl_int st;

  fr->done = gst_cl_frame_work_take_last (&fr->work);
  if (fr->done)
    return TRUE;
  st = clEnqueueMarkerWithWaitList (fr->q, fr->work.n_wait, fr->work.n_wait ?
      fr->work.wait : NULL, &fr->done);
  fr->work.n_wait = 0;
  return st == CL_SUCCESS ||
      gst_cl_fail (error, st, "clEnqueueMarkerWithWaitList");
}

/* The frame's end event on both frames' memory, the download started for
 * system memory downstream. */
static gboolean
frame_end (GstClFrameLoop * loop, const GstClFrameLoopFrame * f, Frame * fr,
    GError ** error)
{
  if (!frame_done (fr, error))
    return FALSE;
  /* Device frames downstream: the next element's commands follow on this
   * queue, and whatever waits for the frame elsewhere submits it first
   * (gst_cl_wait_list_add(), gst_cl_event_wait()): a flush a chain, not
   * one an element. Before the download, which would flush it otherwise. */
  if (!loop->out_device)
    clFlush (fr->q);
  gst_cl_memory_set_event (fr->in, fr->compute, fr->done, FALSE);
  if (fr->out) {
    gst_cl_memory_set_event (fr->out, fr->compute, fr->done, TRUE);
    /* system memory downstream: the download starts now, so that the
     * consumer's map finds the frame there or on its way */
    if (!loop->out_device && !gst_cl_memory_start_download (fr->out, error))
      return FALSE;
    if (f->profiling && !loop->out_device && fr->out->staging_event) {
      fr->prof.download = fr->out->staging_event;
      clRetainEvent (fr->prof.download);
    }
  }
  return TRUE;
}

/* Posts the profiling messages of retired frames, and frees @messages. */
static void
post_messages (GstElement * element, GPtrArray * messages)
{
  guint i;

  for (i = 0; i < messages->len; i++)
    gst_element_post_message (element,
        gst_message_new_element (GST_OBJECT (element), messages->pdata[i]));
  g_ptr_array_free (messages, TRUE);
}

/* Enqueues @frame and retires the frames in flight beyond the limit. On
 * failure nothing of the device still uses the frames. */
static gboolean
run (GstClFrameLoop * loop, const GstClFrameLoopFrame * frame,
    GPtrArray * messages, GError ** error)
{
  Frame fr = { NULL, };

  if (!frame_begin (loop, frame, &fr, error)
      || !frame_dispatch (loop, frame, &fr, error)
      || !frame_end (loop, frame, &fr, error)) {
    gst_cl_device_finish (frame->device, NULL);
    g_clear_pointer (&fr.work.last, clReleaseEvent);
    gst_cl_wait_list_clear (&fr.wl);
    gst_cl_profile_frame_clear (&fr.prof);
    if (fr.done)
      clReleaseEvent (fr.done);
    if (fr.imported)
      gst_buffer_unref (fr.imported);
    return FALSE;
  }
  gst_cl_wait_list_clear (&fr.wl);
  fr.prof.pts = GST_BUFFER_PTS (frame->inbuf);
  fr.prof.running_time = frame->segment->format != GST_FORMAT_TIME ?
      GST_CLOCK_TIME_NONE : gst_segment_to_running_time (frame->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (frame->inbuf));
  gst_cl_in_flight_push (&loop->in_flight, fr.done, frame->inbuf,
      fr.imported, frame->profiling ? &fr.prof : NULL);
  if (!frame->profiling)
    gst_cl_profile_frame_clear (&fr.prof);
  clReleaseEvent (fr.done);
  if (fr.imported)
    gst_buffer_unref (fr.imported);
  return gst_cl_in_flight_retire (&loop->in_flight, loop->in_flight.depth,
      &loop->profile, messages, error);
}

/**
 * gst_cl_frame_loop_run:
 *
 * One frame of @element through the device, its kernels enqueued and not
 * waited for; posts the profiling messages of the frames retired, or the
 * error.
 */
gboolean
gst_cl_frame_loop_run (GstClFrameLoop * loop, GstElement * element,
    const GstClFrameLoopFrame * frame)
{
  GPtrArray *messages = g_ptr_array_new ();
  GError *err = NULL;

  if (!run (loop, frame, messages, &err)) {
    g_ptr_array_free (messages, TRUE);
    GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
        ("OpenCL processing failed on device \"%s\".", frame->device->name),
        ("%s", err ? err->message : "unknown"));
    g_clear_error (&err);
    return FALSE;
  }
  post_messages (element, messages);
  return TRUE;
}

/**
 * gst_cl_frame_loop_drain:
 *
 * Waits for every frame still in flight, releases them and posts what
 * profiling measured of them.
 */
gboolean
gst_cl_frame_loop_drain (GstClFrameLoop * loop, GstElement * element,
    GError ** error)
{
  GPtrArray *messages = g_ptr_array_new ();
  gboolean ok = gst_cl_in_flight_retire (&loop->in_flight, 0, &loop->profile,
      messages, error);

  post_messages (element, messages);
  return ok;
}
