/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* tunestore.c: the on-disk store of measured tunings (gstcltunestore).
 *
 * No OpenCL device is used: the store only reads and writes files. Each
 * test runs in a fresh temporary directory set as XDG_CACHE_HOME, and
 * checks the files it finds there (names, modes, groups and keys) as well
 * as what the store's API returns, including after damaging the files. */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "core/gstcltunestore.h"

static gchar *cache_dir;

static const GstClTuneStoreId h100 = {
  "NVIDIA H100 80GB HBM3", "OpenCL 3.0 CUDA", "535.104.05", "NVIDIA CUDA",
  "OpenCL 3.0 CUDA 12.2.148"
};

static const GstClTuneEntry e1 = {
  {GST_CL_KERNEL_SHAPE_TILES, 256, 4, 8}, 0.123456789012345678, 0.5
};
static const GstClTuneEntry e2 = {
  {GST_CL_KERNEL_SHAPE_STRIPS, 1, 16, 1024}, 1.0 / 3.0, 2.75
};
static const GstClTuneEntry e3 = {
  {GST_CL_KERNEL_SHAPE_AUTO, 0, 0, 0}, 1e-3, 1e3
};
static const GstClTuneEntry e_max = {
  {GST_CL_KERNEL_SHAPE_TILES, 1024, 4096, 65536}, 7.25, 9.5
};

#define KEY_A "clgaussian radius=1 sigma=0 RGBA 1920x1080 buffer"
#define KEY_B "cllaplace RGB 640x480 image"
#define KEY_C "clhistogram GRAY8 320x240 buffer"

static void
remove_tree (const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir))) {
    gchar *child = g_build_filename (path, name, NULL);
    remove_tree (child);
    g_free (child);
  }
  if (dir)
    g_dir_close (dir);
  g_chmod (path, 0700);
  g_remove (path);
}

static void
setup (void)
{
  cache_dir = g_dir_make_tmp ("clfilters-tunestore-XXXXXX", NULL);
  fail_unless (cache_dir != NULL);
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  umask (022);
}

static void
teardown (void)
{
  remove_tree (cache_dir);
  g_free (cache_dir);
  cache_dir = NULL;
}

static void
check_entry (const GstClTuneEntry * got, const GstClTuneEntry * want)
{
  fail_unless_equals_int (got->tuning.shape, want->tuning.shape);
  fail_unless_equals_int (got->tuning.work_group_size,
      want->tuning.work_group_size);
  fail_unless_equals_int (got->tuning.rows_per_item,
      want->tuning.rows_per_item);
  fail_unless_equals_int (got->tuning.pixels_per_item,
      want->tuning.pixels_per_item);
  fail_unless (got->tuned_ms == want->tuned_ms, "tuned-ms %.17g, not %.17g",
      got->tuned_ms, want->tuned_ms);
  fail_unless (got->default_ms == want->default_ms,
      "default-ms %.17g, not %.17g", got->default_ms, want->default_ms);
}

static void
check_found (GstClTuneStore * s, const gchar * key, const gchar * sum,
    const GstClTuneEntry * want)
{
  GstClTuneEntry got;
  memset (&got, 0xa5, sizeof (got));
  fail_unless (gst_cl_tune_store_lookup (s, key, sum, &got), "%s not found",
      key);
  check_entry (&got, want);
}

static void
check_missing (GstClTuneStore * s, const gchar * key, const gchar * sum)
{
  GstClTuneEntry got;
  fail_if (gst_cl_tune_store_lookup (s, key, sum, &got), "%s found", key);
}

static void
save (GstClTuneStore * s, const gchar * key, const gchar * sum,
    const GstClTuneEntry * e)
{
  GError *err = NULL;
  gboolean ok = gst_cl_tune_store_save (s, key, sum, e, &err);
  fail_unless (ok, "save failed: %s", err ? err->message : "no error");
  fail_unless (err == NULL);
}

static gchar *
path_of (const GstClTuneStoreId * id)
{
  GstClTuneStore *s = gst_cl_tune_store_open (id);
  gchar *path = gst_cl_tune_store_path (s);
  gst_cl_tune_store_free (s);
  return path;
}

static GKeyFile *
read_file (const gchar * path)
{
  GKeyFile *kf = g_key_file_new ();
  GError *err = NULL;
  fail_unless (g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, &err),
      "%s does not parse: %s", path, err ? err->message : "");
  return kf;
}

/* the groups of @path are exactly [store] and the cases listed */
static void
check_groups (const gchar * path, ...)
{
  GKeyFile *kf = read_file (path);
  gchar **groups = g_key_file_get_groups (kf, NULL);
  const gchar *key;
  guint n = 1;
  va_list args;

  fail_unless (g_key_file_has_group (kf, "store"));
  va_start (args, path);
  while ((key = va_arg (args, const gchar *))) {
    gchar *group = g_strconcat ("case ", key, NULL);
    fail_unless (g_key_file_has_group (kf, group), "no [%s]", group);
    g_free (group);
    n++;
  }
  va_end (args);
  fail_unless_equals_int (g_strv_length (groups), n);
  g_strfreev (groups);
  g_key_file_free (kf);
}

static void
write_file (const gchar * path, const gchar * data, gssize len)
{
  gchar *dir = g_path_get_dirname (path);
  fail_unless_equals_int (g_mkdir_with_parents (dir, 0700), 0);
  fail_unless (g_file_set_contents (path, data, len, NULL));
  g_free (dir);
}

static guint
mode_of (const gchar * path)
{
  GStatBuf st;
  fail_unless_equals_int (g_stat (path, &st), 0);
  return st.st_mode & 0777;
}

GST_START_TEST (test_round_trip)
{
  GstClTuneStore *s = gst_cl_tune_store_open (&h100);

  check_missing (s, KEY_A, "sum1");
  save (s, KEY_A, "sum1", &e1);
  save (s, KEY_B, "sum1", &e2);
  check_found (s, KEY_A, "sum1", &e1);
  check_found (s, KEY_B, "sum1", &e2);
  check_missing (s, KEY_C, "sum1");
  gst_cl_tune_store_free (s);

  s = gst_cl_tune_store_open (&h100);
  check_found (s, KEY_A, "sum1", &e1);
  check_found (s, KEY_B, "sum1", &e2);
  /* a new measurement replaces the case; the boundary values pass */
  save (s, KEY_A, "sum1", &e3);
  save (s, KEY_C, "sum1", &e_max);
  check_found (s, KEY_A, "sum1", &e3);
  gst_cl_tune_store_free (s);

  s = gst_cl_tune_store_open (&h100);
  check_found (s, KEY_A, "sum1", &e3);
  check_found (s, KEY_B, "sum1", &e2);
  check_found (s, KEY_C, "sum1", &e_max);
  gst_cl_tune_store_free (s);
}

GST_END_TEST;

GST_START_TEST (test_source_and_stale)
{
  GstClTuneStoreId newer = h100;
  GstClTuneStore *s = gst_cl_tune_store_open (&h100), *t;
  gchar *old_path, *new_path, *data, *v;
  gsize len;
  GKeyFile *kf;

  save (s, KEY_A, "sum1", &e1);
  check_missing (s, KEY_A, "sum2");
  check_found (s, KEY_A, "sum1", &e1);
  gst_cl_tune_store_free (s);
  s = gst_cl_tune_store_open (&h100);
  check_missing (s, KEY_A, "sum2");
  check_found (s, KEY_A, "sum1", &e1);
  /* measured again for new kernels: the entry now has the new source */
  save (s, KEY_A, "sum2", &e2);
  check_missing (s, KEY_A, "sum1");
  check_found (s, KEY_A, "sum2", &e2);
  gst_cl_tune_store_free (s);

  /* another driver: another file, with nothing in it */
  newer.driver_version = "550.54.15";
  old_path = path_of (&h100);
  new_path = path_of (&newer);
  fail_if (g_str_equal (old_path, new_path));
  t = gst_cl_tune_store_open (&newer);
  check_missing (t, KEY_A, "sum2");
  gst_cl_tune_store_free (t);

  /* the old driver's file under the new one's name is stale: ignored, and
   * rewritten with the new id by the first save */
  fail_unless (g_file_get_contents (old_path, &data, &len, NULL));
  write_file (new_path, data, len);
  g_free (data);
  t = gst_cl_tune_store_open (&newer);
  check_missing (t, KEY_A, "sum2");
  save (t, KEY_B, "sum2", &e3);
  check_missing (t, KEY_A, "sum2");
  check_found (t, KEY_B, "sum2", &e3);
  gst_cl_tune_store_free (t);
  check_groups (new_path, KEY_B, NULL);
  kf = read_file (new_path);
  v = g_key_file_get_string (kf, "store", "driver-version", NULL);
  fail_unless_equals_string (v, "550.54.15");
  g_free (v);
  v = g_key_file_get_string (kf, "store", "device-name", NULL);
  fail_unless_equals_string (v, "NVIDIA H100 80GB HBM3");
  g_free (v);
  v = g_key_file_get_value (kf, "store", "version", NULL);
  fail_unless_equals_string (v, "1");
  g_free (v);
  g_key_file_free (kf);
  /* the old driver's store is untouched */
  check_groups (old_path, KEY_A, NULL);

  /* another version, or no [store] group: ignored */
  fail_unless (g_file_get_contents (old_path, &data, &len, NULL));
  v = strstr (data, "version=1");
  fail_unless (v != NULL);
  v[8] = '2';
  write_file (old_path, data, len);
  s = gst_cl_tune_store_open (&h100);
  check_missing (s, KEY_A, "sum2");
  gst_cl_tune_store_free (s);
  v = strstr (data, "[case ");
  fail_unless (v != NULL);
  write_file (old_path, v, -1);
  s = gst_cl_tune_store_open (&h100);
  check_missing (s, KEY_A, "sum2");
  gst_cl_tune_store_free (s);
  g_free (data);
  g_free (old_path);
  g_free (new_path);
}

GST_END_TEST;

/* A case group with good values except @key, set to @value (or left out
 * when NULL). */
static void
append_case (GString * s, const gchar * name, const gchar * key,
    const gchar * value)
{
  static const gchar *const good[][2] = {
    {"source", "sum1"}, {"shape", "tiles"}, {"work-group-size", "64"},
    {"rows-per-item", "2"}, {"pixels-per-item", "4"}, {"tuned-ms", "1.5"},
    {"default-ms", "2.5"},
  };
  guint i;

  g_string_append_printf (s, "\n[case %s]\n", name);
  for (i = 0; i < G_N_ELEMENTS (good); i++) {
    if (!g_str_equal (good[i][0], key))
      g_string_append_printf (s, "%s=%s\n", good[i][0], good[i][1]);
    else if (value)
      g_string_append_printf (s, "%s=%s\n", key, value);
  }
}

GST_START_TEST (test_corrupt)
{
  static const gchar *const bad[][3] = {
    {"bogus-shape", "shape", "bogus"}, {"shape-number", "shape", "2"},
    {"big-wg", "work-group-size", "99999"},
    {"wg-1025", "work-group-size", "1025"},
    {"neg-wg", "work-group-size", "-1"},
    {"junk-wg", "work-group-size", "64abc"},
    {"big-rows", "rows-per-item", "4097"},
    {"big-pixels", "pixels-per-item", "65537"},
    {"neg-ms", "tuned-ms", "-1"}, {"nan-ms", "tuned-ms", "nan"},
    {"zero-ms", "tuned-ms", "0"}, {"inf-ms", "default-ms", "inf"},
    {"junk-ms", "default-ms", "1.5x"}, {"empty-source", "source", ""},
    {"no-source", "source", NULL}, {"no-shape", "shape", NULL},
    {"no-wg", "work-group-size", NULL}, {"no-rows", "rows-per-item", NULL},
    {"no-pixels", "pixels-per-item", NULL}, {"no-tuned", "tuned-ms", NULL},
    {"no-default", "default-ms", NULL},
  };
  const GstClTuneEntry hand = {
    {GST_CL_KERNEL_SHAPE_TILES, 64, 2, 4}, 1.5, 2.5
  };
  GstClTuneStore *s = gst_cl_tune_store_open (&h100);
  gchar *path = gst_cl_tune_store_path (s), *data, *cut;
  guint32 state = 0x9e3779b9;
  guint8 noise[4096];
  GString *text;
  gsize len;
  guint i;

  /* random bytes */
  gst_cl_tune_store_free (s);
  for (i = 0; i < sizeof (noise); i++) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    noise[i] = state;
  }
  write_file (path, (const gchar *) noise, sizeof (noise));
  s = gst_cl_tune_store_open (&h100);
  check_missing (s, KEY_A, "sum1");
  save (s, KEY_A, "sum1", &e1);
  save (s, KEY_B, "sum1", &e2);
  gst_cl_tune_store_free (s);
  check_groups (path, KEY_A, KEY_B, NULL);

  /* truncated within a line: the file does not parse, nothing is found */
  fail_unless (g_file_get_contents (path, &data, &len, NULL));
  cut = strstr (strstr (data, "[case " KEY_B "]"), "shape=");
  fail_unless (cut != NULL);
  write_file (path, data, cut + 3 - data);
  s = gst_cl_tune_store_open (&h100);
  check_missing (s, KEY_A, "sum1");
  check_missing (s, KEY_B, "sum1");
  gst_cl_tune_store_free (s);

  /* truncated at a line: the last case misses keys, the first one is good */
  cut = strstr (strstr (data, "[case " KEY_B "]"), "work-group-size=");
  fail_unless (cut != NULL);
  write_file (path, data, cut - data);
  s = gst_cl_tune_store_open (&h100);
  check_found (s, KEY_A, "sum1", &e1);
  check_missing (s, KEY_B, "sum1");
  save (s, KEY_C, "sum1", &e3);
  gst_cl_tune_store_free (s);
  check_groups (path, KEY_A, KEY_C, NULL);
  g_free (data);

  /* entries out of range or with keys missing, among good ones */
  fail_unless (g_file_get_contents (path, &data, &len, NULL));
  text = g_string_new (data);
  g_free (data);
  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    append_case (text, bad[i][0], bad[i][1], bad[i][2]);
  append_case (text, "hand", "", NULL);
  g_string_append (text, "\n[other group]\nkey=value\n");
  write_file (path, text->str, text->len);
  g_string_free (text, TRUE);
  s = gst_cl_tune_store_open (&h100);
  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    check_missing (s, bad[i][0], "sum1");
  check_found (s, KEY_A, "sum1", &e1);
  check_found (s, KEY_C, "sum1", &e3);
  check_found (s, "hand", "sum1", &hand);
  save (s, KEY_B, "sum1", &e2);
  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    check_missing (s, bad[i][0], "sum1");
  gst_cl_tune_store_free (s);
  check_groups (path, KEY_A, KEY_C, "hand", KEY_B, NULL);
  s = gst_cl_tune_store_open (&h100);
  check_found (s, KEY_A, "sum1", &e1);
  check_found (s, KEY_B, "sum1", &e2);
  check_found (s, KEY_C, "sum1", &e3);
  check_found (s, "hand", "sum1", &hand);
  gst_cl_tune_store_free (s);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_bad_arguments)
{
  GstClTuneStore *s = gst_cl_tune_store_open (&h100);
  GstClTuneEntry e = e1;
  GError *err = NULL;

  ASSERT_CRITICAL (gst_cl_tune_store_lookup (s, "a]b", "sum1", &e));
  ASSERT_CRITICAL (gst_cl_tune_store_lookup (s, "a[b", "sum1", &e));
  ASSERT_CRITICAL (gst_cl_tune_store_save (s, "a\nb", "sum1", &e1, NULL));
  ASSERT_CRITICAL (gst_cl_tune_store_save (s, "", "sum1", &e1, NULL));
  ASSERT_CRITICAL (gst_cl_tune_store_save (s, "caf\xc3\xa9", "sum1", &e1,
          NULL));
  /* out-of-range measurements are refused with an error */
  e.tuned_ms = NAN;
  fail_if (gst_cl_tune_store_save (s, KEY_A, "sum1", &e, &err));
  fail_unless (g_error_matches (err, GST_CL_ERROR, GST_CL_ERROR_FAILED));
  g_clear_error (&err);
  e = e1;
  e.tuning.work_group_size = 1025;
  fail_if (gst_cl_tune_store_save (s, KEY_A, "sum1", &e, &err));
  fail_unless (err != NULL);
  g_clear_error (&err);
  check_missing (s, KEY_A, "sum1");
  gst_cl_tune_store_free (s);
}

GST_END_TEST;

GST_START_TEST (test_permissions)
{
  gchar *dir = g_build_filename (cache_dir, "clfilters", NULL);
  GstClTuneStore *s = gst_cl_tune_store_open (&h100);
  gchar *path = gst_cl_tune_store_path (s);
  GError *err = NULL;

  /* opening creates nothing; the first save makes the directory */
  fail_if (g_file_test (dir, G_FILE_TEST_EXISTS));
  save (s, KEY_A, "sum1", &e1);
  fail_unless (g_file_test (dir, G_FILE_TEST_IS_DIR));
  fail_unless_equals_int (mode_of (dir), 0700);
  fail_unless_equals_int (mode_of (path), 0600);

  /* a directory open to others is made private again, on open and save */
  fail_unless_equals_int (g_chmod (dir, 0777), 0);
  gst_cl_tune_store_free (s);
  s = gst_cl_tune_store_open (&h100);
  fail_unless_equals_int (mode_of (dir), 0700);
  check_found (s, KEY_A, "sum1", &e1);
  fail_unless_equals_int (g_chmod (dir, 0777), 0);
  fail_unless_equals_int (g_chmod (path, 0666), 0);
  save (s, KEY_B, "sum1", &e2);
  fail_unless_equals_int (mode_of (dir), 0700);
  fail_unless_equals_int (mode_of (path), 0600);
  gst_cl_tune_store_free (s);

  /* a directory of another user (only root can make one here) */
  if (getuid () == 0) {
    fail_unless_equals_int (chown (dir, 65534, 65534), 0);
    s = gst_cl_tune_store_open (&h100);
    check_missing (s, KEY_A, "sum1");
    fail_if (gst_cl_tune_store_save (s, KEY_C, "sum1", &e3, &err));
    fail_unless (g_error_matches (err, GST_CL_ERROR, GST_CL_ERROR_FAILED));
    g_clear_error (&err);
    gst_cl_tune_store_free (s);
    fail_unless_equals_int (chown (dir, 0, 0), 0);
    check_groups (path, KEY_A, KEY_B, NULL);
  }

  /* not a directory at all */
  remove_tree (dir);
  write_file (dir, "x", 1);
  s = gst_cl_tune_store_open (&h100);
  check_missing (s, KEY_A, "sum1");
  fail_if (gst_cl_tune_store_save (s, KEY_A, "sum1", &e1, &err));
  fail_unless (g_error_matches (err, GST_CL_ERROR, GST_CL_ERROR_FAILED));
  g_clear_error (&err);
  check_missing (s, KEY_A, "sum1");
  gst_cl_tune_store_free (s);
  g_free (dir);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_two_stores)
{
  GstClTuneStore *s = gst_cl_tune_store_open (&h100);
  GstClTuneStore *t = gst_cl_tune_store_open (&h100);
  gchar *path = gst_cl_tune_store_path (s);

  save (s, KEY_A, "sum1", &e1);
  save (t, KEY_B, "sum1", &e2);
  check_groups (path, KEY_A, KEY_B, NULL);
  /* the second save read the first one's case back */
  check_found (t, KEY_A, "sum1", &e1);
  check_found (t, KEY_B, "sum1", &e2);
  gst_cl_tune_store_free (s);
  gst_cl_tune_store_free (t);
  s = gst_cl_tune_store_open (&h100);
  check_found (s, KEY_A, "sum1", &e1);
  check_found (s, KEY_B, "sum1", &e2);
  gst_cl_tune_store_free (s);
  g_free (path);
}

GST_END_TEST;

#define N_THREADS 4
#define N_SAVES 10

static gint next_thread;

static gpointer
save_thread (gpointer data)
{
  GstClTuneStore *s = data;
  GstClTuneEntry e = e1;
  guint i, me = g_atomic_int_add (&next_thread, 1);

  for (i = 0; i < N_SAVES; i++) {
    gchar *key = g_strdup_printf ("thread %u save %u", me, i);
    e.tuning.rows_per_item = i;
    save (s, key, "sum1", &e);
    check_found (s, key, "sum1", &e);
    g_free (key);
  }
  return GUINT_TO_POINTER (me);
}

GST_START_TEST (test_threads)
{
  GstClTuneStore *s = gst_cl_tune_store_open (&h100);
  GstClTuneStore *t = gst_cl_tune_store_open (&h100);
  GThread *threads[N_THREADS];
  guint mes[N_THREADS], i, j;
  GstClTuneEntry e = e1;

  for (i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("save", save_thread, i % 2 ? s : t);
  for (i = 0; i < N_THREADS; i++)
    mes[i] = GPOINTER_TO_UINT (g_thread_join (threads[i]));
  gst_cl_tune_store_free (s);
  gst_cl_tune_store_free (t);
  s = gst_cl_tune_store_open (&h100);
  for (i = 0; i < N_THREADS; i++)
    for (j = 0; j < N_SAVES; j++) {
      gchar *key = g_strdup_printf ("thread %u save %u", mes[i], j);
      e.tuning.rows_per_item = j;
      check_found (s, key, "sum1", &e);
      g_free (key);
    }
  gst_cl_tune_store_free (s);
}

GST_END_TEST;

GST_START_TEST (test_file_name)
{
  GstClTuneStoreId other = h100;
  gchar *path = path_of (&h100), *base = g_path_get_basename (path);
  gchar *dir = g_path_get_dirname (path), *want_dir, *sum, *name;

  fail_unless (g_str_has_prefix (base, "NVIDIA-H100-80GB-HBM3-"), "%s", base);
  fail_unless (g_str_has_suffix (base, ".ini"), "%s", base);
  sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256,
      "NVIDIA H100 80GB HBM3\nOpenCL 3.0 CUDA\n535.104.05\nNVIDIA CUDA\n"
      "OpenCL 3.0 CUDA 12.2.148", -1);
  name = g_strdup_printf ("NVIDIA-H100-80GB-HBM3-%.16s.ini", sum);
  fail_unless_equals_string (base, name);
  want_dir = g_build_filename (cache_dir, "clfilters", NULL);
  fail_unless_equals_string (dir, want_dir);
  g_free (path);
  g_free (base);
  g_free (name);
  g_free (sum);

  /* at most 40 characters of the name, anything else than [A-Za-z0-9-]
   * made '-' */
  other.device_name = "Intel(R) Core(TM) i9-13900K CPU @ 3.00GHz, 24 cores";
  path = path_of (&other);
  base = g_path_get_basename (path);
  fail_unless (g_str_has_prefix (base,
          "Intel-R--Core-TM--i9-13900K-CPU---3-00GH-"), "%s", base);
  fail_unless_equals_int (strlen (base), 40 + 1 + 16 + 4);
  g_free (path);
  g_free (base);

  /* the directory follows XDG_CACHE_HOME at each call */
  g_free (dir);
  dir = gst_cl_tune_store_dir ();
  fail_unless_equals_string (dir, want_dir);
  g_free (dir);
  g_setenv ("XDG_CACHE_HOME", "/nonexistent/cache", TRUE);
  dir = gst_cl_tune_store_dir ();
  fail_unless_equals_string (dir, "/nonexistent/cache/clfilters");
  g_free (dir);
  g_free (want_dir);
}

GST_END_TEST;

static Suite *
tunestore_suite (void)
{
  Suite *s = suite_create ("tunestore");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_source_and_stale);
  tcase_add_test (tc, test_corrupt);
  tcase_add_test (tc, test_bad_arguments);
  tcase_add_test (tc, test_permissions);
  tcase_add_test (tc, test_two_stores);
  tcase_add_test (tc, test_threads);
  tcase_add_test (tc, test_file_name);
  return s;
}

GST_CHECK_MAIN (tunestore);
