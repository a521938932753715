/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* Lifecycle: state cycling, flushing seeks, caps changes, properties set
 * from another thread while streaming, many elements on one device, two
 * pipelines in two threads. Runs under the OpenCL test layer, so every
 * test also checks that no OpenCL object outlives its pipeline. */
#include "clcheck.h"

#include <dlfcn.h>

static const gchar *const elements[] = {
  "clgaussian", "clgaussian radius=5 storage=image", "cllaplace",
  "cllaplace mode=edges storage=image", "clhistogram channels=all",
  /* chains: frames in flight on the device between the elements */
  "clgaussian ! cllaplace ! clhistogram",
  "clupload ! clgaussian storage=image ! cllaplace ! cldownload",
  /* after N_ANY_FORMAT: elements of other formats, behind a conversion
   * (not in test_caps_changes): CLAHE of I420, HDR (PQ) to SDR with the
   * dynamic peak and its messages (a converter) */
  "videoconvert ! video/x-raw,format=I420 ! clclahe tiles-x=4 tiles-y=3",
  "videoconvert ! video/x-raw,format=P010_10LE,colorimetry=bt2100-pq ! "
      "cltonemap peak-mode=dynamic post-messages=true ! clgaussian",
};

/* the elements above that take every format of test_caps_changes */
#define N_ANY_FORMAT 7

static long (*layer_live) (const char *kind);

static void
load_layer (void)
{
  if (!layer_live) {
    cl_uint n = 0;
    void *h;
    clGetPlatformIDs (0, NULL, &n);     /* the ICD loader loads the layer */
    h = test_layer_handle ();
    fail_unless (h != NULL, "the OpenCL test layer is not loaded "
        "(OPENCL_LAYERS=%s)", GST_STR_NULL (g_getenv ("OPENCL_LAYERS")));
    layer_live = (long (*)(const char *)) dlsym (h, "clfilters_layer_live");
    fail_unless (layer_live != NULL);
  }
}

static void
check_no_leak (const gchar * what)
{
  load_layer ();
  fail_unless (test_settled_live (layer_live) == 0, "%s: %ld OpenCL objects leaked", what,
      layer_live (NULL));
}

static GstElement *
pipeline_for (const gchar * element, const gchar * src_extra)
{
  gchar *desc = g_strdup_printf ("videotestsrc %s ! "
      "video/x-raw,format=RGBx,width=160,height=90,framerate=30/1 ! %s ! "
      "fakesink name=sink sync=false", src_extra, element);
  GstElement *p = gst_parse_launch (desc, NULL);
  fail_unless (p != NULL, "%s", desc);
  g_free (desc);
  return p;
}

static void
expect_no_error (GstElement * p, const gchar * what)
{
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (m) {
    GError *err = NULL;
    gst_message_parse_error (m, &err, NULL);
    fail ("%s: %s", what, err->message);
  }
  gst_object_unref (bus);
}

/* NULL -> PLAYING (with data) -> NULL, 50 times per element. */
GST_START_TEST (test_state_cycling)
{
  const gchar *element = elements[__i__];
  GstElement *p = pipeline_for (element, "");
  guint i;

  for (i = 0; i < 50; i++) {
    fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    /* prerolled: a buffer went through the filter */
    fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
            30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
    if (i % 10 == 0)
      g_usleep (20000);
    fail_unless_equals_int (gst_element_set_state (p, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    expect_no_error (p, element);
  }
  gst_object_unref (p);
  check_no_leak (element);
}

GST_END_TEST;

/* Flushing seeks while playing, then EOS. */
GST_START_TEST (test_flushing_seeks)
{
  const gchar *element = elements[__i__];
  GstElement *p = pipeline_for (element, "num-buffers=60");
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m;
  guint i;

  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
          30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  for (i = 0; i < 5; i++) {
    fail_unless (gst_element_seek_simple (p, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, i * GST_SECOND / 10));
    g_usleep (10000);
  }
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS,
      "%s: no EOS after seeks", element);
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  check_no_leak (element);
}

GST_END_TEST;

/* Resolution and format change mid-stream; every output has the size of
 * its caps. */
GST_START_TEST (test_caps_changes)
{
  static const struct
  {
    const gchar *format;
    gint w, h;
  } steps[] = { {"GRAY8", 64, 48}, {"RGB", 64, 48}, {"RGB", 33, 17},
    {"NV12", 320, 240}, {"RGBA", 7, 5}, {"GRAY8", 1, 1}, {"I420", 64, 48}
  };
  const gchar *element = elements[__i__];
  GstHarness *h = gst_harness_new_parse (element);
  guint s, k;

  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    gchar *caps = test_caps_string (steps[s].format, steps[s].w, steps[s].h);
    GstVideoInfo info = test_info (steps[s].format, steps[s].w, steps[s].h);
    gst_harness_set_caps_str (h, caps, caps);
    for (k = 0; k < 2; k++) {
      TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, k);
      GstBuffer *out = test_push_pull (h, &f);
      fail_unless (out != NULL);
      fail_unless (gst_buffer_get_size (out) >= info.size);
      gst_buffer_unref (out);
      gst_buffer_unref (f.buffer);
    }
    g_free (caps);
  }
  gst_harness_teardown (h);
  check_no_leak (element);
}

GST_END_TEST;

/* Caps that change every frame in a chain: where frames are copied to
 * the device (GST_CL_ZERO_COPY=0, the -copying run), the last element
 * starts reading each output back for its system-memory consumer, and a
 * frame the renegotiation frees before that transfer ends must not have
 * it write into freed memory (ASan watches in build-asan;
 * test_caps_changes met it about once in a hundred runs). */
GST_START_TEST (test_caps_every_frame)
{
  static const struct
  {
    const gchar *format;
    gint w, h;
  } sizes[] = { {"GRAY8", 1, 1}, {"RGBA", 7, 5} };
  const gchar *chain = "clgaussian ! cllaplace ! clhistogram";
  GstHarness *h = gst_harness_new_parse (chain);
  guint k;

  for (k = 0; k < 200; k++) {
    const guint s = k % G_N_ELEMENTS (sizes);
    gchar *caps = test_caps_string (sizes[s].format, sizes[s].w, sizes[s].h);
    GstVideoInfo info = test_info (sizes[s].format, sizes[s].w, sizes[s].h);
    TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, k);
    GstBuffer *out;

    gst_harness_set_caps_str (h, caps, caps);
    out = test_push_pull (h, &f);
    fail_unless (out != NULL);
    gst_buffer_unref (out);
    gst_buffer_unref (f.buffer);
    g_free (caps);
  }
  gst_harness_teardown (h);
  check_no_leak (chain);
}

GST_END_TEST;

/* Properties changed from another thread while buffers flow. */
GST_START_TEST (test_property_stress)
{
  static const struct
  {
    const gchar *element, *prop, *value1, *value2;
  } cases[] = {
    {"clgaussian", "radius", "1", "9"},
    {"clgaussian", "sigma", "0.5", "3.0"},
    {"clgaussian", "storage", "buffer", "image"},
    {"clgaussian", "kernel-shape", "strips", "tiles"},
    {"cllaplace", "strength", "0.5", "3.0"},
    {"cllaplace", "mode", "sharpen", "edges"},
    {"clhistogram", "bins", "7", "256"},
    {"clhistogram", "channels", "luma", "all"},
    {"clhistogram", "interval", "0", "50000000"},
  };
  GstHarness *h = gst_harness_new (cases[__i__].element);
  GstElement *e = gst_object_ref (h->element);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      cases[__i__].prop);
  GValue v1 = G_VALUE_INIT, v2 = G_VALUE_INIT;
  GstHarnessThread *t1, *t2;
  GstVideoInfo info = test_info ("RGBx", 96, 64);
  gchar *caps = test_caps_string ("RGBx", 96, 64);
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  g_value_init (&v1, pspec->value_type);
  g_value_init (&v2, pspec->value_type);
  fail_unless (gst_value_deserialize (&v1, cases[__i__].value1));
  fail_unless (gst_value_deserialize (&v2, cases[__i__].value2));
  t1 = gst_harness_stress_property_start_full (h, cases[__i__].prop, &v1,
      1000);
  t2 = gst_harness_stress_property_start_full (h, cases[__i__].prop, &v2,
      1300);
  for (i = 0; i < 60; i++) {
    TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, i);
    GstBuffer *out = test_push_pull (h, &f);
    fail_unless (out != NULL);
    gst_buffer_unref (out);
    gst_buffer_unref (f.buffer);
  }
  gst_harness_stress_thread_stop (t1);
  gst_harness_stress_thread_stop (t2);
  g_value_unset (&v1);
  g_value_unset (&v2);
  g_free (caps);
  gst_object_unref (e);
  gst_harness_teardown (h);
  check_no_leak (cases[__i__].prop);
}

GST_END_TEST;

/* Nine elements in one pipeline share one device: one OpenCL context. */
GST_START_TEST (test_many_elements_one_device)
{
  GstElement *p = pipeline_for ("clgaussian ! cllaplace ! clhistogram ! "
      "clgaussian radius=3 ! cllaplace mode=edges storage=image ! "
      "clhistogram ! clgaussian storage=image ! clgaussian sigma=2 ! "
      "cllaplace strength=0.5", "num-buffers=20");
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m;

  fail_unless (gst_element_set_state (p, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
          30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  load_layer ();
  fail_unless_equals_int (layer_live ("context"), 1);
  gst_element_set_state (p, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  check_no_leak ("nine elements");
}

GST_END_TEST;

static gpointer
run_one (gpointer data)
{
  GstElement *p = pipeline_for (data, "num-buffers=40");
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m;
  gboolean ok;

  gst_element_set_state (p, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
  if (m)
    gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  return GINT_TO_POINTER (ok);
}

/* Two pipelines in two threads, at the same time. */
GST_START_TEST (test_two_pipelines_two_threads)
{
  GThread *a = g_thread_new ("a", run_one, (gpointer) "clgaussian radius=3");
  GThread *b = g_thread_new ("b", run_one,
      (gpointer) "cllaplace ! clhistogram");
  fail_unless (GPOINTER_TO_INT (g_thread_join (a)));
  fail_unless (GPOINTER_TO_INT (g_thread_join (b)));
  check_no_leak ("two threads");
}

GST_END_TEST;

static Suite *
lifecycle_suite (void)
{
  Suite *s = suite_create ("lifecycle");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_loop_test (tc, test_state_cycling, 0, G_N_ELEMENTS (elements));
  tcase_add_loop_test (tc, test_flushing_seeks, 0, G_N_ELEMENTS (elements));
  tcase_add_loop_test (tc, test_caps_changes, 0, N_ANY_FORMAT);
  tcase_add_test (tc, test_caps_every_frame);
  tcase_add_loop_test (tc, test_property_stress, 0, 9);
  tcase_add_test (tc, test_many_elements_one_device);
  tcase_add_test (tc, test_two_pipelines_two_threads);
  return s;
}

TEST_MAIN_ONE_PROCESS (lifecycle);
