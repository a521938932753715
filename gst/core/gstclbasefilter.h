/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasefilter.h: base class of the clfilters elements. */
#pragma once

#include "gstcldevice.h"
#include "gstclmemory.h"
#include "gstclcaps.h"
#include "gstclkernel.h"
#include "gstclplane.h"
#include "gstclprofile.h"
#include "gstclstorage.h"
#include "gstcltuner.h"

#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

G_BEGIN_DECLS

/**
 * GstClTuningMode:
 * @GST_CL_TUNING_AUTO: each case's work decomposition as measured on the
 *   device, the first time it is needed, and kept on disk (gstcltuner.h)
 * @GST_CL_TUNING_DEFAULTS: the built-in choices; nothing measured or stored
 *
 * The `tuning` property (GType name "GstClTuning", as the interface says).
 * Explicit tuning properties override either.
 */
typedef enum
{
  GST_CL_TUNING_AUTO,
  GST_CL_TUNING_DEFAULTS,
} GstClTuningMode;

#define GST_TYPE_CL_TUNING_MODE (gst_cl_tuning_mode_get_type ())
GType gst_cl_tuning_mode_get_type (void);

#define GST_TYPE_CL_BASE_FILTER (gst_cl_base_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClBaseFilter, gst_cl_base_filter, GST,
    CL_BASE_FILTER, GstVideoFilter);

/**
 * GstClBaseFilterClass:
 * @program_name: base name of the element's kernels/NAME.cl
 * @program_source: its embedded source
 * @setup: create the element's kernels from @program (in start())
 * @cleanup: release them (in stop())
 * @configure: caps are set: prepare per-size device state (not per frame)
 * @process: enqueue the kernels that filter @src into @dst, appending
 *   their events to @events (at most GST_CL_MAX_KERNEL_EVENTS)
 * @auto_storage: the storage `storage=auto` chooses on @device for frames
 *   described by @info (default: gst_cl_storage_measured())
 * @analyze: for analyzers (elements that never change the frame): enqueue
 *   the kernels that read @src, wait for their results and use them;
 *   @buffer is the input, for timestamps. An element that sets
 *   @analyze instead of @process runs in passthrough: the buffer goes
 *   downstream untouched and uncopied. With @buffer NULL (tuning), only
 *   the kernels run and nothing is posted.
 * @tuning_case: the settings that choose the kernels (say "radius=3"), a
 *   part of what tuned choices are stored under (gstcltuner.h)
 *
 * An element sets the program and overrides @setup and @process; the base
 * class does the rest: device selection and sharing, program build, caps
 * (system memory and memory:OpenCLMemory on both pads), frames on the
 * device for both storages, input validation, profiling and the shared
 * properties. Planes other than the first (the chroma of YUV formats) are
 * copied on the device. Kernels are enqueued on the device's compute queue
 * (gst_cl_base_filter_get_queue()) and never waited for.
 */
struct _GstClBaseFilterClass
{
  GstVideoFilterClass parent_class;

  const gchar *program_name;
  const gchar *program_source;

    gboolean (*setup) (GstClBaseFilter * self, cl_program program,
      GError ** error);
  void (*cleanup) (GstClBaseFilter * self);
    gboolean (*configure) (GstClBaseFilter * self, const GstVideoInfo * info,
      const GstClPlane * plane, GError ** error);
    gboolean (*process) (GstClBaseFilter * self, const GstClPlane * src,
      const GstClPlane * dst, cl_event * events, guint * n_events,
      GError ** error);
    GstClStorage (*auto_storage) (GstClBaseFilter * self,
      GstClDevice * device, const GstVideoInfo * info);
    gboolean (*analyze) (GstClBaseFilter * self, const GstClPlane * src,
      GstBuffer * buffer, cl_event * events, guint * n_events,
      GError ** error);
    gchar *(*tuning_case) (GstClBaseFilter * self);

  /* what the subclass's tiles kernels read of the tuning properties
   * (GST_CL_TUNE_ALL unless the subclass says less): the tuner does not
   * search the others */
  GstClTuneFields tiles_fields;

  gpointer _gst_reserved[GST_PADDING];
};


/* For subclasses, from the streaming thread: */
GstClDevice *gst_cl_base_filter_get_device (GstClBaseFilter * self);
cl_command_queue gst_cl_base_filter_get_queue (GstClBaseFilter * self);
gboolean gst_cl_base_filter_uses_strips (GstClBaseFilter * self);

gboolean gst_cl_base_filter_expects_tiles (GstClBaseFilter * self);
gboolean gst_cl_base_filter_is_tuning (GstClBaseFilter * self);
guint gst_cl_base_filter_expected_group (GstClBaseFilter * self);
void gst_cl_base_filter_launch_shape (GstClBaseFilter * self,
    const GstClPlane * plane, gboolean vectors, GstClLaunch * launch);
gboolean gst_cl_base_filter_launch_words8 (GstClBaseFilter * self,
    const GstClPlane * src, const GstClPlane * dst, GstClLaunch * launch);
gboolean gst_cl_base_filter_enqueue (GstClBaseFilter * self,
    cl_kernel kernel, const GstClLaunch * launch, cl_event * events,
    guint * n_events, GError ** error);

gboolean gst_cl_base_filter_drain (GstClBaseFilter * self, GError ** error);

G_END_DECLS
