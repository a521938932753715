/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltuner.h: choosing each kernel's work decomposition on a device by
 * measuring it, once, and keeping the choice (docs/tuning.md).
 *
 * A "case" is what an element runs for given settings and caps (its name,
 * the kernel variant, the format, the size, the memory kind). The tuner
 * measures candidate GstClTunings for a case through a callback that runs
 * the element's kernels on a scratch frame, within a time budget, and
 * stores the fastest in the device's GstClTuneStore; later starts read it.
 * Every candidate gives the same output: tunings only cut the work
 * differently. */
#pragma once

#include "gstcldevice.h"
#include "gstclkernel.h"
#include "gstcltunestore.h"

G_BEGIN_DECLS

/* Frames smaller than this many pixels are not measured (their kernels
 * take microseconds, below what launch overheads let one tell apart):
 * they use the defaults. */
#define GST_CL_TUNER_MIN_PIXELS (256 * 256)

/* The time the first tuning of a case may take. */
#define GST_CL_TUNER_BUDGET_US (2 * G_USEC_PER_SEC)

/* What the measurements run on, part of the key of every stored choice:
 * a new revision has every case measured again. 2: scratch frames of
 * ramps with 3 bits of noise, which histograms count at the speed of
 * photographs (1: uniform noise). */
#define GST_CL_TUNER_REVISION "2"

/**
 * GstClTunerRun:
 * @tuning: the candidate (the explicit tuning properties already merged)
 * @frames: how many frames to run
 * @ms: (out): the device time of the fastest frame's kernels, in
 *   milliseconds
 *
 * Runs the kernels of @frames frames with @tuning one after the other,
 * without waiting in between, then waits for them all.
 */
typedef gboolean (*GstClTunerRun) (const GstClDecomposition * tuning,
    guint frames, gdouble * ms, gpointer user_data, GError ** error);

/**
 * GstClTunerMode:
 * @GST_CL_TUNER_AUTO: use the stored choice, measure when there is none
 * @GST_CL_TUNER_OFF: use the stored choice, never measure (GST_CL_TUNE=off:
 *   no start ever waits for a measurement; the test suites run so)
 * @GST_CL_TUNER_FORCE: measure again and store (GST_CL_TUNE=force)
 * @GST_CL_TUNER_SWEEP: also measure every candidate, for the report
 *   (GST_CL_TUNE=sweep, used by gst-cl-tune --sweep)
 */
typedef enum
{
  GST_CL_TUNER_AUTO,
  GST_CL_TUNER_OFF,
  GST_CL_TUNER_FORCE,
  GST_CL_TUNER_SWEEP,
} GstClTunerMode;

GstClTunerMode gst_cl_tuner_mode (void);

/**
 * GstClTunerReport:
 * @entry: what the case uses (tuning, its time, the defaults' time)
 * @measured: whether it was measured now (otherwise read from the store)
 * @candidates: candidates measured
 * @elapsed_ms: time spent measuring
 * @sweep: (nullable): with GST_CL_TUNER_SWEEP, a GstStructure
 *   "candidate" per candidate (kernel-shape, work-group-size,
 *   rows-per-item, pixels-per-item, ms)
 * @recheck_chosen_ms: with the sweep, the choice's time measured
 *   alternately with the sweep's best (median of three)
 * @recheck_best_ms: and the sweep's best's
 */
typedef struct
{
  GstClTuneEntry entry;
  gboolean measured;
  guint candidates;
  gdouble elapsed_ms;
  GPtrArray *sweep;
  gdouble recheck_chosen_ms, recheck_best_ms;
} GstClTunerReport;

/* The fields of a GstClDecomposition that the kernels of a shape read
 * (GstClBaseFilterClass.strips_fields and .tiles_fields): the tuner
 * searches only those, so that no candidate differs from another only by
 * what no kernel reads. */
typedef enum
{
  GST_CL_TUNE_GROUP = 1 << 0,
  GST_CL_TUNE_ROWS = 1 << 1,
  GST_CL_TUNE_PIXELS = 1 << 2,
} GstClTuneFields;

#define GST_CL_TUNE_ALL \
  (GST_CL_TUNE_GROUP | GST_CL_TUNE_ROWS | GST_CL_TUNE_PIXELS)

gchar *gst_cl_tuner_source_sum (const gchar * program_source);

gboolean gst_cl_tuner_lookup (GstClDevice * device, const gchar * case_key,
    const gchar * source_sum, GstClTuneEntry * entry);

gboolean gst_cl_tuner_tune (GstClDevice * device, const gchar * case_key,
    const gchar * source_sum, const GstClDecomposition * fixed,
    GstClTuneFields strips_fields, GstClTuneFields tiles_fields,
    GstClTunerMode mode, GstClTunerRun run,
    gpointer user_data, GstClTunerReport * report,
    GError ** error);

void gst_cl_tuner_report_clear (GstClTunerReport * report);

GstStructure *gst_cl_tuner_report_to_structure (const GstClTunerReport *
    report, const gchar * case_key);

void gst_cl_tuning_merge (const GstClDecomposition * fixed,
    const GstClDecomposition * tuned, GstClDecomposition * out);

G_END_DECLS
