/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogramstats.h: clhistogram's statistics, from counts of every
 * level to the fields of its message; plain C, no device. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/* the slots a frame's counts are kept in: luma, red, green, blue */
#define GST_CL_HISTOGRAM_SLOTS 4

/**
 * GstClHistogramSlotStats:
 *
 * The statistics of one slot's counts, in levels of the counts' depth.
 */
typedef struct
{
  guint min, max, median, low, high;
  gdouble mean, variance, log_average;
} GstClHistogramSlotStats;

/**
 * GstClHistogramInterval:
 * @depth: bits of a level: 8, or the format's depth (counts of 2^@depth
 *   levels a slot)
 * @counts: GST_CL_HISTOGRAM_SLOTS << @depth counts: slot s, level v at
 *   (s << @depth) + v; read for the slots of @want only
 * @log_table: gst_cl_histogram_log_table() of @depth
 * @want: bit s set for each slot counted
 * @frames: frames counted
 * @pixels: pixels counted a slot (the sum of each slot's counts)
 * @start, @start_stream, @start_running: times of the first frame
 * @end: the end of the last frame
 *
 * What an interval of frames accumulated, as the statistics read it.
 */
typedef struct
{
  guint depth;
  const guint64 *counts;
  const gdouble *log_table;
  guint want;
  guint frames;
  guint64 pixels;
  GstClockTime start, start_stream, start_running, end;
} GstClHistogramInterval;

gdouble *gst_cl_histogram_log_table (guint depth);

void gst_cl_histogram_slot_stats (const guint64 * counts, guint depth,
    const gdouble * log_table, guint64 n, gdouble low, gdouble high,
    GstClHistogramSlotStats * stats);

GstStructure *gst_cl_histogram_interval_structure (
    const GstClHistogramInterval * interval, guint bins, gdouble low,
    gdouble high);

G_END_DECLS
