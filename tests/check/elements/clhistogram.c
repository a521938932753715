/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clhistogram tests: messages compared with counts and statistics computed
 * in plain C in the test. */
#include "clcheck.h"

#include <math.h>

/* samples (bytes, or 16-bit words) of red, green and blue in packed RGB
 * pixels (-1: not RGB) */
static void
rgb_offsets (const gchar * format, gint * r, gint * g, gint * b)
{
  static const struct
  {
    const gchar *name;
    gint r, g, b;
  } table[] = {
    {"RGB", 0, 1, 2}, {"BGR", 2, 1, 0}, {"RGBA", 0, 1, 2}, {"BGRA", 2, 1, 0},
    {"ARGB", 1, 2, 3}, {"ABGR", 3, 2, 1}, {"RGBx", 0, 1, 2}, {"BGRx", 2, 1, 0},
    {"xRGB", 1, 2, 3}, {"xBGR", 3, 2, 1}, {"RGBA64_LE", 0, 1, 2},
  };
  guint i;
  *r = *g = *b = -1;
  for (i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (table[i].name, format)) {
      *r = table[i].r;
      *g = table[i].g;
      *b = table[i].b;
    }
}

/* reference counts of every level of the format's depth (256 for 8-bit
 * formats, 2^D for the others): [0] luma, [1] red, [2] green, [3] blue */
typedef struct
{
  guint depth;                  /* 0 until the first frame is counted */
  guint64 *c[4];
  guint64 pixels;
  gboolean rgb;
} RefCounts;

#define REF_INIT { 0, {NULL, NULL, NULL, NULL}, 0, FALSE }

/* frees the counts: @rc is as REF_INIT made it */
static void
ref_clear (RefCounts * rc)
{
  guint i;
  for (i = 0; i < 4; i++)
    g_free (rc->c[i]);
  memset (rc, 0, sizeof (*rc));
}

static TEST_REFERENCE void
ref_count (RefCounts * rc, GstBuffer * buf, const GstVideoInfo * info,
    const gchar * format)
{
  GstVideoFrame vf;
  TestPlane p;
  gint r, g, b, x, y, i;

  rgb_offsets (format, &r, &g, &b);
  rc->rgb = r >= 0;
  fail_unless (gst_video_frame_map (&vf, info, buf, GST_MAP_READ));
  p = test_plane (&vf, 0);
  if (!rc->depth) {
    rc->depth = p.depth;
    for (i = 0; i < 4; i++)
      rc->c[i] = g_new0 (guint64, 1u << p.depth);
  }
  fail_unless_equals_int (rc->depth, p.depth);
  for (y = 0; y < p.height; y++)
    for (x = 0; x < p.width; x++) {
      if (rc->rgb) {
        /* the values (bits outside them ignored), 32-bit arithmetic */
        guint32 vr = test_value (&p, x, y, r), vg = test_value (&p, x, y, g);
        guint32 vb = test_value (&p, x, y, b);
        rc->c[0][(4899 * vr + 9617 * vg + 1868 * vb + 8192) >> 14]++;
        rc->c[1][vr]++;
        rc->c[2][vg]++;
        rc->c[3][vb]++;
      } else {
        rc->c[0][test_value (&p, x, y, 0)]++;
      }
    }
  rc->pixels += (guint64) p.width * p.height;
  gst_video_frame_unmap (&vf);
}

/* the statistics are double sums in the order of the levels: the element
 * and this reference only differ by rounding, far below this */
static gboolean
close_rel (gdouble a, gdouble b)
{
  return fabs (a - b) <= 1e-9 * MAX (fabs (b), 1e-12) || fabs (a - b) < 1e-12;
}

static guint
arr_uint (const GstStructure * s, const gchar * field, guint i)
{
  const GValue *a = gst_structure_get_value (s, field);
  fail_unless (a && GST_VALUE_HOLDS_ARRAY (a), "%s", field);
  return g_value_get_uint (gst_value_array_get_value (a, i));
}

static gdouble
arr_double (const GstStructure * s, const gchar * field, guint i)
{
  const GValue *a = gst_structure_get_value (s, field);
  fail_unless (a && GST_VALUE_HOLDS_ARRAY (a), "%s", field);
  return g_value_get_double (gst_value_array_get_value (a, i));
}

static guint
ref_percentile (const guint64 * c, guint levels, guint64 n, gdouble pct)
{
  guint64 cum = 0;
  guint v;
  for (v = 0; v < levels; v++) {
    cum += c[v];
    if ((gdouble) cum * 100.0 >= pct * (gdouble) n)
      return v;
  }
  return levels - 1;
}

/* Checks a clhistogram message against the reference, for the channels
 * asked ("luma", "rgb", "all"), bins and percentiles: counts and levels
 * exact, in the reference's depth (the `depth` field). */
static void
check_message (const GstStructure * s, const RefCounts * rc,
    const gchar * channels, guint bins, gdouble lowp, gdouble highp,
    guint frames, const gchar * what)
{
  static const gchar *names[4] = { "luma", "red", "green", "blue" };
  static const gchar *order[] = { "timestamp", "stream-time", "running-time",
    "duration", "frames", "pixels", "bins", "channels", "histogram", "min",
    "max", "median", "low", "high", "mean", "variance", "log-average",
    "depth"
  };
  const guint levels = 1u << rc->depth;
  const GValue *chv, *hv;
  guint slots[4], n_slots = 0, i, k, v, got_frames, got_bins, depth = 0;
  guint64 pixels, *want = g_new (guint64, bins);

  fail_unless (gst_structure_has_name (s, "clhistogram"));
  fail_unless_equals_int (gst_structure_n_fields (s), G_N_ELEMENTS (order));
  for (i = 0; i < G_N_ELEMENTS (order); i++)
    fail_unless_equals_string (gst_structure_nth_field_name (s, i), order[i]);
  for (i = 0; i < 4; i++)
    fail_unless (gst_structure_get_field_type (s, order[i]) == G_TYPE_UINT64);

  if (g_str_equal (channels, "luma") || g_str_equal (channels, "all"))
    slots[n_slots++] = 0;
  if (rc->rgb && !g_str_equal (channels, "luma"))
    for (i = 1; i < 4; i++)
      slots[n_slots++] = i;

  fail_unless (gst_structure_get (s, "frames", G_TYPE_UINT, &got_frames,
          "pixels", G_TYPE_UINT64, &pixels, "bins", G_TYPE_UINT, &got_bins,
          NULL));
  fail_unless_equals_int (got_frames, frames);
  fail_unless (gst_structure_get_uint (s, "depth", &depth));
  fail_unless_equals_int (depth, rc->depth);
  fail_unless_equals_uint64 (pixels, rc->pixels);
  fail_unless_equals_int (got_bins, bins);
  chv = gst_structure_get_value (s, "channels");
  hv = gst_structure_get_value (s, "histogram");
  fail_unless_equals_int (gst_value_array_get_size (chv), n_slots);
  fail_unless_equals_int (gst_value_array_get_size (hv), n_slots);

  for (k = 0; k < n_slots; k++) {
    const guint64 *c = rc->c[slots[k]];
    const GValue *h = gst_value_array_get_value (hv, k);
    gdouble sum = 0, sq = 0, lg = 0, mean;
    guint vmin = levels, vmax = 0;

    fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
            (chv, k)), names[slots[k]]);
    fail_unless_equals_int (gst_value_array_get_size (h), bins);
    /* bin i counts the levels v with floor (v * bins / 2^D) = i */
    memset (want, 0, bins * sizeof (guint64));
    for (v = 0; v < levels; v++)
      want[(guint) ((guint64) v * bins / levels)] += c[v];
    for (i = 0; i < bins; i++)
      fail_unless (g_value_get_uint64 (gst_value_array_get_value (h, i)) ==
          want[i], "%s: %s bin %u of %u: got %" G_GUINT64_FORMAT ", want %"
          G_GUINT64_FORMAT, what, names[slots[k]], i, bins,
          g_value_get_uint64 (gst_value_array_get_value (h, i)), want[i]);
    for (v = 0; v < levels; v++) {
      if (c[v] && vmin == levels)
        vmin = v;
      if (c[v])
        vmax = v;
      sum += (gdouble) v * c[v];
      lg += c[v] * log (0.001 + v / (gdouble) (levels - 1));
    }
    mean = sum / rc->pixels;
    for (v = 0; v < levels; v++)
      sq += c[v] * (v - mean) * (v - mean);
    fail_unless_equals_int (arr_uint (s, "min", k), vmin);
    fail_unless_equals_int (arr_uint (s, "max", k), vmax);
    fail_unless_equals_int (arr_uint (s, "median", k),
        ref_percentile (c, levels, rc->pixels, 50));
    fail_unless_equals_int (arr_uint (s, "low", k),
        ref_percentile (c, levels, rc->pixels, lowp));
    fail_unless_equals_int (arr_uint (s, "high", k),
        ref_percentile (c, levels, rc->pixels, highp));
    fail_unless (close_rel (arr_double (s, "mean", k), mean), "%s mean",
        what);
    fail_unless (close_rel (arr_double (s, "variance", k), sq / rc->pixels),
        "%s variance", what);
    fail_unless (close_rel (arr_double (s, "log-average", k),
            exp (lg / rc->pixels)), "%s log-average", what);
  }
  g_free (want);
}

/* --- harness helpers ----------------------------------------------------- */

typedef struct
{
  GstHarness *h;
  GstElement *e;
  GstBus *bus;
} Hist;

static Hist
hist_new (const gchar * launch, const gchar * format, gint w, gint ht)
{
  Hist hs;
  gchar *caps = test_caps_string (format, w, ht);
  hs.h = test_harness_new (launch);
  hs.e = gst_harness_find_element (hs.h, "clhistogram");
  hs.bus = gst_bus_new ();
  gst_element_set_bus (hs.e, hs.bus);
  gst_harness_set_caps_str (hs.h, caps, caps);
  g_free (caps);
  return hs;
}

static void
hist_free (Hist * hs)
{
  gst_element_set_bus (hs->e, NULL);
  gst_object_unref (hs->bus);
  gst_object_unref (hs->e);
  gst_harness_teardown (hs->h);
}

/* The next histogram message. Counts are read back while later frames
 * arrive, so the element posts a frame's message up to a few frames later;
 * a DRAIN query (or EOS) makes it post everything pushed so far. */
static void
drain (Hist * hs)
{
  GstQuery *q = gst_query_new_drain ();
  fail_unless (gst_pad_peer_query (hs->h->srcpad, q));
  gst_query_unref (q);
}

static GstMessage *
pop_histogram (Hist * hs)
{
  GstMessage *m;

  drain (hs);
  while ((m = gst_bus_pop_filtered (hs->bus, GST_MESSAGE_ELEMENT))) {
    if (gst_structure_has_name (gst_message_get_structure (m), "clhistogram"))
      return m;
    gst_message_unref (m);
  }
  return NULL;
}

/* Pushes @f and checks that the same buffer comes out, unmodified. */
static void
push_passthrough (GstHarness * h, TestFrame * f)
{
  GstBuffer *copy = gst_buffer_copy_deep (f->buffer), *out;
  GstMapInfo a, b;

  out = test_push_pull (h, f);
  fail_unless (out == f->buffer, "the output is not the input buffer");
  gst_buffer_map (copy, &a, GST_MAP_READ);
  gst_buffer_map (out, &b, GST_MAP_READ);
  fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
      "the frame was modified");
  gst_buffer_unmap (copy, &a);
  gst_buffer_unmap (out, &b);
  gst_buffer_unref (copy);
  gst_buffer_unref (out);
}

/* --- tests ---------------------------------------------------------------- */

static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {17, 13}, {321, 241}, {1920, 1080}
};

/* Every format, memory kind and size, all channels, 256 bins; bins 64 and 7
 * and each channel mode on one size; random and structured content.
 * Repeating "sizes", the full HD frame is left out: its layout and launch
 * take the paths of 321x241 (partials added on the device, which only
 * frames of many work-items need, are test_tuning's). */
GST_START_TEST (test_counts_and_statistics)
{
  const gchar *format = all_formats[__i__];
  static const gchar *modes[] = { "all", "luma", "rgb" };
  static const guint bins[] = { 256, 64, 7 };
  guint m, s, k;

  for (m = 0; memory_kinds[m]; m++) {
    gchar *launch = g_strdup_printf ("clhistogram storage=%s channels=all "
        "low-percentile=5 high-percentile=95", memory_kinds[m]);
    Hist hs = hist_new (launch, format, 1, 1);
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gint w = sizes[s][0], ht = sizes[s][1];
      gchar *caps;
      if (w >= 1920 && test_repeats ("sizes"))
        continue;
      caps = test_caps_string (format, w, ht);
      gst_harness_set_src_caps_str (hs.h, caps);
      gst_harness_set_sink_caps_str (hs.h, caps);
      g_free (caps);
      for (k = 0; k < (s == 3 ? 3 : 1); k++) {
        GstVideoInfo info = test_info (format, w, ht);
        TestFrame f = test_frame_new (&info, k % 2 ? CONTENT_STRUCTURED :
            CONTENT_RANDOM, k == 2, w + k);
        RefCounts rc = REF_INIT;
        GstMessage *msg;
        g_object_set (hs.e, "bins", bins[k], NULL);
        gst_util_set_object_arg (G_OBJECT (hs.e), "channels", modes[k]);
        push_passthrough (hs.h, &f);
        ref_count (&rc, f.buffer, &f.info, format);
        msg = pop_histogram (&hs);
        fail_unless (msg != NULL);
        check_message (gst_message_get_structure (msg), &rc, modes[k],
            bins[k], 5, 95, 1, launch);
        gst_message_unref (msg);
        gst_buffer_unref (f.buffer);
        ref_clear (&rc);
      }
      g_object_set (hs.e, "bins", 256, NULL);
      gst_util_set_object_arg (G_OBJECT (hs.e), "channels", "all");
    }
    hist_free (&hs);
    g_free (launch);
  }
}

GST_END_TEST;

/* A frame of one level: every pixel in one bin. */
GST_START_TEST (test_constant_frame)
{
  static const gchar *formats[] = { "GRAY8", "RGBx", "NV12" };
  guint f, m;
  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (m = 0; memory_kinds[m]; m++) {
      gchar *launch = g_strdup_printf ("clhistogram storage=%s channels=all",
          memory_kinds[m]);
      Hist hs = hist_new (launch, formats[f], 1920, 1080);
      GstVideoInfo info = test_info (formats[f], 1920, 1080);
      TestFrame fr = test_frame_new (&info, CONTENT_RANDOM, FALSE, 1);
      RefCounts rc = REF_INIT;
      GstMessage *msg;
      gst_buffer_memset (fr.buffer, 0, 16, gst_buffer_get_size (fr.buffer));
      push_passthrough (hs.h, &fr);
      ref_count (&rc, fr.buffer, &fr.info, formats[f]);
      fail_unless (rc.c[0][16] == rc.pixels || rc.rgb);
      msg = pop_histogram (&hs);
      fail_unless (msg != NULL);
      check_message (gst_message_get_structure (msg), &rc, "all", 256, 1, 99,
          1, launch);
      gst_message_unref (msg);
      gst_buffer_unref (fr.buffer);
      ref_clear (&rc);
      hist_free (&hs);
      g_free (launch);
    }
}

GST_END_TEST;

/* interval=100 ms at 30 fps: a message every 3 frames, the rest on EOS. */
GST_START_TEST (test_interval_and_eos)
{
  const gchar *mem = memory_kinds[__i__];
  gchar *launch = g_strdup_printf ("clhistogram storage=%s interval=100000000",
      mem);
  Hist hs = hist_new (launch, "GRAY8", 40, 30);
  GstVideoInfo info = test_info ("GRAY8", 40, 30);
  RefCounts rc = REF_INIT;
  GstMessage *msg;
  guint i, in_interval = 0, posted = 0;

  for (i = 0; i < 10; i++) {
    TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, i);
    GST_BUFFER_PTS (f.buffer) = gst_util_uint64_scale (i, GST_SECOND, 30);
    GST_BUFFER_DURATION (f.buffer) = gst_util_uint64_scale (i + 1, GST_SECOND,
        30) - GST_BUFFER_PTS (f.buffer);
    push_passthrough (hs.h, &f);
    ref_count (&rc, f.buffer, &f.info, "GRAY8");
    in_interval++;
    gst_buffer_unref (f.buffer);
    msg = pop_histogram (&hs);
    if (in_interval < 3) {
      fail_unless (msg == NULL, "posted after %u frames", in_interval);
      continue;
    }
    fail_unless (msg != NULL, "nothing after %u frames", in_interval);
    {
      const GstStructure *s = gst_message_get_structure (msg);
      guint64 ts, dur;
      check_message (s, &rc, "luma", 256, 1, 99, 3, launch);
      gst_structure_get (s, "timestamp", G_TYPE_UINT64, &ts, "duration",
          G_TYPE_UINT64, &dur, NULL);
      fail_unless_equals_uint64 (ts, gst_util_uint64_scale (i - 2,
              GST_SECOND, 30));
      fail_unless_equals_uint64 (dur, gst_util_uint64_scale (i + 1,
              GST_SECOND, 30) - ts);
    }
    gst_message_unref (msg);
    ref_clear (&rc);
    in_interval = 0;
    posted++;
  }
  fail_unless_equals_int (posted, 3);
  /* the tenth frame is posted on EOS */
  fail_unless (gst_harness_push_event (hs.h, gst_event_new_eos ()));
  msg = pop_histogram (&hs);
  fail_unless (msg != NULL, "no message on EOS");
  check_message (gst_message_get_structure (msg), &rc, "luma", 256, 1, 99, 1,
      "eos");
  gst_message_unref (msg);
  ref_clear (&rc);
  hist_free (&hs);
  g_free (launch);
}

GST_END_TEST;

/* interval 0, on every device: a frame's message is posted when the frame
 * two frames later arrives (its counts are read back meanwhile), in frame
 * order, with that frame's own counts; the last two come on EOS. Nothing
 * drains the element here, so an element that posted earlier or later, or
 * out of order, fails. */
#define LAG_FRAMES 6
GST_START_TEST (test_messages_two_frames_later)
{
  const gchar *mem = memory_kinds[__i__];
  gchar *launch = g_strdup_printf ("clhistogram storage=%s", mem);
  Hist hs = hist_new (launch, "GRAY8", 37, 23);
  GstVideoInfo info = test_info ("GRAY8", 37, 23);
  RefCounts rc[LAG_FRAMES];
  GstMessage *msg;
  guint i, next = 0;

  for (i = 0; i < LAG_FRAMES + 1; i++) {
    if (i < LAG_FRAMES) {
      TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, 40 + i);
      RefCounts init = REF_INIT;
      rc[i] = init;
      GST_BUFFER_PTS (f.buffer) = gst_util_uint64_scale (i, GST_SECOND, 30);
      GST_BUFFER_DURATION (f.buffer) = GST_SECOND / 30;
      ref_count (&rc[i], f.buffer, &f.info, "GRAY8");
      push_passthrough (hs.h, &f);
      gst_buffer_unref (f.buffer);
    } else {
      fail_unless (gst_harness_push_event (hs.h, gst_event_new_eos ()));
    }
    /* what has been posted so far, without draining */
    while ((msg = gst_bus_pop_filtered (hs.bus, GST_MESSAGE_ELEMENT))) {
      const GstStructure *s = gst_message_get_structure (msg);
      guint64 ts = GST_CLOCK_TIME_NONE;
      if (!gst_structure_has_name (s, "clhistogram")) {
        gst_message_unref (msg);
        continue;
      }
      fail_unless (next < LAG_FRAMES, "%s: more messages than frames",
          launch);
      gst_structure_get_uint64 (s, "timestamp", &ts);
      fail_unless_equals_uint64 (ts, gst_util_uint64_scale (next, GST_SECOND,
              30));
      check_message (s, &rc[next], "luma", 256, 1, 99, 1, launch);
      ref_clear (&rc[next]);
      gst_message_unref (msg);
      next++;
    }
    fail_unless_equals_int (next, i == LAG_FRAMES ? LAG_FRAMES :
        i >= 2 ? i - 1 : 0);
  }
  hist_free (&hs);
  g_free (launch);
}

GST_END_TEST;

/* post-messages=false: frames pass, nothing is posted. */
GST_START_TEST (test_no_messages)
{
  Hist hs = hist_new ("clhistogram post-messages=false", "RGB", 64, 48);
  GstVideoInfo info = test_info ("RGB", 64, 48);
  guint i;
  for (i = 0; i < 3; i++) {
    TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, i);
    push_passthrough (hs.h, &f);
    gst_buffer_unref (f.buffer);
  }
  fail_unless (gst_harness_push_event (hs.h, gst_event_new_eos ()));
  fail_unless (pop_histogram (&hs) == NULL);
  hist_free (&hs);
}

GST_END_TEST;

/* Sets @w x @ht caps and checks a frame of random content, then one of
 * flat runs and edges (structured), all channels, against the reference. */
static void
check_random_and_structured (Hist * hs, const gchar * format, gint w,
    gint ht, gboolean padded, guint seed, const gchar * launch)
{
  GstVideoInfo info = test_info (format, w, ht);
  gchar *caps = test_caps_string (format, w, ht);
  guint k;

  gst_harness_set_src_caps_str (hs->h, caps);
  gst_harness_set_sink_caps_str (hs->h, caps);
  g_free (caps);
  for (k = 0; k < 2; k++) {
    TestFrame fr = test_frame_new (&info, k ? CONTENT_STRUCTURED :
        CONTENT_RANDOM, padded, seed);
    RefCounts rc = REF_INIT;
    GstMessage *msg;
    push_passthrough (hs->h, &fr);
    ref_count (&rc, fr.buffer, &fr.info, format);
    msg = pop_histogram (hs);
    fail_unless (msg != NULL);
    check_message (gst_message_get_structure (msg), &rc, "all", 256, 1, 99,
        1, launch);
    gst_message_unref (msg);
    gst_buffer_unref (fr.buffer);
    ref_clear (&rc);
  }
}

/* Kernel shapes and tuning values give the same counts (against the C
 * reference), whether partials are added on the host or the device. */
GST_START_TEST (test_tuning)
{
  static const gchar *tunings[] = {
    "kernel-shape=strips", "kernel-shape=tiles",
    "kernel-shape=strips rows-per-item=3 pixels-per-item=37",
    /* over 300 units: partials added on the device (histogram_reduce) */
    "kernel-shape=strips rows-per-item=1 pixels-per-item=8",
    "kernel-shape=tiles work-group-size=16",
    "kernel-shape=tiles work-group-size=1",
  };
  static const gchar *formats[] = { "GRAY8", "BGR", "xRGB", "I420" };
  guint t, f;
  gboolean copies = __i__ == 1;

  if (copies)
    g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
  for (t = 0; t < G_N_ELEMENTS (tunings); t++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      gchar *launch = g_strdup_printf ("clhistogram channels=all %s",
          tunings[t]);
      Hist hs = hist_new (launch, formats[f], 83, 29);
      check_random_and_structured (&hs, formats[f], 83, 29, TRUE, t, launch);
      /* rows of whole 16-byte vectors (sixteen one-byte pixels per
       * work-item in tiles: the stride is 208), with a tail of 14 pixels */
      check_random_and_structured (&hs, formats[f], 206, 9, FALSE, 50 + t,
          launch);
      hist_free (&hs);
      g_free (launch);
    }
  /* 4-byte pixels on rows of whole 16-byte vectors (four pixels per
   * work-item in tiles): no tail; rows padded to 848 bytes with a tail of
   * one pixel and a plane that starts off a 16-byte boundary */
  for (t = 0; t < G_N_ELEMENTS (tunings); t++)
    for (f = 0; f < 2; f++) {
      const gchar *format = f ? "RGBA" : "xRGB";
      gchar *launch = g_strdup_printf ("clhistogram channels=all %s",
          tunings[t]);
      Hist hs = hist_new (launch, format, 204, 9);
      check_random_and_structured (&hs, format, 204, 9, FALSE, 70 + t,
          launch);
      check_random_and_structured (&hs, format, 201, 7, TEST_PAD_ALIGNED,
          90 + t, launch);
      hist_free (&hs);
      g_free (launch);
    }
  g_unsetenv ("GST_CL_ZERO_COPY");
}

GST_END_TEST;

/* channels=rgb on a luma-only format: one warning, no channels. */
GST_START_TEST (test_missing_channels_warning)
{
  Hist hs = hist_new ("clhistogram channels=rgb", "GRAY8", 16, 16);
  GstVideoInfo info = test_info ("GRAY8", 16, 16);
  GstMessage *msg;
  guint i, warnings = 0;

  for (i = 0; i < 3; i++) {
    TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, i);
    gboolean got = FALSE;
    push_passthrough (hs.h, &f);
    gst_buffer_unref (f.buffer);
    drain (&hs);
    while ((msg = gst_bus_pop_filtered (hs.bus,
                GST_MESSAGE_WARNING | GST_MESSAGE_ELEMENT))) {
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
        warnings++;
      } else if (gst_structure_has_name (gst_message_get_structure (msg),
              "clhistogram")) {
        fail_unless_equals_int (gst_value_array_get_size
            (gst_structure_get_value (gst_message_get_structure (msg),
                    "channels")), 0);
        got = TRUE;
      }
      gst_message_unref (msg);
    }
    fail_unless (got);
  }
  fail_unless_equals_int (warnings, 1);
  hist_free (&hs);
}

GST_END_TEST;

/* With copies (a GPU; forced on POCL with GST_CL_ZERO_COPY=0) and no pool
 * downstream, the analyzer offers upstream a pool of device frames; frames
 * from it are counted right and pass through unchanged. */
GST_START_TEST (test_pinned_pool)
{
  static const gchar *formats[] = { "GRAY8", "I420", "RGBA" };
  guint i, k;

  g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstVideoInfo info = test_info (formats[i], 97, 31);
    Hist hs = hist_new ("clhistogram channels=all", formats[i], 97, 31);
    GstCaps *caps = gst_video_info_to_caps (&info);
    GstQuery *q = gst_query_new_allocation (caps, TRUE);
    GstBufferPool *pool = NULL;
    GstStructure *config;
    guint size = 0;

    fail_unless (gst_pad_peer_query (hs.h->srcpad, q));
    fail_unless (gst_query_get_n_allocation_pools (q) >= 1);
    gst_query_parse_nth_allocation_pool (q, 0, &pool, &size, NULL, NULL);
    fail_unless (pool != NULL);
    fail_unless_equals_string (G_OBJECT_TYPE_NAME (pool), "GstClBufferPool");
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, 0, 0);
    fail_unless (gst_buffer_pool_set_config (pool, config));
    fail_unless (gst_buffer_pool_set_active (pool, TRUE));
    for (k = 0; k < 2; k++) {
      TestFrame f = test_frame_new (&info, k ? CONTENT_STRUCTURED :
          CONTENT_RANDOM, FALSE, 11 + k);
      RefCounts rc = REF_INIT;
      GstVideoFrame src, dst;
      GstBuffer *in = NULL;
      GstMessage *msg;

      fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &in,
              NULL), GST_FLOW_OK);
      fail_unless (gst_video_frame_map (&src, &info, f.buffer, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&dst, &info, in, GST_MAP_WRITE));
      fail_unless (gst_video_frame_copy (&dst, &src));
      gst_video_frame_unmap (&dst);
      gst_video_frame_unmap (&src);
      ref_count (&rc, f.buffer, &f.info, formats[i]);
      gst_buffer_unref (f.buffer);
      f.buffer = in;
      push_passthrough (hs.h, &f);
      msg = pop_histogram (&hs);
      fail_unless (msg != NULL);
      check_message (gst_message_get_structure (msg), &rc, "all", 256, 1, 99,
          1, "pinned pool");
      gst_message_unref (msg);
      gst_buffer_unref (f.buffer);
      ref_clear (&rc);
    }
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
    gst_query_unref (q);
    gst_caps_unref (caps);
    hist_free (&hs);
  }
  g_unsetenv ("GST_CL_ZERO_COPY");
}

GST_END_TEST;

/* The statistics of @buf's meta, or NULL. */
static const GstStructure *
meta_structure (GstBuffer * buf)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf,
      "GstClHistogramMeta");
  return meta ? gst_custom_meta_get_structure (meta) : NULL;
}

/* attach-meta: each frame carries its statistics, equal to the message
 * field by field and right against the reference; in both memory kinds,
 * odd sizes and padded strides; for a buffer held elsewhere too (not
 * writable) a copy carries the meta and the input stays without. */
GST_START_TEST (test_attach_meta)
{
  static const gchar *formats[] = { "GRAY8", "RGBx", "NV12", "I420",
    "P010_10LE", "RGBA64_LE"
  };
  const gchar *format = formats[__i__];
  const gboolean deep = test_deep_format (format) != NULL;
  guint m, s, k;

  /* the memory kinds, then device frames between clupload and cldownload
   * (the meta must cross cldownload) */
  for (m = 0; m == 0 || memory_kinds[m - 1]; m++) {
    const gboolean plain = memory_kinds[m] != NULL;
    gchar *launch = plain ? g_strdup_printf ("clhistogram storage=%s "
        "channels=all attach-meta=true", memory_kinds[m]) :
        g_strdup ("clupload ! clhistogram channels=all attach-meta=true ! "
        "cldownload");
    Hist hs = hist_new (launch, format, 1, 1);
    for (s = 0; s < G_N_ELEMENTS (sizes) - 1; s++) {
      gint w = sizes[s][0], ht = sizes[s][1];
      gchar *caps = test_caps_string (format, w, ht);
      gst_harness_set_src_caps_str (hs.h, caps);
      gst_harness_set_sink_caps_str (hs.h, caps);
      g_free (caps);
      for (k = 0; k < 3; k++) {
        GstVideoInfo info = test_info (format, w, ht);
        /* 16-bit samples: the third frame with bits outside the values */
        TestFrame f = test_frame_new (&info, k == 1 ? CONTENT_STRUCTURED :
            k == 2 && deep ? CONTENT_DIRTY : CONTENT_RANDOM, k == 1,
            7 * s + k);
        RefCounts rc = REF_INIT;
        const GstStructure *ms;
        GstMessage *msg;
        GstBuffer *out, *in = f.buffer;
        /* through clupload the input is always a new buffer: keep it */
        gboolean shared = k == 2 || !plain;

        ref_count (&rc, f.buffer, &f.info, format);
        /* k < 2: the element gets the only reference (writable) */
        fail_unless_equals_int (gst_harness_push (hs.h, shared ?
                gst_buffer_ref (in) : in), GST_FLOW_OK);
        out = gst_harness_pull (hs.h);
        fail_unless (out != NULL);
        if (shared) {
          GstMapInfo a, b;
          fail_unless (out != in, "a shared buffer was not copied");
          fail_unless (meta_structure (in) == NULL,
              "the meta went on a buffer held elsewhere");
          fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
          fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
          /* the same frame (through clupload and cldownload the layout
           * may change: tests/check/chain.c compares those) */
          fail_unless (!plain || (a.size == b.size && !memcmp (a.data, b.data,
                      a.size)));
          gst_buffer_unmap (in, &a);
          gst_buffer_unmap (out, &b);
          gst_buffer_unref (in);
        } else {
          fail_unless (out == in, "a writable buffer was copied");
        }
        ms = meta_structure (out);
        fail_unless (ms != NULL, "%s %dx%d: no meta", launch, w, ht);
        check_message (ms, &rc, "all", 256, 1, 99, 1, launch);
        msg = pop_histogram (&hs);
        fail_unless (msg != NULL);
        fail_unless (gst_structure_is_equal (ms,
                gst_message_get_structure (msg)), "meta and message differ");
        gst_message_unref (msg);
        gst_buffer_unref (out);
        ref_clear (&rc);
      }
    }
    hist_free (&hs);
    g_free (launch);
  }
}

GST_END_TEST;

/* attach-meta with an interval: only the frame that completes an interval
 * carries it (equal to the message); without messages the meta stays. */
GST_START_TEST (test_attach_meta_interval)
{
  GstVideoInfo info = test_info ("GRAY8", 40, 30);
  guint posts;

  for (posts = 0; posts < 2; posts++) {
    gchar *launch = g_strdup_printf ("clhistogram attach-meta=true "
        "interval=100000000 post-messages=%s", posts ? "true" : "false");
    Hist hs = hist_new (launch, "GRAY8", 40, 30);
    RefCounts rc = REF_INIT;
    guint i, carried = 0;

    for (i = 0; i < 9; i++) {
      TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, 40 + i);
      const GstStructure *ms;
      GstMessage *msg;
      GstBuffer *out;

      GST_BUFFER_PTS (f.buffer) = gst_util_uint64_scale (i, GST_SECOND, 30);
      GST_BUFFER_DURATION (f.buffer) = gst_util_uint64_scale (i + 1,
          GST_SECOND, 30) - GST_BUFFER_PTS (f.buffer);
      ref_count (&rc, f.buffer, &f.info, "GRAY8");
      fail_unless_equals_int (gst_harness_push (hs.h, f.buffer), GST_FLOW_OK);
      out = gst_harness_pull (hs.h);
      ms = meta_structure (out);
      msg = pop_histogram (&hs);
      if (i % 3 != 2) {
        fail_unless (ms == NULL, "frame %u carries a meta", i);
        fail_unless (msg == NULL);
      } else {
        fail_unless (ms != NULL, "frame %u carries no meta", i);
        check_message (ms, &rc, "luma", 256, 1, 99, 3, launch);
        fail_unless ((msg != NULL) == (posts == 1));
        if (msg)
          fail_unless (gst_structure_is_equal (ms,
                  gst_message_get_structure (msg)));
        ref_clear (&rc);
        carried++;
      }
      if (msg)
        gst_message_unref (msg);
      gst_buffer_unref (out);
    }
    fail_unless_equals_int (carried, 3);
    hist_free (&hs);
    g_free (launch);
  }
}

GST_END_TEST;

/* --- formats of more than 8 bits ------------------------------------------ */

/* Sets @w x @ht caps of @format, the bins and the channels, pushes a
 * frame of @content and checks its message against the reference. */
static void
check_frame (Hist * hs, const gchar * format, gint w, gint ht,
    gboolean padded, TestContent content, guint seed, const gchar * channels,
    guint bins, gdouble lowp, gdouble highp, const gchar * what)
{
  GstVideoInfo info = test_info (format, w, ht);
  gchar *caps = test_caps_string (format, w, ht);
  TestFrame f;
  RefCounts rc = REF_INIT;
  GstMessage *msg;
  gchar *desc = g_strdup_printf ("%s: %s %dx%d%s content %d bins %u "
      "channels=%s", what, format, w, ht, padded ? " padded" : "", content,
      bins, channels);

  gst_harness_set_src_caps_str (hs->h, caps);
  gst_harness_set_sink_caps_str (hs->h, caps);
  g_free (caps);
  g_object_set (hs->e, "bins", bins, NULL);
  gst_util_set_object_arg (G_OBJECT (hs->e), "channels", channels);
  f = test_frame_new (&info, content, padded, seed);
  push_passthrough (hs->h, &f);
  ref_count (&rc, f.buffer, &f.info, format);
  msg = pop_histogram (hs);
  fail_unless (msg != NULL, "%s: no message", desc);
  check_message (gst_message_get_structure (msg), &rc, channels, bins, lowp,
      highp, 1, desc);
  gst_message_unref (msg);
  gst_buffer_unref (f.buffer);
  ref_clear (&rc);
  g_free (desc);
}

/* Sizes, strides, contents and bins for every format of more than 8 bits:
 * full range and dirty bits (bits outside the values, which must not
 * count), bins of 1, a non-power of two and more bins than levels. */
static const struct
{
  gint w, h;
  gboolean padded;
  TestContent content;
  guint bins;
} deep_cases[] = {
  {1, 1, FALSE, CONTENT_RANDOM, 1},
  {1, 1, TRUE, CONTENT_DIRTY, 4096},
  {17, 5, FALSE, CONTENT_DIRTY, 1024},
  {17, 5, TRUE, CONTENT_STRUCTURED, 4096},
  {35, 9, FALSE, CONTENT_STRUCTURED, 1000},
  {35, 9, TRUE, CONTENT_DIRTY, 1},
  {35, 9, TRUE, CONTENT_RANDOM, 256},
  {1920, 1080, TRUE, CONTENT_DIRTY, 4096},
};

/* Every format of more than 8 bits in both memory kinds: counts of every
 * level and the statistics in D-bit levels, exact; depth = D. */
GST_START_TEST (test_deep_counts)
{
  const gchar *format = deep_formats[__i__].name;
  guint m, c;

  for (m = 0; memory_kinds[m]; m++) {
    gchar *launch = g_strdup_printf ("clhistogram storage=%s "
        "low-percentile=5 high-percentile=95", memory_kinds[m]);
    Hist hs = hist_new (launch, format, 1, 1);
    for (c = 0; c < G_N_ELEMENTS (deep_cases); c++)
      check_frame (&hs, format, deep_cases[c].w, deep_cases[c].h,
          deep_cases[c].padded, deep_cases[c].content, 100 * __i__ + c,
          "all", deep_cases[c].bins, 5, 95, launch);
    /* the other channel modes, and a full-range 1080p frame */
    check_frame (&hs, format, 35, 9, TRUE, CONTENT_DIRTY, 7, "luma", 4096,
        5, 95, launch);
    check_frame (&hs, format, 35, 9, FALSE, CONTENT_RANDOM, 8, "rgb", 64,
        5, 95, launch);
    if (m == 0)
      check_frame (&hs, format, 1920, 1080, FALSE, CONTENT_STRUCTURED, 9,
          "all", 1024, 5, 95, launch);
    hist_free (&hs);
    g_free (launch);
  }
}

GST_END_TEST;

/* Frames of one stored word: every sample the same value (runs of equal
 * samples are one addition in the kernels), with the bits outside the
 * value set or clear; an 8K frame of 16-bit maxima, whose sum of levels
 * (2^41) needs 64-bit sums. */
GST_START_TEST (test_deep_constant)
{
  static const gchar *formats[] = { "GRAY16_LE", "P010_10LE", "RGBA64_LE" };
  static const guint8 bytes[] = { 0xff, 0x00, 0x5a };
  guint f, m, b;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (m = 0; memory_kinds[m]; m++) {
      gchar *launch = g_strdup_printf ("clhistogram storage=%s channels=all",
          memory_kinds[m]);
      Hist hs = hist_new (launch, formats[f], 1920, 1080);
      GstVideoInfo info = test_info (formats[f], 1920, 1080);
      for (b = 0; b < G_N_ELEMENTS (bytes); b++) {
        TestFrame fr = test_frame_new (&info, CONTENT_RANDOM, FALSE, 1);
        RefCounts rc = REF_INIT;
        GstMessage *msg;
        gst_buffer_memset (fr.buffer, 0, bytes[b],
            gst_buffer_get_size (fr.buffer));
        push_passthrough (hs.h, &fr);
        ref_count (&rc, fr.buffer, &fr.info, formats[f]);
        fail_unless (rc.c[0][rc.depth == 10 ? (bytes[b] * 0x101 >> 6) &
                0x3ff : bytes[b] * 0x101] == rc.pixels);
        msg = pop_histogram (&hs);
        fail_unless (msg != NULL);
        check_message (gst_message_get_structure (msg), &rc, "all", 256, 1,
            99, 1, launch);
        gst_message_unref (msg);
        gst_buffer_unref (fr.buffer);
        ref_clear (&rc);
      }
      hist_free (&hs);
      g_free (launch);
    }

  {
    Hist hs = hist_new ("clhistogram bins=4096", "GRAY16_LE", 7680, 4320);
    GstVideoInfo info = test_info ("GRAY16_LE", 7680, 4320);
    TestFrame fr = test_frame_new (&info, CONTENT_RANDOM, FALSE, 2);
    RefCounts rc = REF_INIT;
    GstMessage *msg;
    gdouble mean = 0;
    gst_buffer_memset (fr.buffer, 0, 0xff, gst_buffer_get_size (fr.buffer));
    push_passthrough (hs.h, &fr);
    ref_count (&rc, fr.buffer, &fr.info, "GRAY16_LE");
    msg = pop_histogram (&hs);
    fail_unless (msg != NULL);
    check_message (gst_message_get_structure (msg), &rc, "luma", 4096, 1, 99,
        1, "8K");
    mean = arr_double (gst_message_get_structure (msg), "mean", 0);
    fail_unless (mean == 65535.0, "mean %f", mean);
    gst_message_unref (msg);
    gst_buffer_unref (fr.buffer);
    ref_clear (&rc);
    hist_free (&hs);
  }
}

GST_END_TEST;

/* Kernel shapes and tuning values on formats of more than 8 bits: the
 * same counts whatever the decomposition (strips: more rectangles than
 * tables, taken in turn; tiles: local tables for 2^10 and 2^12 levels,
 * global totals for 2^16). */
GST_START_TEST (test_deep_tuning)
{
  static const gchar *tunings[] = {
    "kernel-shape=strips", "kernel-shape=tiles",
    "kernel-shape=strips rows-per-item=3 pixels-per-item=37",
    "kernel-shape=strips rows-per-item=1 pixels-per-item=5",
    "kernel-shape=tiles work-group-size=16",
    "kernel-shape=tiles work-group-size=1",
  };
  static const gchar *formats[] = { "P010_10LE", "I420_12LE", "GRAY16_LE",
    "RGBA64_LE"
  };
  static const gchar *modes[] = { "all", "rgb", "luma" };
  guint t, f;
  gboolean copies = __i__ == 1;

  if (copies)
    g_setenv ("GST_CL_ZERO_COPY", "0", TRUE);
  for (t = 0; t < G_N_ELEMENTS (tunings); t++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      gchar *launch = g_strdup_printf ("clhistogram %s", tunings[t]);
      Hist hs = hist_new (launch, formats[f], 83, 29);
      const gchar *mode = modes[(t + f) % 3];
      check_frame (&hs, formats[f], 83, 29, TRUE, CONTENT_RANDOM, t, mode,
          1024, 1, 99, launch);
      check_frame (&hs, formats[f], 83, 29, FALSE, CONTENT_STRUCTURED, t,
          mode, 4096, 1, 99, launch);
      /* rows of whole 16-byte vectors, with a tail */
      check_frame (&hs, formats[f], 206, 9, FALSE, CONTENT_DIRTY, 50 + t,
          mode, 1000, 1, 99, launch);
      /* rows of 16-byte aligned vectors (the column walk's aligned loads)
       * over more rows than a batch */
      check_frame (&hs, formats[f], 200, 37, FALSE, CONTENT_RANDOM, 60 + t,
          mode, 4096, 1, 99, launch);
      hist_free (&hs);
      g_free (launch);
    }
  g_unsetenv ("GST_CL_ZERO_COPY");
}

GST_END_TEST;

/* interval: frames of 16-bit samples add up (64-bit counts of every
 * level); new caps of another depth post the interval so far in its
 * depth and start one in the new depth. */
GST_START_TEST (test_deep_interval)
{
  static const gchar *formats[] = { "GRAY8", "I420_10LE", "RGBA64_LE" };
  Hist hs = hist_new ("clhistogram channels=all interval=1000000000 "
      "bins=1024", formats[0], 45, 21);
  guint f, i, n = 0;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoInfo info = test_info (formats[f], 45, 21);
    gchar *caps = test_caps_string (formats[f], 45, 21);
    RefCounts rc = REF_INIT;
    GstMessage *msg;

    gst_harness_set_src_caps_str (hs.h, caps);
    gst_harness_set_sink_caps_str (hs.h, caps);
    g_free (caps);
    for (i = 0; i < 3; i++, n++) {
      TestFrame fr = test_frame_new (&info, i == 1 ? CONTENT_STRUCTURED :
          test_deep_format (formats[f]) ? CONTENT_DIRTY : CONTENT_RANDOM,
          i == 2, 60 + n);
      GST_BUFFER_PTS (fr.buffer) = gst_util_uint64_scale (n, GST_SECOND, 30);
      GST_BUFFER_DURATION (fr.buffer) = GST_SECOND / 30;
      push_passthrough (hs.h, &fr);
      ref_count (&rc, fr.buffer, &fr.info, formats[f]);
      gst_buffer_unref (fr.buffer);
    }
    /* the interval is posted by the next caps, the last one on EOS */
    if (f + 1 < G_N_ELEMENTS (formats)) {
      fail_unless (pop_histogram (&hs) == NULL);
      caps = test_caps_string (formats[f + 1], 45, 21);
      gst_harness_set_sink_caps_str (hs.h, caps);
      gst_harness_set_src_caps_str (hs.h, caps);
      g_free (caps);
    } else {
      fail_unless (gst_harness_push_event (hs.h, gst_event_new_eos ()));
    }
    msg = pop_histogram (&hs);
    fail_unless (msg != NULL, "%s: no message", formats[f]);
    check_message (gst_message_get_structure (msg), &rc, "all", 1024, 1, 99,
        3, formats[f]);
    gst_message_unref (msg);
    ref_clear (&rc);
  }
  hist_free (&hs);
}

GST_END_TEST;

/* bins beyond the levels of 8-bit formats: floor (v * bins / 256) = i
 * leaves bins empty */
GST_START_TEST (test_bins_beyond_levels)
{
  static const gchar *formats[] = { "GRAY8", "BGRx" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    Hist hs = hist_new ("clhistogram", formats[f], 64, 9);
    check_frame (&hs, formats[f], 64, 9, TRUE, CONTENT_RANDOM, f, "all",
        1000, 1, 99, "8-bit");
    check_frame (&hs, formats[f], 64, 9, FALSE, CONTENT_STRUCTURED, f, "all",
        4096, 1, 99, "8-bit");
    hist_free (&hs);
  }
}

GST_END_TEST;

static Suite *
clhistogram_suite (void)
{
  Suite *s = suite_create ("clhistogram");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  test_add_leak_check (tc);
  test_holds_devices = TRUE;
  tcase_add_loop_test (tc, test_counts_and_statistics, 0,
      G_N_ELEMENTS (all_formats) - 1);
  tcase_add_test (tc, test_constant_frame);
  tcase_add_loop_test (tc, test_interval_and_eos, 0, 2);
  tcase_add_loop_test (tc, test_messages_two_frames_later, 0, 2);
  tcase_add_test (tc, test_no_messages);
  tcase_add_loop_test (tc, test_tuning, 0, 2);
  tcase_add_test (tc, test_missing_channels_warning);
  tcase_add_test (tc, test_pinned_pool);
  tcase_add_loop_test (tc, test_attach_meta, 0, 6);
  tcase_add_test (tc, test_attach_meta_interval);
  tcase_add_loop_test (tc, test_deep_counts, 0, G_N_ELEMENTS (deep_formats)
      - 1);
  tcase_add_test (tc, test_deep_constant);
  tcase_add_loop_test (tc, test_deep_tuning, 0, 2);
  tcase_add_test (tc, test_deep_interval);
  tcase_add_test (tc, test_bins_beyond_levels);
  return s;
}

TEST_MAIN_ONE_PROCESS (clhistogram);
