/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clcheck.c: the helpers shared by the clfilters gst-check tests
 * (clcheck.h says what each is for). */
#include "clcheck.h"

gboolean test_holds_devices;
static GstContext *test_held_device;
static gchar *test_held_zero_copy;

gboolean
test_repeats (const gchar * area)
{
  /* on a GPU (scripts/test-gpu.sh) a run repeats other runs than on POCL */
  const gchar *env = g_getenv (g_strcmp0 (g_getenv ("CLFILTERS_TEST_ON_GPU"),
          "1") == 0 ? "CLFILTERS_TEST_REPEATS_GPU" : "CLFILTERS_TEST_REPEATS");
  gchar **areas;
  gboolean found;
  if (!env || !*env)
    return FALSE;
  areas = g_strsplit (env, ",", -1);
  /* "all": every matrix ("copying" is a path, and is named alone) */
  found = g_strv_contains ((const gchar * const *) areas, area) ||
      (g_strv_contains ((const gchar * const *) areas, "all") &&
      g_strcmp0 (area, "copying") != 0);
  g_strfreev (areas);
  return found;
}

const TestDeepFormat *
test_deep_format (const gchar * format)
{
  guint i;
  for (i = 0; deep_formats[i].name; i++)
    if (g_str_equal (deep_formats[i].name, format))
      return &deep_formats[i];
  return NULL;
}

void
test_format_pixel (const gchar * format, gint * step, gint * keep)
{
  static const struct
  {
    const gchar *name;
    gint step, keep;
  } table[] = {
    {"GRAY8", 1, -1}, {"RGB", 3, -1}, {"BGR", 3, -1},
    {"RGBA", 4, 3}, {"BGRA", 4, 3}, {"RGBx", 4, 3}, {"BGRx", 4, 3},
    {"ARGB", 4, 0}, {"ABGR", 4, 0}, {"xRGB", 4, 0}, {"xBGR", 4, 0},
  };
  guint i;
  *step = 1;                    /* YUV: the Y plane */
  *keep = -1;
  for (i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (table[i].name, format)) {
      *step = table[i].step;
      *keep = table[i].keep;
    }
}

guint32
test_rand (guint32 * state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

guint16
test_deep_word (const TestDeepFormat * d, TestContent content, guint x,
    guint c, guint y, guint w, guint h, guint32 * state)
{
  const guint maxv = (1u << d->depth) - 1;
  guint32 v;
  if (content == CONTENT_DIRTY)
    return test_rand (state) >> 16;
  if (content == CONTENT_RANDOM) {
    v = (test_rand (state) >> 8) & maxv;
  } else if (x == 0 || y == 0 || x + 1 == w || y + 1 == h) {
    v = ((x + y) & 1) ? maxv : 0;       /* full range at the borders */
  } else if (y < h / 3) {
    v = (guint32) (((guint64) x * maxv) / MAX (w - 1, 1)) ^ (y & 3) ^ c;
  } else if (y < 2 * h / 3) {
    v = ((x / 4 + y / 4) & 1) ? maxv - 3 : 2;
  } else {
    v = x < w / 6 ? 0 : (x * 7919u + y * 104729u) & maxv;
  }
  return (guint16) ((v & maxv) << d->shift);
}

TestFrame
test_frame_new (const GstVideoInfo * caps_info, TestContent content,
    gboolean padded, guint32 seed)
{
  TestFrame f;
  GstVideoFrame vf;
  guint p, x, y;
  guint32 state = seed * 2654435761u + 1;
  gsize offset = 0;
  const TestDeepFormat *deep = test_deep_format (GST_VIDEO_INFO_NAME
      (caps_info));

  f.info = *caps_info;
  if (padded) {
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&f.info); p++) {
      gint comp[GST_VIDEO_MAX_COMPONENTS];
      guint rows;
      gst_video_format_info_component (f.info.finfo, p, comp);
      rows = GST_VIDEO_INFO_COMP_HEIGHT (&f.info, comp[0]);
      /* a gap before each plane, and odd padding; 16-bit samples need
       * even offsets and strides (gst_cl_layout_check) */
      if (padded == TEST_PAD_ALIGNED) {
        offset += 24 + 16 * p;
        f.info.offset[p] = offset;
        f.info.stride[p] = GST_ROUND_UP_8 (f.info.stride[p]) + 40 + 8 * p;
      } else {
        offset += deep ? 14 + 16 * p : 13 + 16 * p;
        f.info.offset[p] = offset;
        f.info.stride[p] += deep ? 38 + 8 * p : 37 + 8 * p;
      }
      offset += (gsize) f.info.stride[p] * rows;
    }
    f.info.size = offset + 7;
  }
  f.buffer = gst_buffer_new_allocate (NULL, f.info.size, NULL);
  gst_buffer_memset (f.buffer, 0, 0xA5, f.info.size);
  if (padded)
    gst_buffer_add_video_meta_full (f.buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&f.info), GST_VIDEO_INFO_WIDTH (&f.info),
        GST_VIDEO_INFO_HEIGHT (&f.info), GST_VIDEO_INFO_N_PLANES (&f.info),
        f.info.offset, f.info.stride);

  fail_unless (gst_video_frame_map (&vf, &f.info, f.buffer, GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&vf); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    guint8 *d = GST_VIDEO_FRAME_PLANE_DATA (&vf, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p);
    guint w, h;
    gst_video_format_info_component (f.info.finfo, p, comp);
    w = GST_VIDEO_INFO_COMP_WIDTH (&f.info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (&f.info, comp[0]);
    h = GST_VIDEO_INFO_COMP_HEIGHT (&f.info, comp[0]);
    if (deep) {
      for (y = 0; y < h; y++)
        for (x = 0; x < w / 2; x++)
          GST_WRITE_UINT16_LE (d + (gsize) y * stride + 2 * x,
              test_deep_word (deep, content, x / deep->step, x % deep->step,
                  y, w / 2 / deep->step, h, &state));
      continue;
    }
    g_assert (content != CONTENT_DIRTY);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        guint8 v;
        if (content == CONTENT_RANDOM) {
          v = test_rand (&state) >> 24;
        } else {
          guint px = x / 3;
          if (y < h / 3)
            v = (px * 255) / MAX (w / 3, 1) + 7 * (x % 3);
          else if (y < 2 * h / 3)
            v = ((px / 4 + y / 4) & 1) ? 250 : 5;
          else
            v = px < w / 6 ? 0 : (px * 37 + y * 11) & 0xff;
        }
        d[(gsize) y * stride + x] = v;
      }
  }
  gst_video_frame_unmap (&vf);
  return f;
}

GstVideoInfo
test_info (const gchar * format, gint width, gint height)
{
  GstVideoInfo info;
  gst_video_info_init (&info);
  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format), width, height));
  return info;
}

gchar *
test_caps_string (const gchar * format, gint width, gint height)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);
}

TestPlane
test_plane (GstVideoFrame * vf, guint plane)
{
  TestPlane t;
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  const TestDeepFormat *deep =
      test_deep_format (GST_VIDEO_INFO_NAME (&vf->info));
  gst_video_format_info_component (vf->info.finfo, plane, comp);
  t.data = GST_VIDEO_FRAME_PLANE_DATA (vf, plane);
  t.stride = GST_VIDEO_FRAME_PLANE_STRIDE (vf, plane);
  t.width = GST_VIDEO_FRAME_COMP_WIDTH (vf, comp[0]);
  t.height = GST_VIDEO_FRAME_COMP_HEIGHT (vf, comp[0]);
  t.bytes = deep ? 2 : 1;
  t.depth = deep ? deep->depth : 8;
  t.shift = deep ? deep->shift : 0;
  t.step = GST_VIDEO_FRAME_COMP_PSTRIDE (vf, comp[0]) / t.bytes;
  return t;
}

guint
test_other_planes_unchanged (GstVideoFrame * in, GstVideoFrame * out,
    const gchar * format, const gchar * what, guint bad)
{
  guint p;
  gint y;
  for (p = 1; p < GST_VIDEO_FRAME_N_PLANES (in); p++) {
    TestPlane a = test_plane (in, p), b = test_plane (out, p);
    for (y = 0; y < a.height; y++)
      if (memcmp (a.data + (gsize) y * a.stride, b.data + (gsize) y *
              b.stride, (gsize) a.width * a.step * a.bytes) != 0) {
        if (bad < 5)
          GST_ERROR ("%s: %s plane %u row %d changed", what, format, p, y);
        bad++;
      }
  }
  return bad;
}

TEST_REFERENCE guint
test_compare_values (GstBuffer * inbuf, const GstVideoInfo * in_info,
    GstBuffer * outbuf, const GstVideoInfo * out_info, const gchar * format,
    TestValueRefFunc ref, gpointer data, gint tolerance, const gchar * what)
{
  const TestDeepFormat *deep = test_deep_format (format);
  GstVideoFrame in, out;
  TestPlane s, d;
  gint step, keep, x, y, c;
  guint bad = 0;

  if (deep) {
    step = deep->step;
    keep = deep->keep;
  } else {
    test_format_pixel (format, &step, &keep);
  }
  fail_unless (gst_video_frame_map (&in, in_info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, out_info, outbuf, GST_MAP_READ));
  s = test_plane (&in, 0);
  d = test_plane (&out, 0);
  fail_unless_equals_int (s.step, step);
  for (y = 0; y < s.height; y++)
    for (x = 0; x < s.width; x++)
      for (c = 0; c < step; c++) {
        guint got = test_word (&d, x, y, c);
        gboolean ok;
        gint want;
        if (c == keep) {
          want = test_word (&s, x, y, c);
          ok = got == (guint) want;
        } else {
          want = ref (&s, x, y, c, data);
          ok = (got & ~(((1u << d.depth) - 1) << d.shift)) == 0 &&
              ABS ((gint) (got >> d.shift) - want) <= tolerance;
        }
        if (!ok) {
          if (bad < 5)
            GST_ERROR ("%s: %s %dx%d at (%d,%d) sample %d: got word 0x%x "
                "(value %u), want value %d", what, format, s.width,
                s.height, x, y, c, got, got >> d.shift, want);
          bad++;
        }
      }
  bad = test_other_planes_unchanged (&in, &out, format, what, bad);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return bad;
}

guint
test_compare (GstBuffer * inbuf, const GstVideoInfo * in_info,
    GstBuffer * outbuf, const GstVideoInfo * out_info, const gchar * format,
    TestRefFunc ref, gpointer data, gint tolerance, const gchar * what)
{
  GstVideoFrame in, out;
  TestPlane s, d;
  gint step, keep, x, y, c;
  guint bad = 0;

  test_format_pixel (format, &step, &keep);
  fail_unless (gst_video_frame_map (&in, in_info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, out_info, outbuf, GST_MAP_READ));
  s = test_plane (&in, 0);
  d = test_plane (&out, 0);
  fail_unless_equals_int (s.step, step);
  for (y = 0; y < s.height; y++)
    for (x = 0; x < s.width; x++)
      for (c = 0; c < step; c++) {
        gint want = c == keep ? s.data[(gsize) y * s.stride + x * step + c] :
            ref (&s, x, y, c, data);
        gint got = d.data[(gsize) y * d.stride + x * step + c];
        if (ABS (want - got) > tolerance) {
          if (bad < 5)
            GST_ERROR ("%s: %s %dx%d at (%d,%d) byte %d: got %d, want %d",
                what, format, s.width, s.height, x, y, c, got, want);
          bad++;
        }
      }
  bad = test_other_planes_unchanged (&in, &out, format, what, bad);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return bad;
}

void
test_release_device (void)
{
  g_clear_pointer (&test_held_device, gst_context_unref);
  g_clear_pointer (&test_held_zero_copy, g_free);
}

void
test_hold_harness_device (GstHarness * h)
{
  GstIterator *it;
  GValue v = G_VALUE_INIT;

  if (!test_holds_devices || test_held_device)
    return;
  if (!GST_IS_BIN (h->element)) {
    test_held_device = gst_element_get_context (h->element, "gst.cl.device");
  } else {
    it = gst_bin_iterate_recurse (GST_BIN (h->element));
    while (!test_held_device && gst_iterator_next (it, &v) ==
        GST_ITERATOR_OK) {
      test_held_device = gst_element_get_context (g_value_get_object (&v),
          "gst.cl.device");
      g_value_reset (&v);
    }
    g_value_unset (&v);
    gst_iterator_free (it);
  }
  if (test_held_device)
    test_held_zero_copy = g_strdup (g_getenv ("GST_CL_ZERO_COPY"));
}

GstHarness *
test_harness_new (const gchar * launch)
{
  GstHarness *h;
  if (test_held_device && g_strcmp0 (test_held_zero_copy,
          g_getenv ("GST_CL_ZERO_COPY")) != 0)
    test_release_device ();
  h = gst_harness_new_parse (launch);
  test_hold_harness_device (h);
  return h;
}

GstBuffer *
test_push_pull (GstHarness * h, TestFrame * f)
{
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (f->buffer)),
      GST_FLOW_OK);
  test_hold_harness_device (h);
  return gst_harness_pull (h);
}

void *
test_layer_handle (void)
{
  const gchar *env = g_getenv ("OPENCL_LAYERS");
  gchar **names;
  void *found = NULL;
  guint i;

  if (!env || !*env)
    return NULL;
  names = g_strsplit (env, ":", -1);    /* the ICD loaders' separator */
  for (i = 0; names[i] && !found; i++) {
    void *h;
    if (!*names[i])
      continue;
    h = dlopen (names[i], RTLD_NOW | RTLD_NOLOAD);
    if (h && dlsym (h, "clfilters_layer_live"))
      found = h;
    else if (h)
      dlclose (h);
  }
  g_strfreev (names);
  return found;
}

/* Whether the first GPU of the platforms @ps is one on which a variant
 * whose CLFILTERS_TEST_SAME_ON is @same_on takes the plain run's path:
 * "gpu" any GPU (GPU kernels are built there anyway, the CPU kernels'
 * vector width is not read), "discrete-gpu" a GPU without memory shared
 * with the host (the copying path is its own, zero-copy and SVM frames
 * are not possible). The child of test_require_opencl () asks. */
static gboolean
test_variant_repeats_on_gpu (const cl_platform_id * ps, cl_uint np,
    const gchar * same_on)
{
  cl_uint i;
  for (i = 0; i < np; i++) {
    cl_device_id d;
    cl_bool unified = CL_TRUE;
    if (clGetDeviceIDs (ps[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS)
      continue;
    if (g_str_equal (same_on, "gpu"))
      return TRUE;
    clGetDeviceInfo (d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (unified),
        &unified, NULL);
    return g_str_equal (same_on, "discrete-gpu") && !unified;
  }
  return FALSE;
}

gint
test_require_opencl (void)
{
  gint status = 0;
  const gchar *layers = g_getenv ("OPENCL_LAYERS");
  const gchar *same_on = g_getenv ("CLFILTERS_TEST_SAME_ON");
  const gboolean on_gpu = g_strcmp0 (g_getenv ("CLFILTERS_TEST_ON_GPU"),
      "1") == 0 && same_on && *same_on;
  pid_t pid = fork ();
  if (pid == 0) {
    cl_uint np = 0, nd = 0, i;
    cl_platform_id ps[16];
    if (clGetPlatformIDs (16, ps, &np) != CL_SUCCESS)
      _exit (1);
    for (i = 0; i < np && i < 16; i++) {
      cl_uint n = 0;
      if (clGetDeviceIDs (ps[i], CL_DEVICE_TYPE_ALL, 0, NULL, &n) ==
          CL_SUCCESS)
        nd += n;
    }
    if (nd == 0)
      _exit (1);
    if (layers && *layers && !test_layer_handle ())
      _exit (2);
    _exit (on_gpu && test_variant_repeats_on_gpu (ps, MIN (np, 16),
            same_on) ? 3 : 0);
  }
  if (pid < 0 || waitpid (pid, &status, 0) < 0)
    return 1;
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    return 0;
  if (WIFEXITED (status) && WEXITSTATUS (status) == 3) {
    g_printerr ("CLFILTERS_TEST_SAME_ON=%s: on this GPU this variant takes "
        "the plain run's path, which the plain run checks: skipping\n",
        same_on);
    return 77;
  }
  if (WIFEXITED (status) && WEXITSTATUS (status) == 2) {
    g_printerr ("OPENCL_LAYERS=%s, but the ICD loader did not load the "
        "clfilters test layer (a path that does not exist here, a library "
        "that failed to load, or a loader without layer support): the leak "
        "checks cannot run\n", layers);
    return 1;
  }
  if (g_getenv ("CLFILTERS_REQUIRE_DEVICE")) {
    g_printerr ("No OpenCL device, and CLFILTERS_REQUIRE_DEVICE is set\n");
    return 1;
  }
  g_printerr ("No OpenCL device: skipping\n");
  return 77;
}

long
test_settled_live (long (*live) (const char *))
{
  gint i;
  for (i = 0; i < 200 && live (NULL) != 0; i++)
    g_usleep (10000);
  return live (NULL);
}

void
test_leak_teardown (void)
{
  void *h;
  long (*live) (const char *);
  test_release_device ();
  h = test_layer_handle ();
  if (!h)
    return;
  live = (long (*)(const char *)) dlsym (h, "clfilters_layer_live");
  fail_unless (live != NULL);
  fail_unless (test_settled_live (live) == 0, "%ld OpenCL objects outlived the test "
      "(%ld mem, %ld SVM, %ld kernels, %ld programs, %ld queues, "
      "%ld contexts)", live (NULL), live ("mem"), live ("svm"),
      live ("kernel"), live ("program"), live ("queue"), live ("context"));
  dlclose (h);
}

void
test_add_leak_check (TCase * tc)
{
  tcase_add_checked_fixture (tc, NULL, test_leak_teardown);
}

void
test_shard (guint * k, guint * n)
{
  const gchar *env = g_getenv ("CLFILTERS_TEST_SHARD");
  guint part, parts;
  gboolean valid = env && sscanf (env, "%u/%u", &part, &parts) == 2 &&
      part < parts;
  *k = valid ? part : 0;
  *n = valid ? parts : 1;
}
