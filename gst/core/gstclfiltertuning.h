/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclfiltertuning.h: a filter's side of tuning=auto: the work
 * decomposition of the case its caps and settings make, stored or
 * measured with the element's own kernels. */
#pragma once

#include "gstclframeloop.h"
#include "gstcltuner.h"

G_BEGIN_DECLS

/**
 * GstClTuningMode:
 * @GST_CL_TUNING_AUTO: each case's work decomposition as measured on the
 *   device, the first time it is needed, and kept on disk (gstcltuner.h)
 * @GST_CL_TUNING_DEFAULTS: the built-in choices; nothing measured or stored
 *
 * The filters' `tuning` property (GType name "GstClTuning"). Explicit
 * tuning properties override either.
 */
typedef enum
{
  GST_CL_TUNING_AUTO,
  GST_CL_TUNING_DEFAULTS,
} GstClTuningMode;

#define GST_TYPE_CL_TUNING_MODE (gst_cl_tuning_mode_get_type ())
GType gst_cl_tuning_mode_get_type (void);

/**
 * GstClTuningSettings:
 * @mode: the `tuning` property
 * @fixed: the explicit tuning properties (`kernel-shape`,
 *   `work-group-size`, `rows-per-item`, `pixels-per-item`), 0 or auto where
 *   not set
 *
 * A filter's tuning properties, read and written under its object lock.
 */
typedef struct
{
  GstClTuningMode mode;
  GstClDecomposition fixed;
} GstClTuningSettings;

/* the number of properties gst_cl_tuning_settings_install() installs */
#define GST_CL_TUNING_N_PROPERTIES 5

void gst_cl_tuning_settings_init (GstClTuningSettings * settings);

void gst_cl_tuning_settings_install (GObjectClass * klass, guint first_id);

gboolean gst_cl_tuning_settings_set (GstClTuningSettings * settings,
    guint id, const GValue * value);

gboolean gst_cl_tuning_settings_get (const GstClTuningSettings * settings,
    guint id, GValue * value);

/**
 * GstClFilterTuning:
 * @settings: the tuning properties, under the filter's object lock
 * @case_key: what is tuned (gstcltuner.h); NULL: nothing (defaults, small
 *   frames)
 * @source_sum: the sum of the filter's kernel source, part of the key
 * @tuned: the case's stored or measured decomposition (0 fields: the
 *   defaults)
 */
typedef struct
{
  GstClTuningSettings settings;
  gchar *case_key;
  gchar *source_sum;
  GstClDecomposition tuned;
} GstClFilterTuning;

/* What a case is measured with: the filter's caps, stores, queue and
 * kernels (@run, with no buffer and a work whose `tuning` is TRUE).
 * @out_store is NULL for analyzers; both stores for converters, which
 * take whole frames, and @has_output TRUE for filters and converters. */
typedef struct
{
  GstElement *element;
  GstClDevice *device;
  cl_command_queue queue;
  GstClTuneFields strips_fields, tiles_fields;
  const gchar *program_source;
  GstClPlaneStore *in_store, *out_store;
  gboolean has_output;
  const GstVideoInfo *in_info, *out_info;
  GstClFrameLoopDispatch run;
  gpointer filter;
} GstClFilterTuningCase;

void gst_cl_filter_tuning_tune (GstClFilterTuning * t,
    const GstClFilterTuningCase * c, gchar * case_key);

void gst_cl_filter_tuning_retune (GstClFilterTuning * t, GstObject * element,
    GstClDevice * device, gchar * case_key);

void gst_cl_filter_tuning_clear (GstClFilterTuning * t);

void gst_cl_filter_tuning_for_frame (GstClFilterTuning * t, GstObject * owner,
    GstClDecomposition * decomposition);

gboolean gst_cl_filter_tuning_expects_tiles (GstClFilterTuning * t,
    GstObject * owner, GstClDevice * device);

guint gst_cl_filter_tuning_expected_group (GstClFilterTuning * t,
    GstObject * owner, GstClDevice * device);

G_END_DECLS
