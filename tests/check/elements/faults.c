/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* OpenCL faults and leaks, through the test layer (tests/layer/cllayer.c,
 * loaded with OPENCL_LAYERS): every OpenCL object the elements create is
 * released when they stop, and a failure of any listed OpenCL call at any
 * point ends in an error on the bus, a clean shutdown and no leak. */
#include "clcheck.h"

#include <dlfcn.h>

static long (*layer_live) (const char *kind);

static void
load_layer (void)
{
  cl_uint n = 0;
  void *h;

  clGetPlatformIDs (0, NULL, &n);       /* the ICD loader loads the layer */
  h = test_layer_handle ();
  fail_unless (h != NULL, "the OpenCL test layer is not loaded "
      "(OPENCL_LAYERS=%s)", GST_STR_NULL (g_getenv ("OPENCL_LAYERS")));
  layer_live = (long (*)(const char *)) dlsym (h, "clfilters_layer_live");
  fail_unless (layer_live != NULL);
}

static const gchar *const pipelines[] = {
  "clgaussian", "clgaussian radius=4", "clgaussian storage=image sigma=2",
  "cllaplace", "cllaplace storage=image mode=edges",
  "clhistogram channels=all", "clhistogram storage=image",
};

/* Runs videotestsrc ! @filter ! fakesink for a few frames in two formats
 * (a caps change) and returns the error posted, if any. */
static GError *
run_pipeline (const gchar * filter, gboolean copies)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=4 ! "
      "video/x-raw,format=RGBx,width=67,height=31 ! %s ! fakesink", filter);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;
  GError *err = NULL;

  if (copies)
    g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: neither EOS nor an error in 60 s", filter);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, NULL);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (p, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (p);
  g_free (desc);
  g_unsetenv ("GST_CL_ZERO_COPY");
  return err;
}

/* No fault: every object is released once the pipeline is back to NULL. */
GST_START_TEST (test_no_leak)
{
  guint i, c;
  load_layer ();
  for (i = 0; i < G_N_ELEMENTS (pipelines); i++)
    for (c = 0; c < 2; c++) {
      GError *err = run_pipeline (pipelines[i], c);
      fail_unless (err == NULL, "%s: %s", pipelines[i], err ? err->message :
          "");
      fail_unless_equals_int (test_settled_live (layer_live), 0);
    }
}

GST_END_TEST;

/* Each listed call fails once, at its 1st..6th use: an error or a normal
 * end, never a crash or hang, and no leak. On a GPU (scripts/test-gpu.sh)
 * at its 1st..3rd use, both paths still taken (this program was a third
 * of the GPU suite's time; CLFILTERS_TEST_REPEATS_GPU=faults runs all). */
GST_START_TEST (test_faults)
{
  static const gchar *calls[] = {
    "clCreateBuffer", "clCreateImage", "clCreateKernel",
    "clCreateCommandQueue", "clEnqueueNDRangeKernel",
    "clEnqueueWriteBufferRect", "clEnqueueReadBufferRect",
    "clEnqueueMapBuffer", "clEnqueueReadBuffer", "clBuildProgram",
    "clSVMAlloc",
  };
  const gchar *filter = pipelines[__i__];
  const guint uses = g_strcmp0 (g_getenv ("CLFILTERS_TEST_ON_GPU"), "1") == 0
      && !test_repeats ("faults") ? 3 : 6;
  guint c, n, errors = 0;

  load_layer ();
  for (c = 0; c < G_N_ELEMENTS (calls); c++)
    for (n = 1; n <= uses; n++) {
      gchar *spec = g_strdup_printf ("%s:%u", calls[c], n);
      GError *err;
      /* the layer counts calls from the first one made under a new value */
      g_setenv ("CLFILTERS_LAYER_FAIL", spec, TRUE);
      err = run_pipeline (filter, n % 2 == 0);
      g_unsetenv ("CLFILTERS_LAYER_FAIL");
      if (err) {
        GST_INFO ("%s with %s: %s", filter, spec, err->message);
        errors++;
        g_error_free (err);
      }
      fail_unless (test_settled_live (layer_live) == 0, "%s with %s: %ld objects leaked "
          "(%ld mem, %ld SVM, %ld kernels, %ld programs, %ld queues, "
          "%ld contexts)", filter, spec, layer_live (NULL), layer_live ("mem"),
          layer_live ("svm"),
          layer_live ("kernel"), layer_live ("program"), layer_live ("queue"),
          layer_live ("context"));
      g_free (spec);
    }
  /* the faults did happen */
  fail_unless (errors >= 5, "%s: only %u errors", filter, errors);
}

GST_END_TEST;

static Suite *
faults_suite (void)
{
  Suite *s = suite_create ("faults");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  test_add_sharded (tc, test_no_leak);
  test_add_sharded_loop (tc, test_faults, 0, G_N_ELEMENTS (pipelines));
  return s;
}

TEST_MAIN_ONE_PROCESS (faults);
