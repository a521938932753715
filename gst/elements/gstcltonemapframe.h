/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemapframe.h: cltonemap's frames on the device: its kernels,
 * buffers and state, each frame's three kernels, the frames in flight and
 * the peak messages read back without waiting. */
#pragma once

#include "core/gstclframe.h"
#include "core/gstclinflight.h"
#include "core/gstclmemory.h"
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
 * GstClToneMapFrames:
 *
 * The streaming state of cltonemap, from start() to stop(): the program
 * and kernels, the device buffers (`cfg` and `lut`: the caps' constants
 * and tables; `gain`: the frame's curve, and `params`: its record for the
 * messages, both written by tonemap_curve; `state`: the smoothed peak;
 * `hist`: the frame's histogram), the frames in flight, and the
 * messages whose records are being read.
 */
typedef struct
{
  GstClDevice *device;
  cl_program program;
  cl_kernel k_hist, k_curve, k_map, k_histx8, k_mapx8;
  size_t hist_local;
  cl_mem cfg, params, state, hist, lut, gain;
  GstClInFlight in_flight;
  GstClProfile profile;
  GstBufferPool *import_pool;
  GQueue pending;
  guint queue_set, frame_set;
  gboolean running;

  /* the current caps */
  gboolean hdr, out_device;
  /* input into its 8-bit sibling on a CPU: the kernels in float8 */
  gboolean fastx8;
  cl_int8 in_fmt, out_fmt;
  gdouble meta_peak;
  /* the next dynamic frame starts the smoothing afresh */
  gboolean reset;
} GstClToneMapFrames;

gboolean gst_cl_tone_map_frames_start (GstClToneMapFrames * f,
    GstClDevice * device, guint queue_set, const gchar * source,
    GError ** error);

void gst_cl_tone_map_frames_stop (GstClToneMapFrames * f,
    GstElement * element);

void gst_cl_tone_map_frames_clear (GstClToneMapFrames * f);

gboolean gst_cl_tone_map_frames_set_caps (GstClToneMapFrames * f,
    const GstClToneMapSetup * setup, GstCaps * incaps, GstCaps * outcaps,
    GError ** error);

void gst_cl_tone_map_frames_drain (GstClToneMapFrames * f,
    GstElement * element, GstEvent * event);

gboolean gst_cl_tone_map_frames_run (GstClToneMapFrames * f,
    GstElement * element, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GstBuffer * inbuf, GstBuffer * outbuf,
    const GstClToneMapSettings * settings, gboolean profiling,
    const GstSegment * segment);

G_END_DECLS
