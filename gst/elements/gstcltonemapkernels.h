/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemapkernels.h: cltonemap's kernels and device state: each
 * frame's three kernels, and the peak messages read back without
 * waiting. */
#pragma once

#include "core/gstclframework.h"
#include "gstcltonemapcaps.h"
#include "gstcltonemapcurve.h"

G_BEGIN_DECLS

/**
 * GstClToneMapSettings:
 *
 * cltonemap's properties that a frame uses, copied under the object lock.
 */
typedef struct
{
  GstClToneCurve curve;
  GstClTonePeakMode peak_mode;
  gdouble source_peak, target_peak, hlg_peak;
  gdouble percentile, scene_threshold, smoothing_period;
  gboolean post_messages;
} GstClToneMapSettings;

/**
 * GstClToneMapKernels:
 *
 * cltonemap's device side from start() to stop(): the kernels, the device
 * buffers (`cfg` and `lut`: the caps' constants and tables; `gain`: the
 * frame's curve, and `params`: its record for the messages, both written
 * by tonemap_curve; `state`: the smoothed peak; `hist`: the frame's
 * histogram), and the messages whose records are being read.
 */
typedef struct
{
  cl_kernel k_hist, k_curve, k_map, k_hist_semi16, k_map_semi16;
  cl_kernel k_histx8, k_mapx8;
  size_t hist_local;
  cl_mem cfg, params, state, hist, lut, gain;
  GQueue pending;

  /* the current caps */
  /* input into its 8-bit sibling on a CPU: the kernels in float8 */
  gboolean fastx8;
  /* the formats as the kernels take them (int8 arguments), held as
   * arrays: a cl_int8 member would ask 32-byte alignment of the element's
   * instance, which GObject does not give */
  cl_int in_fmt[8], out_fmt[8];
  gdouble meta_peak;
  /* the next dynamic frame starts the smoothing afresh */
  gboolean reset;
} GstClToneMapKernels;

gboolean gst_cl_tone_map_kernels_setup (GstClToneMapKernels * k,
    GstClDevice * device, cl_program program, cl_command_queue queue,
    GError ** error);

void gst_cl_tone_map_kernels_cleanup (GstClToneMapKernels * k);

gboolean gst_cl_tone_map_kernels_configure (GstClToneMapKernels * k,
    GstClDevice * device, cl_command_queue queue,
    const GstClToneMapSetup * setup, GError ** error);

gboolean gst_cl_tone_map_kernels_enqueue (GstClToneMapKernels * k,
    GstClFrameWork * work, const GstClFramePair * frames,
    const GstClToneMapSettings * settings, GstBuffer * buffer,
    GError ** error);

void gst_cl_tone_map_kernels_post (GstClToneMapKernels * k,
    GstElement * element, gboolean all);

G_END_DECLS
