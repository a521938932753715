/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasefilter.h: base class of the clfilters elements. */
#pragma once

#include "gstclbasetransform.h"
#include "gstcldevice.h"
#include "gstclmemory.h"
#include "gstclcaps.h"
#include "gstclframework.h"
#include "gstclkernel.h"
#include "gstclplane.h"
#include "gstclprofile.h"
#include "gstclstorage.h"
#include "gstcltuner.h"

#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_BASE_FILTER (gst_cl_base_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClBaseFilter, gst_cl_base_filter, GST,
    CL_BASE_FILTER, GstClBaseTransform);

/**
 * GstClBaseFilterClass:
 * @program_name: base name of the element's kernels/NAME.cl
 * @program_source: its embedded source
 * @setup: create the element's kernels from @program (in start())
 * @cleanup: release them (in stop())
 * @configure: caps are set: prepare per-size device state (not per frame)
 * @process: enqueue the kernels that filter @src into @dst on @work's
 *   queue (gst_cl_frame_work_enqueue())
 * @auto_storage: the storage `storage=auto` chooses on @device for frames
 *   described by @info (default: gst_cl_storage_measured())
 * @analyze: for analyzers (elements that never change the frame): enqueue
 *   the kernels that read @src on @work's queue, wait for their results
 *   and use them;
 *   @buffer is the input, for timestamps. An element that sets
 *   @analyze instead of @process runs in passthrough: the buffer goes
 *   downstream untouched and uncopied. With @buffer NULL (tuning), only
 *   the kernels run and nothing is posted.
 * @convert: for converters (elements whose output format may differ
 *   from the input's, written whole by the element): enqueue on @work's
 *   queue the kernels that read every plane of @frames' input and write
 *   every plane of its output; @buffer is the input, NULL while tuning.
 *   Converters hold frames in buffers (`storage=image` falls back with a
 *   warning), give their own transform_caps, and run in passthrough where
 *   the caps are equal (GstBaseTransform's passthrough_on_same_caps)
 * @tuning_case: the settings that choose the kernels (say "radius=3"), a
 *   part of what tuned choices are stored under (gstcltuner.h)
 *
 * An element sets the program and overrides @setup and @process; the base
 * classes do the rest: device selection and sharing (#GstClBaseTransform),
 * program build, caps
 * (system memory and memory:OpenCLMemory on both pads), frames on the
 * device for both storages, input validation, profiling and the shared
 * properties. Planes other than the first (the chroma of YUV formats) are
 * copied on the device. Each frame's kernels are enqueued on the queue of
 * the #GstClFrameWork that @process or @analyze receives, and never waited
 * for.
 */
struct _GstClBaseFilterClass
{
  GstClBaseTransformClass parent_class;

  const gchar *program_name;
  const gchar *program_source;

    gboolean (*setup) (GstClBaseFilter * self, cl_program program,
      GError ** error);
  void (*cleanup) (GstClBaseFilter * self);
    gboolean (*configure) (GstClBaseFilter * self, const GstVideoInfo * info,
      const GstClPlane * plane, GError ** error);
    gboolean (*process) (GstClBaseFilter * self, GstClFrameWork * work,
      const GstClPlane * src, const GstClPlane * dst, GError ** error);
    GstClStorage (*auto_storage) (GstClBaseFilter * self,
      GstClDevice * device, const GstVideoInfo * info);
    gboolean (*analyze) (GstClBaseFilter * self, GstClFrameWork * work,
      const GstClPlane * src, GstBuffer * buffer, GError ** error);
    gchar *(*tuning_case) (GstClBaseFilter * self);
    gboolean (*convert) (GstClBaseFilter * self, GstClFrameWork * work,
      const GstClFramePair * frames, GstBuffer * buffer, GError ** error);

  /* what the subclass's strips and tiles kernels read of the tuning
   * properties (GST_CL_TUNE_ALL unless the subclass says less): the tuner
   * does not search the others */
  GstClTuneFields strips_fields, tiles_fields;

  gpointer _gst_reserved[GST_PADDING];
};


/* For subclasses, at caps time (configure()), before any frame: */
gboolean gst_cl_base_filter_expects_tiles (GstClBaseFilter * self);
guint gst_cl_base_filter_expected_group (GstClBaseFilter * self);

gboolean gst_cl_base_filter_drain (GstClBaseFilter * self, GError ** error);

G_END_DECLS
