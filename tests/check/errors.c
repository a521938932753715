/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* Error paths: no OpenCL driver, no matching device, a kernel build failure.
 * Each test runs in its own forked process, so the environment it sets is
 * read by a fresh ICD loader and POCL. */
#include "common.h"

#include <glib/gstdio.h>

/* Sets @element to PAUSED, expects the change to fail, and returns the
 * error posted on the bus. */
static GError *
start_and_get_error (GstElement * pipeline, gchar ** debug)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *err = NULL;

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message on the bus");
  gst_message_parse_error (msg, &err, debug);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  return err;
}

static GstElement *
make_pipeline (const gchar * filter)
{
  gchar *desc = g_strdup_printf ("fakesrc ! %s ! fakesink", filter);
  GstElement *p = gst_parse_launch (desc, NULL);
  fail_unless (p != NULL);
  g_free (desc);
  return p;
}

/* No OpenCL platform at all: the plugin loads, starting fails with an error
 * that says what to install. */
GST_START_TEST (test_no_platform)
{
  gchar *dir = g_dir_make_tmp ("clfilters-icd-XXXXXX", NULL);
  GstElement *p;
  GError *err;
  gchar *debug = NULL;

  g_setenv ("OCL_ICD_VENDORS", dir, TRUE);
  p = make_pipeline ("clgaussian");
  err = start_and_get_error (p, &debug);
  GST_INFO ("error: %s (%s)", err->message, debug);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND));
  fail_unless (strstr (err->message, "No OpenCL platform") != NULL,
      "%s", err->message);
  fail_unless (strstr (err->message, "pocl-opencl-icd") != NULL,
      "%s", err->message);
  g_error_free (err);
  g_free (debug);
  gst_object_unref (p);
  g_rmdir (dir);
  g_free (dir);
}

GST_END_TEST;

/* A platform without devices: POCL alone (other vendors' ICDs hidden), with
 * POCL_DEVICES naming no real device kind. */
GST_START_TEST (test_no_device)
{
  gchar *dir = g_dir_make_tmp ("clfilters-icd-XXXXXX", NULL);
  gchar *icd = g_build_filename (dir, "pocl.icd", NULL);
  GstElement *p;
  GError *err;
  gchar *lib = NULL;

  if (!g_file_get_contents ("/etc/OpenCL/vendors/pocl.icd", &lib, NULL,
          NULL)) {
    GST_INFO ("POCL is not installed: nothing to test");
    g_free (icd);
    g_rmdir (dir);
    g_free (dir);
    return;
  }
  fail_unless (g_file_set_contents (icd, lib, -1, NULL));
  g_free (lib);
  g_setenv ("OCL_ICD_VENDORS", dir, TRUE);
  g_setenv ("POCL_DEVICES", "bogus", TRUE);
  p = make_pipeline ("clgaussian");
  err = start_and_get_error (p, NULL);
  GST_INFO ("error: %s", err->message);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND));
  fail_unless (strstr (err->message, "OpenCL") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "install") != NULL ||
      strstr (err->message, "Install") != NULL, "%s", err->message);
  g_error_free (err);
  gst_object_unref (p);
  g_unlink (icd);
  g_rmdir (dir);
  g_free (icd);
  g_free (dir);
}

GST_END_TEST;

/* A selector that matches nothing names the devices that exist. */
GST_START_TEST (test_no_match)
{
  GstElement *p = make_pipeline ("clgaussian device=no-such-device-here");
  GError *err = start_and_get_error (p, NULL);

  GST_INFO ("error: %s", err->message);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND));
  fail_unless (strstr (err->message, "no-such-device-here") != NULL);
  fail_unless (strstr (err->message, "0.0") != NULL, "%s", err->message);
  g_error_free (err);
  gst_object_unref (p);
}

GST_END_TEST;

/* The selector forms that must find the CPU device here. */
GST_START_TEST (test_selectors)
{
  static const gchar *selectors[] = { "", "cpu", "0.0", "PoRtAbLe", "CPU" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (selectors); i++) {
    GstElement *p = make_pipeline ("clgaussian name=f");
    GstElement *f = gst_bin_get_by_name (GST_BIN (p), "f");
    gchar *name = NULL;
    g_object_set (f, "device", selectors[i], NULL);
    fail_unless (gst_element_set_state (p, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE, "selector \"%s\"", selectors[i]);
    g_object_get (f, "device-name", &name, NULL);
    fail_unless (name && *name);
    g_free (name);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (f);
    gst_object_unref (p);
  }
  /* the environment variable stands in for an empty property */
  g_setenv ("GST_CL_DEVICE", "no-such-device-either", TRUE);
  {
    GstElement *p = make_pipeline ("clgaussian");
    GError *err = start_and_get_error (p, NULL);
    fail_unless (strstr (err->message, "no-such-device-either") != NULL);
    g_error_free (err);
    gst_object_unref (p);
  }
  g_unsetenv ("GST_CL_DEVICE");
}

GST_END_TEST;

/* A kernel build failure carries the build log in the debug text. */
GST_START_TEST (test_build_failure)
{
  GstElement *p;
  GError *err;
  gchar *debug = NULL;

  g_setenv ("POCL_EXTRA_BUILD_FLAGS", "-cl-bogus-option", TRUE);
  p = make_pipeline ("clgaussian device=cpu");
  err = start_and_get_error (p, &debug);
  GST_INFO ("error: %s\n%s", err->message, debug);
  fail_unless (g_error_matches (err, GST_LIBRARY_ERROR,
          GST_LIBRARY_ERROR_INIT));
  fail_unless (strstr (err->message, "gaussian.cl") != NULL);
  fail_unless (debug && strstr (debug, "Build log") != NULL);
  fail_unless (strstr (debug, "bogus") != NULL, "%s", debug);
  g_error_free (err);
  g_free (debug);
  gst_object_unref (p);
}

GST_END_TEST;

/* memory=image where the device cannot hold the frame as an image falls
 * back to buffers with a warning, and the output is still right. */
GST_START_TEST (test_image_fallback)
{
  GstHarness *h = gst_harness_new_parse ("clgaussian memory=image");
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GstBuffer *in, *out;
  GstMapInfo a, b;
  /* RGB is stored as 3 texels per pixel: 32767 * 3 exceeds the maximum
   * image width of every device (POCL 8192, NVIDIA 32768) */
  const gint w = 32767;
  gchar *caps = test_caps_string ("RGB", w, 2);
  guint x;

  gst_element_set_bus (h->element, bus);
  gst_harness_set_caps_str (h, caps, caps);
  in = gst_buffer_new_allocate (NULL, GST_ROUND_UP_4 (w * 3) * 2, NULL);
  gst_buffer_memset (in, 0, 100, GST_ROUND_UP_4 (w * 3) * 2);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning");
  gst_message_unref (msg);
  gst_buffer_map (in, &a, GST_MAP_READ);
  gst_buffer_map (out, &b, GST_MAP_READ);
  for (x = 0; x < a.size; x++)
    if (x % GST_ROUND_UP_4 (w * 3) < (guint) w * 3)
      fail_unless_equals_int (b.data[x], 100);
  gst_buffer_unmap (in, &a);
  gst_buffer_unmap (out, &b);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  g_free (caps);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
errors_suite (void)
{
  Suite *s = suite_create ("errors");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  test_add_leak_check (tc);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_no_platform);
  tcase_add_test (tc, test_no_device);
  tcase_add_test (tc, test_no_match);
  tcase_add_test (tc, test_selectors);
  tcase_add_test (tc, test_build_failure);
  tcase_add_test (tc, test_image_fallback);
  return s;
}

TEST_MAIN (errors);
