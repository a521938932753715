/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* Bad input, for each element: buffers shorter than their caps, empty
 * buffers, video metas whose strides or offsets run past the buffer,
 * buffers before caps, gap buffers. Each ends without a crash or a GLib
 * critical, with a warning or error on the bus, and nothing unwritten
 * pushed downstream. */
#include "clcheck.h"

static const gchar *const elements[] = {
  "clgaussian", "clgaussian storage=image", "cllaplace",
  "cllaplace storage=image", "clhistogram", "clhistogram storage=image",
  "clclahe", "clclahe storage=image",
};

/* the packed format of the tests of whole frames, one the element takes
 * (clclahe takes no RGB) */
static const gchar *
frame_format (const gchar * launch)
{
  return g_str_has_prefix (launch, "clclahe") ? "GRAY8" : "RGB";
}

typedef struct
{
  GstHarness *h;
  GstElement *e;
  GstBus *bus;
  const gchar *format;          /* of the caps, and of the good frames */
} Bad;

static Bad
bad_new (const gchar * launch, const gchar * caps)
{
  Bad b;
  gchar *name = g_strndup (launch, strcspn (launch, " "));
  b.h = test_harness_new (launch);
  b.e = gst_harness_find_element (b.h, name);
  b.bus = gst_bus_new ();
  b.format = frame_format (launch);
  if (caps) {
    /* the good frames are frames of the caps */
    GstCaps *c = gst_caps_from_string (caps);
    b.format = g_intern_string (gst_structure_get_string
        (gst_caps_get_structure (c, 0), "format"));
    gst_caps_unref (c);
  }
  gst_element_set_bus (b.e, b.bus);
  if (caps)
    gst_harness_set_caps_str (b.h, caps, caps);
  g_free (name);
  return b;
}

static void
bad_free (Bad * b)
{
  gst_element_set_bus (b->e, NULL);
  gst_object_unref (b->bus);
  gst_object_unref (b->e);
  gst_harness_teardown (b->h);
}

static guint
count (GstBus * bus, GstMessageType type)
{
  GstMessage *m;
  guint n = 0;
  while ((m = gst_bus_pop_filtered (bus, type))) {
    n++;
    gst_message_unref (m);
  }
  return n;
}

/* pushes @buf, expects it dropped with a warning, then a good frame to go
 * through */
static void
expect_dropped (Bad * b, GstBuffer * buf, const gchar * what)
{
  GstVideoInfo info = test_info (b->format, 64, 48);
  TestFrame good = test_frame_new (&info, CONTENT_RANDOM, FALSE, 1);
  GstBuffer *out;

  fail_unless_equals_int (gst_harness_push (b->h, buf), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (b->h), 0);
  fail_unless (count (b->bus, GST_MESSAGE_WARNING) == 1, "%s: no warning",
      what);
  out = test_push_pull (b->h, &good);
  fail_unless (out != NULL, "%s: the stream did not recover", what);
  gst_buffer_unref (out);
  gst_buffer_unref (good.buffer);
  fail_unless_equals_int (count (b->bus, GST_MESSAGE_ERROR), 0);
}

GST_START_TEST (test_short_and_empty_buffers)
{
  const gchar *format = frame_format (elements[__i__]);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=64,"
      "height=48,framerate=30/1", format);
  Bad b = bad_new (elements[__i__], caps);
  /* 64x48 RGB and GRAY8 rows have no padding */
  gsize size = test_info (format, 64, 48).size;
  GstBuffer *buf;

  g_free (caps);
  /* one byte short */
  buf = gst_buffer_new_allocate (NULL, size - 1, NULL);
  gst_buffer_memset (buf, 0, 7, size - 1);
  expect_dropped (&b, buf, "short buffer");
  /* half the frame */
  buf = gst_buffer_new_allocate (NULL, size / 2, NULL);
  expect_dropped (&b, buf, "half frame");
  /* empty */
  expect_dropped (&b, gst_buffer_new (), "empty buffer");
  /* an empty gap buffer */
  buf = gst_buffer_new ();
  GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_GAP);
  expect_dropped (&b, buf, "empty gap buffer");
  bad_free (&b);
}

GST_END_TEST;

GST_START_TEST (test_bad_video_meta)
{
  Bad b = bad_new (elements[__i__], "video/x-raw,format=NV12,width=64,"
      "height=48,framerate=30/1");
  GstVideoInfo info = test_info ("NV12", 64, 48);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0, };
  GstBuffer *buf;

  /* a stride that runs the luma plane past the buffer */
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  offsets[0] = 0;
  offsets[1] = 64 * 48;
  strides[0] = 128;
  strides[1] = 64;
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_FORMAT_NV12, 64, 48, 2,
      offsets, strides);
  expect_dropped (&b, buf, "stride past the end");
  /* a chroma offset past the end */
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  offsets[1] = info.size + 100;
  strides[0] = 64;
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_FORMAT_NV12, 64, 48, 2,
      offsets, strides);
  expect_dropped (&b, buf, "offset past the end");
  /* a stride smaller than a row */
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  offsets[1] = 64 * 48;
  strides[0] = 32;
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_FORMAT_NV12, 64, 48, 2,
      offsets, strides);
  expect_dropped (&b, buf, "stride smaller than a row");
  /* a meta of another size than the caps */
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  offsets[1] = 32 * 48;
  strides[0] = strides[1] = 32;
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_FORMAT_NV12, 32, 48, 2,
      offsets, strides);
  expect_dropped (&b, buf, "meta of another size");
  bad_free (&b);
}

GST_END_TEST;

/* Formats of more than 8 bits: kernels read 16-bit words, so a video meta
 * with an odd stride or plane offset is refused (the frame dropped with a
 * warning), as is a buffer one byte short. */
GST_START_TEST (test_odd_layout_16bit)
{
  Bad b = bad_new (elements[__i__], "video/x-raw,format=P010_10LE,width=64,"
      "height=48,framerate=30/1");
  GstVideoInfo info = test_info ("P010_10LE", 64, 48);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, 64 * 2 * 48 + 256, };
  gint strides[GST_VIDEO_MAX_PLANES] = { 129, 128, };
  GstBuffer *buf;

  buf = gst_buffer_new_allocate (NULL, info.size + 512, NULL);
  gst_buffer_memset (buf, 0, 0, info.size + 512);
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_FORMAT_P010_10LE, 64, 48,
      2, offsets, strides);
  expect_dropped (&b, buf, "odd stride of 16-bit samples");
  buf = gst_buffer_new_allocate (NULL, info.size + 512, NULL);
  gst_buffer_memset (buf, 0, 0, info.size + 512);
  strides[0] = 128;
  offsets[1] += 1;
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_FORMAT_P010_10LE, 64, 48,
      2, offsets, strides);
  expect_dropped (&b, buf, "odd offset of 16-bit samples");
  buf = gst_buffer_new_allocate (NULL, info.size - 1, NULL);
  gst_buffer_memset (buf, 0, 0, info.size - 1);
  expect_dropped (&b, buf, "16-bit frame one byte short");
  bad_free (&b);
}

GST_END_TEST;

/* A buffer before any caps: refused with an error, no crash. */
GST_START_TEST (test_buffer_before_caps)
{
  Bad b = bad_new (elements[__i__], NULL);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 64 * 48 * 3, NULL);
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (b.h,
          gst_event_new_stream_start ("no-caps")));
  fail_unless (gst_harness_push_event (b.h, gst_event_new_segment (&segment)));
  fail_unless (gst_harness_push (b.h, buf) != GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (b.h), 0);
  bad_free (&b);
}

GST_END_TEST;

/* A gap buffer with a whole frame is filtered like any other. */
GST_START_TEST (test_gap_with_data)
{
  const gchar *format = frame_format (elements[__i__]);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=64,"
      "height=48,framerate=30/1", format);
  Bad b = bad_new (elements[__i__], caps);
  GstVideoInfo info = test_info (format, 64, 48);
  TestFrame f = test_frame_new (&info, CONTENT_RANDOM, FALSE, 3);
  GstBuffer *out;

  g_free (caps);

  GST_BUFFER_FLAG_SET (f.buffer, GST_BUFFER_FLAG_GAP);
  out = test_push_pull (b.h, &f);
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  gst_buffer_unref (f.buffer);
  fail_unless_equals_int (count (b.bus, GST_MESSAGE_ERROR), 0);
  bad_free (&b);
}

GST_END_TEST;

static Suite *
badinput_suite (void)
{
  Suite *s = suite_create ("badinput");
  TCase *tc = tcase_create ("general");
  guint n = G_N_ELEMENTS (elements);

  suite_add_tcase (s, tc);
  test_add_leak_check (tc);
  test_holds_devices = TRUE;
  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_short_and_empty_buffers, 0, n);
  tcase_add_loop_test (tc, test_bad_video_meta, 0, n);
  tcase_add_loop_test (tc, test_odd_layout_16bit, 0, n);
  tcase_add_loop_test (tc, test_buffer_before_caps, 0, n);
  tcase_add_loop_test (tc, test_gap_with_data, 0, n);
  return s;
}

TEST_MAIN_ONE_PROCESS (badinput);
