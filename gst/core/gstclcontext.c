/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclcontext.c: the device in a GstContext of type "gst.cl.device".
 *
 * An element finds its device the way GStreamer's GPU elements do (CUDA,
 * HIP, D3D12): its own `device` property if set; else a context already
 * set on it (by the application or its bin); else a neighbour's, through a
 * CONTEXT query downstream then upstream; else whatever the application
 * answers to a `need-context` message; else it opens the default device
 * (GST_CL_DEVICE, then the first GPU, then the first device), keeps the
 * context and posts it in `have-context`, so that the bin hands it to the
 * other elements. Devices are also shared process-wide by
 * gst_cl_device_acquire(), so that pipelines that never exchanged a context
 * still share one device per OpenCL device.
 */
#include "gstclcontext.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_context_debug);
#define GST_CAT_DEFAULT gst_cl_context_debug

static void
debug_init (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_context_debug, "clcontext", 0,
        "clfilters device sharing");
    g_once_init_leave (&done, 1);
  }
}

/**
 * gst_context_new_cl_device:
 *
 * Returns: (transfer full): a persistent context carrying @device
 */
GstContext *
gst_context_new_cl_device (GstClDevice * device)
{
  GstContext *context = gst_context_new (GST_CL_DEVICE_CONTEXT_TYPE, TRUE);
  GstStructure *s = gst_context_writable_structure (context);

  gst_structure_set (s, "device", GST_TYPE_CL_DEVICE, device,
      "device-name", G_TYPE_STRING, device->name,
      "platform-name", G_TYPE_STRING, device->platform_name,
      "device-type", G_TYPE_STRING, gst_cl_device_type_nick (device), NULL);
  return context;
}

/**
 * gst_context_get_cl_device:
 *
 * The device @context names: its `device` object, else the device its
 * `device-name` (or `device-type`) selects.
 *
 * Returns: (transfer full) (nullable): the device; NULL when @context is
 * not a "gst.cl.device" context or names no device (with @error set when
 * it names one that cannot be opened)
 */
GstClDevice *
gst_context_get_cl_device (GstContext * context, GError ** error)
{
  const GstStructure *s;
  GstClDevice *device = NULL;
  const gchar *sel;

  if (!context || !g_str_equal (gst_context_get_context_type (context),
          GST_CL_DEVICE_CONTEXT_TYPE))
    return NULL;
  s = gst_context_get_structure (context);
  if (gst_structure_get (s, "device", GST_TYPE_CL_DEVICE, &device, NULL)
      && device)
    return device;
  sel = gst_structure_get_string (s, "device-name");
  if (!sel)
    sel = gst_structure_get_string (s, "device-type");
  if (!sel || !*sel)
    return NULL;
  return gst_cl_device_acquire (sel, error);
}

static gboolean
query_pad (const GValue * item, GValue * value, gpointer user_data)
{
  GstPad *pad = g_value_get_object (item);
  GstQuery *query = user_data;

  if (gst_pad_peer_query (pad, query)) {
    g_value_set_boolean (value, TRUE);
    return FALSE;
  }
  return TRUE;
}

static gboolean
query_pads (GstIterator * it, GstQuery * query)
{
  GValue found = G_VALUE_INIT;
  gboolean res;

  g_value_init (&found, G_TYPE_BOOLEAN);
  g_value_set_boolean (&found, FALSE);
  while (gst_iterator_fold (it, query_pad, &found, query) ==
      GST_ITERATOR_RESYNC) {
    gst_iterator_resync (it);
  }
  res = g_value_get_boolean (&found);
  gst_iterator_free (it);
  return res;
}

/* the context a neighbour has, downstream first */
static GstContext *
query_neighbours (GstElement * element)
{
  GstQuery *query = gst_query_new_context (GST_CL_DEVICE_CONTEXT_TYPE);
  GstContext *context = NULL;

  if (query_pads (gst_element_iterate_src_pads (element), query) ||
      query_pads (gst_element_iterate_sink_pads (element), query)) {
    gst_query_parse_context (query, &context);
    if (context)
      gst_context_ref (context);
  }
  gst_query_unref (query);
  return context;
}

/* the device of the context set on @element, if any */
static GstClDevice *
device_set_on (GstElement * element, GError ** error)
{
  GstContext *context = gst_element_get_context (element,
      GST_CL_DEVICE_CONTEXT_TYPE);
  GstClDevice *device = gst_context_get_cl_device (context, error);

  if (context)
    gst_context_unref (context);
  return device;
}

/**
 * gst_cl_ensure_element_device:
 * @selector: the element's `device` property
 *
 * Finds the device @element uses (see the file comment for the order).
 * Call from start(): it may post `need-context` and `have-context`.
 *
 * Returns: (transfer full): the device, or NULL with @error set
 */
GstClDevice *
gst_cl_ensure_element_device (GstElement * element, const gchar * selector,
    GError ** error)
{
  static GRecMutex lock;
  GstClDevice *device = NULL;
  GstContext *context;
  GstMessage *msg;

  debug_init ();
  if (selector && *selector)
    return gst_cl_device_acquire (selector, error);

  /* one element at a time, so that two elements starting together agree */
  g_rec_mutex_lock (&lock);
  if ((device = device_set_on (element, error)) || (error && *error))
    goto done;
  if ((context = query_neighbours (element))) {
    GST_DEBUG_OBJECT (element, "a neighbour has a device context");
    gst_element_set_context (element, context);
    gst_context_unref (context);
    if ((device = device_set_on (element, error)) || (error && *error))
      goto done;
  }
  /* the application may answer with gst_element_set_context() */
  msg = gst_message_new_need_context (GST_OBJECT (element),
      GST_CL_DEVICE_CONTEXT_TYPE);
  gst_element_post_message (element, msg);
  if ((device = device_set_on (element, error)) || (error && *error))
    goto done;

  device = gst_cl_device_acquire ("", error);
  if (device) {
    context = gst_context_new_cl_device (device);
    GST_INFO_OBJECT (element, "sharing device \"%s\" in a new context",
        device->name);
    gst_element_set_context (element, context);
    msg = gst_message_new_have_context (GST_OBJECT (element), context);
    gst_element_post_message (element, msg);
  }
done:
  g_rec_mutex_unlock (&lock);
  return device;
}

/**
 * gst_cl_handle_context_query:
 *
 * Answers a CONTEXT query for "gst.cl.device" with @device.
 *
 * Returns: whether @query was answered
 */
gboolean
gst_cl_handle_context_query (GstElement * element, GstQuery * query,
    GstClDevice * device)
{
  const gchar *type;
  GstContext *context;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT || !device ||
      !gst_query_parse_context_type (query, &type) ||
      !g_str_equal (type, GST_CL_DEVICE_CONTEXT_TYPE))
    return FALSE;
  context = gst_context_new_cl_device (device);
  gst_query_set_context (query, context);
  gst_context_unref (context);
  return TRUE;
}
