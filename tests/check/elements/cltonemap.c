/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* cltonemap tests: every output compared with a double-precision reference
 * of the interface note's formulas ("cltonemap"), written out here
 * independently of the element's own math (gstcltonemapcurve.c, the
 * kernels): decode, PQ or HLG to nits, the curve on max (R, G, B), BT.2020
 * to BT.709, BT.1886, encode, 4:2:0 chroma as the block's mean. Tolerance
 * as the note says: +-1 at 8 bits, +-2 * 2^(D-10) at D bits. */
#include "cltonemapref.h"

#include <math.h>

typedef struct
{
  const gchar *in, *sibling;
  gint kind;
} Fmt;

static const Fmt formats[] = {
  {"P010_10LE", "NV12", KIND_SEMI}, {"P016_LE", "NV12", KIND_SEMI},
  {"I420_10LE", "I420", KIND_PLANAR}, {"I420_12LE", "I420", KIND_PLANAR},
  {"Y444_16LE", "Y444", KIND_PLANAR}, {"RGBA64_LE", "RGBA", KIND_RGBA},
};

static const gchar *const curves[] = { "bt2390", "reinhard", "hable", "clip" };

/* --- frames and harnesses ------------------------------------------------ */

/* colorimetry of HDR input: PQ or HLG, range, BT.2020 (or BT.709) */
static gchar *
hdr_colorimetry (const Fmt * f, gboolean hlg, gboolean full, gboolean p709)
{
  GstVideoColorimetry c = { full ? GST_VIDEO_COLOR_RANGE_0_255 :
        GST_VIDEO_COLOR_RANGE_16_235, f->kind == KIND_RGBA ?
        GST_VIDEO_COLOR_MATRIX_RGB : GST_VIDEO_COLOR_MATRIX_BT2020,
    hlg ? GST_VIDEO_TRANSFER_ARIB_STD_B67 : GST_VIDEO_TRANSFER_SMPTE2084,
    p709 ? GST_VIDEO_COLOR_PRIMARIES_BT709 : GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  return gst_video_colorimetry_to_string (&c);
}

static gchar *
in_caps (const Fmt * f, gint w, gint h, const gchar * colorimetry,
    const gchar * extra)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1,colorimetry=%s%s", f->in, w, h, colorimetry,
      extra ? extra : "");
}

/* how far chroma strays from the middle, as a fraction of the code range */
static double chroma_spread = 0.4;

/* A frame of random samples: luma (or R, G, B) between the fractions @lo
 * and @hi of the code range, chroma around the middle, alpha anything;
 * @padded as test_frame_new() makes it. */
static TestFrame
hdr_frame (const GstVideoInfo * info, gboolean padded, guint32 seed,
    double lo, double hi)
{
  TestFrame f = test_frame_new (info, CONTENT_RANDOM, padded, seed);
  guint32 state = seed * 7919u + 3;
  GstVideoFrame vf;
  guint i;
  gint x, y, c;

  fail_unless (gst_video_frame_map (&vf, &f.info, f.buffer, GST_MAP_WRITE));
  for (i = 0; i < GST_VIDEO_FRAME_N_PLANES (&vf); i++) {
    TestPlane p = test_plane (&vf, i);
    const double maxv = (1 << p.depth) - 1;
    for (y = 0; y < p.height; y++)
      for (x = 0; x < p.width; x++)
        for (c = 0; c < p.step; c++) {
          double r = (test_rand (&state) >> 8) / (double) (1 << 24), v;
          guint8 *d = p.data + (gsize) y * p.stride + 2 * (x * p.step + c);
          if (i > 0)
            v = 0.5 + (r - 0.5) * chroma_spread;
          else if (p.step == 4 && c == 3)
            v = r;
          else
            v = lo + (hi - lo) * r;
          GST_WRITE_UINT16_LE (d, ((guint) lrint (v * maxv)) << p.shift);
        }
  }
  gst_video_frame_unmap (&vf);
  return f;
}

/* A frame of hdr_frame() for the dynamic peak, at @percentile: the next
 * seed while its frame peak hangs on a pixel at a bin's edge, where float
 * arithmetic may count it in either bin (ref_frame_peak_ambiguous()). */
static TestFrame
dynamic_frame (const GstVideoInfo * info, gboolean padded, guint32 seed,
    double lo, double hi, const Ref * r, double percentile)
{
  for (;;) {
    TestFrame f = hdr_frame (info, padded, seed, lo, hi);
    if (!ref_frame_peak_ambiguous (f.buffer, &f.info, r, percentile))
      return f;
    gst_buffer_unref (f.buffer);
    seed += 7919;
  }
}

static Ref
make_ref (const Fmt * f, gboolean sibling, gboolean hlg, gboolean full,
    gint curve, double lt)
{
  const TestDeepFormat *d = test_deep_format (f->in);
  Ref r = { f->kind, d->depth, sibling ? 8 : d->depth,
    (f->kind == KIND_RGBA || g_str_has_prefix (f->in, "Y444")) ? 0 : 1, 0,
    hlg, full, FALSE, curve, lt, 1000.0
  };
  r.ssy = r.ssx;
  return r;
}

static gint
tolerance (const Ref * r)
{
  return r->out_depth == 8 ? 1 : 2 << (r->out_depth - 10);
}

/* The caps the harness's sink got, as a video info. */
static GstVideoInfo
out_info (GstHarness * h)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstVideoInfo info;

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  return info;
}

/* Pushes @f through @h, compares the output with the reference for the
 * source peak @lw; returns the mismatches. */
static guint
push_check (GstHarness * h, TestFrame * f, const Ref * r, double lw,
    const gchar * what)
{
  GstBuffer *out = test_push_pull (h, f);
  GstVideoInfo oi = out_info (h);
  Expected e = ref_expected (f->buffer, &f->info, r, lw);
  guint bad;

  fail_unless (out != NULL);
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&oi),
      GST_VIDEO_INFO_WIDTH (&f->info));
  bad = compare_expected (&e, out, &oi, tolerance (r), what);
  expected_free (&e);
  gst_buffer_unref (out);
  return bad;
}

static GstHarness *
tm_harness (const gchar * props, const gchar * incaps, const gchar * outcaps)
{
  gchar *launch = g_strdup_printf ("cltonemap %s", props ? props : "");
  GstHarness *h = test_harness_new (launch);

  g_free (launch);
  gst_harness_set_src_caps_str (h, incaps);
  if (outcaps)
    gst_harness_set_sink_caps_str (h, outcaps);
  return h;
}

/* --- tests --------------------------------------------------------------- */

/* Every input format, PQ limited and HLG full range, into the 8-bit
 * sibling (system memory, padded input) and the format itself (device
 * memory); with downstream accepting anything, the sibling on the device
 * is chosen. */
GST_START_TEST (test_formats)
{
  const Fmt *f = &formats[__i__];
  const gint w = 33, h = 17;
  gint k;

  for (k = 0; k < 4; k++) {
    gboolean hlg = k & 1, sibling = !(k & 2), padded = k < 2;
    Ref r = make_ref (f, sibling, hlg, hlg, 0, 100.0);
    gchar *col = hdr_colorimetry (f, hlg, hlg, FALSE);
    gchar *ic = in_caps (f, w, h, col, NULL);
    gchar *oc = g_strdup_printf ("video/x-raw%s,format=%s",
        sibling ? "" : "(memory:OpenCLMemory)", sibling ? f->sibling : f->in);
    gchar *what = g_strdup_printf ("%s %s %s to %s", f->in, hlg ? "HLG" :
        "PQ", hlg ? "full" : "limited", sibling ? f->sibling : f->in);
    GstVideoInfo info = test_info (f->in, w, h);
    TestFrame fr = hdr_frame (&info, padded, 11 + k, 0.0, 1.0);
    GstHarness *hn;

    r.hlg_peak = hlg ? 600.0 : 1000.0;
    hn = tm_harness (hlg ? "peak-mode=fixed source-peak=1000 hlg-peak=600" :
        "peak-mode=fixed source-peak=1000", ic, k == 0 ? NULL : oc);
    fail_unless_equals_int (push_check (hn, &fr, &r, 1000.0, what), 0);
    if (k == 0) {
      GstCaps *caps = gst_pad_get_current_caps (hn->sinkpad);
      GstStructure *s = gst_caps_get_structure (caps, 0);
      fail_unless_equals_string (gst_structure_get_string (s, "format"),
          f->sibling);
      fail_unless (gst_caps_features_contains (gst_caps_get_features (caps,
                  0), "memory:OpenCLMemory"));
      fail_unless (g_str_has_suffix (gst_structure_get_string (s,
                  "colorimetry"), f->kind == KIND_RGBA ? "1:5:1" : "bt709")
          || g_str_equal (gst_structure_get_string (s, "colorimetry"),
              "bt709"), "%" GST_PTR_FORMAT, caps);
      gst_caps_unref (caps);
    }
    gst_harness_teardown (hn);
    gst_buffer_unref (fr.buffer);
    g_free (col);
    g_free (ic);
    g_free (oc);
    g_free (what);
  }
}

GST_END_TEST;

/* Every curve at target peaks 100 and 203, with the source peak fixed,
 * from the caps' MaxCLL, and from the frame itself. */
GST_START_TEST (test_curves)
{
  const Fmt *f = &formats[0];
  const gint curve = __i__ % 4, w = 35, h = 19;
  const double lt = __i__ < 4 ? 100.0 : 203.0;
  Ref r = make_ref (f, TRUE, FALSE, FALSE, curve, lt);
  gchar *col = hdr_colorimetry (f, FALSE, FALSE, FALSE);
  GstVideoInfo info = test_info (f->in, w, h);
  TestFrame fr = dynamic_frame (&info, TRUE, 5 + __i__, 0.0, 0.9, &r, 99.99);
  gint mode;

  for (mode = 0; mode < 3; mode++) {
    const gchar *modes[] = { "fixed source-peak=4000", "metadata",
      "dynamic"
    };
    gchar *props = g_strdup_printf ("curve=%s target-peak=%g peak-mode=%s",
        curves[curve], lt, modes[mode]);
    gchar *ic = in_caps (f, w, h, col, mode == 1 ?
        ",content-light-level=(string)1500:400" : NULL);
    GstHarness *hn = tm_harness (props, ic, "video/x-raw,format=NV12");
    double lw = mode == 0 ? 4000.0 : mode == 1 ? 1500.0 :
        MAX (pq_eotf (ref_frame_peak (fr.buffer, &fr.info, &r, 99.99)), lt);

    fail_unless_equals_int (push_check (hn, &fr, &r, lw, props), 0);
    gst_harness_teardown (hn);
    g_free (props);
    g_free (ic);
  }
  gst_buffer_unref (fr.buffer);
  g_free (col);
}

GST_END_TEST;

/* metadata without MaxCLL: the mastering display's peak; neither:
 * source-peak. BT.709 primaries: no gamut conversion. */
GST_START_TEST (test_metadata_and_primaries)
{
  const Fmt *f = &formats[2];
  GstVideoInfo info = test_info (f->in, 21, 9);
  TestFrame fr = hdr_frame (&info, FALSE, 3, 0.0, 1.0);
  GstVideoMasteringDisplayInfo mdi = { {{0,},}, };
  Ref r = make_ref (f, TRUE, FALSE, FALSE, 0, 100.0);
  gchar *col = hdr_colorimetry (f, FALSE, FALSE, FALSE);
  gchar *col709 = hdr_colorimetry (f, FALSE, FALSE, TRUE);
  gchar *m, *extra, *ic;
  GstHarness *hn;

  mdi.max_display_mastering_luminance = 4000 * 10000;
  mdi.min_display_mastering_luminance = 50;
  mdi.white_point.x = 15635;
  mdi.white_point.y = 16450;
  m = gst_video_mastering_display_info_to_string (&mdi);
  extra = g_strdup_printf (",mastering-display-info=(string)%s", m);
  ic = in_caps (f, 21, 9, col, extra);
  hn = tm_harness ("peak-mode=metadata", ic, NULL);
  fail_unless_equals_int (push_check (hn, &fr, &r, 4000.0, "mastering"), 0);
  gst_harness_teardown (hn);
  g_free (ic);
  ic = in_caps (f, 21, 9, col, NULL);
  hn = tm_harness ("peak-mode=metadata source-peak=2500", ic, NULL);
  fail_unless_equals_int (push_check (hn, &fr, &r, 2500.0, "no metadata"), 0);
  gst_harness_teardown (hn);
  g_free (ic);
  ic = in_caps (f, 21, 9, col709, NULL);
  r.bt709_primaries = TRUE;
  hn = tm_harness ("peak-mode=fixed", ic, NULL);
  fail_unless_equals_int (push_check (hn, &fr, &r, 1000.0, "bt709"), 0);
  gst_harness_teardown (hn);
  g_free (ic);
  g_free (m);
  g_free (extra);
  g_free (col);
  g_free (col709);
  gst_buffer_unref (fr.buffer);
}

GST_END_TEST;

/* odd sizes, 1x1, padded strides and shifted planes */
/* 27 columns: 16 a step, then 8, then one at a time on CPUs of 16-float
 * registers */
static const gint sizes[][2] = { {1, 1}, {2, 2}, {3, 1}, {1, 4}, {5, 3},
{17, 13}, {27, 6} };

GST_START_TEST (test_sizes)
{
  const Fmt *f = &formats[__i__ % G_N_ELEMENTS (formats)];
  gint s;

  for (s = 0; s < (gint) G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], h = sizes[s][1];
    Ref r = make_ref (f, TRUE, FALSE, FALSE, 1, 100.0);
    gchar *col = hdr_colorimetry (f, FALSE, FALSE, FALSE);
    gchar *ic = in_caps (f, w, h, col, NULL);
    gchar *what = g_strdup_printf ("%s %dx%d", f->in, w, h);
    GstVideoInfo info = test_info (f->in, w, h);
    TestFrame fr = dynamic_frame (&info, TRUE, 100 + s, 0.0, 1.0, &r, 99.99);
    GstHarness *hn = tm_harness ("curve=reinhard peak-mode=dynamic", ic,
        NULL);
    double lw = MAX (pq_eotf (ref_frame_peak (fr.buffer, &fr.info, &r,
                99.99)), 100.0);

    fail_unless_equals_int (push_check (hn, &fr, &r, lw, what), 0);
    gst_harness_teardown (hn);
    gst_buffer_unref (fr.buffer);
    g_free (col);
    g_free (ic);
    g_free (what);
  }
}

GST_END_TEST;

/* The dynamic peak over a sequence with scene cuts: each frame mapped
 * with the peak smoothed from its own histogram (a frame of delay would
 * map the first frame of a new scene with the old scene's peak), the
 * messages in frame order before EOS, with the frame peak, the peak used
 * and the scene cuts. */
GST_START_TEST (test_dynamic_sequence)
{
  static const double his[] = { 0.5, 0.5, 0.52, 0.49, 0.8, 0.8, 0.83, 0.78,
    0.5
  };
  /* PQ P010 (the CPU kernels' histogram), PQ RGBA64, HLG P010 (the
   * histogram through HLG's OOTF) */
  const gboolean hlg = __i__ == 2;
  const Fmt *f = &formats[__i__ == 1 ? 5 : 0];
  const double percentile = __i__ == 0 ? 99.99 : 95.0;
  const double period = __i__ == 0 ? 20.0 : 3.0, thr = 0.1;
  const gint n = G_N_ELEMENTS (his), w = 40, h = 22;
  Ref r = make_ref (f, TRUE, hlg, FALSE, 0, 100.0);
  gchar *col = hdr_colorimetry (f, hlg, FALSE, FALSE);
  gchar *ic = in_caps (f, w, h, col, NULL);
  gchar *props = g_strdup_printf ("peak-mode=dynamic post-messages=true "
      "percentile=%g smoothing-period=%g", percentile, period);
  GstHarness *hn = tm_harness (props, ic, NULL);
  GstVideoInfo info = test_info (f->in, w, h);
  GstBus *bus = gst_bus_new ();
  double xs[G_N_ELEMENTS (his)], lws[G_N_ELEMENTS (his)], p = 0;
  gboolean cuts[G_N_ELEMENTS (his)];
  GstMessage *msg;
  gint i, got = 0;

  /* frame peaks that follow the luma of the sequence */
  chroma_spread = 0.04;
  gst_element_set_bus (hn->element, bus);
  for (i = 0; i < n; i++) {
    TestFrame fr = dynamic_frame (&info, i & 1, 40 + i, 0.0, his[i], &r,
        percentile);
    gchar *what = g_strdup_printf ("%s frame %d", props, i);
    xs[i] = ref_frame_peak (fr.buffer, &fr.info, &r, percentile);
    cuts[i] = i == 0 || fabs (xs[i] - p) > thr;
    p = cuts[i] ? xs[i] : p + (xs[i] - p) * (1 - exp (-1 / period));
    lws[i] = MAX (pq_eotf (p), r.lt);
    GST_BUFFER_PTS (fr.buffer) = i * GST_MSECOND;
    fail_unless_equals_int (push_check (hn, &fr, &r, lws[i], what), 0);
    gst_buffer_unref (fr.buffer);
    g_free (what);
  }
  fail_unless (hlg || (cuts[4] && !cuts[5] && !cuts[6] && cuts[8]),
      "the sequence has no cuts where it should: x %f %f %f %f %f %f",
      xs[3], xs[4], xs[5], xs[6], xs[7], xs[8]);
  fail_unless (gst_harness_push_event (hn, gst_event_new_eos ()));
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (msg);
    guint64 ts;
    double fp, pk;
    gboolean cut;
    if (gst_structure_has_name (s, "cltonemap")) {
      fail_unless (got < n);
      fail_unless (gst_structure_get (s, "timestamp", G_TYPE_UINT64, &ts,
              "frame-peak", G_TYPE_DOUBLE, &fp, "peak", G_TYPE_DOUBLE, &pk,
              "scene-cut", G_TYPE_BOOLEAN, &cut, NULL));
      fail_unless_equals_uint64 (ts, got * GST_MSECOND);
      fail_unless (fabs (fp - pq_eotf (xs[got])) < 1e-6 * fp, "frame %d: "
          "frame-peak %f, want %f", got, fp, pq_eotf (xs[got]));
      fail_unless (fabs (pk - lws[got]) < 1e-3 * pk, "frame %d: peak %f, "
          "want %f", got, pk, lws[got]);
      fail_unless_equals_int (cut, cuts[got]);
      got++;
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (got, n);
  chroma_spread = 0.4;
  gst_element_set_bus (hn->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (hn);
  g_free (col);
  g_free (ic);
  g_free (props);
}

GST_END_TEST;

/* A flush and new caps restart the dynamic peak: the next frame is a scene
 * cut, mapped with its own peak, even where the smoothing would have gone
 * on. */
GST_START_TEST (test_flush_restarts_peak)
{
  const Fmt *f = &formats[0];
  const gint w = 24, h = 12;
  Ref r = make_ref (f, TRUE, FALSE, FALSE, 0, 100.0);
  gchar *col = hdr_colorimetry (f, FALSE, FALSE, FALSE);
  gchar *ic = in_caps (f, w, h, col, NULL);
  gchar *ic2 = in_caps (f, w, h, col, ",pixel-aspect-ratio=(fraction)2/1");
  GstHarness *hn = tm_harness ("peak-mode=dynamic post-messages=true", ic,
      NULL);
  GstVideoInfo info = test_info (f->in, w, h);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  gboolean cut, want[4] = { TRUE, FALSE, TRUE, TRUE };
  double p = 0;
  gint i, got = 0;

  chroma_spread = 0.04;
  gst_element_set_bus (hn->element, bus);
  for (i = 0; i < 4; i++) {
    /* peaks close enough to be smoothed, but for the restarts */
    TestFrame fr = dynamic_frame (&info, FALSE, 90 + i, 0.0, 0.6 + 0.01 * i,
        &r, 99.99);
    double x = ref_frame_peak (fr.buffer, &fr.info, &r, 99.99);
    if (i == 2) {
      fail_unless (gst_harness_push_event (hn, gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (hn,
              gst_event_new_flush_stop (TRUE)));
      gst_harness_set_src_caps_str (hn, ic);
    } else if (i == 3) {
      gst_harness_set_src_caps_str (hn, ic2);
    }
    p = want[i] ? x : p + (x - p) * (1 - exp (-1 / 20.0));
    fail_unless (want[i] || fabs (x - p) < 0.1);
    fail_unless_equals_int (push_check (hn, &fr, &r, MAX (pq_eotf (p), 100),
            "restart"), 0);
    gst_buffer_unref (fr.buffer);
  }
  fail_unless (gst_harness_push_event (hn, gst_event_new_eos ()));
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (msg);
    if (gst_structure_has_name (s, "cltonemap")) {
      fail_unless (gst_structure_get_boolean (s, "scene-cut", &cut));
      fail_unless (got < 4);
      fail_unless_equals_int (cut, want[got]);
      got++;
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (got, 4);
  chroma_spread = 0.4;
  gst_element_set_bus (hn->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (hn);
  g_free (col);
  g_free (ic);
  g_free (ic2);
}

GST_END_TEST;

/* SDR input passes through untouched (the very buffer); caps changing
 * from SDR to HDR and back mid-stream. */
GST_START_TEST (test_sdr_passthrough)
{
  const Fmt *f = &formats[0];
  gchar *sdr = in_caps (f, 24, 10, "bt2020-10", NULL);
  gchar *col = hdr_colorimetry (f, FALSE, FALSE, FALSE);
  gchar *hdr = in_caps (f, 24, 10, col, NULL);
  GstVideoInfo info = test_info (f->in, 24, 10);
  TestFrame fr = hdr_frame (&info, FALSE, 9, 0.0, 1.0);
  Ref r = make_ref (f, TRUE, FALSE, FALSE, 0, 100.0);
  GstHarness *hn = tm_harness ("peak-mode=fixed", sdr, NULL);
  GstBuffer *out;
  gint k;

  for (k = 0; k < 3; k++) {
    if (k == 1) {
      gst_harness_set_src_caps_str (hn, hdr);
      fail_unless_equals_int (push_check (hn, &fr, &r, 1000.0, "HDR"), 0);
      continue;
    }
    if (k == 2)
      gst_harness_set_src_caps_str (hn, sdr);
    out = test_push_pull (hn, &fr);
    fail_unless (out == fr.buffer, "SDR input was not passed through");
    gst_buffer_unref (out);
  }
  gst_harness_teardown (hn);
  gst_buffer_unref (fr.buffer);
  g_free (sdr);
  g_free (col);
  g_free (hdr);
}

GST_END_TEST;

/* HDR caps that cannot be mapped: a negotiation error saying why, never a
 * guess. */
GST_START_TEST (test_bad_caps)
{
  const Fmt *f = &formats[0];
  GstVideoColorimetry unknown = { GST_VIDEO_COLOR_RANGE_16_235,
    GST_VIDEO_COLOR_MATRIX_BT2020, GST_VIDEO_TRANSFER_UNKNOWN,
    GST_VIDEO_COLOR_PRIMARIES_BT2020
  }, p601 = unknown;
  const gchar *words[] = { "colorimetry", "transfer", "primaries" };
  gchar *col = NULL, *caps, *text = NULL;
  GstVideoInfo info = test_info (f->in, 8, 4);
  TestFrame fr = hdr_frame (&info, FALSE, 1, 0.0, 1.0);
  GstBus *bus = gst_bus_new ();
  GstHarness *hn;
  GstMessage *msg;
  GError *err = NULL;

  p601.transfer = GST_VIDEO_TRANSFER_SMPTE2084;
  p601.primaries = GST_VIDEO_COLOR_PRIMARIES_BT470BG;
  if (__i__ == 0)
    caps = g_strdup ("video/x-raw,format=P010_10LE,width=8,height=4,"
        "framerate=30/1");
  else {
    col = gst_video_colorimetry_to_string (__i__ == 1 ? &unknown : &p601);
    caps = in_caps (f, 8, 4, col, NULL);
  }
  hn = tm_harness (NULL, caps, NULL);
  gst_element_set_bus (hn->element, bus);
  fail_unless_equals_int (gst_harness_push (hn, gst_buffer_ref (fr.buffer)),
      GST_FLOW_NOT_NEGOTIATED);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error for %s", caps);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
  fail_unless (strstr (err->message, words[__i__]) != NULL, "%s",
      err->message);
  g_free (text);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_bus (hn->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (hn);
  gst_buffer_unref (fr.buffer);
  g_free (col);
  g_free (caps);
}

GST_END_TEST;

/* Every property changed between frames while playing applies from the
 * next frame; storage=image warns and maps in buffers. */
GST_START_TEST (test_properties_playing)
{
  const Fmt *f = &formats[3];
  gchar *col = hdr_colorimetry (f, FALSE, TRUE, FALSE);
  gchar *ic = in_caps (f, 30, 14, col, NULL);
  GstHarness *hn = tm_harness ("name=tm peak-mode=fixed storage=image", ic,
      "video/x-raw,format=I420");
  GstVideoInfo info = test_info (f->in, 30, 14);
  Ref r = make_ref (f, TRUE, FALSE, TRUE, 0, 100.0);
  GstBus *bus = gst_bus_new ();
  GstElement *tm = gst_bin_get_by_name (GST_BIN (hn->element), "tm");
  GstMessage *msg;
  gint i;

  gst_element_set_bus (hn->element, bus);
  for (i = 0; i < 5; i++) {
    TestFrame fr = dynamic_frame (&info, FALSE, 70 + i, 0.0, 1.0, &r, 99.99);
    double lw = 1000.0;
    if (i == 1) {
      g_object_set (tm, "curve", 2, "target-peak", 203.0, NULL);
      r.curve = 2;
      r.lt = 203.0;
    } else if (i == 2) {
      g_object_set (tm, "curve", 3, "source-peak", 3000.0, NULL);
      r.curve = 3;
    } else if (i == 3) {
      g_object_set (tm, "curve", 1, "source-peak", 3000.0, NULL);
      r.curve = 1;
    } else if (i == 4) {
      g_object_set (tm, "peak-mode", 2, "curve", 0, NULL);
      r.curve = 0;
    }
    if (i >= 2)
      lw = 3000.0;
    if (i == 4)
      lw = MAX (pq_eotf (ref_frame_peak (fr.buffer, &fr.info, &r, 99.99)),
          r.lt);
    fail_unless_equals_int (push_check (hn, &fr, &r, lw, "properties"), 0);
    gst_buffer_unref (fr.buffer);
  }
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "storage=image did not warn");
  gst_message_unref (msg);
  gst_element_set_bus (hn->element, NULL);
  gst_object_unref (tm);
  gst_object_unref (bus);
  gst_harness_teardown (hn);
  g_free (col);
  g_free (ic);
}

GST_END_TEST;

/* One @w x @h frame of format @f (PQ, limited range, into the 8-bit
 * sibling) through cltonemap with @props, against the reference with the
 * frame's own dynamic peak. */
static void
check_one_dynamic (const Fmt * f, gint w, gint h, guint32 seed, double hi,
    const gchar * props)
{
  Ref r = make_ref (f, TRUE, FALSE, FALSE, 0, 100.0);
  gchar *col = hdr_colorimetry (f, FALSE, FALSE, FALSE);
  GstVideoInfo info = test_info (f->in, w, h);
  TestFrame fr = dynamic_frame (&info, TRUE, seed, 0.0, hi, &r, 99.99);
  gchar *ic = in_caps (f, w, h, col, NULL);
  GstHarness *hn = tm_harness (props, ic, NULL);
  double lw = MAX (pq_eotf (ref_frame_peak (fr.buffer, &fr.info, &r,
              99.99)), 100.0);

  fail_unless_equals_int (push_check (hn, &fr, &r, lw, props), 0);
  gst_harness_teardown (hn);
  gst_buffer_unref (fr.buffer);
  g_free (ic);
  g_free (col);
}

/* With the tuner measuring the kernels at caps time (a frame large enough
 * for it), the first frames still get their own dynamic peak: the tuner's
 * runs of the kernels leave no smoothing behind. */
GST_START_TEST (test_tuner_frames)
{
  g_setenv ("GST_CL_TUNE", "force", TRUE);
  check_one_dynamic (&formats[0], 320, 256, 120, 0.5,
      "peak-mode=dynamic tuning=auto");
  g_unsetenv ("GST_CL_TUNE");
}

GST_END_TEST;

/* The tuning properties of the filters' base class: every work
 * decomposition gives the reference's output (the group sizes are read by
 * the GPU kernels, which the -gpu-kernels run checks on POCL; odd widths
 * leave a partial group). */
GST_START_TEST (test_tunings)
{
  const gchar *const tunings[] = { "work-group-size=1",
    "work-group-size=32", "work-group-size=256", "kernel-shape=strips",
    "kernel-shape=tiles work-group-size=64", "tuning=defaults"
  };
  gchar *props = g_strdup_printf ("peak-mode=dynamic %s", tunings[__i__]);

  check_one_dynamic (&formats[__i__ % 2 ? 0 : 2], 67, 9, 90 + __i__, 0.9,
      props);
  g_free (props);
}

GST_END_TEST;

/* clupload ! cltonemap ! clgaussian: the frame stays on the device from
 * clupload on (memory:OpenCLMemory on both of cltonemap's pads), and the
 * result is the reference blurred by the exact 3x3 binomial, chroma
 * unchanged. */
GST_START_TEST (test_chain_gaussian)
{
  const Fmt *f = &formats[0];
  const gint w = 26, h = 15;
  gchar *col = hdr_colorimetry (f, FALSE, FALSE, FALSE);
  gchar *ic = in_caps (f, w, h, col, NULL);
  GstHarness *hn = test_harness_new ("clupload ! cltonemap name=tm "
      "peak-mode=dynamic ! clgaussian");
  GstVideoInfo info = test_info (f->in, w, h), oi;
  Ref r = make_ref (f, TRUE, FALSE, FALSE, 0, 100.0);
  TestFrame fr = dynamic_frame (&info, TRUE, 17, 0.0, 1.0, &r, 99.99);
  double lw;
  Expected e, b;
  GstElement *tm;
  GstPad *pad;
  GstCaps *caps;
  GstBuffer *out;
  gint x, y, i, j;

  gst_harness_set_src_caps_str (hn, ic);
  gst_harness_set_sink_caps_str (hn, "video/x-raw,format=NV12");
  out = test_push_pull (hn, &fr);
  tm = gst_bin_get_by_name (GST_BIN (hn->element), "tm");
  pad = gst_element_get_static_pad (tm, "src");
  caps = gst_pad_get_current_caps (pad);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          "memory:OpenCLMemory"), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (tm, "sink");
  caps = gst_pad_get_current_caps (pad);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          "memory:OpenCLMemory"), "%" GST_PTR_FORMAT, caps);
  lw = MAX (pq_eotf (ref_frame_peak (fr.buffer, &fr.info, &r, 99.99)), 100);
  e = ref_expected (fr.buffer, &fr.info, &r, lw);
  b = e;
  b.v[0] = g_new0 (gint, w * h);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      gint sum = 0;
      for (j = -1; j <= 1; j++)
        for (i = -1; i <= 1; i++)
          sum += (2 - ABS (i)) * (2 - ABS (j)) *
              e.v[0][clampi (y + j, 0, h - 1) * w + clampi (x + i, 0, w - 1)];
      b.v[0][y * w + x] = (sum + 8) >> 4;
    }
  oi = out_info (hn);
  fail_unless_equals_int (compare_expected (&b, out, &oi, 1, "chain"), 0);
  g_free (b.v[0]);
  expected_free (&e);
  gst_buffer_unref (out);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (tm);
  gst_harness_teardown (hn);
  gst_buffer_unref (fr.buffer);
  g_free (col);
  g_free (ic);
}

GST_END_TEST;

static Suite *
cltonemap_suite (void)
{
  Suite *s = suite_create ("cltonemap");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  test_add_leak_check (tc);
  test_holds_devices = TRUE;
  tcase_add_loop_test (tc, test_formats, 0, G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_curves, 0, 8);
  tcase_add_test (tc, test_metadata_and_primaries);
  tcase_add_loop_test (tc, test_sizes, 0, G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_dynamic_sequence, 0, 3);
  tcase_add_test (tc, test_flush_restarts_peak);
  tcase_add_test (tc, test_sdr_passthrough);
  tcase_add_loop_test (tc, test_bad_caps, 0, 3);
  tcase_add_test (tc, test_properties_playing);
  tcase_add_test (tc, test_chain_gaussian);
  tcase_add_loop_test (tc, test_tunings, 0, 6);
  tcase_add_test (tc, test_tuner_frames);
  return s;
}

TEST_MAIN_ONE_PROCESS (cltonemap);
