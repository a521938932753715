/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasefilter-private.h: the base class's state, shared by the files
 * that implement it (gstclbasefilter.c: lifecycle, caps, streaming,
 * properties; gstclbasefiltertuning.c: tuning). Not for elements. */
#pragma once

#include "gstclbasefilter.h"
#include "gstclinflight.h"
#include "gstcltuner.h"

G_BEGIN_DECLS

/* frames of an element on the device at once, beyond which it waits for
 * the oldest (also what it keeps of upstream's buffers) */
#define FRAMES_IN_FLIGHT 2

typedef struct
{
  /* properties, under the object lock */
  GstClStorage storage;
  gchar *device_selector;
  gchar *device_name;
  gboolean profiling;
  GstClTuningMode tuning_mode;
  GstClDecomposition tuning;           /* the explicit tuning properties */

  /* from start() to stop(), used by the streaming thread */
  GstClDevice *device;
  guint queue_set;              /* the device's queues for the frames this
                                 * element brings to it */
  cl_program program;
  gboolean set_up;

  /* for the current caps */
  gboolean image;               /* kernels work on images */
  gboolean out_device;          /* the src caps carry memory:OpenCLMemory */
  GstClPlaneStore in_store, out_store;
  GstBufferPool *import_pool;   /* device frames for input copied in */

  gchar *case_key;              /* what is tuned (gstcltuner.h), NULL: not
                                 * tuned (defaults, small frames) */
  gchar *source_sum;
  GstClDecomposition tuned;            /* its stored or measured tuning */

  /* streaming thread */
  GstClDecomposition frame_tuning;     /* for the frame being filtered: the
                                 * explicit properties over the tuned */
  gboolean tuning_run;          /* the frame is one of the tuner's */
  guint frame_set;              /* the queues of the frame being filtered:
                                 * its stream's (docs/design.md) */
  GstClInFlight in_flight;
  GstClProfile profile;
} GstClBaseFilterPrivate;

GstClBaseFilterPrivate *gst_cl_base_filter_get_private (GstClBaseFilter *
    self);

void gst_cl_base_filter_tune (GstClBaseFilter * self,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info);

void gst_cl_base_filter_retune (GstClBaseFilter * self);

G_END_DECLS
