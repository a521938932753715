/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* cllaplace tests: outputs compared with plain C references. */
#include "clcheck.h"

#include <math.h>

static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {17, 13}, {321, 241}, {1920, 1080}
};

enum
{
  MODE_SHARPEN,
  MODE_EDGES,
};

typedef struct
{
  gint mode;
  gdouble strength;
} LapCase;

/* the fractional strengths of the contract, in both modes */
static const LapCase fractional[] = {
  {MODE_SHARPEN, 0.3}, {MODE_SHARPEN, 2.5}, {MODE_SHARPEN, 0.75},
  {MODE_EDGES, 0.3}, {MODE_EDGES, 2.5}, {MODE_EDGES, 0.75},
};

/* --- references ---------------------------------------------------------- */

/* floor (n / d) for d > 0, whatever the sign of n */
static gint
floor_div (gint n, gint d)
{
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* The contract, sample by sample, written as plainly as possible: a cross
 * check of the faster reference below on frames up to 321x241. */
static TEST_REFERENCE guint8
ref_plain (const TestPlane * s, gint x, gint y, gint c, gpointer data)
{
  const LapCase *lc = data;
  gint i, j, l = 0;
  gdouble v;
  for (j = -1; j <= 1; j++)
    for (i = -1; i <= 1; i++) {
      gint yy = clampi (y + j, 0, s->height - 1);
      gint xx = clampi (x + i, 0, s->width - 1);
      gint p = s->data[(gsize) yy * s->stride + xx * s->step + c];
      l += (i == 0 && j == 0) ? 8 * p : -p;
    }
  v = lc->mode == MODE_SHARPEN ?
      s->data[(gsize) y * s->stride + x * s->step + c] + lc->strength * l :
      lc->strength * fabs ((gdouble) l);
  return (guint8) CLAMP (floor (v + 0.5), 0, 255);
}

/* The expected plane 0 of a frame, two ways (computed once per frame and
 * case, with plain loops: per-sample callbacks are slow at 1080p):
 * - dbl, the contract: round (c + strength * L) or round (strength * |L|)
 *   in doubles, halves up, clamped; exact for strength 1;
 * - fixed, what the element documents: strength in steps of 1/16384,
 *   q = round (strength * 16384), strength * L = floor ((q * L + 8192) /
 *   16384), so that every device gives the same bytes.
 * L = 8 * c - (sum of the 8 neighbours), borders replicated. */
typedef struct
{
  guint8 *fixed, *dbl;
  gint width, height, step;
} Expected;

static TEST_REFERENCE Expected
expected_new (GstBuffer * buf, const GstVideoInfo * info, const LapCase * lc)
{
  GstVideoFrame vf;
  TestPlane s;
  Expected e;
  gint x, y, k, q = (gint) lrint (lc->strength * 16384);

  fail_unless (gst_video_frame_map (&vf, info, buf, GST_MAP_READ));
  s = test_plane (&vf, 0);
  e.width = s.width;
  e.height = s.height;
  e.step = s.step;
  e.fixed = g_malloc ((gsize) s.width * s.height * s.step);
  e.dbl = g_malloc ((gsize) s.width * s.height * s.step);
  for (y = 0; y < s.height; y++) {
    const guint8 *ra = s.data + (gsize) MAX (y - 1, 0) * s.stride;
    const guint8 *rb = s.data + (gsize) y * s.stride;
    const guint8 *rc = s.data + (gsize) MIN (y + 1, s.height - 1) * s.stride;
    for (x = 0; x < s.width; x++) {
      gint xl = MAX (x - 1, 0) * s.step, xm = x * s.step;
      gint xr = MIN (x + 1, s.width - 1) * s.step;
      for (k = 0; k < s.step; k++) {
        gint c = rb[xm + k];
        gint sum8 = ra[xl + k] + ra[xm + k] + ra[xr + k] + rb[xl + k] +
            rb[xr + k] + rc[xl + k] + rc[xm + k] + rc[xr + k];
        gint l = 8 * c - sum8, fixed;
        gdouble dbl;
        gsize i = ((gsize) y * s.width + x) * s.step + k;
        if (lc->mode == MODE_SHARPEN) {
          fixed = c + floor_div (q * l + 8192, 16384);
          dbl = floor (c + lc->strength * l + 0.5);
        } else {
          fixed = floor_div (q * ABS (l) + 8192, 16384);
          dbl = floor (lc->strength * ABS (l) + 0.5);
        }
        e.fixed[i] = (guint8) clampi (fixed, 0, 255);
        e.dbl[i] = (guint8) CLAMP (dbl, 0, 255);
      }
    }
  }
  gst_video_frame_unmap (&vf);
  return e;
}

static void
expected_free (Expected * e)
{
  g_free (e->fixed);
  g_free (e->dbl);
}

/* --- helpers -------------------------------------------------------------- */

/* Compares @out with the expected filtering of @in: plane 0 bit for bit
 * with the fixed point reference and within @tolerance of the double one,
 * the kept byte of each pixel (alpha, padding) and every other plane
 * unchanged. Returns the number of mismatches (and logs the first ones). */
static TEST_REFERENCE guint
compare_expected (GstBuffer * inbuf, const GstVideoInfo * in_info,
    GstBuffer * outbuf, const GstVideoInfo * out_info, const gchar * format,
    const Expected * e, gint tolerance, const gchar * what)
{
  GstVideoFrame in, out;
  TestPlane s, d;
  gint step, keep, x, y, k;
  guint p, bad = 0;

  test_format_pixel (format, &step, &keep);
  fail_unless (gst_video_frame_map (&in, in_info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, out_info, outbuf, GST_MAP_READ));
  s = test_plane (&in, 0);
  d = test_plane (&out, 0);
  fail_unless_equals_int (s.step, step);
  fail_unless_equals_int (e->step, step);
  for (y = 0; y < s.height; y++) {
    const guint8 *si = s.data + (gsize) y * s.stride;
    const guint8 *dr = d.data + (gsize) y * d.stride;
    const gsize row = (gsize) y * e->width * step;
    for (x = 0; x < s.width * step; x += step)
      for (k = 0; k < step; k++) {
        gint got = dr[x + k], want, near;
        if (k == keep)
          want = near = si[x + k];
        else
          want = e->fixed[row + x + k], near = e->dbl[row + x + k];
        if (got != want || ABS (got - near) > tolerance) {
          if (bad < 5)
            GST_ERROR ("%s: %s %dx%d at (%d,%d) byte %d: got %d, want %d "
                "(double reference %d)", what, format, s.width, s.height,
                x / step, y, k, got, want, near);
          bad++;
        }
      }
  }
  for (p = 1; p < GST_VIDEO_FRAME_N_PLANES (&in); p++) {
    TestPlane a = test_plane (&in, p), b = test_plane (&out, p);
    for (y = 0; y < a.height; y++)
      if (memcmp (a.data + (gsize) y * a.stride, b.data + (gsize) y *
              b.stride, (gsize) a.width * a.step) != 0) {
        if (bad < 5)
          GST_ERROR ("%s: %s plane %u row %d changed", what, format, p, y);
        bad++;
      }
  }
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return bad;
}

/* Filters one frame of @format/@w x @ht with each of the @n harnesses @hs
 * (launched as @whats) and checks every output. */
static void
check_frame (GstHarness ** hs, gchar ** whats, guint n, const gchar * format,
    gint w, gint ht, TestContent content, gboolean padded, const LapCase * lc,
    guint32 seed)
{
  GstVideoInfo info = test_info (format, w, ht);
  TestFrame f = test_frame_new (&info, content, padded, w * 31 + ht + seed);
  Expected e = expected_new (f.buffer, &f.info, lc);
  guint i;

  for (i = 0; i < n; i++) {
    GstBuffer *out = test_push_pull (hs[i], &f);
    guint bad;
    fail_unless (out != NULL);
    bad = compare_expected (f.buffer, &f.info, out, &info, format, &e,
        lc->strength == 1.0 ? 0 : 1, whats[i]);
    if (w * ht <= 321 * 241)
      bad += test_compare (f.buffer, &f.info, out, &info, format, ref_plain,
          (gpointer) lc, lc->strength == 1.0 ? 0 : 1, whats[i]);
    fail_unless (bad == 0, "%s: %s %dx%d (%s, %s): %u samples differ",
        whats[i], format, w, ht, content == CONTENT_RANDOM ? "random" :
        "structured", padded ? "padded strides" : "default strides", bad);
    gst_buffer_unref (out);
  }
  expected_free (&e);
  gst_buffer_unref (f.buffer);
}

static void
check_one (GstHarness * h, const gchar * format, gint w, gint ht,
    TestContent content, gboolean padded, const LapCase * lc, guint32 seed,
    const gchar * what)
{
  gchar *whats[1] = { (gchar *) what };
  check_frame (&h, whats, 1, format, w, ht, content, padded, lc, seed);
}

/* "mode=... strength=..." for @lc */
static gchar *
case_props (const LapCase * lc)
{
  gchar s[G_ASCII_DTOSTR_BUF_SIZE];
  return g_strdup_printf ("mode=%s strength=%s",
      lc->mode == MODE_SHARPEN ? "sharpen" : "edges",
      g_ascii_formatd (s, sizeof (s), "%g", lc->strength));
}

static GstHarness *
harness_for (const gchar * launch, const gchar * format, gint w, gint h)
{
  GstHarness *hs = test_harness_new (launch);
  gchar *caps = test_caps_string (format, w, h);
  gst_harness_set_caps_str (hs, caps, caps);
  g_free (caps);
  return hs;
}

static void
set_caps (GstHarness * h, const gchar * format, gint w, gint ht)
{
  gchar *caps = test_caps_string (format, w, ht);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  g_free (caps);
}

/* One element per memory kind, fed the same frames (each checked against
 * a reference computed once). */
typedef struct
{
  GstHarness *h[2];
  gchar *what[2];
} Pair;

static Pair
pair_new (const gchar * props, const gchar * format, gint w, gint ht)
{
  Pair p;
  guint m;
  for (m = 0; m < 2; m++) {
    p.what[m] = g_strdup_printf ("cllaplace storage=%s%s%s", memory_kinds[m],
        *props ? " " : "", props);
    p.h[m] = harness_for (p.what[m], format, w, ht);
  }
  return p;
}

static void
pair_set_caps (Pair * p, const gchar * format, gint w, gint ht)
{
  set_caps (p->h[0], format, w, ht);
  set_caps (p->h[1], format, w, ht);
}

static void
pair_check (Pair * p, const gchar * format, gint w, gint ht,
    TestContent content, gboolean padded, const LapCase * lc, guint32 seed)
{
  check_frame (p->h, p->what, 2, format, w, ht, content, padded, lc, seed);
}

static void
pair_free (Pair * p)
{
  guint m;
  for (m = 0; m < 2; m++) {
    gst_harness_teardown (p->h[m]);
    g_free (p->what[m]);
  }
}

/* Both memory kinds go through every size (so caps change mid-stream too),
 * on random and structured content. With @props NULL the properties are
 * set from @lc, else @props is the whole property list. Without
 * @big_structured the 1920x1080 frame is random content only; repeating
 * "sizes", it is left out (its layout and launch take the paths of
 * 321x241). */
static void
check_all_sizes (const gchar * format, const LapCase * lc, const gchar * props,
    gboolean big_structured)
{
  gchar *cprops = props ? g_strdup (props) : case_props (lc);
  Pair p = pair_new (cprops, format, sizes[0][0], sizes[0][1]);
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gboolean big = sizes[s][0] >= 1920;
    if (big && test_repeats ("sizes"))
      continue;
    pair_set_caps (&p, format, sizes[s][0], sizes[s][1]);
    pair_check (&p, format, sizes[s][0], sizes[s][1], CONTENT_RANDOM, FALSE,
        lc, 0);
    if (!big || big_structured)
      pair_check (&p, format, sizes[s][0], sizes[s][1], CONTENT_STRUCTURED,
          FALSE, lc, 0);
  }
  pair_free (&p);
  g_free (cprops);
}

/* Whether two frames hold the same samples in every plane (row padding,
 * which nothing writes, is left out). */
static gboolean
same_frames (const GstVideoInfo * info, GstBuffer * a, GstBuffer * b)
{
  GstVideoFrame fa, fb;
  gboolean same = TRUE;
  guint p;
  gint y;

  fail_unless (gst_video_frame_map (&fa, info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, info, b, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    TestPlane pa = test_plane (&fa, p), pb = test_plane (&fb, p);
    for (y = 0; y < pa.height; y++)
      if (memcmp (pa.data + (gsize) y * pa.stride,
              pb.data + (gsize) y * pb.stride, (gsize) pa.width * pa.step)) {
        GST_ERROR ("plane %u row %d differs", p, y);
        same = FALSE;
        break;
      }
  }
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
  return same;
}

/* --- tests ---------------------------------------------------------------- */

/* The defaults (no property set) are the exact sharpen clamp (9c - sum8),
 * for every format, memory kind and size. */
GST_START_TEST (test_default_exact)
{
  static const LapCase lc = { MODE_SHARPEN, 1.0 };
  check_all_sizes (all_formats[__i__], &lc, "", TRUE);
}

GST_END_TEST;

/* mode=edges at strength 1 is the exact clamp (|8c - sum8|). */
GST_START_TEST (test_edges_exact)
{
  static const LapCase lc = { MODE_EDGES, 1.0 };
  check_all_sizes (all_formats[__i__], &lc, "mode=edges", TRUE);
}

GST_END_TEST;

/* Sets mode and strength of both elements of @p (while playing). */
static void
pair_set_case (Pair * p, const LapCase * lc)
{
  guint m;
  for (m = 0; m < 2; m++) {
    GstElement *e = gst_harness_find_element (p->h[m], "cllaplace");
    fail_unless (e != NULL);
    gst_util_set_object_arg (G_OBJECT (e), "mode",
        lc->mode == MODE_SHARPEN ? "sharpen" : "edges");
    g_object_set (e, "strength", lc->strength, NULL);
    gst_object_unref (e);
  }
}

/* Fractional strengths in both modes round to nearest. One element per
 * memory kind goes through every size and, at each size, every strength
 * (set while playing); the 1920x1080 frame is random content only, and
 * left out repeating "sizes". */
GST_START_TEST (test_fractional_strengths)
{
  const gchar *format = all_formats[__i__];
  Pair p = pair_new ("", format, sizes[0][0], sizes[0][1]);
  guint c, s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gboolean big = sizes[s][0] >= 1920;
    if (big && test_repeats ("sizes"))
      continue;
    pair_set_caps (&p, format, sizes[s][0], sizes[s][1]);
    for (c = 0; c < G_N_ELEMENTS (fractional); c++) {
      gchar *props = case_props (&fractional[c]);
      guint m;
      pair_set_case (&p, &fractional[c]);
      /* name the case in failure messages */
      for (m = 0; m < 2; m++) {
        g_free (p.what[m]);
        p.what[m] = g_strdup_printf ("cllaplace storage=%s %s",
            memory_kinds[m], props);
      }
      pair_check (&p, format, sizes[s][0], sizes[s][1], CONTENT_RANDOM, FALSE,
          &fractional[c], c);
      if (!big)
        pair_check (&p, format, sizes[s][0], sizes[s][1], CONTENT_STRUCTURED,
            FALSE, &fractional[c], c);
      g_free (props);
    }
  }
  pair_free (&p);
}

GST_END_TEST;

/* Input whose GstVideoMeta has strides and plane offsets of its own. */
GST_START_TEST (test_padded_strides)
{
  static const LapCase cases[] = {
    {MODE_SHARPEN, 1.0}, {MODE_EDGES, 1.0}, {MODE_SHARPEN, 0.75},
    {MODE_EDGES, 2.5},
  };
  static const gint psizes[][2] = { {1, 1}, {2, 3}, {17, 13}, {321, 241} };
  const gchar *format = all_formats[__i__];
  guint c, s;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gchar *props = case_props (&cases[c]);
    Pair p = pair_new (props, format, 1, 1);
    for (s = 0; s < G_N_ELEMENTS (psizes); s++) {
      pair_set_caps (&p, format, psizes[s][0], psizes[s][1]);
      pair_check (&p, format, psizes[s][0], psizes[s][1],
          s % 2 ? CONTENT_STRUCTURED : CONTENT_RANDOM, TRUE, &cases[c], c);
    }
    pair_free (&p);
    g_free (props);
  }
}

GST_END_TEST;

/* Every kernel shape and tuning value, and the copying path of discrete
 * GPUs, give the same output. Repeating "kernels", one case a tuning,
 * turning with the format, so that each format and path still meets every
 * tuning and case. */
GST_START_TEST (test_tuning_and_paths)
{
  static const gchar *tunings[] = {
    "kernel-shape=strips", "kernel-shape=tiles",
    "kernel-shape=strips rows-per-item=3 pixels-per-item=37",
    "kernel-shape=strips work-group-size=4 rows-per-item=1",
    "kernel-shape=tiles pixels-per-item=5 rows-per-item=7 work-group-size=16",
    "kernel-shape=tiles work-group-size=1",
  };
  static const LapCase cases[] = {
    {MODE_SHARPEN, 1.0}, {MODE_EDGES, 1.0}, {MODE_SHARPEN, 0.3},
    {MODE_EDGES, 2.5},
  };
  static const gchar *formats[] = { "GRAY8", "RGB", "RGBA", "ABGR", "I420" };
  const gchar *format = formats[__i__ % G_N_ELEMENTS (formats)];
  gboolean copies = __i__ >= (gint) G_N_ELEMENTS (formats);
  guint t, c;

  if (copies)
    g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
  for (t = 0; t < G_N_ELEMENTS (tunings); t++)
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      gchar *cp, *props;
      Pair p;
      if (test_repeats ("kernels") && c != (t + __i__) % G_N_ELEMENTS (cases))
        continue;
      cp = case_props (&cases[c]);
      props = g_strdup_printf ("%s %s", cp, tunings[t]);
      p = pair_new (props, format, 83, 29);
      pair_check (&p, format, 83, 29, CONTENT_RANDOM, TRUE, &cases[c], t);
      pair_set_caps (&p, format, 1, 1);
      pair_check (&p, format, 1, 1, CONTENT_RANDOM, FALSE, &cases[c], t);
      pair_set_caps (&p, format, 50, 3);
      pair_check (&p, format, 50, 3, CONTENT_STRUCTURED, FALSE, &cases[c], t);
      pair_free (&p);
      g_free (props);
      g_free (cp);
    }
  g_unsetenv ("GST_CL_ZERO_COPY");
}

GST_END_TEST;

/* The GPU kernel of 8-byte words, in its four arithmetic variants: the
 * cases of clcheck.h. */
GST_START_TEST (test_words8)
{
  static const LapCase cases[] = {
    {MODE_SHARPEN, 1.0}, {MODE_EDGES, 1.0}, {MODE_SHARPEN, 0.3},
    {MODE_EDGES, 2.5},
  };
  const gchar *format = words8_formats[__i__];
  guint t, c, s, p;

  for (t = 0; t < G_N_ELEMENTS (words8_tunings); t++)
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      gchar *cp = case_props (&cases[c]);
      gchar *launch = g_strdup_printf ("cllaplace storage=buffer %s %s", cp,
          words8_tunings[t]);
      GstHarness *h = harness_for (launch, format, 8, 1);
      for (s = 0; s < G_N_ELEMENTS (words8_sizes); s++) {
        const gint w = words8_sizes[s][0], ht = words8_sizes[s][1];
        set_caps (h, format, w, ht);
        for (p = 0; p < G_N_ELEMENTS (words8_pads); p++)
          check_one (h, format, w, ht, words8_pads[p] == TEST_PAD_ALIGNED ?
              CONTENT_STRUCTURED : CONTENT_RANDOM, words8_pads[p],
              &cases[c], t * 7 + s, launch);
      }
      gst_harness_teardown (h);
      g_free (launch);
      g_free (cp);
    }
}

GST_END_TEST;

/* storage=image and storage=buffer give identical buffers. */
GST_START_TEST (test_image_equals_buffer)
{
  static const LapCase cases[] = {
    {MODE_SHARPEN, 1.0}, {MODE_EDGES, 1.0}, {MODE_SHARPEN, 0.3},
    {MODE_EDGES, 0.75}, {MODE_SHARPEN, 16.0}, {MODE_EDGES, 0.0},
  };
  static const gchar *formats[] = { "GRAY8", "RGB", "RGBA", "BGRx", "xRGB",
    "NV12"
  };
  guint f, c;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      GstVideoInfo info = test_info (formats[f], 321, 241);
      TestFrame fr = test_frame_new (&info, c % 2 ? CONTENT_STRUCTURED :
          CONTENT_RANDOM, FALSE, c);
      GstBuffer *outs[2];
      guint m;
      for (m = 0; m < 2; m++) {
        gchar *props = case_props (&cases[c]);
        gchar *launch = g_strdup_printf ("cllaplace storage=%s %s",
            memory_kinds[m], props);
        GstHarness *h = harness_for (launch, formats[f], 321, 241);
        g_free (props);
        outs[m] = test_push_pull (h, &fr);
        gst_harness_teardown (h);
        g_free (launch);
      }
      fail_unless (same_frames (&info, outs[0], outs[1]),
          "image and buffer differ for %s, case %u", formats[f], c);
      gst_buffer_unref (outs[0]);
      gst_buffer_unref (outs[1]);
      gst_buffer_unref (fr.buffer);
    }
}

GST_END_TEST;

/* mode and strength change between frames while playing, including the
 * ends of the strength range. */
GST_START_TEST (test_properties_mid_stream)
{
  static const LapCase steps[] = {
    {MODE_SHARPEN, 1.0}, {MODE_EDGES, 1.0}, {MODE_SHARPEN, 0.3},
    {MODE_EDGES, 2.5}, {MODE_SHARPEN, 16.0}, {MODE_EDGES, 16.0},
    {MODE_SHARPEN, 0.0}, {MODE_EDGES, 0.0}, {MODE_EDGES, 0.75},
    /* strength * 16384 with a fraction: rounded, not truncated */
    {MODE_SHARPEN, 1.7}, {MODE_EDGES, 3.1234}, {MODE_SHARPEN, 1.0},
  };
  const gchar *mem = memory_kinds[__i__ / 2];
  const gchar *format = __i__ % 2 ? "GRAY8" : "RGBx";
  gchar *launch = g_strdup_printf ("cllaplace storage=%s", mem);
  GstHarness *h = harness_for (launch, format, 64, 40);
  GstElement *e = gst_harness_find_element (h, "cllaplace");
  gchar *props, *what;
  guint s;

  fail_unless (e != NULL);
  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    gst_util_set_object_arg (G_OBJECT (e), "mode",
        steps[s].mode == MODE_SHARPEN ? "sharpen" : "edges");
    g_object_set (e, "strength", steps[s].strength, NULL);
    props = case_props (&steps[s]);
    what = g_strdup_printf ("%s, then %s", launch, props);
    check_one (h, format, 64, 40, s % 2 ? CONTENT_STRUCTURED :
        CONTENT_RANDOM, FALSE, &steps[s], s, what);
    g_free (what);
    g_free (props);
  }
  gst_object_unref (e);
  gst_harness_teardown (h);
  g_free (launch);
}

GST_END_TEST;

/* The property specs and metadata the interface names. */
GST_START_TEST (test_properties_and_metadata)
{
  GstElement *e = gst_element_factory_make ("cllaplace", NULL);
  GObjectClass *klass;
  GParamSpec *p;
  GEnumClass *ec;
  const GParamFlags live = GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING
      | G_PARAM_READWRITE;
  gint mode;
  gdouble strength;

  fail_unless (e != NULL);
  fail_unless_equals_string (gst_element_class_get_metadata
      (GST_ELEMENT_GET_CLASS (e), GST_ELEMENT_METADATA_KLASS),
      "Filter/Effect/Video");
  klass = G_OBJECT_GET_CLASS (e);

  p = g_object_class_find_property (klass, "mode");
  fail_unless (p != NULL && G_IS_PARAM_SPEC_ENUM (p));
  fail_unless_equals_string (g_type_name (p->value_type), "GstClLaplaceMode");
  fail_unless ((p->flags & live) == live);
  ec = G_PARAM_SPEC_ENUM (p)->enum_class;
  fail_unless_equals_int (ec->n_values, 2);
  fail_unless (g_enum_get_value_by_nick (ec, "sharpen") != NULL);
  fail_unless (g_enum_get_value_by_nick (ec, "edges") != NULL);
  fail_unless_equals_int (G_PARAM_SPEC_ENUM (p)->default_value,
      g_enum_get_value_by_nick (ec, "sharpen")->value);

  p = g_object_class_find_property (klass, "strength");
  fail_unless (p != NULL && G_IS_PARAM_SPEC_DOUBLE (p));
  fail_unless ((p->flags & live) == live);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (p)->minimum, 0.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (p)->maximum, 16.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (p)->default_value, 1.0);

  /* the shared properties come from the base class */
  fail_unless (g_object_class_find_property (klass, "storage") != NULL);
  fail_unless (g_object_class_find_property (klass, "profiling") != NULL);

  gst_util_set_object_arg (G_OBJECT (e), "mode", "edges");
  g_object_set (e, "strength", 2.5, NULL);
  g_object_get (e, "mode", &mode, "strength", &strength, NULL);
  fail_unless_equals_int (mode, g_enum_get_value_by_nick (ec,
          "edges")->value);
  fail_unless_equals_float (strength, 2.5);
  gst_object_unref (e);
}

GST_END_TEST;

/* cl-profile messages report kernel time. */
GST_START_TEST (test_profiling)
{
  GstHarness *h = harness_for ("cllaplace profiling=true", "GRAY8", 64, 48);
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info = test_info ("GRAY8", 64, 48);
  GstMessage *msg;
  guint i, frames = 0;
  guint64 kernel_ns = 0;

  gst_element_set_bus (h->element, bus);
  for (i = 0; i < 25; i++) {
    TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, i);
    GST_BUFFER_PTS (f.buffer) = i * GST_SECOND / 10;
    GST_BUFFER_DURATION (f.buffer) = GST_SECOND / 10;
    gst_buffer_unref (test_push_pull (h, &f));
    gst_buffer_unref (f.buffer);
  }
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (msg);
    if (gst_structure_has_name (s, "cl-profile")) {
      guint n;
      guint64 k;
      fail_unless (gst_structure_get (s, "frames", G_TYPE_UINT, &n,
              "kernel-ns", G_TYPE_UINT64, &k, NULL));
      frames += n;
      kernel_ns += k;
    }
    gst_message_unref (msg);
  }
  fail_unless (frames >= 10, "profiled %u frames", frames);
  fail_unless (kernel_ns > 0);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* --- formats of more than 8 bits ------------------------------------------ */

/* The expected values (D-bit levels) of plane 0 of a frame of a format of
 * more than 8 bits, computed once per frame and case from the sample values
 * (test_value: bits outside the value ignored), generic over the depth with
 * maxv = 2^D - 1:
 * - dbl, the contract: round (c + strength * L) or round (strength * |L|)
 *   in doubles, halves up, clamped to 0..maxv; exact for strength 1;
 * - fixed, what the element documents: floor ((q * L + 2^17) / 2^18) with
 *   q = round (strength * 2^18), here in 64 bits (q * L needs 42). */
typedef struct
{
  gint *fixed, *dbl;
  gint width, height, step;
} DeepExpected;

/* floor (n / d) for d > 0, whatever the sign of n */
static gint64
floor_div64 (gint64 n, gint64 d)
{
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}

static DeepExpected
deep_expected_new (GstBuffer * buf, const GstVideoInfo * info,
    const LapCase * lc)
{
  GstVideoFrame vf;
  TestPlane s;
  DeepExpected e;
  gint *val, x, y, k, maxv;
  const gint64 q = lrint (lc->strength * 262144);

  fail_unless (gst_video_frame_map (&vf, info, buf, GST_MAP_READ));
  s = test_plane (&vf, 0);
  fail_unless (s.bytes == 2);
  maxv = (1 << s.depth) - 1;
  e.width = s.width;
  e.height = s.height;
  e.step = s.step;
  e.fixed = g_new (gint, (gsize) s.width * s.height * s.step);
  e.dbl = g_new (gint, (gsize) s.width * s.height * s.step);
  /* the values first: nine lookups per sample below */
  val = g_new (gint, (gsize) s.width * s.height * s.step);
  for (y = 0; y < s.height; y++)
    for (x = 0; x < s.width; x++)
      for (k = 0; k < s.step; k++)
        val[((gsize) y * s.width + x) * s.step + k] = test_value (&s, x, y, k);
  for (y = 0; y < s.height; y++)
    for (x = 0; x < s.width; x++)
      for (k = 0; k < s.step; k++) {
        gint i, j, sum8 = 0, c, l;
        gint64 fixed;
        gdouble dbl;
        gsize at = ((gsize) y * s.width + x) * s.step + k;
        for (j = -1; j <= 1; j++)
          for (i = -1; i <= 1; i++) {
            gint yy = clampi (y + j, 0, s.height - 1);
            gint xx = clampi (x + i, 0, s.width - 1);
            if (i != 0 || j != 0)
              sum8 += val[((gsize) yy * s.width + xx) * s.step + k];
          }
        c = val[at];
        l = 8 * c - sum8;
        if (lc->mode == MODE_SHARPEN) {
          fixed = c + floor_div64 (q * l + 131072, 262144);
          dbl = floor (c + lc->strength * l + 0.5);
        } else {
          fixed = floor_div64 (q * ABS (l) + 131072, 262144);
          dbl = floor (lc->strength * ABS (l) + 0.5);
        }
        e.fixed[at] = (gint) CLAMP (fixed, 0, maxv);
        e.dbl[at] = (gint) CLAMP (dbl, 0, maxv);
      }
  g_free (val);
  gst_video_frame_unmap (&vf);
  return e;
}

static void
deep_expected_free (DeepExpected * e)
{
  g_free (e->fixed);
  g_free (e->dbl);
}

typedef struct
{
  const gint *values;
  gint width, step;
} DeepLookup;

/* TestValueRefFunc of a precomputed plane of values */
static gint
deep_lookup (const TestPlane * src, gint x, gint y, gint c, gpointer data)
{
  const DeepLookup *d = data;
  return d->values[((gsize) y * d->width + x) * d->step + c];
}

static const gchar *
content_name (TestContent content)
{
  return content == CONTENT_RANDOM ? "random" : content == CONTENT_STRUCTURED
      ? "structured" : "dirty bits";
}

/* Filters one frame of @format/@w x @ht with each of the @n harnesses @hs
 * (launched as @whats) and checks every output with test_compare_values:
 * equal to the fixed point reference, within @lc's tolerance (0 at
 * strength 1, else 1) of the double one, words in the format's packing. */
static void
deep_check_frame (GstHarness ** hs, gchar ** whats, guint n,
    const gchar * format, gint w, gint ht, TestContent content,
    gboolean padded, const LapCase * lc, guint32 seed)
{
  GstVideoInfo info = test_info (format, w, ht);
  TestFrame f = test_frame_new (&info, content, padded, w * 31 + ht + seed);
  DeepExpected e = deep_expected_new (f.buffer, &f.info, lc);
  DeepLookup fixed = { e.fixed, e.width, e.step };
  DeepLookup dbl = { e.dbl, e.width, e.step };
  const gint tolerance = lc->strength == 1.0 ? 0 : 1;
  guint i;

  for (i = 0; i < n; i++) {
    GstBuffer *out = test_push_pull (hs[i], &f);
    guint bad;
    fail_unless (out != NULL);
    bad = test_compare_values (f.buffer, &f.info, out, &info, format,
        deep_lookup, &fixed, 0, whats[i]);
    if (tolerance)
      bad += test_compare_values (f.buffer, &f.info, out, &info, format,
          deep_lookup, &dbl, tolerance, whats[i]);
    fail_unless (bad == 0, "%s: %s %dx%d (%s, %s): %u samples differ",
        whats[i], format, w, ht, content_name (content),
        padded ? "padded strides" : "default strides", bad);
    gst_buffer_unref (out);
  }
  deep_expected_free (&e);
  gst_buffer_unref (f.buffer);
}

static void
deep_pair_check (Pair * p, const gchar * format, gint w, gint ht,
    TestContent content, gboolean padded, const LapCase * lc, guint32 seed)
{
  deep_check_frame (p->h, p->what, 2, format, w, ht, content, padded, lc,
      seed);
}

/* small sizes of the deep tests: single pixels, odd widths, rows too narrow
 * for a vector, and rows long enough for the vector loops (16 samples a
 * step, 32 in the unrolled one) with scalar borders on both sides */
static const gint deep_sizes[][2] = {
  {1, 1}, {2, 2}, {17, 5}, {35, 9}, {67, 3}, {203, 4}
};

static const TestContent deep_contents[] = {
  CONTENT_RANDOM, CONTENT_STRUCTURED, CONTENT_DIRTY
};

/* Every size of deep_sizes, each content, default and padded strides, in
 * both memory kinds, for the @n cases of @cases (properties set while
 * playing, so that caps and cases change mid-stream). */
static void
deep_check_sizes (const gchar * format, const LapCase * cases, guint n)
{
  Pair p = pair_new ("", format, deep_sizes[0][0], deep_sizes[0][1]);
  guint s, c, k, m;

  for (s = 0; s < G_N_ELEMENTS (deep_sizes); s++) {
    const gint w = deep_sizes[s][0], ht = deep_sizes[s][1];
    pair_set_caps (&p, format, w, ht);
    for (c = 0; c < n; c++) {
      gchar *props = case_props (&cases[c]);
      pair_set_case (&p, &cases[c]);
      for (m = 0; m < 2; m++) {
        g_free (p.what[m]);
        p.what[m] = g_strdup_printf ("cllaplace storage=%s %s",
            memory_kinds[m], props);
      }
      for (k = 0; k < G_N_ELEMENTS (deep_contents); k++)
        deep_pair_check (&p, format, w, ht, deep_contents[k], FALSE,
            &cases[c], s + k);
      deep_pair_check (&p, format, w, ht, deep_contents[(s + c) % 3], TRUE,
          &cases[c], s);
      g_free (props);
    }
  }
  pair_free (&p);
}

/* Formats of more than 8 bits at strength 1, both modes: exact, for every
 * small size, content (dirty bits outside the value ignored, written as
 * zero) and memory kind, default and padded strides. */
GST_START_TEST (test_deep_exact)
{
  static const LapCase cases[] = {
    {MODE_SHARPEN, 1.0}, {MODE_EDGES, 1.0},
  };
  deep_check_sizes (deep_formats[__i__].name, cases, G_N_ELEMENTS (cases));
}

GST_END_TEST;

/* Formats of more than 8 bits at other strengths, both modes: the fixed
 * point result exactly and within 1 of the double-precision one, the
 * largest strength included (16: q * L needs 38 bits). */
GST_START_TEST (test_deep_strengths)
{
  static const LapCase cases[] = {
    {MODE_SHARPEN, 0.3}, {MODE_EDGES, 0.3}, {MODE_SHARPEN, 16.0},
    {MODE_EDGES, 16.0}, {MODE_SHARPEN, 2.5}, {MODE_EDGES, 0.0},
  };
  deep_check_sizes (deep_formats[__i__].name, cases, G_N_ELEMENTS (cases));
}

GST_END_TEST;

/* A 1920x1080 frame of some formats of more than 8 bits, both memory
 * kinds: the default exact sharpen on dirty bits, then edges at a
 * fractional strength on structured content. */
GST_START_TEST (test_deep_1080p)
{
  static const gchar *formats[] = { "P010_10LE", "RGBA64_LE", "I420_12LE" };
  static const LapCase cases[] = {
    {MODE_SHARPEN, 1.0}, {MODE_EDGES, 0.3},
  };
  const gchar *format = formats[__i__];
  Pair p = pair_new ("", format, 1920, 1080);
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    pair_set_case (&p, &cases[c]);
    deep_pair_check (&p, format, 1920, 1080, c ? CONTENT_STRUCTURED :
        CONTENT_DIRTY, FALSE, &cases[c], c);
  }
  pair_free (&p);
}

GST_END_TEST;

/* The kernel shapes of both device kinds on formats of more than 8 bits:
 * tiles of 16 samples (the GPU walk down aligned columns where rows are
 * 32-byte aligned: widths of 64 and 96 samples), odd work-item sizes, and
 * strips of a few rows. */
GST_START_TEST (test_deep_tuning)
{
  static const gchar *tunings[] = {
    "kernel-shape=tiles", "kernel-shape=strips",
    "kernel-shape=tiles pixels-per-item=5 rows-per-item=7 work-group-size=16",
    "kernel-shape=strips rows-per-item=3 pixels-per-item=37",
  };
  static const LapCase cases[] = {
    {MODE_SHARPEN, 1.0}, {MODE_EDGES, 1.0}, {MODE_SHARPEN, 0.3},
    {MODE_EDGES, 16.0},
  };
  static const gint tsizes[][2] = { {64, 5}, {96, 7}, {83, 6}, {3, 4} };
  const gchar *format = __i__ % 2 ? "RGBA64_LE" : "P010_10LE";
  gboolean copies = __i__ >= 2;
  guint t, c, s;

  if (copies)
    g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
  for (t = 0; t < G_N_ELEMENTS (tunings); t++)
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      gchar *cp = case_props (&cases[c]);
      gchar *props = g_strdup_printf ("%s %s", cp, tunings[t]);
      Pair p = pair_new (props, format, tsizes[0][0], tsizes[0][1]);
      for (s = 0; s < G_N_ELEMENTS (tsizes); s++) {
        pair_set_caps (&p, format, tsizes[s][0], tsizes[s][1]);
        deep_pair_check (&p, format, tsizes[s][0], tsizes[s][1],
            deep_contents[(s + c) % 3], s == 2, &cases[c], t);
      }
      pair_free (&p);
      g_free (props);
      g_free (cp);
    }
  g_unsetenv ("GST_CL_ZERO_COPY");
}

GST_END_TEST;

/* One element switches between 8-bit formats and formats of more than 8
 * bits (caps changes mid-stream pick the other kernels). */
GST_START_TEST (test_deep_caps_changes)
{
  static const gchar *formats[] = { "GRAY8", "GRAY16_LE", "RGBA",
    "RGBA64_LE", "P010_10LE", "NV12", "P010_10LE"
  };
  static const LapCase lc = { MODE_SHARPEN, 1.0 };
  Pair p = pair_new ("", formats[0], 37, 11);
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    pair_set_caps (&p, formats[f], 37, 11);
    if (test_deep_format (formats[f]))
      deep_pair_check (&p, formats[f], 37, 11, CONTENT_DIRTY, FALSE, &lc, f);
    else
      pair_check (&p, formats[f], 37, 11, CONTENT_RANDOM, FALSE, &lc, f);
  }
  pair_free (&p);
}

GST_END_TEST;

static Suite *
cllaplace_suite (void)
{
  Suite *s = suite_create ("cllaplace");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  test_add_leak_check (tc);
  test_holds_devices = TRUE;
  tcase_add_test (tc, test_properties_and_metadata);
  tcase_add_loop_test (tc, test_default_exact, 0,
      G_N_ELEMENTS (all_formats) - 1);
  tcase_add_loop_test (tc, test_edges_exact, 0,
      G_N_ELEMENTS (all_formats) - 1);
  tcase_add_loop_test (tc, test_fractional_strengths, 0,
      G_N_ELEMENTS (all_formats) - 1);
  tcase_add_loop_test (tc, test_padded_strides, 0,
      G_N_ELEMENTS (all_formats) - 1);
  tcase_add_loop_test (tc, test_tuning_and_paths, 0, 10);
  tcase_add_loop_test (tc, test_words8, 0, G_N_ELEMENTS (words8_formats));
  tcase_add_test (tc, test_image_equals_buffer);
  tcase_add_loop_test (tc, test_properties_mid_stream, 0, 4);
  tcase_add_test (tc, test_profiling);
  tcase_add_loop_test (tc, test_deep_exact, 0,
      G_N_ELEMENTS (deep_formats) - 1);
  tcase_add_loop_test (tc, test_deep_strengths, 0,
      G_N_ELEMENTS (deep_formats) - 1);
  tcase_add_loop_test (tc, test_deep_1080p, 0, 3);
  tcase_add_loop_test (tc, test_deep_tuning, 0, 4);
  tcase_add_test (tc, test_deep_caps_changes);
  return s;
}

TEST_MAIN_ONE_PROCESS (cllaplace);
