/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* Chains of clfilters elements with frames on the device
 * (memory:OpenCLMemory): output against a plain C reference of the whole
 * chain, on zero-copy devices and on the copying path (GST_CL_ZERO_COPY=0
 * on POCL: separate upload, kernel and download queues, events between
 * them); one upload and one download per frame, counted by the OpenCL
 * test layer; negotiation; the device shared through GstContext. */
#include "clcheck.h"

#include <gst/base/gstbasetransform.h>

/* the reference of "clgaussian ! cllaplace" for any depth D: the exact 3x3
 * binomial, then clamp (9 c - sum of the 8 neighbours, 0, 2^D - 1), on the
 * sample values of plane 0, replicated borders */
typedef struct
{
  gint width, height, step;
  gint *data;                   /* width * step values per row */
} RefPlane;

static TEST_REFERENCE gint
ref_at (const RefPlane * r, gint x, gint y, gint c)
{
  x = clampi (x, 0, r->width - 1);
  y = clampi (y, 0, r->height - 1);
  return r->data[((gsize) y * r->width + x) * r->step + c];
}

static TEST_REFERENCE RefPlane
ref_chain (const TestPlane * s)
{
  static const gint w[3] = { 1, 2, 1 };
  const gint maxv = (1 << s->depth) - 1;
  RefPlane in = { s->width, s->height, s->step, NULL };
  RefPlane blur = in, r = in;
  gsize n = (gsize) s->width * s->step * s->height;
  gint x, y, c, i, j;

  in.data = g_new (gint, n);
  blur.data = g_new (gint, n);
  r.data = g_new (gint, n);
  for (y = 0; y < s->height; y++)
    for (x = 0; x < s->width; x++)
      for (c = 0; c < s->step; c++)
        in.data[((gsize) y * s->width + x) * s->step + c] =
            test_value (s, x, y, c);
  for (y = 0; y < s->height; y++)
    for (x = 0; x < s->width; x++)
      for (c = 0; c < s->step; c++) {
        gint sum = 0;
        for (j = -1; j <= 1; j++)
          for (i = -1; i <= 1; i++)
            sum += w[i + 1] * w[j + 1] * ref_at (&in, x + i, y + j, c);
        blur.data[((gsize) y * s->width + x) * s->step + c] = (sum + 8) >> 4;
      }
  for (y = 0; y < s->height; y++)
    for (x = 0; x < s->width; x++)
      for (c = 0; c < s->step; c++) {
        gint sum = 0;
        for (j = -1; j <= 1; j++)
          for (i = -1; i <= 1; i++)
            if (i || j)
              sum += ref_at (&blur, x + i, y + j, c);
        r.data[((gsize) y * s->width + x) * s->step + c] =
            clampi (9 * ref_at (&blur, x, y, c) - sum, 0, maxv);
      }
  g_free (in.data);
  g_free (blur.data);
  return r;
}

static TEST_REFERENCE gint
ref_lookup (const TestPlane * s, gint x, gint y, gint c, gpointer data)
{
  return ref_at (data, x, y, c);
}

/* Pushes one frame through @h and compares with the reference. */
static void
check_chain (GstHarness * h, const gchar * format, gint w, gint ht,
    gboolean padded, const gchar * what)
{
  GstVideoInfo info = test_info (format, w, ht);
  TestFrame f = test_frame_new (&info, test_deep_format (format) && !padded ?
      CONTENT_DIRTY : CONTENT_RANDOM, padded, w * 7 + ht);
  GstVideoFrame vf;
  TestPlane s;
  RefPlane r;
  GstBuffer *out;
  guint bad;

  fail_unless (gst_video_frame_map (&vf, &f.info, f.buffer, GST_MAP_READ));
  s = test_plane (&vf, 0);
  r = ref_chain (&s);
  gst_video_frame_unmap (&vf);
  out = test_push_pull (h, &f);
  fail_unless (out != NULL);
  bad = test_compare_values (f.buffer, &f.info, out, &info, format,
      ref_lookup, &r, 0, what);
  fail_unless (bad == 0, "%s: %s %dx%d%s: %u samples differ", what, format,
      w, ht, padded ? " (padded)" : "", bad);
  g_free (r.data);
  gst_buffer_unref (out);
  gst_buffer_unref (f.buffer);
}

static GstHarness *
chain_harness (const gchar * launch, const gchar * format, gint w, gint h)
{
  GstHarness *hs = test_harness_new (launch);
  gchar *caps = test_caps_string (format, w, h);
  gst_harness_set_caps_str (hs, caps, caps);
  g_free (caps);
  return hs;
}

static const gchar *const chains[] = {
  "clupload ! clgaussian ! cllaplace ! clhistogram ! cldownload",
  "clgaussian ! cllaplace ! clhistogram",
  /* mixed memory kinds: images in the middle of a buffer chain */
  "clgaussian storage=image ! cllaplace storage=buffer ! clhistogram "
      "storage=image",
  "clupload ! clgaussian storage=buffer ! cllaplace storage=image ! cldownload",
};

/* the formats of test_chain_exact: all_formats, then deep_formats */
static const gchar *
chain_format (gint i)
{
  gint n8 = g_strv_length ((gchar **) all_formats);
  return i < n8 ? all_formats[i] : deep_formats[i - n8].name;
}

/* Every format, odd sizes, 1x1, padded strides, every chain, on zero-copy
 * and copying paths; each harness goes through the sizes, so caps change
 * mid-stream with frames in flight. */
GST_START_TEST (test_chain_exact)
{
  static const gint sizes[][2] = { {83, 29}, {1, 1}, {64, 48}, {5, 3} };
  const gchar *format = chain_format (__i__);
  guint c, s, copies;

  for (copies = 0; copies < 2; copies++) {
    /* repeating "copying" (on a GPU, which copies frames anyway), the
     * forced copying path is the first pass again */
    if (copies && test_repeats ("copying"))
      break;
    if (copies)
      g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
    for (c = 0; c < G_N_ELEMENTS (chains); c++) {
      GstHarness *h = chain_harness (chains[c], format, sizes[0][0],
          sizes[0][1]);
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        gchar *caps = test_caps_string (format, sizes[s][0], sizes[s][1]);
        gst_harness_set_src_caps_str (h, caps);
        gst_harness_set_sink_caps_str (h, caps);
        g_free (caps);
        check_chain (h, format, sizes[s][0], sizes[s][1], FALSE, chains[c]);
        check_chain (h, format, sizes[s][0], sizes[s][1], TRUE, chains[c]);
      }
      gst_harness_teardown (h);
    }
    g_unsetenv ("GST_CL_ZERO_COPY");
  }
}

GST_END_TEST;

static long (*layer_transfers) (const char *dir, int reset);

static void
load_layer (void)
{
  cl_uint n = 0;
  void *h;

  clGetPlatformIDs (0, NULL, &n);       /* the ICD loader loads the layer */
  h = test_layer_handle ();
  fail_unless (h != NULL, "the OpenCL test layer is not loaded "
      "(OPENCL_LAYERS=%s)", GST_STR_NULL (g_getenv ("OPENCL_LAYERS")));
  layer_transfers = (long (*)(const char *, int)) dlsym (h,
      "clfilters_layer_transfers");
  fail_unless (layer_transfers != NULL);
}

/* The device type of the clgaussian in @h ("cpu", "gpu", ...). */
static gchar *
device_type_of (GstHarness * h)
{
  GstElement *e = gst_harness_find_element (h, "clgaussian");
  GstContext *ctx = gst_element_get_context (e, "gst.cl.device");
  gchar *type = NULL;

  if (ctx) {
    type = g_strdup (gst_structure_get_string (gst_context_get_structure
            (ctx), "device-type"));
    gst_context_unref (ctx);
  }
  gst_object_unref (e);
  return type;
}

/* On the copying path a chain moves each frame to the device once and
 * back once, whatever its length; on a CPU device (zero copy) never. */
GST_START_TEST (test_one_upload_one_download)
{
  static const gchar *const formats[] = { "RGBA", "I420", "GRAY8" };
  const gchar *launch = chains[__i__];
  guint i, k, copies;

  load_layer ();
  for (copies = 0; copies < 2; copies++) {
    if (copies)
      g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
    for (i = 0; i < G_N_ELEMENTS (formats); i++) {
      GstVideoInfo info = test_info (formats[i], 320, 240);
      GstHarness *h = chain_harness (launch, formats[i], 320, 240);
      gchar *min = g_strdup_printf ("%" G_GSIZE_FORMAT, info.size);
      gchar *type;
      gint want;

      /* transfers of a whole frame: not the histogram's partial counts,
       * which grow with the device's compute units (a 16-core POCL reads
       * more than half a 320x240 GRAY8 frame of them, and at most 64 KiB
       * per channel: MAX_HOST_UNITS in gstclhistogramcount.c) */
      g_setenv ("CLFILTERS_LAYER_MIN_BYTES", min, TRUE);
      check_chain (h, formats[i], 320, 240, FALSE, launch);     /* warm up */
      type = device_type_of (h);
      want = copies || g_strcmp0 (type, "cpu") != 0 ? 4 : 0;
      layer_transfers ("upload", TRUE);
      layer_transfers ("download", TRUE);
      for (k = 0; k < 4; k++)
        check_chain (h, formats[i], 320, 240, k % 2, launch);
      fail_unless_equals_int (layer_transfers ("upload", TRUE), want);
      fail_unless_equals_int (layer_transfers ("download", TRUE), want);
      gst_harness_teardown (h);
      g_unsetenv ("CLFILTERS_LAYER_MIN_BYTES");
      g_free (min);
      g_free (type);
    }
    g_unsetenv ("GST_CL_ZERO_COPY");
  }
}

GST_END_TEST;

static GstElement *
run_to_eos (const gchar * desc)
{
  GstElement *p = gst_parse_launch (desc, NULL);
  GstBus *bus;
  GstMessage *m;

  fail_unless (p != NULL, "%s", desc);
  bus = gst_element_get_bus (p);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR);
  fail_unless (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS,
      "%s did not reach EOS", desc);
  gst_message_unref (m);
  gst_object_unref (bus);
  return p;
}

static gboolean
pad_on_device (GstElement * p, const gchar * element, const gchar * pad)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (p), element);
  GstPad *pd = gst_element_get_static_pad (e, pad);
  GstCaps *caps = gst_pad_get_current_caps (pd);
  gboolean dev;

  fail_unless (caps != NULL, "%s.%s has no caps", element, pad);
  dev = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      "memory:OpenCLMemory");
  gst_caps_unref (caps);
  gst_object_unref (pd);
  gst_object_unref (e);
  return dev;
}

static gboolean
is_passthrough (GstElement * p, const gchar * element)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (p), element);
  gboolean res = gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e));
  gst_object_unref (e);
  return res;
}

#define SRC "videotestsrc num-buffers=3 ! " \
  "video/x-raw,format=RGBA,width=64,height=48 ! "

/* The feature between clfilters elements, system memory at the ends,
 * clupload and cldownload in passthrough where nothing is to move. */
GST_START_TEST (test_negotiation)
{
  GstElement *p;

  p = run_to_eos (SRC "clgaussian name=a ! cllaplace name=b ! "
      "clhistogram name=c ! videoconvert ! video/x-raw,format=BGRx ! "
      "fakesink");
  fail_if (pad_on_device (p, "a", "sink"));
  fail_unless (pad_on_device (p, "a", "src"));
  /* an analyzer passes its caps through: system memory from b on */
  fail_if (pad_on_device (p, "b", "src"));
  fail_if (pad_on_device (p, "c", "src"));
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);

  p = run_to_eos (SRC "clgaussian name=a ! cllaplace name=b ! "
      "clhistogram name=c ! fakesink");
  fail_unless (pad_on_device (p, "a", "src"));
  fail_unless (pad_on_device (p, "b", "src"));
  fail_unless (pad_on_device (p, "c", "src"));
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);

  p = run_to_eos (SRC "clupload name=u ! clgaussian name=a ! "
      "clupload name=u2 ! cldownload name=d ! cldownload name=d2 ! "
      "videoconvert ! fakesink");
  fail_unless (pad_on_device (p, "u", "src"));
  fail_if (is_passthrough (p, "u"));
  fail_unless (is_passthrough (p, "u2"));
  fail_if (is_passthrough (p, "d"));
  fail_if (pad_on_device (p, "d", "src"));
  fail_unless (is_passthrough (p, "d2"));
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

GST_END_TEST;

static GstBusSyncReply
answer_need_context (GstBus * bus, GstMessage * msg, gpointer data)
{
  const gchar *type;
  GstContext *ctx = data;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT &&
      gst_message_parse_context_type (msg, &type) &&
      g_str_equal (type, "gst.cl.device"))
    gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), ctx);
  return GST_BUS_PASS;
}

static gchar *
device_name_of (GstElement * p, const gchar * element)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (p), element);
  gchar *name = NULL;
  g_object_get (e, "device-name", &name, NULL);
  gst_object_unref (e);
  return name;
}

/* An application answers need-context with a context naming the device
 * by type only; a pipeline's have-context, set on a second pipeline, puts
 * its elements on the same device object. */
GST_START_TEST (test_context)
{
  GstContext *app = gst_context_new ("gst.cl.device", TRUE);
  GstElement *p, *q;
  GstBus *bus;
  GstMessage *m;
  GstContext *have = NULL;
  const GstStructure *s;
  GObject *dev_a = NULL, *dev_b = NULL;
  gchar *a, *b;

  gst_structure_set (gst_context_writable_structure (app), "device-type",
      G_TYPE_STRING, "cpu", NULL);
  p = gst_parse_launch (SRC "clgaussian name=a ! cllaplace name=b ! "
      "fakesink", NULL);
  bus = gst_element_get_bus (p);
  gst_bus_set_sync_handler (bus, answer_need_context, app, NULL);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR);
  fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  a = device_name_of (p, "a");
  b = device_name_of (p, "b");
  fail_unless (a && *a && g_strcmp0 (a, b) == 0, "%s / %s", a, b);
  g_free (a);
  g_free (b);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  gst_context_unref (app);

  /* without an application: the first element posts have-context */
  p = gst_parse_launch (SRC "clgaussian name=a ! fakesink", NULL);
  bus = gst_element_get_bus (p);
  fail_unless (gst_element_set_state (p, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_HAVE_CONTEXT);
  fail_unless (m != NULL);
  gst_message_parse_have_context (m, &have);
  gst_message_unref (m);
  s = gst_context_get_structure (have);
  fail_unless_equals_string (gst_context_get_context_type (have),
      "gst.cl.device");
  fail_unless (gst_structure_get_string (s, "device-name") != NULL);
  fail_unless (gst_structure_get_string (s, "platform-name") != NULL);
  fail_unless (gst_structure_get_string (s, "device-type") != NULL);
  fail_unless (gst_structure_has_field (s, "device"));
  dev_a = g_value_dup_object (gst_structure_get_value (s, "device"));
  fail_unless (dev_a != NULL);

  q = gst_parse_launch (SRC "cllaplace name=b ! fakesink", NULL);
  gst_element_set_context (q, have);
  fail_unless (gst_element_set_state (q, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_get_state (q, NULL, NULL,
          30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  {
    GstElement *e = gst_bin_get_by_name (GST_BIN (q), "b");
    GstContext *ctx = gst_element_get_context (e, "gst.cl.device");
    fail_unless (ctx != NULL);
    dev_b = g_value_dup_object (gst_structure_get_value
        (gst_context_get_structure (ctx), "device"));
    fail_unless (dev_a == dev_b);
    gst_context_unref (ctx);
    gst_object_unref (e);
  }
  g_object_unref (dev_a);
  g_object_unref (dev_b);
  gst_context_unref (have);
  gst_element_set_state (q, GST_STATE_NULL);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (q);
  gst_object_unref (bus);
  gst_object_unref (p);
}

GST_END_TEST;

/* Two devices in one chain (two POCL devices where there is no second
 * device): the frame crosses through host memory, and the output is the
 * same as on one device. */
GST_START_TEST (test_two_devices)
{
  static const gchar *const formats[] = { "RGBA", "I420", "GRAY8" };
  cl_platform_id ps[8];
  cl_uint np = 0, p, n;
  gchar *sel[2] = { NULL, NULL };
  guint found = 0, i;

  if (!g_getenv ("POCL_DEVICES"))
    g_setenv ("POCL_DEVICES", "pthread pthread", TRUE);
  fail_unless (clGetPlatformIDs (8, ps, &np) == CL_SUCCESS);
  for (p = 0; p < np && found < 2; p++) {
    if (clGetDeviceIDs (ps[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS)
      continue;
    for (i = 0; i < n && found < 2; i++)
      sel[found++] = g_strdup_printf ("%u.%u", p, i);
  }
  if (found < 2) {
    GST_WARNING ("one OpenCL device only: nothing to test");
    g_free (sel[0]);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *launch = g_strdup_printf ("clgaussian device=%s ! cllaplace "
        "device=%s", sel[0], sel[1]);
    GstHarness *h = chain_harness (launch, formats[i], 83, 29);
    check_chain (h, formats[i], 83, 29, FALSE, launch);
    check_chain (h, formats[i], 83, 29, TRUE, launch);
    gst_harness_teardown (h);
    g_free (launch);
  }
  g_free (sel[0]);
  g_free (sel[1]);
}

GST_END_TEST;

static Suite *
chain_suite (void)
{
  Suite *s = suite_create ("chain");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  test_add_leak_check (tc);
  test_holds_devices = TRUE;
  test_add_sharded_loop (tc, test_chain_exact, 0, g_strv_length ((gchar **)
          all_formats) + G_N_ELEMENTS (deep_formats) - 1);
  test_add_sharded_loop (tc, test_one_upload_one_download, 0,
      G_N_ELEMENTS (chains));
  test_add_sharded (tc, test_negotiation);
  test_add_sharded (tc, test_context);
  test_add_sharded (tc, test_two_devices);
  return s;
}

TEST_MAIN (chain);
