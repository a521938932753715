/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclinflight.c: an element's frames still on the device.
 *
 * Releasing a frame's input as soon as transform() returns would let a
 * pool hand it out again, or free host memory the device still reads,
 * while the device works (GStreamer's GL and D3D12 stacks keep their
 * inputs for the same reason). The frames are polled without waiting each
 * time a new one is pushed; the host waits only beyond the depth. */
#include "gstclinflight.h"

typedef struct
{
  cl_event done;
  GstBuffer *keep[2];
  GstClProfileFrame profile;
} Frame;

void
gst_cl_in_flight_init (GstClInFlight * self, guint depth)
{
  g_queue_init (&self->frames);
  self->depth = depth;
}

/**
 * gst_cl_in_flight_push:
 * @done: (transfer none): completes when the frame's device work is done
 * @keep1: (nullable) (transfer none): a buffer to keep until then
 * @profile: (nullable): its profiling events (taken over)
 */
/**
 * gst_cl_in_flight_newest:
 *
 * Returns: (transfer none) (nullable): the event of the frame pushed last
 */
cl_event
gst_cl_in_flight_newest (GstClInFlight * self)
{
  Frame *f = g_queue_peek_tail (&self->frames);
  return f ? f->done : NULL;
}

void
gst_cl_in_flight_push (GstClInFlight * self, cl_event done, GstBuffer * keep1,
    GstBuffer * keep2, const GstClProfileFrame * profile)
{
  Frame *f = g_new0 (Frame, 1);

  clRetainEvent (done);
  f->done = done;
  f->keep[0] = keep1 ? gst_buffer_ref (keep1) : NULL;
  f->keep[1] = keep2 ? gst_buffer_ref (keep2) : NULL;
  if (profile)
    f->profile = *profile;
  g_queue_push_tail (&self->frames, f);
}

/**
 * gst_cl_in_flight_retire:
 * @depth: frames that may stay in flight (0: wait for all, G_MAXUINT: wait
 *   for none)
 * @profile: (nullable): accounts the retired frames' profiling events
 * @messages: (nullable): collects the cl-profile structures to post
 *
 * Releases the frames whose work completed, in order, waiting for the
 * oldest ones while more than @depth are in flight. On an error every
 * frame is released and FALSE returned with @error set.
 */
gboolean
gst_cl_in_flight_retire (GstClInFlight * self, guint depth,
    GstClProfile * profile, GPtrArray * messages, GError ** error)
{
  gboolean ok = TRUE;
  Frame *f;

  while ((f = g_queue_peek_head (&self->frames))) {
    if (!gst_cl_event_done (f->done)) {
      if (ok && self->frames.length <= depth)
        break;
      /* the one host wait of the streaming thread */
      if (!gst_cl_event_wait (f->done, ok ? error : NULL))
        ok = FALSE;
    }
    g_queue_pop_head (&self->frames);
    if (ok && profile && f->profile.n_kernels + (f->profile.upload != NULL) >
        0) {
      GstStructure *s = gst_cl_profile_add (profile, &f->profile);
      if (s && messages)
        g_ptr_array_add (messages, s);
      else if (s)
        gst_structure_free (s);
    }
    gst_cl_profile_frame_clear (&f->profile);
    clReleaseEvent (f->done);
    if (f->keep[0])
      gst_buffer_unref (f->keep[0]);
    if (f->keep[1])
      gst_buffer_unref (f->keep[1]);
    g_free (f);
  }
  return ok;
}
