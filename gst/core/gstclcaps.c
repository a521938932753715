/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclcaps.c: the caps of the clfilters elements.
 *
 * Every element lists each format twice, in memory:OpenCLMemory first and
 * then in system memory, so that neighbouring clfilters elements keep
 * frames on the device while system-memory neighbours get system memory
 * (the vapostproc model: one element, both memories). */
#include "gstclcaps.h"

/**
 * gst_cl_caps_new:
 *
 * Caps of every format of the plugin, in memory:OpenCLMemory first (the
 * preferred), then in system memory, as asked.
 */
GstCaps *
gst_cl_caps_new (gboolean device_memory, gboolean system_memory)
{
  GstCaps *caps = gst_caps_new_empty ();

  if (device_memory)
    gst_caps_append (caps, gst_caps_from_string
        (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
            (GST_CAPS_FEATURE_MEMORY_OPENCL_MEMORY, GST_CL_FORMATS)));
  if (system_memory)
    gst_caps_append (caps, gst_caps_from_string (GST_VIDEO_CAPS_MAKE
            (GST_CL_FORMATS)));
  return caps;
}

void
gst_cl_element_class_add_pad_templates (GstElementClass * klass,
    gboolean sink_device, gboolean sink_system, gboolean src_device,
    gboolean src_system)
{
  GstCaps *caps = gst_cl_caps_new (sink_device, sink_system);
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  caps = gst_cl_caps_new (src_device, src_system);
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

/**
 * gst_cl_caps_on_device:
 *
 * Whether the first structure of @caps is in memory:OpenCLMemory.
 */
gboolean
gst_cl_caps_on_device (GstCaps * caps)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, 0);
  return f && gst_caps_features_contains (f,
      GST_CAPS_FEATURE_MEMORY_OPENCL_MEMORY);
}

/**
 * gst_cl_caps_with_memories:
 *
 * @caps with each structure in memory:OpenCLMemory (all first) and/or in
 * system memory.
 *
 * Returns: (transfer full): the new caps
 */
GstCaps *
gst_cl_caps_with_memories (GstCaps * caps, gboolean device_memory,
    gboolean system_memory)
{
  GstCaps *res = gst_caps_new_empty ();
  guint i, f;

  for (f = 0; f < 2; f++) {
    if ((f == 0 && !device_memory) || (f == 1 && !system_memory))
      continue;
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
      GstCapsFeatures *features = f == 0 ?
          gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_OPENCL_MEMORY,
          NULL) : gst_caps_features_new_empty ();
      res = gst_caps_merge_structure_full (res, s, features);
    }
  }
  return res;
}

/**
 * gst_cl_caps_prefer_device:
 *
 * Keeps only the first structure of @othercaps in memory:OpenCLMemory, if
 * there is one: frames stay on the device whenever the peer accepts it,
 * whatever order the caps queries left the structures in.
 *
 * Returns: (transfer full): the caps
 */
GstCaps *
gst_cl_caps_prefer_device (GstCaps * othercaps)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (othercaps, i);
    if (f && !gst_caps_features_is_any (f) && gst_caps_features_contains (f,
            GST_CAPS_FEATURE_MEMORY_OPENCL_MEMORY)) {
      GstCaps *res = gst_caps_new_empty ();
      gst_caps_append_structure_full (res,
          gst_structure_copy (gst_caps_get_structure (othercaps, i)),
          gst_caps_features_copy (f));
      gst_caps_unref (othercaps);
      return res;
    }
  }
  return othercaps;
}

