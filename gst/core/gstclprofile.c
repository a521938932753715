/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclprofile.c: "cl-profile" messages from OpenCL profiling events.
 *
 * Frames are accounted once their device work completed (the element's
 * frames in flight), so measuring adds no host wait. */
#include "gstclprofile.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_profile_debug);
#define GST_CAT_DEFAULT gst_cl_profile_debug

static void
init_debug (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_profile_debug, "clprofile", 0,
        "clfilters profiling");
    g_once_init_leave (&done, 1);
  }
}

void
gst_cl_profile_reset (GstClProfile * profile)
{
  profile->frames = 0;
  profile->upload = profile->kernel = profile->download = 0;
  profile->last_post = GST_CLOCK_TIME_NONE;
}

static guint64
event_ns (cl_event ev, cl_profiling_info from, cl_event ev_end)
{
  cl_ulong start = 0, end = 0;
  if (!ev)
    return 0;
  /* an event without profiling information (a command of a queue that
   * does not profile, one that failed) counts nothing, rather than its end
   * since the device's epoch */
  if (clGetEventProfilingInfo (ev, from, sizeof (start), &start,
          NULL) != CL_SUCCESS || clGetEventProfilingInfo (ev_end,
          CL_PROFILING_COMMAND_END, sizeof (end), &end, NULL) != CL_SUCCESS
      || start == 0)
    return 0;
  return end > start ? end - start : 0;
}

void
gst_cl_profile_frame_clear (GstClProfileFrame * frame)
{
  guint i;
  if (frame->upload)
    clReleaseEvent (frame->upload);
  if (frame->download)
    clReleaseEvent (frame->download);
  for (i = 0; i < frame->n_kernels; i++)
    clReleaseEvent (frame->kernels[i]);
  memset (frame, 0, sizeof (*frame));
}

static GstStructure *
message (GstClProfile * profile, GstClockTime pts, GstClockTime rt)
{
  guint n = profile->frames;
  GstStructure *s = gst_structure_new ("cl-profile",
      "timestamp", G_TYPE_UINT64, (guint64) pts,
      "running-time", G_TYPE_UINT64, (guint64) rt,
      "frames", G_TYPE_UINT, n,
      "upload-ns", G_TYPE_UINT64, profile->upload / n,
      "kernel-ns", G_TYPE_UINT64, profile->kernel / n,
      "download-ns", G_TYPE_UINT64, profile->download / n, NULL);
  profile->frames = 0;
  profile->upload = profile->kernel = profile->download = 0;
  profile->last_post = rt;
  return s;
}

/**
 * gst_cl_profile_add:
 *
 * Accounts @frame (whose commands completed) and clears it.
 *
 * Returns: (transfer full) (nullable): the message structure to post, at
 * most once a second of running time
 */
GstStructure *
gst_cl_profile_add (GstClProfile * profile, GstClProfileFrame * frame)
{
  GstClockTime rt = frame->running_time;
  GstStructure *s = NULL;

  init_debug ();
  profile->frames++;
  /* each kernel's time, for finding which one a frame's time goes to
   * (GST_DEBUG=clprofile:6) */
  if (G_UNLIKELY (gst_debug_category_get_threshold (GST_CAT_DEFAULT) >=
          GST_LEVEL_LOG)) {
    guint i;
    for (i = 0; i < frame->n_kernels; i++)
      GST_LOG ("kernel %u: %" G_GUINT64_FORMAT " ns", i,
          event_ns (frame->kernels[i], CL_PROFILING_COMMAND_START,
              frame->kernels[i]));
  }
  profile->upload += event_ns (frame->upload, CL_PROFILING_COMMAND_START,
      frame->upload);
  profile->download += event_ns (frame->download, CL_PROFILING_COMMAND_START,
      frame->download);
  if (frame->n_kernels > 0)
    profile->kernel += event_ns (frame->kernels[0],
        CL_PROFILING_COMMAND_START, frame->kernels[frame->n_kernels - 1]);
  if (GST_CLOCK_TIME_IS_VALID (rt)) {
    if (!GST_CLOCK_TIME_IS_VALID (profile->last_post))
      profile->last_post = rt;
    else if (rt >= profile->last_post + GST_SECOND)
      s = message (profile, frame->pts, rt);
  }
  gst_cl_profile_frame_clear (frame);
  return s;
}

/**
 * gst_cl_profile_flush:
 *
 * Returns: (transfer full) (nullable): the message of the frames not posted
 * yet (at EOS), with `timestamp` GST_CLOCK_TIME_NONE
 */
GstStructure *
gst_cl_profile_flush (GstClProfile * profile)
{
  if (profile->frames == 0)
    return NULL;
  return message (profile, GST_CLOCK_TIME_NONE, profile->last_post);
}
