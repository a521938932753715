/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclprofile.h: upload, kernel and download times of an element's frames,
 * from OpenCL profiling events, for its "cl-profile" messages. */
#pragma once

#include "gstcl.h"

G_BEGIN_DECLS

#define GST_CL_MAX_KERNEL_EVENTS 4

/* The events of one frame (each retained, or NULL). */
typedef struct
{
  cl_event upload, download;
  cl_event kernels[GST_CL_MAX_KERNEL_EVENTS];
  guint n_kernels;
  GstClockTime pts, running_time;
} GstClProfileFrame;

/* Averages since the last message. */
typedef struct
{
  guint frames;
  guint64 upload, kernel, download;
  GstClockTime last_post;
} GstClProfile;

void gst_cl_profile_reset (GstClProfile * profile);

void gst_cl_profile_frame_clear (GstClProfileFrame * frame);

GstStructure *gst_cl_profile_add (GstClProfile * profile,
    GstClProfileFrame * frame);

GstStructure *gst_cl_profile_flush (GstClProfile * profile);

G_END_DECLS
