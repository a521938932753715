/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* Many streams, any producer (docs/design.md, "Input of any kind" and
 * "Many streams"): frames in ordinary memory of every format and layout
 * reach the device and come back byte for byte, also when they are copied
 * in pieces over several threads (the copying path: GPUs, and POCL with
 * GST_CL_ZERO_COPY=0); independent pipelines in one process on one device
 * give each the output it gives alone, while another stream stops in the
 * middle of its frames, another drops a bad buffer, another fails and
 * another seeks; a producer that rewrites its buffers as soon as an
 * element lets go of them gets the outputs of fresh buffers. */
#include "clcheck.h"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

/* Whether @out holds @in's samples, plane by plane, row by row (not the
 * padding between rows and planes). */
static gboolean
same_samples (GstBuffer * in, GstBuffer * out, const GstVideoInfo * info,
    const GstVideoInfo * in_layout)
{
  GstVideoFrame a, b;
  gboolean same = TRUE;
  guint p, y;

  fail_unless (gst_video_frame_map (&a, in_layout, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, info, out, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info) && same; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gsize row;
    guint rows;
    gst_video_format_info_component (info->finfo, p, comp);
    row = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    for (y = 0; y < rows && same; y++)
      same = memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&a, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&a, p),
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&b, p), row) == 0;
  }
  gst_video_frame_unmap (&a);
  gst_video_frame_unmap (&b);
  return same;
}

typedef struct
{
  const gchar *format;
  gint width, height;
} Case;

/* large enough for several pieces (1 MiB each, at most 8), odd sizes, and
 * frames of one piece */
static const Case upload_cases[] = {
  {"RGBA", 1283, 1001}, {"I420", 2047, 1081}, {"NV12", 1921, 1083},
  {"YV12", 1537, 1025}, {"RGB", 1025, 771}, {"GRAY8", 2049, 1031},
  {"P010_10LE", 1283, 721}, {"GRAY16_LE", 1031, 1029},
  {"RGBA", 1, 1}, {"NV12", 33, 17},
};

/* clupload ! cldownload gives back every sample of frames in ordinary
 * memory, padded or not, through the pinned copies and the threads */
GST_START_TEST (test_upload_exact)
{
  const Case *c = &upload_cases[__i__];
  GstVideoInfo info = test_info (c->format, c->width, c->height);
  GstHarness *h = test_harness_new ("clupload ! cldownload");
  gchar *caps = test_caps_string (c->format, c->width, c->height);
  gint padded, k;

  gst_harness_set_caps_str (h, caps, caps);
  for (padded = 0; padded < 2; padded++) {
    for (k = 0; k < 3; k++) {
      TestFrame f = test_frame_new (&info, CONTENT_RANDOM, padded,
          __i__ * 10 + padded * 3 + k);
      GstBuffer *out;
      out = gst_harness_push_and_pull (h, gst_buffer_ref (f.buffer));
      fail_unless (out != NULL);
      fail_unless (same_samples (f.buffer, out, &info, &f.info),
          "%s %dx%d padded %d frame %d differs", c->format, c->width,
          c->height, padded, k);
      gst_buffer_unref (out);
      gst_buffer_unref (f.buffer);
    }
  }
  gst_harness_teardown (h);
  g_free (caps);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* A producer that reuses its buffers                                       */

static const gchar *const reuse_chains[] = {
  "clupload ! cldownload", "clgaussian ! cllaplace",
};

#define RING 3

/* Whether nothing but the producer holds @buf or its memory. */
static gboolean
released (GstBuffer * buf)
{
  return GST_MINI_OBJECT_REFCOUNT_VALUE (buf) == 1 &&
      gst_buffer_is_all_memory_writable (buf);
}

/* Waits until the element let go of @buf, as a producer with a ring of
 * its own buffers does. */
static void
wait_released (GstBuffer * buf)
{
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!released (buf)) {
    fail_unless (g_get_monotonic_time () < until, "an element kept a "
        "producer's buffer for 10 s (with %d buffers in its ring)", RING);
    g_usleep (1000);
  }
}

/* A ring of the producer's own buffers, each rewritten with the next
 * frame as soon as the element lets go of it and scribbled over the moment
 * it does, through the pointer the producer has always had (v4l2src's
 * capture buffers, an application's): each output is the one a fresh
 * buffer of the same content gives. On the copying path
 * (streams-copying) the frame is copied in pieces over threads; on a
 * zero-copy device it is read in place until the device is done. */
GST_START_TEST (test_producer_reuses_buffers)
{
  const gchar *chain = reuse_chains[__i__ / 2];
  gboolean padded = __i__ % 2;
  GstVideoInfo info = test_info ("RGBA", 1283, 1001);
  GstHarness *h = test_harness_new (chain);
  GstHarness *fresh = test_harness_new (chain);
  gchar *caps = test_caps_string ("RGBA", 1283, 1001);
  TestFrame ring[RING];
  guint8 *data[RING];
  gint i, k;

  gst_harness_set_caps_str (h, caps, caps);
  gst_harness_set_caps_str (fresh, caps, caps);
  for (k = 0; k < RING; k++) {
    GstMapInfo map;
    ring[k] = test_frame_new (&info, CONTENT_RANDOM, padded, 100 + k);
    fail_unless (gst_buffer_map (ring[k].buffer, &map, GST_MAP_WRITE));
    data[k] = map.data;
    gst_buffer_unmap (ring[k].buffer, &map);
  }
  for (i = 0; i < 3 * RING; i++) {
    TestFrame *slot = &ring[i % RING];
    TestFrame next = test_frame_new (&info, CONTENT_RANDOM, padded, i + 1);
    GstBuffer *want, *got;

    wait_released (slot->buffer);
    gst_buffer_extract (next.buffer, 0, data[i % RING], slot->info.size);
    gst_buffer_unref (next.buffer);
    want = gst_harness_push_and_pull (fresh,
        gst_buffer_copy_deep (slot->buffer));
    fail_unless (want != NULL);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref
            (slot->buffer)), GST_FLOW_OK);
    /* the producer writes the moment it may */
    if (released (slot->buffer))
      memset (data[i % RING], 0xEE, slot->info.size);
    got = gst_harness_pull (h);
    fail_unless (got != NULL);
    fail_unless (same_samples (want, got, &info, &info), "%s, padded %d: "
        "frame %d differs from a fresh buffer's", chain, padded, i);
    gst_buffer_unref (want);
    gst_buffer_unref (got);
  }
  for (k = 0; k < RING; k++)
    gst_buffer_unref (ring[k].buffer);
  gst_harness_teardown (h);
  gst_harness_teardown (fresh);
  g_free (caps);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Streams side by side                                                     */

typedef struct
{
  const gchar *chain;
  const gchar *format;
  gint width, height;
  gint frames;
  gint stop_after;              /* set to NULL after this many frames, or 0 */
  gint bad_frame;               /* this frame (from 1) is a truncated buffer,
                                 * which the elements drop, or 0 */
  gint fail_at;                 /* from this frame on (from 1) the caps are
                                 * of a format the chain refuses: the
                                 * stream fails with an error, or 0 */
  GPtrArray *out;               /* GstBuffer, the outputs */
  GstVideoInfo info;
} Stream;

static Stream streams[] = {
  {"clgaussian ! cllaplace", "RGBA", 640, 360, 8, 0},
  {"clgaussian radius=3 ! cllaplace mode=edges", "NV12", 333, 217, 8, 0},
  {"clgaussian sigma=1.5 ! clhistogram", "GRAY8", 801, 403, 8, 0},
  {"cllaplace ! clgaussian", "P010_10LE", 321, 181, 8, 0},
  {"clgaussian ! cllaplace", "I420", 500, 300, 40, 3},
  {"cllaplace ! clgaussian radius=2", "RGB", 211, 97, 8, 0, 4},
  {"clgaussian ! cllaplace ! clhistogram", "NV12", 640, 480, 30, 0, 0, 5},
};

/* The stream's caps change to a format the chain refuses: the push fails
 * and an error reaches the pipeline's bus. */
static void
expect_failure (GstElement * p, GstElement * src, gint i)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=v210,"
      "width=64,height=48,framerate=30/1");
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 128 * 48 * 4, NULL);
  GstMessage *m;

  g_object_set (src, "caps", caps, NULL);
  GST_BUFFER_PTS (buf) = i * GST_SECOND / 30;
  gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 10 * GST_SECOND,
      GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no error after a refused format");
  gst_message_unref (m);
  gst_caps_unref (caps);
}

/* The stream's frames, pushed by an appsrc from ordinary memory (a new
 * buffer each), its outputs kept. */
static gpointer
run_stream (gpointer data)
{
  Stream *s = data;
  gchar *caps = test_caps_string (s->format, s->width, s->height);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "%s ! appsink name=sink sync=false", caps, s->chain);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *src, *sink;
  GstSample *sample;
  gint i;

  fail_unless (p != NULL, "%s", desc);
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  s->info = test_info (s->format, s->width, s->height);
  s->out = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < s->frames; i++) {
    TestFrame f;
    if (i + 1 == s->fail_at) {
      expect_failure (p, src, i);
      break;
    }
    f = test_frame_new (&s->info, CONTENT_RANDOM, i % 2, i + 1);
    if (i + 1 == s->bad_frame) {
      /* dropped with a warning: no output for it */
      gst_buffer_unref (f.buffer);
      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
              gst_buffer_new_allocate (NULL, 16, NULL)), GST_FLOW_OK);
      continue;
    }
    GST_BUFFER_PTS (f.buffer) = i * GST_SECOND / 30;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            f.buffer), GST_FLOW_OK);
    if (s->stop_after && i + 1 == s->stop_after)
      break;
    sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    fail_unless (sample != NULL, "%s: no output", desc);
    g_ptr_array_add (s->out, gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (desc);
  g_free (caps);
  return NULL;
}

/* A live stream beside the others, seeking (flushing) again and again
 * until @data (an atomic flag) is set: it must neither fail nor stall, and
 * the others must not notice it. */
static gpointer
run_seeker (gpointer data)
{
  gint *stop = data;
  GstElement *p = gst_parse_launch ("videotestsrc pattern=ball ! "
      "video/x-raw,format=NV12,width=352,height=288 ! clgaussian ! "
      "cllaplace ! clhistogram ! fakesink sync=false", NULL);
  GstMessage *m;
  guint seeks = 0;

  fail_unless (p != NULL);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (p, NULL, NULL, 5 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS);
  while (!g_atomic_int_get (stop) || seeks < 3) {
    fail_unless (gst_element_seek_simple (p, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH, 0));
    seeks++;
    m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 5 * GST_MSECOND,
        GST_MESSAGE_ERROR);
    fail_unless (m == NULL, "the seeking stream failed");
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  return NULL;
}

static void
clear_outputs (void)
{
  guint i;
  for (i = 0; i < G_N_ELEMENTS (streams); i++)
    g_clear_pointer (&streams[i].out, g_ptr_array_unref);
}

/* Each stream alone, then all of them at once on one device (one of them
 * stopping after a few frames, another given a truncated buffer, another
 * failing, and a live stream beside them seeking again and again): the
 * same outputs. */
GST_START_TEST (test_streams_side_by_side)
{
  const guint n = G_N_ELEMENTS (streams);
  GPtrArray *alone[G_N_ELEMENTS (streams)];
  GThread *threads[G_N_ELEMENTS (streams)], *seeker;
  gint stop = 0;
  guint i, k;

  for (i = 0; i < n; i++) {
    run_stream (&streams[i]);
    alone[i] = g_ptr_array_ref (streams[i].out);
  }
  clear_outputs ();
  seeker = g_thread_new ("seeker", run_seeker, &stop);
  for (i = 0; i < n; i++)
    threads[i] = g_thread_new ("stream", run_stream, &streams[i]);
  for (i = 0; i < n; i++)
    g_thread_join (threads[i]);
  g_atomic_int_set (&stop, 1);
  g_thread_join (seeker);
  for (i = 0; i < n; i++) {
    Stream *s = &streams[i];
    fail_unless_equals_int (s->out->len, alone[i]->len);
    for (k = 0; k < s->out->len; k++)
      fail_unless (same_samples (alone[i]->pdata[k], s->out->pdata[k],
              &s->info, &s->info), "stream %u (%s %s) frame %u differs "
          "beside the others", i, s->chain, s->format, k);
    g_ptr_array_unref (alone[i]);
  }
  clear_outputs ();
}

GST_END_TEST;

static Suite *
streams_suite (void)
{
  Suite *s = suite_create ("streams");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  test_add_leak_check (tc);
  tcase_add_loop_test (tc, test_upload_exact, 0, G_N_ELEMENTS (upload_cases));
  tcase_add_loop_test (tc, test_producer_reuses_buffers, 0,
      2 * G_N_ELEMENTS (reuse_chains));
  tcase_add_test (tc, test_streams_side_by_side);
  return s;
}

TEST_MAIN (streams);
