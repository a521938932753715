/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* tuning=auto: a case is measured once (element message, at most the
 * budget), stored in a private directory and found again; tuning=defaults
 * and GST_CL_TUNE=off measure nothing; a corrupt store is rewritten; and a
 * sample of decompositions of the tuner's grid gives the reference output.
 * References are plain C, here. */
#include "clcheck.h"

#include <glib/gstdio.h>

#define W 320
#define H 256                   /* 81920 pixels: above the tuner's minimum */

/* the 3x3 binomial, replicated borders: (sum + 8) >> 4 */
static TEST_REFERENCE guint8
ref_binomial (const TestPlane * s, gint x, gint y, gint c, gpointer data)
{
  static const gint k[3] = { 1, 2, 1 };
  gint i, j, sum = 0;
  for (j = -1; j <= 1; j++)
    for (i = -1; i <= 1; i++)
      sum += k[j + 1] * k[i + 1] * s->data[(gsize) clampi (y + j, 0,
              s->height - 1) * s->stride + clampi (x + i, 0,
              s->width - 1) * s->step + c];
  return (sum + 8) >> 4;
}

/* cllaplace sharpen at strength 1: c + (8c - the 8 neighbours), clamped */
static TEST_REFERENCE guint8
ref_sharpen (const TestPlane * s, gint x, gint y, gint c, gpointer data)
{
  gint i, j, l = 0, p;
  for (j = -1; j <= 1; j++)
    for (i = -1; i <= 1; i++) {
      p = s->data[(gsize) clampi (y + j, 0, s->height - 1) * s->stride +
          clampi (x + i, 0, s->width - 1) * s->step + c];
      l += (i == 0 && j == 0) ? 8 * p : -p;
    }
  return clampi (s->data[(gsize) y * s->stride + x * s->step + c] + l, 0,
      255);
}

static gchar *cache_dir;

/* each test in a cache directory of its own, tuning measured */
static void
setup (void)
{
  cache_dir = g_dir_make_tmp ("clfilters-tuning-XXXXXX", NULL);
  fail_unless (cache_dir != NULL);
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  g_setenv ("GST_CL_TUNE", "auto", TRUE);
}

static void
rm_rf (const gchar * path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const gchar *name;
  if (d) {
    while ((name = g_dir_read_name (d))) {
      gchar *p = g_build_filename (path, name, NULL);
      rm_rf (p);
      g_free (p);
    }
    g_dir_close (d);
  }
  g_remove (path);
}

static void
teardown (void)
{
  rm_rf (cache_dir);
  g_clear_pointer (&cache_dir, g_free);
  g_setenv ("GST_CL_TUNE", "off", TRUE);
}

/* The store file of the device, or NULL when there is none. */
static gchar *
store_file (void)
{
  gchar *dir = g_build_filename (cache_dir, "clfilters", NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  gchar *path = NULL;

  if (d) {
    while ((name = g_dir_read_name (d)))
      if (g_str_has_suffix (name, ".ini"))
        path = g_build_filename (dir, name, NULL);
    g_dir_close (d);
  }
  g_free (dir);
  return path;
}

/* Runs @launch on one random frame of @format, checks the output against
 * @ref and returns the "clfilters-tuning" message it posted, if any. */
static GstStructure *
run_case_full (const gchar * launch, const gchar * format, TestRefFunc ref,
    gboolean padded)
{
  GstHarness *h = gst_harness_new_parse (launch);
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info = test_info (format, W, H);
  TestFrame f = test_frame_new (&info, CONTENT_RANDOM, padded, 7);
  GstStructure *tuning = NULL;
  GstBuffer *out;
  GstMessage *m;
  gchar *caps = test_caps_string (format, W, H);

  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps_str (h, caps);
  out = test_push_pull (h, &f);
  fail_unless (out != NULL);
  if (ref)
    fail_unless_equals_int (test_compare (f.buffer, &f.info, out, &info,
            format, ref, NULL, 0, launch), 0);
  while ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (m);
    if (gst_structure_has_name (s, "clfilters-tuning")) {
      fail_unless (tuning == NULL, "two tuning messages");
      tuning = gst_structure_copy (s);
    }
    gst_message_unref (m);
  }
  gst_buffer_unref (out);
  gst_buffer_unref (f.buffer);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (caps);
  return tuning;
}

static GstStructure *
run_case (const gchar * launch, const gchar * format, TestRefFunc ref)
{
  return run_case_full (launch, format, ref, TRUE);
}

static void
check_report (const GstStructure * s, const gchar * case_start)
{
  gdouble tuned, def, elapsed;
  guint n;

  fail_unless (g_str_has_prefix (gst_structure_get_string (s, "case"),
          case_start), "case %s", gst_structure_get_string (s, "case"));
  fail_unless (gst_structure_get_double (s, "tuned-ms", &tuned));
  fail_unless (gst_structure_get_double (s, "default-ms", &def));
  fail_unless (gst_structure_get_double (s, "elapsed-ms", &elapsed));
  fail_unless (gst_structure_get_uint (s, "candidates", &n));
  fail_unless (tuned > 0 && def > 0 && n >= 2, "%f %f %u", tuned, def, n);
  /* the choice never loses to the defaults it was confirmed against */
  fail_unless (tuned <= def, "tuned %f ms, defaults %f ms", tuned, def);
  /* the budget, with room for a slow machine's last candidate */
  fail_unless (elapsed < 4000, "tuning took %f ms", elapsed);
}

GST_START_TEST (test_auto_measures_once)
{
  GstStructure *s;
  GStatBuf st;
  gchar *file, *dir;

  s = run_case ("clgaussian", "GRAY8", ref_binomial);
  fail_unless (s != NULL, "no tuning message on the first start");
  check_report (s, "GstClGaussian 3x3 GRAY8 320x256 buffer");
  gst_structure_free (s);

  file = store_file ();
  fail_unless (file != NULL, "nothing stored");
  fail_unless (g_stat (file, &st) == 0);
  fail_unless_equals_int (st.st_mode & 0777, 0600);
  dir = g_path_get_dirname (file);
  fail_unless (g_stat (dir, &st) == 0);
  fail_unless_equals_int (st.st_mode & 0777, 0700);

  /* found again: measured no more, same output */
  s = run_case ("clgaussian", "GRAY8", ref_binomial);
  fail_unless (s == NULL, "measured again although stored");

  /* another case (another kernel) is measured */
  s = run_case ("cllaplace", "RGBA", ref_sharpen);
  fail_unless (s != NULL);
  check_report (s, "GstClLaplace RGBA 320x256 buffer");
  gst_structure_free (s);
  s = run_case ("clhistogram", "NV12", NULL);
  fail_unless (s != NULL);
  check_report (s, "GstClHistogram channels=luma NV12 320x256 buffer");
  gst_structure_free (s);
  g_free (dir);
  g_free (file);
}

GST_END_TEST;

GST_START_TEST (test_defaults_measure_nothing)
{
  gchar *file;

  fail_unless (run_case ("clgaussian tuning=defaults", "RGBA",
          ref_binomial) == NULL);
  g_setenv ("GST_CL_TUNE", "off", TRUE);
  fail_unless (run_case ("clgaussian", "RGBA", ref_binomial) == NULL);
  /* frames below the minimum are never measured */
  g_setenv ("GST_CL_TUNE", "auto", TRUE);
  {
    GstHarness *h = gst_harness_new_parse ("clgaussian");
    GstVideoInfo info = test_info ("RGBA", 64, 64);
    TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, 3);
    gchar *caps = test_caps_string ("RGBA", 64, 64);
    GstBuffer *out;
    gst_harness_set_src_caps_str (h, caps);
    out = test_push_pull (h, &f);
    fail_unless_equals_int (test_compare (f.buffer, &f.info, out, &info,
            "RGBA", ref_binomial, NULL, 0, "small"), 0);
    gst_buffer_unref (out);
    gst_buffer_unref (f.buffer);
    gst_harness_teardown (h);
    g_free (caps);
  }
  file = store_file ();
  fail_unless (file == NULL, "%s written", file);
}

GST_END_TEST;

GST_START_TEST (test_corrupt_store_rewritten)
{
  GstStructure *s;
  GKeyFile *kf;
  gchar *file, *dir, *name, *other;

  /* the device's file name, learnt in another directory */
  s = run_case ("clgaussian", "GRAY8", NULL);
  fail_unless (s != NULL);
  gst_structure_free (s);
  file = store_file ();
  fail_unless (file != NULL);
  name = g_path_get_basename (file);
  g_free (file);

  other = g_dir_make_tmp ("clfilters-tuning-XXXXXX", NULL);
  dir = g_build_filename (other, "clfilters", NULL);
  fail_unless (g_mkdir_with_parents (dir, 0700) == 0);
  file = g_build_filename (dir, name, NULL);
  fail_unless (g_file_set_contents (file,
          "[store\nversion=1\n\x01\x02garbage", -1, NULL));
  g_setenv ("XDG_CACHE_HOME", other, TRUE);

  s = run_case ("clgaussian", "GRAY8", ref_binomial);
  fail_unless (s != NULL, "a corrupt store was trusted");
  gst_structure_free (s);
  kf = g_key_file_new ();
  fail_unless (g_key_file_load_from_file (kf, file, 0, NULL),
      "the corrupt store was not rewritten");
  fail_unless (g_key_file_has_group (kf,
          "case GstClGaussian 3x3 GRAY8 320x256 buffer"));
  g_key_file_free (kf);

  rm_rf (other);
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  g_free (other);
  g_free (dir);
  g_free (file);
  g_free (name);
}

GST_END_TEST;

/* Decompositions drawn from the tuner's grid (gst/core/gstcltuner.c), set
 * through the explicit properties: every one gives the reference output. */
GST_START_TEST (test_sample_of_decompositions)
{
  static const gchar *shapes[] = { "strips", "tiles" };
  static const guint groups[] = { 0, 32, 64, 128, 256 };
  static const guint rows[] = { 0, 1, 2, 4, 8, 16, 32, 64 };
  static const guint pixels[] = { 0, 8, 16, 32, 256, 1024, 4096 };
  static const gchar *formats[] = { "GRAY8", "RGBA", "NV12", "RGB" };
  guint32 seed = 12345;
  guint i;

  g_setenv ("GST_CL_TUNE", "off", TRUE);
  for (i = 0; i < 24; i++) {
    const gchar *shape = shapes[test_rand (&seed) % 2];
    guint g = groups[test_rand (&seed) % G_N_ELEMENTS (groups)];
    guint r = rows[test_rand (&seed) % G_N_ELEMENTS (rows)];
    guint p = pixels[test_rand (&seed) % G_N_ELEMENTS (pixels)];
    const gchar *format = formats[i % G_N_ELEMENTS (formats)];
    gboolean laplace = i % 3 == 2;
    gchar *launch = g_strdup_printf ("%s kernel-shape=%s work-group-size=%u "
        "rows-per-item=%u pixels-per-item=%u",
        laplace ? "cllaplace" : "clgaussian", shape, g, r, p);
    /* default strides too (16-byte aligned rows), as well as padded ones:
     * kernels may take other paths on aligned rows */
    GstStructure *s = run_case_full (launch, format,
        laplace ? ref_sharpen : ref_binomial, i % 2 == 0);
    fail_unless (s == NULL);
    g_free (launch);
  }
}

GST_END_TEST;

/* The sweep of clhistogram's tiles (GST_CL_TUNE=sweep) measures its real
 * choices only: its tiles kernels take a group size, so every candidate
 * differs in that and in nothing else; strips keep rows and pixels. */
GST_START_TEST (test_histogram_searches_groups_only)
{
  static const gchar *shapes[] = { "tiles", "strips" };
  guint sh, i;

  g_setenv ("GST_CL_TUNE", "sweep", TRUE);
  for (sh = 0; sh < 2; sh++) {
    gchar *launch = g_strdup_printf ("clhistogram kernel-shape=%s",
        shapes[sh]);
    GstStructure *s = run_case (launch, "GRAY8", NULL);
    const GValue *sweep;
    guint n, groups = 0, others = 0;

    fail_unless (s != NULL, "%s: no tuning message", launch);
    sweep = gst_structure_get_value (s, "sweep");
    fail_unless (sweep != NULL && GST_VALUE_HOLDS_ARRAY (sweep));
    n = gst_value_array_get_size (sweep);
    for (i = 0; i < n; i++) {
      const GstStructure *c =
          gst_value_get_structure (gst_value_array_get_value (sweep, i));
      guint g, r, p;
      fail_unless_equals_string (gst_structure_get_string (c,
              "kernel-shape"), shapes[sh]);
      fail_unless (gst_structure_get_uint (c, "work-group-size", &g)
          && gst_structure_get_uint (c, "rows-per-item", &r)
          && gst_structure_get_uint (c, "pixels-per-item", &p));
      groups += g != 0;
      others += r != 0 || p != 0;
    }
    if (sh == 0) {
      /* the default group and six sizes */
      fail_unless_equals_int (n, 7);
      fail_unless_equals_int (groups, 6);
      fail_unless_equals_int (others, 0);
    } else {
      fail_unless (others > 0, "strips: rows and pixels not searched");
    }
    gst_structure_free (s);
    g_free (launch);
  }
}

GST_END_TEST;

/* Tiles of 16-byte chunks over rows whose stride is a multiple of 16 (the
 * frames' default strides here): on GPUs the 3x3 kernels walk aligned
 * columns there (gst_cl_load_aligned16), which GST_CL_GPU_KERNELS=1 runs
 * on POCL; rows per item 1, 3 (a remainder) and 8. */
GST_START_TEST (test_aligned_columns)
{
  static const gchar *formats[] = { "GRAY8", "RGBA", "RGB", "NV12", "BGRx" };
  static const guint rows[] = { 1, 3, 8 };
  guint f, r, e;

  g_setenv ("GST_CL_TUNE", "off", TRUE);
  for (e = 0; e < 2; e++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++)
      for (r = 0; r < G_N_ELEMENTS (rows); r++) {
        gchar *launch = g_strdup_printf ("%s kernel-shape=tiles "
            "rows-per-item=%u", e ? "cllaplace" : "clgaussian", rows[r]);
        fail_unless (run_case_full (launch, formats[f], e ? ref_sharpen :
                ref_binomial, FALSE) == NULL);
        g_free (launch);
      }
}

GST_END_TEST;

static Suite *
tuning_suite (void)
{
  Suite *s = suite_create ("tuning");
  TCase *tc = tcase_create ("general");

  tcase_add_checked_fixture (tc, setup, teardown);
  test_add_leak_check (tc);
  tcase_add_test (tc, test_auto_measures_once);
  tcase_add_test (tc, test_defaults_measure_nothing);
  tcase_add_test (tc, test_corrupt_store_rewritten);
  tcase_add_test (tc, test_sample_of_decompositions);
  tcase_add_test (tc, test_aligned_columns);
  tcase_add_test (tc, test_histogram_searches_groups_only);
  suite_add_tcase (s, tc);
  return s;
}

TEST_MAIN (tuning);
