/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogram.h: histograms and tone-mapping statistics on OpenCL. */
#pragma once

#include "core/gstclbasefilter.h"

G_BEGIN_DECLS

/**
 * GstClHistogramChannels:
 * @GST_CL_HISTOGRAM_CHANNELS_LUMA: luma only
 * @GST_CL_HISTOGRAM_CHANNELS_RGB: red, green, blue
 * @GST_CL_HISTOGRAM_CHANNELS_ALL: luma, red, green, blue
 */
typedef enum
{
  GST_CL_HISTOGRAM_CHANNELS_LUMA,
  GST_CL_HISTOGRAM_CHANNELS_RGB,
  GST_CL_HISTOGRAM_CHANNELS_ALL,
} GstClHistogramChannels;

#define GST_TYPE_CL_HISTOGRAM (gst_cl_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GstClHistogram, gst_cl_histogram, GST, CL_HISTOGRAM,
    GstClBaseFilter);

GST_ELEMENT_REGISTER_DECLARE (clhistogram);

G_END_DECLS
