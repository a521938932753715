/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogramcount.h: clhistogram's counting on the device, the counts
 * of every level of a frame's plane read back to the host. */
#pragma once

#include "core/gstclframework.h"

#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstClHistogramCounts:
 * @want: bit s set for each slot counted (luma, red, green, blue)
 * @depth: bits of a level: 2^@depth counts per table
 * @n_units: partial tables per counted slot, to add up
 * @host: @n_units tables of 2^@depth levels per counted slot, in slot
 *   order; written by the device until @read completes
 * @read: the last read into @host (or the kernel that wrote it in place),
 *   NULL if nothing was counted
 * @sparse: @host holds the tables of every slot, counted or not (slot s at
 *   s x @n_units tables), where the device wrote them
 * @slot_busy: (nullable): the flag of the ring slot @host lies in
 *   (gstclhistogramring.h), cleared with the counts; NULL where @host was
 *   allocated for them
 *
 * A frame's counts on their way to the host. The caller sets @want and
 * @depth and zeroes the rest before gst_cl_histogram_count_frame().
 */
typedef struct
{
  guint want;
  guint depth;
  gint n_units;
  guint32 *host;
  cl_event read;
  gboolean sparse;
  gint *slot_busy;
} GstClHistogramCounts;

/**
 * GstClHistogramCount:
 *
 * The kernels and device buffers that count a stream's frames, for one
 * element between start() and stop(). Used from the streaming thread.
 */
typedef struct _GstClHistogramCount GstClHistogramCount;

GstClHistogramCount *gst_cl_histogram_count_new (GstClDevice * device,
    cl_program program, GstObject * owner, GError ** error);

void gst_cl_histogram_count_free (GstClHistogramCount * count);

void gst_cl_histogram_count_configure (GstClHistogramCount * count,
    const GstVideoInfo * info, const GstClPlane * plane);

void gst_cl_histogram_count_prepare_tiles (GstClHistogramCount * count,
    const GstClPlane * plane, guint want);

gboolean gst_cl_histogram_count_frame (GstClHistogramCount * count,
    GstClFrameWork * work, const GstClPlane * src,
    GstClHistogramCounts * counts, GError ** error);

void gst_cl_histogram_counts_add (const GstClHistogramCounts * counts,
    guint64 * sums, gboolean first);

void gst_cl_histogram_counts_clear (GstClHistogramCounts * counts);

G_END_DECLS
