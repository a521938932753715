/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clclahe tests: outputs compared, sample for sample, with a plain C port of
 * OpenCV's CLAHE (modules/imgproc/src/clahe.cpp, the CPU path of
 * createCLAHE ()->apply ()) written here; tests/clahe_opencv_compare.py
 * checks the element against cv2 itself at 8 and 16 bits.
 *
 * Built with -ffp-contract=off (tests/meson.build): the reference must do
 * OpenCV's float32 operations one by one, as OpenCV's x86 build (without
 * FMA) does them. */
#include "clcheck.h"

#include <math.h>

/* the formats of clclahe: grey and YUV, 8 to 16 bits */
static const gchar *const formats[] = {
  "GRAY8", "GRAY16_LE", "I420", "YV12", "NV12", "NV21", "Y42B", "Y444",
  "P010_10LE", "P016_LE", "I420_10LE", "I420_12LE", "Y444_16LE",
};

typedef struct
{
  gdouble clip;
  guint tiles_x, tiles_y;
} ClaheCase;

/* --- the reference --------------------------------------------------------- */

/* OpenCV's borderInterpolate () for BORDER_REFLECT_101 */
static gint
reflect101 (gint p, gint len)
{
  if (p >= 0 && p < len)
    return p;
  if (len == 1)
    return 0;
  do {
    if (p < 0)
      p = -p - 1 + 1;
    else
      p = len - 1 - (p - len) - 1;
  } while (p < 0 || p >= len);
  return p;
}

/* cvRound () of a float, then saturate_cast to 0..maxv */
static gint
round_sat (gfloat v, gint maxv)
{
  long r = lrintf (v);
  return (gint) CLAMP (r, 0, maxv);
}

/* The LUT of one tile (OpenCV's CLAHE_CalcLut_Body), from @ext, the
 * padded frame (@pw values a row). */
static TEST_REFERENCE void
ref_tile_lut (const gint * ext, gint pw, gint x0, gint y0, gint tw, gint th,
    gint hist_size, gint clip, gfloat lut_scale, guint32 * hist, gint * lut)
{
  gint x, y, i, sum = 0;

  memset (hist, 0, hist_size * sizeof (guint32));
  for (y = y0; y < y0 + th; y++)
    for (x = x0; x < x0 + tw; x++)
      hist[ext[(gsize) y * pw + x]]++;
  if (clip > 0) {
    gint clipped = 0, batch, residual;
    for (i = 0; i < hist_size; i++)
      if ((gint) hist[i] > clip) {
        clipped += hist[i] - clip;
        hist[i] = clip;
      }
    batch = clipped / hist_size;
    residual = clipped - batch * hist_size;
    for (i = 0; i < hist_size; i++)
      hist[i] += batch;
    if (residual != 0) {
      gint step = MAX (hist_size / residual, 1);
      for (i = 0; i < hist_size && residual > 0; i += step, residual--)
        hist[i]++;
    }
  }
  for (i = 0; i < hist_size; i++) {
    sum += hist[i];
    lut[i] = round_sat (sum * lut_scale, hist_size - 1);
  }
}

/* The frame padded as OpenCV pads it for the tile histograms; returns the
 * tile size in *tw, *th */
static TEST_REFERENCE gint *
ref_padded (const gint * src, gint w, gint h, gint tx, gint ty, gint * pw,
    gint * ph)
{
  gint *ext, x, y;

  *pw = w;
  *ph = h;
  if (w % tx != 0 || h % ty != 0) {
    *pw = w + tx - w % tx;
    *ph = h + ty - h % ty;
  }
  ext = g_new (gint, (gsize) * pw * *ph);
  for (y = 0; y < *ph; y++)
    for (x = 0; x < *pw; x++)
      ext[(gsize) y * *pw + x] =
          src[(gsize) reflect101 (y, h) * w + reflect101 (x, w)];
  return ext;
}

/* OpenCV's CLAHE_Impl::apply () on a plane of @w x @h values of @depth
 * bits (2^depth levels), the grid reduced to the frame as the element
 * documents: @dst gets the output values. */
static TEST_REFERENCE void
ref_clahe (const gint * src, gint w, gint h, gint depth, const ClaheCase * cc,
    gint * dst)
{
  const gint hist_size = 1 << depth;
  const gint tx = MIN ((gint) cc->tiles_x, w), ty = MIN ((gint) cc->tiles_y, h);
  gint pw, ph, tw, th, area, clip = 0, x, y, t;
  gint *ext = ref_padded (src, w, h, tx, ty, &pw, &ph), *lut;
  guint32 *hist = g_new (guint32, hist_size);
  gint *ind1 = g_new (gint, w), *ind2 = g_new (gint, w);
  gfloat *xa = g_new (gfloat, w), *xa1 = g_new (gfloat, w);
  gfloat lut_scale, inv_tw, inv_th;

  tw = pw / tx;
  th = ph / ty;
  area = tw * th;
  lut_scale = (gfloat) (hist_size - 1) / area;
  if (cc->clip > 0.0)
    clip = MAX ((gint) (cc->clip * area / hist_size), 1);
  lut = g_new (gint, (gsize) tx * ty * hist_size);
  for (t = 0; t < tx * ty; t++)
    ref_tile_lut (ext, pw, (t % tx) * tw, (t / tx) * th, tw, th, hist_size,
        clip, lut_scale, hist, lut + (gsize) t * hist_size);

  /* CLAHE_Interpolation_Body */
  inv_tw = 1.0f / tw;
  for (x = 0; x < w; x++) {
    gfloat txf = x * inv_tw - 0.5f;
    gint tx1 = (gint) floorf (txf), tx2 = tx1 + 1;
    xa[x] = txf - tx1;
    xa1[x] = 1.0f - xa[x];
    ind1[x] = MAX (tx1, 0) * hist_size;
    ind2[x] = MIN (tx2, tx - 1) * hist_size;
  }
  inv_th = 1.0f / th;
  for (y = 0; y < h; y++) {
    gfloat tyf = y * inv_th - 0.5f;
    gint ty1 = (gint) floorf (tyf), ty2 = ty1 + 1;
    gfloat ya = tyf - ty1, ya1 = 1.0f - ya;
    const gint *p1, *p2;
    ty1 = MAX (ty1, 0);
    ty2 = MIN (ty2, ty - 1);
    p1 = lut + (gsize) ty1 * tx * hist_size;
    p2 = lut + (gsize) ty2 * tx * hist_size;
    for (x = 0; x < w; x++) {
      gint v = src[(gsize) y * w + x];
      gfloat res = (p1[ind1[x] + v] * xa1[x] + p1[ind2[x] + v] * xa[x]) * ya1
          + (p2[ind1[x] + v] * xa1[x] + p2[ind2[x] + v] * xa[x]) * ya;
      dst[(gsize) y * w + x] = round_sat (res, hist_size - 1);
    }
  }
  g_free (xa1);
  g_free (xa);
  g_free (ind2);
  g_free (ind1);
  g_free (lut);
  g_free (hist);
  g_free (ext);
}

/* The values of plane 0 of @buf (bits outside a value ignored) */
static gint *
plane_values (GstBuffer * buf, const GstVideoInfo * info, gint * w, gint * h,
    gint * depth)
{
  GstVideoFrame vf;
  TestPlane s;
  gint *v, x, y;

  fail_unless (gst_video_frame_map (&vf, info, buf, GST_MAP_READ));
  s = test_plane (&vf, 0);
  v = g_new (gint, (gsize) s.width * s.height);
  for (y = 0; y < s.height; y++)
    for (x = 0; x < s.width; x++)
      v[(gsize) y * s.width + x] = test_value (&s, x, y, 0);
  *w = s.width;
  *h = s.height;
  *depth = s.depth;
  gst_video_frame_unmap (&vf);
  return v;
}

typedef struct
{
  const gint *values;
  gint width;
} Lookup;

static gint
lookup (const TestPlane * src, gint x, gint y, gint c, gpointer data)
{
  const Lookup *l = data;
  return l->values[(gsize) y * l->width + x];
}

/* The expected output values of plane 0 of @buf for @cc; g_free () them */
static gint *
expected_new (GstBuffer * buf, const GstVideoInfo * info,
    const ClaheCase * cc, gint * width)
{
  gint w, h, depth;
  gint *src = plane_values (buf, info, &w, &h, &depth);
  gint *dst = g_new (gint, (gsize) w * h);

  ref_clahe (src, w, h, depth, cc, dst);
  g_free (src);
  *width = w;
  return dst;
}

/* --- helpers --------------------------------------------------------------- */

static gchar *
case_props (const ClaheCase * cc)
{
  gchar s[G_ASCII_DTOSTR_BUF_SIZE];
  return g_strdup_printf ("clip-limit=%s tiles-x=%u tiles-y=%u",
      g_ascii_formatd (s, sizeof (s), "%g", cc->clip), cc->tiles_x,
      cc->tiles_y);
}

static void
set_caps (GstHarness * h, const gchar * format, gint w, gint ht)
{
  gchar *caps = test_caps_string (format, w, ht);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  g_free (caps);
}

static GstHarness *
harness_for (const gchar * launch, const gchar * format, gint w, gint ht)
{
  GstHarness *h = test_harness_new (launch);
  set_caps (h, format, w, ht);
  return h;
}

static void
set_case (GstHarness * h, const ClaheCase * cc)
{
  GstElement *e = gst_harness_find_element (h, "clclahe");
  fail_unless (e != NULL);
  g_object_set (e, "clip-limit", cc->clip, "tiles-x", cc->tiles_x,
      "tiles-y", cc->tiles_y, NULL);
  gst_object_unref (e);
}

static const gchar *
content_name (TestContent content)
{
  return content == CONTENT_RANDOM ? "random" : content == CONTENT_STRUCTURED
      ? "structured" : "dirty bits";
}

/* Pushes a frame of @format/@w x @ht through each of the @n harnesses
 * (their clclahe set to @cc) and checks every output against the
 * reference: plane 0 exactly, other planes unchanged, bits outside the
 * values zero. */
static void
check_frame (GstHarness ** hs, guint n, const gchar * format, gint w,
    gint ht, TestContent content, gboolean padded, const ClaheCase * cc,
    guint32 seed)
{
  GstVideoInfo info = test_info (format, w, ht);
  TestFrame f;
  Lookup l;
  gint *want;
  gchar *props = case_props (cc);
  guint i;

  if (content == CONTENT_DIRTY && !test_deep_format (format))
    content = CONTENT_RANDOM;
  f = test_frame_new (&info, content, padded, w * 31 + ht + seed);
  want = expected_new (f.buffer, &f.info, cc, &l.width);
  l.values = want;
  for (i = 0; i < n; i++) {
    GstBuffer *out = test_push_pull (hs[i], &f);
    gchar *what = g_strdup_printf ("clclahe #%u %s", i, props);
    guint bad;
    fail_unless (out != NULL);
    bad = test_compare_values (f.buffer, &f.info, out, &info, format, lookup,
        &l, 0, what);
    fail_unless (bad == 0, "%s: %s %dx%d (%s, %s): %u samples differ", what,
        format, w, ht, content_name (content), padded ? "padded strides" :
        "default strides", bad);
    g_free (what);
    gst_buffer_unref (out);
  }
  g_free (want);
  g_free (props);
  gst_buffer_unref (f.buffer);
}

/* Two harnesses, storage=buffer and storage=image, @extra properties */
static void
pair_new (GstHarness ** hs, const gchar * extra, const gchar * format,
    gint w, gint ht)
{
  guint m;
  for (m = 0; m < 2; m++) {
    gchar *launch = g_strdup_printf ("clclahe storage=%s %s",
        memory_kinds[m], extra);
    hs[m] = harness_for (launch, format, w, ht);
    g_free (launch);
  }
}

static void
pair_set (GstHarness ** hs, const gchar * format, gint w, gint ht,
    const ClaheCase * cc)
{
  guint m;
  for (m = 0; m < 2; m++) {
    set_caps (hs[m], format, w, ht);
    set_case (hs[m], cc);
  }
}

static void
pair_free (GstHarness ** hs)
{
  gst_harness_teardown (hs[0]);
  gst_harness_teardown (hs[1]);
}

/* --- tests ----------------------------------------------------------------- */

static const ClaheCase defaults = { 40.0, 8, 8 };

/* sizes: one pixel, frames smaller than the grid (reduced), divided by it
 * (64x48), and not (padded: 67x45 on both sides, 17x16 on one) */
static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {5, 9}, {17, 16}, {64, 48}, {67, 45}, {321, 241}
};

/* Every format with the default properties, every size, random and
 * structured content (and stray bits outside the values in formats of more
 * than 8 bits), default and padded strides, both storages, caps changing
 * mid-stream. */
GST_START_TEST (test_formats)
{
  const gchar *format = formats[__i__];
  GstHarness *hs[2];
  guint s;

  pair_new (hs, "", format, 1, 1);
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], ht = sizes[s][1];
    pair_set (hs, format, w, ht, &defaults);
    check_frame (hs, 2, format, w, ht, CONTENT_RANDOM, FALSE, &defaults, s);
    check_frame (hs, 2, format, w, ht, CONTENT_STRUCTURED, s % 2, &defaults,
        s);
    check_frame (hs, 2, format, w, ht, CONTENT_DIRTY, !(s % 2), &defaults,
        s);
  }
  pair_free (hs);
}

GST_END_TEST;

/* Grids from 1x1 to 64x64 (reduced on the small frames), on every path of
 * the LUT kernels: local histograms (8, 10, 12 bits) and 16-bit ones in
 * global memory; 16-bit grids of more than 256 tiles are left out (256 KB
 * of device memory a tile, and as much in the reference). */
GST_START_TEST (test_grids)
{
  static const guint grids[][2] = {
    {1, 1}, {2, 3}, {3, 2}, {7, 5}, {16, 9}, {13, 64}, {64, 1}, {1, 64},
    {64, 64},
  };
  /* 300x40: tiles of 256 columns and more on the coarse grids, which GPU
   * work-groups (256 items) walk row by row, finer ones pixel by pixel */
  static const gint gsizes[][2] = {
    {1, 1}, {5, 3}, {61, 37}, {128, 72}, {200, 150}, {300, 40}
  };
  static const gchar *gformats[] = { "GRAY8", "I420_10LE", "I420_12LE",
    "GRAY16_LE"
  };
  const gchar *format = gformats[__i__];
  GstHarness *hs[2];
  guint g, s;

  pair_new (hs, "", format, 1, 1);
  for (g = 0; g < G_N_ELEMENTS (grids); g++)
    for (s = 0; s < G_N_ELEMENTS (gsizes); s++) {
      const ClaheCase cc = { g % 2 ? 2.0 : 40.0, grids[g][0], grids[g][1] };
      const gint w = gsizes[s][0], ht = gsizes[s][1];
      if (g_str_equal (format, "GRAY16_LE") &&
          MIN (grids[g][0], (guint) w) * MIN (grids[g][1], (guint) ht) > 256)
        continue;
      pair_set (hs, format, w, ht, &cc);
      check_frame (hs, 2, format, w, ht, (g + s) % 2 ? CONTENT_RANDOM :
          CONTENT_STRUCTURED, s == 2, &cc, g);
    }
  pair_free (hs);
}

GST_END_TEST;

/* Clip limits: none, clipping at one count (0.01), small, the default
 * and the largest, at 8, 10, 12 and 16 bits. */
GST_START_TEST (test_clip_limits)
{
  static const gdouble clips[] = { 0.0, 0.01, 1.0, 2.5, 40.0, 1000.0 };
  static const gchar *cformats[] = { "GRAY8", "GRAY16_LE", "P010_10LE",
    "I420_12LE"
  };
  const gchar *format = cformats[__i__];
  GstHarness *hs[2];
  guint c;

  pair_new (hs, "", format, 1, 1);
  for (c = 0; c < G_N_ELEMENTS (clips); c++) {
    const ClaheCase a = { clips[c], 4, 3 }, b = { clips[c], 8, 8 };
    pair_set (hs, format, 67, 45, &a);
    check_frame (hs, 2, format, 67, 45, CONTENT_STRUCTURED, FALSE, &a, c);
    pair_set (hs, format, 320, 240, &b);
    check_frame (hs, 2, format, 320, 240, CONTENT_RANDOM, FALSE, &b, c);
    check_frame (hs, 2, format, 320, 240, CONTENT_STRUCTURED, TRUE, &b, c);
  }
  pair_free (hs);
}

GST_END_TEST;

/* The properties change between frames while playing: clip limit and
 * grid (the LUT buffer grows and shrinks), in both storages. */
GST_START_TEST (test_properties_mid_stream)
{
  static const ClaheCase steps[] = {
    {40.0, 8, 8}, {2.0, 8, 8}, {0.0, 8, 8}, {2.0, 2, 2}, {4.0, 16, 16},
    {1000.0, 1, 1}, {3.0, 5, 7}, {40.0, 8, 8},
  };
  const gchar *format = __i__ ? "GRAY16_LE" : "NV12";
  GstHarness *hs[2];
  guint s;

  pair_new (hs, "", format, 96, 54);
  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    guint m;
    for (m = 0; m < 2; m++)
      set_case (hs[m], &steps[s]);
    check_frame (hs, 2, format, 96, 54, s % 2 ? CONTENT_STRUCTURED :
        CONTENT_RANDOM, FALSE, &steps[s], s);
  }
  pair_free (hs);
}

GST_END_TEST;

/* Full HD frames at 8 and 16 bits (left out repeating "sizes": their
 * launches take the paths of the smaller frames). */
GST_START_TEST (test_1080p)
{
  const gchar *format = __i__ ? "GRAY16_LE" : "GRAY8";
  GstHarness *hs[2];

  if (test_repeats ("sizes"))
    return;
  pair_new (hs, "", format, 1920, 1080);
  pair_set (hs, format, 1920, 1080, &defaults);
  check_frame (hs, 2, format, 1920, 1080, CONTENT_STRUCTURED, FALSE,
      &defaults, 0);
  pair_free (hs);
}

GST_END_TEST;

/* Every kernel shape of the blend and the copying path of discrete GPUs
 * (GST_CL_ZERO_COPY=0) give the same output. */
GST_START_TEST (test_tunings_and_paths)
{
  static const gchar *tunings[] = {
    "kernel-shape=strips", "kernel-shape=tiles",
    "kernel-shape=strips rows-per-item=3 pixels-per-item=37",
    "kernel-shape=tiles pixels-per-item=5 rows-per-item=7 work-group-size=16",
    "kernel-shape=tiles work-group-size=1",
  };
  static const ClaheCase cc = { 3.0, 5, 4 };
  const gchar *format = __i__ % 2 ? "P010_10LE" : "GRAY8";
  guint t;

  if (__i__ >= 2)
    g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
  for (t = 0; t < G_N_ELEMENTS (tunings); t++) {
    GstHarness *hs[2];
    pair_new (hs, tunings[t], format, 83, 29);
    pair_set (hs, format, 83, 29, &cc);
    check_frame (hs, 2, format, 83, 29, CONTENT_RANDOM, TRUE, &cc, t);
    pair_set (hs, format, 1, 1, &cc);
    check_frame (hs, 2, format, 1, 1, CONTENT_RANDOM, FALSE, &cc, t);
    pair_set (hs, format, 50, 3, &cc);
    check_frame (hs, 2, format, 50, 3, CONTENT_STRUCTURED, FALSE, &cc, t);
    pair_free (hs);
  }
  g_unsetenv ("GST_CL_ZERO_COPY");
}

GST_END_TEST;

/* clgaussian's default 3x3 binomial, (sum + 8) >> 4 with edges replicated,
 * on a plane of values */
static gint *
ref_gauss3 (const gint * v, gint w, gint h)
{
  static const gint k[3] = { 1, 2, 1 };
  gint *out = g_new (gint, (gsize) w * h), x, y, i, j;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      gint sum = 0;
      for (j = -1; j <= 1; j++)
        for (i = -1; i <= 1; i++)
          sum += k[i + 1] * k[j + 1] * v[(gsize) clampi (y + j, 0, h - 1) * w
              + clampi (x + i, 0, w - 1)];
      out[(gsize) y * w + x] = (sum + 8) >> 4;
    }
  return out;
}

/* Chains with clgaussian, before and after clclahe (the frame stays on the
 * device between them), and between clupload and cldownload. */
GST_START_TEST (test_chain_gaussian)
{
  static const gchar *chains[] = {
    "clgaussian ! clclahe clip-limit=2 tiles-x=4 tiles-y=4",
    "clclahe clip-limit=2 tiles-x=4 tiles-y=4 ! clgaussian",
    "clupload ! clgaussian ! clclahe clip-limit=2 tiles-x=4 tiles-y=4 ! "
        "cldownload",
  };
  static const ClaheCase cc = { 2.0, 4, 4 };
  const gchar *format = __i__ % 2 ? "P016_LE" : "GRAY8";
  const gboolean blur_first = __i__ / 2 != 1;
  const gint w = 99, ht = 61;
  GstVideoInfo info = test_info (format, w, ht);
  TestFrame f = test_frame_new (&info, CONTENT_RANDOM, TRUE, __i__);
  GstHarness *h = harness_for (chains[__i__ / 2], format, w, ht);
  gint pw, ph, depth;
  gint *src = plane_values (f.buffer, &f.info, &pw, &ph, &depth);
  gint *mid = g_new (gint, (gsize) w * ht), *want;
  Lookup l = { NULL, w };
  GstBuffer *out;

  if (blur_first) {
    gint *blurred = ref_gauss3 (src, w, ht);
    ref_clahe (blurred, w, ht, depth, &cc, mid);
    want = mid;
    g_free (blurred);
  } else {
    ref_clahe (src, w, ht, depth, &cc, mid);
    want = ref_gauss3 (mid, w, ht);
    g_free (mid);
  }
  l.values = want;
  out = test_push_pull (h, &f);
  fail_unless (out != NULL);
  fail_unless_equals_int (test_compare_values (f.buffer, &f.info, out, &info,
          format, lookup, &l, 0, chains[__i__ / 2]), 0);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (want);
  g_free (src);
  gst_buffer_unref (f.buffer);
}

GST_END_TEST;

/* The properties set from two other threads while frames flow (the grid
 * and its buffers change between any two frames): every frame comes out,
 * nothing leaks (the fixture counts OpenCL objects after the test). The
 * outputs are not compared: which values a frame met is a race. */
GST_START_TEST (test_property_stress)
{
  static const struct
  {
    const gchar *prop, *value1, *value2;
  } cases[] = {
    {"tiles-x", "1", "64"}, {"tiles-y", "2", "33"},
    {"clip-limit", "0", "1000"},
    /* 16 bits: 256 KB of histogram a tile, fewer tiles */
    {"tiles-x", "1", "12"}, {"tiles-y", "2", "9"},
    {"clip-limit", "0", "1000"},
  };
  const gchar *format = __i__ / 3 ? "GRAY16_LE" : "NV12";
  GstHarness *h = gst_harness_new ("clclahe");  /* the element itself,
                                                 * whose properties the
                                                 * threads set */
  GValue v1 = G_VALUE_INIT, v2 = G_VALUE_INIT;
  GstHarnessThread *t1, *t2;
  GstVideoInfo info = test_info (format, 96, 64);
  GParamSpec *pspec;
  guint i;

  set_caps (h, format, 96, 64);
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (h->element),
      cases[__i__].prop);
  fail_unless (pspec != NULL);
  g_value_init (&v1, pspec->value_type);
  g_value_init (&v2, pspec->value_type);
  fail_unless (gst_value_deserialize (&v1, cases[__i__].value1));
  fail_unless (gst_value_deserialize (&v2, cases[__i__].value2));
  t1 = gst_harness_stress_property_start_full (h, cases[__i__].prop,
      &v1, 1000);
  t2 = gst_harness_stress_property_start_full (h, cases[__i__].prop,
      &v2, 1300);
  for (i = 0; i < 24; i++) {
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
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The property specs and metadata of the interface. */
GST_START_TEST (test_properties_and_metadata)
{
  GstElement *e = gst_element_factory_make ("clclahe", NULL);
  const GParamFlags live = GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING
      | G_PARAM_READWRITE;
  GObjectClass *klass;
  GParamSpec *p;
  static const gchar *tiles[] = { "tiles-x", "tiles-y" };
  guint i, tx, ty;
  gdouble clip;

  fail_unless (e != NULL);
  fail_unless_equals_string (gst_element_class_get_metadata
      (GST_ELEMENT_GET_CLASS (e), GST_ELEMENT_METADATA_KLASS),
      "Filter/Effect/Video");
  klass = G_OBJECT_GET_CLASS (e);
  p = g_object_class_find_property (klass, "clip-limit");
  fail_unless (p != NULL && G_IS_PARAM_SPEC_DOUBLE (p));
  fail_unless ((p->flags & live) == live);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (p)->minimum, 0.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (p)->maximum, 1000.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (p)->default_value, 40.0);
  for (i = 0; i < 2; i++) {
    p = g_object_class_find_property (klass, tiles[i]);
    fail_unless (p != NULL && G_IS_PARAM_SPEC_UINT (p));
    fail_unless ((p->flags & live) == live);
    fail_unless_equals_int (G_PARAM_SPEC_UINT (p)->minimum, 1);
    fail_unless_equals_int (G_PARAM_SPEC_UINT (p)->maximum, 64);
    fail_unless_equals_int (G_PARAM_SPEC_UINT (p)->default_value, 8);
  }
  fail_unless (g_object_class_find_property (klass, "storage") != NULL);
  g_object_set (e, "clip-limit", 2.5, "tiles-x", 16, "tiles-y", 9, NULL);
  g_object_get (e, "clip-limit", &clip, "tiles-x", &tx, "tiles-y", &ty, NULL);
  fail_unless_equals_float (clip, 2.5);
  fail_unless_equals_int (tx, 16);
  fail_unless_equals_int (ty, 9);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
clclahe_suite (void)
{
  Suite *s = suite_create ("clclahe");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  test_add_leak_check (tc);
  test_holds_devices = TRUE;
  tcase_add_test (tc, test_properties_and_metadata);
  tcase_add_loop_test (tc, test_formats, 0, G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_grids, 0, 4);
  tcase_add_loop_test (tc, test_clip_limits, 0, 4);
  tcase_add_loop_test (tc, test_properties_mid_stream, 0, 2);
  tcase_add_loop_test (tc, test_1080p, 0, 2);
  tcase_add_loop_test (tc, test_tunings_and_paths, 0, 4);
  tcase_add_loop_test (tc, test_chain_gaussian, 0, 6);
  tcase_add_loop_test (tc, test_property_stress, 0, 6);
  return s;
}

TEST_MAIN_ONE_PROCESS (clclahe);
