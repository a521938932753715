/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* common.h: helpers shared by the clfilters gst-check tests.
 *
 * Frames are made here from GstVideoInfo layouts (optionally with padded
 * strides and shifted planes described by a GstVideoMeta) and checked
 * against plain C references written in the tests, never against the
 * kernels' own output.
 */
#pragma once

/* each test program uses some of these helpers */
#pragma GCC diagnostic ignored "-Wunused-function"

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <dlfcn.h>
#include <unistd.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

/* The plain C references and the loops comparing against them are the
 * tests' oracle, run over every sample of every frame; under the
 * sanitizers of scripts/reliability.sh they took 92 % of the clgaussian
 * suite's time (the radius references are O(r^2) a sample). They read only
 * frames mapped through GstVideoFrame, at clamped coordinates, and what the
 * sanitizers are there for is the plugin and the tests' buffer handling, so
 * the references are built without their checks. Their small helpers are
 * always inlined, into the references and sanitized code alike: GCC
 * inlines across differing no_sanitize attributes only such functions. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define TEST_REFERENCE __attribute__ ((no_sanitize ("address", "undefined")))
#define TEST_INLINE inline __attribute__ ((always_inline))
#else
#define TEST_REFERENCE
#define TEST_INLINE inline
#endif

/* What a run of a test program repeats from another run of the suite
 * (CLFILTERS_TEST_REPEATS, set per run in tests/meson.build and by
 * scripts/reliability.sh; CLFILTERS_TEST_REPEATS_GPU on a GPU): a
 * comma-separated list of areas, or "all". A test whose area is listed
 * runs the documented subset of its matrix that still reaches every kernel
 * and host code path of this run (each test says which subset, and why it
 * suffices); a run that does not list the area checks the whole matrix of
 * the same code. */
static G_GNUC_UNUSED gboolean
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

/* every format the filters accept */
static const gchar *const all_formats[] = {
  "GRAY8", "RGB", "BGR", "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx",
  "xRGB", "xBGR", "I420", "YV12", "NV12", "NV21", "Y42B", "Y444", NULL
};

/* the formats of more than 8 bits per sample (interface.md, "More than 8
 * bits per sample"), written out here rather than derived from GStreamer's
 * format tables: samples per pixel of plane 0, the sample kept unchanged
 * (-1: none), the depth D of a value and its shift in the 16-bit word */
typedef struct
{
  const gchar *name;
  gint step, keep, depth, shift;
} TestDeepFormat;

static const TestDeepFormat deep_formats[] = {
  {"GRAY16_LE", 1, -1, 16, 0}, {"P010_10LE", 1, -1, 10, 6},
  {"P016_LE", 1, -1, 16, 0}, {"I420_10LE", 1, -1, 10, 0},
  {"I420_12LE", 1, -1, 12, 0}, {"Y444_16LE", 1, -1, 16, 0},
  {"RGBA64_LE", 4, 3, 16, 0}, {NULL, 0, 0, 0, 0}
};

/* the entry of deep_formats for @format; NULL for 8-bit formats */
static G_GNUC_UNUSED const TestDeepFormat *
test_deep_format (const gchar * format)
{
  guint i;
  for (i = 0; deep_formats[i].name; i++)
    if (g_str_equal (deep_formats[i].name, format))
      return &deep_formats[i];
  return NULL;
}

static const gchar *const memory_kinds[] = { "buffer", "image", NULL };

/* Bytes per pixel of the filtered plane (plane 0) and the byte of each
 * pixel that must pass through unchanged (alpha or padding), by format;
 * written out here rather than derived from GStreamer's format tables. */
static void
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

/* a small deterministic generator, so failures reproduce */
static guint32
test_rand (guint32 * state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

typedef enum
{
  CONTENT_RANDOM,
  CONTENT_STRUCTURED,           /* gradients, a checkerboard and hard edges */
  /* formats of more than 8 bits only: random values, and every bit outside
   * the value's D bits set at random (which the filters must ignore: they
   * read (word >> shift) & (2^D - 1) and write those bits as zero) */
  CONTENT_DIRTY,
} TestContent;

/* One stored sample of a format of more than 8 bits: sample @c of pixel
 * (@x, @y) of a plane @w pixels wide and @h rows high: random, or a
 * structure of gradients and hard edges with the extreme levels 0 and
 * 2^D - 1 along the borders. */
static guint16
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


typedef struct
{
  GstVideoInfo info;            /* the layout of the buffer's data */
  GstBuffer *buffer;
} TestFrame;

/* The cases of the GPU kernels of 8-byte words (kernel-shape=tiles, rows
 * of whole words, gst_cl_launch_words8) that clgaussian's and cllaplace's
 * test_words8 go through: rows of one word and of a few (both ends of a
 * row in one work-item), heights below and above rows-per-item, strides
 * padded by whole words (the kernel) and by odd bytes (the general
 * kernel), the pixel sizes of first planes (1, 3 and 4 bytes; the
 * elements copy the other planes) and a kept padding byte. */
static const gchar *const words8_formats[] = { "GRAY8", "RGBA", "RGB",
  "BGR", "I420", "BGRx"
};

static const gchar *const words8_tunings[] = {
  "kernel-shape=tiles", "kernel-shape=tiles rows-per-item=1",
  "kernel-shape=tiles rows-per-item=3 work-group-size=16",
  "kernel-shape=tiles rows-per-item=16 work-group-size=1",
};

static const gint words8_sizes[][2] = { {8, 1}, {8, 3}, {16, 2}, {24, 17},
  {64, 9}, {200, 37}
};

#define TEST_PAD_ALIGNED 2
/* no padding, whole words (structured content), odd bytes */
static const gint words8_pads[] = { FALSE, TEST_PAD_ALIGNED, TRUE };

/* Makes a frame of @caps_info's format and size. With @padded, rows get
 * extra bytes (an odd number) and planes gaps between them, described by
 * a GstVideoMeta; with @padded TEST_PAD_ALIGNED the same in multiples of 8
 * bytes (rows of whole 8-byte words stay so: the GPU kernels of
 * gst_cl_launch_words8). Padding bytes are filled with a marker. */
static TestFrame
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

static GstVideoInfo
test_info (const gchar * format, gint width, gint height)
{
  GstVideoInfo info;
  gst_video_info_init (&info);
  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format), width, height));
  return info;
}

static gchar *
test_caps_string (const gchar * format, gint width, gint height)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);
}

/* A plane of a mapped frame, for references. step: samples per pixel;
 * bytes (0 or 1: 8-bit samples; 2: 16-bit words holding a value of depth
 * bits at bit shift). */
typedef struct
{
  guint8 *data;
  gint stride, width, height, step;
  gint bytes, depth, shift;
} TestPlane;

static TestPlane
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

/* The planes after the first of @in and @out, row by row: each changed
 * row adds one to @bad (the first ones are printed). Returns @bad. */
static guint
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

/* The value of sample @c of pixel (@x, @y) of @p, in its depth's levels
 * (bits outside them ignored), for any format. */
static G_GNUC_UNUSED TEST_INLINE gint
test_value (const TestPlane * p, gint x, gint y, gint c)
{
  const guint8 *row = p->data + (gsize) y * p->stride;
  if (p->bytes <= 1)
    return row[x * p->step + c];
  return (GST_READ_UINT16_LE (row + 2 * (x * p->step + c)) >> p->shift) &
      ((1 << p->depth) - 1);
}

/* The stored word (or byte) of sample @c of pixel (@x, @y) of @p. */
static G_GNUC_UNUSED TEST_INLINE guint
test_word (const TestPlane * p, gint x, gint y, gint c)
{
  const guint8 *row = p->data + (gsize) y * p->stride;
  if (p->bytes <= 1)
    return row[x * p->step + c];
  return GST_READ_UINT16_LE (row + 2 * (x * p->step + c));
}

/* Reference filter of one sample of any depth: the value (in the depth's
 * levels) of sample c of plane 0 of @src at (x, y). */
typedef gint (*TestValueRefFunc) (const TestPlane * src, gint x, gint y,
    gint c, gpointer data);

/* Compares @out with @in filtered by @ref, for any format: each filtered
 * sample's value within @tolerance of the reference, stored in the
 * format's packing (every bit outside the value zero, so P010_10LE keeps
 * its low 6 bits zero); the kept sample of each pixel and every other
 * plane unchanged. Returns the number of mismatches (printing the first). */
static TEST_REFERENCE G_GNUC_UNUSED guint
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

/* Reference filter of one sample: plane 0 of @src at (x, y, byte c). */
typedef guint8 (*TestRefFunc) (const TestPlane * src, gint x, gint y, gint c,
    gpointer data);

/* Compares @out with @in filtered by @ref: plane 0 sample by sample, the
 * kept byte of each pixel and every other plane unchanged. Returns the
 * number of mismatches (and prints the first ones). */
static guint
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

/* Holding the device. An element opens its device (OpenCL context, queues,
 * programs: about 0.1 s on POCL, built programs read from POCL's cache)
 * when none of the process is open, and the device closes with its last
 * user: each of the hundreds of harnesses of an element suite would open
 * it anew, most of a small case's time. Suites that set
 * test_holds_devices keep the device of a test's first harness (its
 * gst.cl.device context) until the test ends, so that later harnesses find
 * it open; test_leak_teardown() lets it go before it counts the objects
 * left. A device reads GST_CL_ZERO_COPY when it opens: a test that changes
 * it gets a new device at its next harness. */
static gboolean test_holds_devices;
static GstContext *test_held_device;
static gchar *test_held_zero_copy;

static void
test_release_device (void)
{
  g_clear_pointer (&test_held_device, gst_context_unref);
  g_clear_pointer (&test_held_zero_copy, g_free);
}

/* Holds the device of an element of @h once it has one. */
static void
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

/* gst_harness_new_parse (@launch), on the held device unless
 * GST_CL_ZERO_COPY changed since it opened. */
static GstHarness *
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

/* Pushes @f (a ref is taken) and pulls the output. */
static GstBuffer *
test_push_pull (GstHarness * h, TestFrame * f)
{
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (f->buffer)),
      GST_FLOW_OK);
  test_hold_harness_device (h);
  return gst_harness_pull (h);
}

static TEST_INLINE gint
clampi (gint v, gint lo, gint hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* The OpenCL test layer (tests/layer/cllayer.c) as the ICD loader loaded
 * it: the first library named in OPENCL_LAYERS (as meson test sets it) that
 * is loaded in this process and exports clfilters_layer_live(). Found
 * through the variable, never through a path compiled into the test, so that
 * a build folder run from another directory or machine (scripts/test-gpu.sh)
 * checks the layer it was given. Returns NULL when none is loaded. */
static void *
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

/* Whether an OpenCL device exists, asked in a child process: OpenCL must
 * not be used in this process before check forks the tests (POCL hangs the
 * children). Returns 77 (skip) when there is none, unless the environment
 * says a device is required (CI), where it is a failure.
 * When OPENCL_LAYERS names a layer, the child also checks that the ICD
 * loader loaded the test layer: otherwise every leak check would pass
 * unseen (a layer path that does not exist on this machine, a loader
 * without layer support), so that is a failure, with the reason. */
static gint
test_require_opencl (void)
{
  gint status = 0;
  const gchar *layers = g_getenv ("OPENCL_LAYERS");
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
    _exit (layers && *layers && !test_layer_handle () ? 2 : 0);
  }
  if (pid < 0 || waitpid (pid, &status, 0) < 0)
    return 1;
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    return 0;
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

/* The live OpenCL objects once they stop going down: buffers carry device
 * frames (which hold their device), and a streaming thread may drop the
 * last buffer a moment after the state change to NULL returned (the task
 * releases its references after the join). Waits up to 2 s for zero. */
static long
test_settled_live (long (*live) (const char *))
{
  gint i;
  for (i = 0; i < 200 && live (NULL) != 0; i++)
    g_usleep (10000);
  return live (NULL);
}

/* After every test: when the OpenCL test layer is loaded (OPENCL_LAYERS, as
 * meson test sets it), no OpenCL object may outlive the test's pipelines.
 * test_require_opencl() made sure that the loader loads a layer it is
 * given; it is not loaded here when the test never used OpenCL, or hid
 * every ICD (the loader then loads no layer either). */
static void
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

static void
test_add_leak_check (TCase * tc)
{
  tcase_add_checked_fixture (tc, NULL, test_leak_teardown);
}

/* CLFILTERS_TEST_SHARD=k/n (tests/meson.build runs a long program in n
 * parts, so that they spread over the cores): part k (0 to n-1) runs its
 * share of the iterations of each loop test added with
 * test_add_sharded_loop(), and part 0 also every test added with
 * test_add_sharded(). The parts' checks add up to the whole program's. */
static void
test_shard (guint * k, guint * n)
{
  const gchar *env = g_getenv ("CLFILTERS_TEST_SHARD");
  guint part, parts;
  gboolean valid = env && sscanf (env, "%u/%u", &part, &parts) == 2 &&
      part < parts;
  *k = valid ? part : 0;
  *n = valid ? parts : 1;
}

#define test_add_sharded(tc, f) G_STMT_START { \
  guint k_, n_; \
  test_shard (&k_, &n_); \
  if (k_ == 0) \
    tcase_add_test (tc, f); \
} G_STMT_END

#define test_add_sharded_loop(tc, f, s, e) G_STMT_START { \
  guint k_, n_; \
  test_shard (&k_, &n_); \
  tcase_add_loop_test (tc, f, (s) + ((e) - (s)) * k_ / n_, \
      (s) + ((e) - (s)) * (k_ + 1) / n_); \
} G_STMT_END

/* CLFILTERS_TEST_ONE_PROCESS=1 (scripts/test-gpu.sh) runs the cases of a
 * program that allows it in one process (CK_FORK=no) instead of a process
 * each: a GPU driver's start in each process (NVIDIA's: about a second,
 * more with many processes at once) was most of a small case's time on the
 * GPU machine. The programs that change what the ICD loader or POCL see
 * (errors, chain's two devices) or keep state of their own between cases
 * (tuning) need a process a case and use TEST_MAIN. */
#define TEST_MAIN_FULL(name, one_process) \
int \
main (int argc, char **argv) \
{ \
  gint r = test_require_opencl (); \
  if (r != 0) \
    return r; \
  if ((one_process) && g_strcmp0 (g_getenv ("CLFILTERS_TEST_ONE_PROCESS"), \
          "1") == 0) \
    g_setenv ("CK_FORK", "no", TRUE); \
  gst_check_init (&argc, &argv); \
  return gst_check_run_suite (name##_suite (), #name, __FILE__); \
}
#define TEST_MAIN(name) TEST_MAIN_FULL (name, FALSE)
#define TEST_MAIN_ONE_PROCESS(name) TEST_MAIN_FULL (name, TRUE)
