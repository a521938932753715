/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclstorage.c: the `storage` property's values, what `auto` means, and
 * whether a device can hold frames of some caps as images. */
#include "gstclstorage.h"
#include "gstclplane.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_storage_debug);
#define GST_CAT_DEFAULT gst_cl_storage_debug

/* The values under both names: GstClStorage for `storage`, the deprecated
 * GstClMemoryKind for `memory` */
#define STORAGE_VALUES { \
    {GST_CL_STORAGE_AUTO, "The kind measured faster: buffers (frames " \
          "travel in buffers; an image costs a copy in and out)", "auto"}, \
    {GST_CL_STORAGE_BUFFER, "OpenCL buffers", "buffer"}, \
    {GST_CL_STORAGE_IMAGE, "OpenCL images", "image"}, \
    {0, NULL, NULL} }

static void
init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_storage_debug, "clstorage", 0,
        "clfilters storage");
    g_once_init_leave (&done, 1);
  }
}

GType
gst_cl_storage_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = STORAGE_VALUES;
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClStorage", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_memory_kind_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = STORAGE_VALUES;
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClMemoryKind", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/**
 * gst_cl_storage_measured:
 *
 * What `storage=auto` chooses for a filter: buffers. Frames travel between
 * elements in OpenCL buffers (GstClMemory); an image costs a device copy in
 * and one out per element, more than the faster image kernels save on a GPU
 * (docs/performance.md), and POCL emulates images in software
 * (docs/tuning.md).
 */
GstClStorage
gst_cl_storage_measured (GstClDevice * device, const GstVideoInfo * info)
{
  return GST_CL_STORAGE_BUFFER;
}

/**
 * gst_cl_storage_use_images:
 * @storage: the storage asked for (buffer or image)
 * @automatic: @storage is what `storage=auto` chose
 *
 * Whether @element's kernels hold frames of @in_info and @out_info in
 * images on @device: where @storage is image and the device can. An
 * explicit image the device cannot hold falls back to buffers with a
 * warning on the bus, an automatic one quietly.
 */
gboolean
gst_cl_storage_use_images (GstElement * element, GstClStorage storage,
    gboolean automatic, GstClDevice * device, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info)
{
  gchar *why = NULL;

  init_debug ();
  if (storage != GST_CL_STORAGE_IMAGE)
    return FALSE;
  if (gst_cl_plane_image_possible (device, in_info, 0, &why) &&
      gst_cl_plane_image_possible (device, out_info, 0, &why))
    return TRUE;
  if (automatic) {
    GST_INFO_OBJECT (element, "storage=auto: buffers (%s)", why);
  } else {
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        ("storage=image is not possible for %s %dx%d on this device: using "
            "OpenCL buffers instead.",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info)),
        ("%s", why));
  }
  g_free (why);
  return FALSE;
}

/**
 * gst_cl_storage_install_properties:
 *
 * Installs `storage` (@storage_id) and its deprecated alias `memory`
 * (@memory_id, enum GstClMemoryKind) on a filter's @klass.
 */
void
gst_cl_storage_install_properties (GObjectClass * klass, guint storage_id,
    guint memory_id)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  /**
   * GstClBaseFilter:storage:
   *
   * How the kernels hold a frame on the device: OpenCL buffers or images.
   * Applies from the next caps. The older name `memory` (enum
   * GstClMemoryKind, same values) still sets and gets it; it is deprecated
   * and the first time it is set in a process logs a GST_WARNING.
   */
  g_object_class_install_property (klass, storage_id,
      g_param_spec_enum ("storage", "Storage",
          "How the kernels hold a frame on the device: OpenCL buffers or "
          "images (auto: the kind measured faster: buffers, in which frames "
          "travel between elements; images cost a device copy in and out)",
          GST_TYPE_CL_STORAGE, GST_CL_STORAGE_AUTO, flags));
  g_object_class_install_property (klass, memory_id,
      g_param_spec_enum ("memory", "Memory", "Deprecated name of \"storage\"",
          GST_TYPE_CL_MEMORY_KIND, GST_CL_STORAGE_AUTO,
          flags | G_PARAM_DEPRECATED));
  gst_type_mark_as_plugin_api (GST_TYPE_CL_STORAGE, 0);
}

/**
 * gst_cl_storage_warn_memory_alias:
 *
 * Setting `memory`, the property's old name, warns once per process in
 * the debug log (category clstorage): a g_warning() would fail the tests
 * of existing applications that treat GLib warnings as errors. Reading it
 * does not warn, so that tools that read every property (gst-inspect-1.0,
 * pipeline dumps) stay quiet.
 */
void
gst_cl_storage_warn_memory_alias (GObject * object)
{
  static gsize warned = 0;

  init_debug ();
  if (g_once_init_enter (&warned)) {
    GST_WARNING_OBJECT (object, "the property \"memory\" is deprecated: "
        "use \"storage\" (same values)");
    g_once_init_leave (&warned, 1);
  }
}
