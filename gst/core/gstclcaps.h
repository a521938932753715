/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclcaps.h: the caps of the clfilters elements, in system memory and in
 * memory:OpenCLMemory. */
#pragma once

#include "gstclmemory.h"

G_BEGIN_DECLS

/* The formats of every clfilters element. */
#define GST_CL_FORMATS "{ GRAY8, RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, " \
  "BGRx, xRGB, xBGR, I420, YV12, NV12, NV21, Y42B, Y444, GRAY16_LE, " \
  "P010_10LE, P016_LE, I420_10LE, I420_12LE, Y444_16LE, RGBA64_LE }"

GstCaps *gst_cl_caps_new (gboolean device_memory, gboolean system_memory);

void gst_cl_element_class_add_pad_templates (GstElementClass * klass,
    gboolean sink_device, gboolean sink_system, gboolean src_device,
    gboolean src_system);

gboolean gst_cl_caps_on_device (GstCaps * caps);

GstCaps *gst_cl_caps_with_memories (GstCaps * caps, gboolean device_memory,
    gboolean system_memory);

GstCaps *gst_cl_caps_prefer_device (GstCaps * othercaps);

G_END_DECLS
