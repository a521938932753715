/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclinflight.h: an element's frames still on the device. */
#pragma once

#include "gstclprofile.h"

G_BEGIN_DECLS

/**
 * GstClInFlight:
 *
 * The frames an element enqueued whose device work may still run: the
 * event that completes each, the buffers that must live until then (the
 * input, host memory the device reads in place) and its profiling events.
 * At most @depth frames stay in flight: the element waits for the oldest
 * beyond that, which bounds latency and memory.
 */
typedef struct
{
  GQueue frames;
  guint depth;
} GstClInFlight;

void gst_cl_in_flight_init (GstClInFlight * self, guint depth);

void gst_cl_in_flight_push (GstClInFlight * self, cl_event done,
    GstBuffer * keep1, GstBuffer * keep2, const GstClProfileFrame * profile);

cl_event gst_cl_in_flight_newest (GstClInFlight * self);

gboolean gst_cl_in_flight_retire (GstClInFlight * self, guint depth,
    GstClProfile * profile, GPtrArray * messages, GError ** error);

G_END_DECLS
