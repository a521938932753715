/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* streambench: aggregate cost a frame of N independent streams in one
 * process on one device, against the floors measured in the same run.
 *
 *   streambench [--device gpu] [--width 1920 --height 1080] [--format NV12]
 *               [--colorimetry bt2100-pq]
 *               [--streams 1,2,4,8,16] [--frames 400]
 *               [--chains "identity;clgaussian ! cllaplace ! clhistogram"]
 *               [--producers pool,pageable] [--devices 0.0,0.1] [--cpu 1]
 *
 * Each stream is its own pipeline, appsrc ! CHAIN ! appsink, with a thread
 * that pushes and a thread that maps every output frame and reads a byte of
 * each 4 KiB page (a sink that never maps would hide the download). The
 * producers: "pool" buffers come from the pool the first element proposes
 * (what videotestsrc or a decoder does) and get one byte written each;
 * "pageable" buffers are a ring of 4 ordinary malloc'd frames per stream,
 * reused right after they were pushed (an application's own buffers, a tee,
 * a producer that ignores the proposed pool). --frames is the frames of all
 * streams together (each stream gets its share, at least 40); the first 10
 * of each stream are not timed. A row's figures are milliseconds a frame of
 * all streams together: wall time over frames.
 *
 * With --cpu 1 each figure is followed by the process's CPU time (user and
 * system, all threads) a frame over the same frames: a figure near the
 * wall time times the cores means the host is busy, one far below it that
 * the streams wait (on the device or a lock).
 *
 * With --devices, "{dev}" in a chain is replaced by the devices in turn,
 * one a stream (streams spread over a host's GPUs:
 * "clgaussian device={dev} ! cllaplace device={dev}").
 *
 * The floors (floors.h): pinned transfers of one frame both ways at once,
 * the same per frame for N streams (one bus), and a host memcpy; the
 * "identity" chain gives what the producers and sinks cost alone.
 */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "floors.h"

#define RING 4
#define WARMUP 10

typedef struct
{
  GstElement *pipeline, *src, *sink;
  GstBufferPool *pool;
  GstBuffer *ring[RING];
  gint frames;
  gint out;                     /* frames the reader got (atomic) */
  guint64 sum;
  GThread *pusher, *reader;
} Stream;

static gpointer
read_frames (gpointer data)
{
  Stream *s = data;
  GstSample *sample;

  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (s->sink)))) {
    GstBuffer *b = gst_sample_get_buffer (sample);
    GstMapInfo map;
    if (gst_buffer_map (b, &map, GST_MAP_READ)) {
      gsize i;
      for (i = 0; i < map.size; i += 4096)
        s->sum += map.data[i];
      gst_buffer_unmap (b, &map);
    }
    gst_sample_unref (sample);
    g_atomic_int_inc (&s->out);
  }
  return NULL;
}

static gpointer
push_frames (gpointer data)
{
  Stream *s = data;
  gint i;

  for (i = 1; i < s->frames; i++) {
    GstBuffer *b;
    if (s->pool) {
      GstMapInfo map;
      if (gst_buffer_pool_acquire_buffer (s->pool, &b, NULL) != GST_FLOW_OK)
        break;
      gst_buffer_map (b, &map, GST_MAP_WRITE);
      map.data[i % map.size] = i;
      gst_buffer_unmap (b, &map);
    } else {
      b = gst_buffer_ref (s->ring[i % RING]);
    }
    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    if (gst_app_src_push_buffer (GST_APP_SRC (s->src), b) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (s->src));
  return NULL;
}

static void
fail_on_error (Stream * s, const gchar * chain)
{
  GstMessage *m = gst_bus_pop_filtered (GST_ELEMENT_BUS (s->pipeline),
      GST_MESSAGE_ERROR);
  GError *e = NULL;

  if (!m)
    return;
  gst_message_parse_error (m, &e, NULL);
  g_printerr ("%s: %s\n", chain, e->message);
  exit (1);
}

static GstBufferPool *
proposed_pool (Stream * s, const GstVideoInfo * info)
{
  GstCaps *caps = gst_video_info_to_caps (info);
  GstQuery *q = gst_query_new_allocation (caps, TRUE);
  GstPad *pad = gst_element_get_static_pad (s->src, "src");
  GstBufferPool *pool = NULL;

  if (gst_pad_peer_query (pad, q) && gst_query_get_n_allocation_pools (q)) {
    GstStructure *config;
    gst_query_parse_nth_allocation_pool (q, 0, &pool, NULL, NULL, NULL);
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, info->size, 0, 0);
    gst_buffer_pool_set_config (pool, config);
    gst_buffer_pool_set_active (pool, TRUE);
  }
  gst_object_unref (pad);
  gst_query_unref (q);
  gst_caps_unref (caps);
  return pool;
}

/* the pipeline, playing, with its first frame through (negotiated) */
static void
stream_start (Stream * s, const gchar * chain, const GstVideoInfo * info,
    gboolean pool, gint frames)
{
  GstCaps *caps = gst_video_info_to_caps (info);
  gchar *caps_str = gst_caps_to_string (caps);
  gchar *desc = g_strdup_printf ("appsrc caps=\"%s\" format=time "
      "block=true max-bytes=1 name=src ! %s ! appsink name=sink sync=false "
      "max-buffers=4", caps_str, chain);
  GError *err = NULL;
  gint i;

  s->pipeline = gst_parse_launch (desc, &err);
  if (!s->pipeline) {
    g_printerr ("%s: %s\n", desc, err->message);
    exit (1);
  }
  s->src = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
  s->sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
  s->frames = frames;
  for (i = 0; i < RING; i++) {
    s->ring[i] = gst_buffer_new_allocate (NULL, info->size, NULL);
    gst_buffer_memset (s->ring[i], 0, 0x40 + i, info->size);
  }
  gst_element_set_state (s->pipeline, GST_STATE_PLAYING);
  s->reader = g_thread_new ("reader", read_frames, s);
  gst_app_src_push_buffer (GST_APP_SRC (s->src), gst_buffer_ref (s->ring[0]));
  while (g_atomic_int_get (&s->out) < 1) {
    fail_on_error (s, chain);
    g_usleep (1000);
  }
  /* an element that proposes none (identity) gets the ring */
  if (pool)
    s->pool = proposed_pool (s, info);
  g_free (desc);
  g_free (caps_str);
  gst_caps_unref (caps);
}

static void
stream_stop (Stream * s)
{
  gint i;

  g_thread_join (s->pusher);
  g_thread_join (s->reader);
  gst_element_set_state (s->pipeline, GST_STATE_NULL);
  if (s->pool) {
    gst_buffer_pool_set_active (s->pool, FALSE);
    gst_object_unref (s->pool);
  }
  for (i = 0; i < RING; i++)
    gst_buffer_unref (s->ring[i]);
  gst_object_unref (s->src);
  gst_object_unref (s->sink);
  gst_object_unref (s->pipeline);
}

static gint
frames_out (Stream * streams, gint n)
{
  gint i, sum = 0;

  for (i = 0; i < n; i++)
    sum += g_atomic_int_get (&streams[i].out);
  return sum;
}

/* ms a frame of @n streams of @chain together, timed from the moment every
 * stream is past its warm-up frames on average */
static gchar **devices;

/* @chain with "{dev}" replaced by the device of stream @i */
static gchar *
chain_of_stream (const gchar * chain, gint i)
{
  gchar **parts;
  gchar *out;

  if (!devices)
    return g_strdup (chain);
  parts = g_strsplit (chain, "{dev}", -1);
  out = g_strjoinv (devices[i % g_strv_length (devices)], parts);
  g_strfreev (parts);
  return out;
}

/* the process's CPU time (user and system), us */
static gint64
cpu_time (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return (gint64) (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * G_USEC_PER_SEC +
      u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

static gdouble
run_streams (const gchar * chain, const GstVideoInfo * info, gboolean pool,
    gint n, gint total_frames, gdouble * cpu_ms)
{
  Stream *streams = g_new0 (Stream, n);
  gint per = MAX (40, total_frames / n), i, timed = 0;
  gint64 t0 = 0, t1, c0 = 0;

  for (i = 0; i < n; i++) {
    gchar *c = chain_of_stream (chain, i);
    stream_start (&streams[i], c, info, pool, per);
    g_free (c);
  }
  for (i = 0; i < n; i++)
    streams[i].pusher = g_thread_new ("pusher", push_frames, &streams[i]);
  while (frames_out (streams, n) < n * per) {
    if (!t0 && frames_out (streams, n) >= n * WARMUP) {
      t0 = g_get_monotonic_time ();
      c0 = cpu_time ();
      timed = frames_out (streams, n);
    }
    for (i = 0; i < n; i++)
      fail_on_error (&streams[i], chain);
    g_usleep (100);
  }
  t1 = g_get_monotonic_time ();
  *cpu_ms = (cpu_time () - c0) / 1000.0 / (n * per - timed);
  for (i = 0; i < n; i++)
    stream_stop (&streams[i]);
  g_free (streams);
  return (t1 - t0) / 1000.0 / (n * per - timed);
}

static gint *
parse_counts (const gchar * list, gint * n)
{
  gchar **parts = g_strsplit (list, ",", -1);
  gint *counts = g_new0 (gint, g_strv_length (parts) + 1), i;

  for (i = 0; parts[i]; i++)
    counts[i] = MAX (1, atoi (parts[i]));
  *n = i;
  g_strfreev (parts);
  return counts;
}

int
main (int argc, char **argv)
{
  gchar *device = NULL, *format = NULL, *chains = NULL, *producers = NULL;
  gchar *stream_list = NULL, *device_list = NULL, *colorimetry = NULL;
  gchar **chain_list, **producer_list;
  gint width = 1920, height = 1080, total = 400, n_counts, i, c, p;
  gint show_cpu = 0;
  gint *counts;
  GstVideoInfo info;
  BenchFloors fl;
  GOptionEntry entries[] = {
    {"device", 0, 0, G_OPTION_ARG_STRING, &device,
        "OpenCL device of the elements (sets GST_CL_DEVICE)", "SEL"},
    {"width", 0, 0, G_OPTION_ARG_INT, &width, "frame width (1920)", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &height, "frame height (1080)", "H"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &format, "video format (NV12)",
        "FORMAT"},
    {"colorimetry", 0, 0, G_OPTION_ARG_STRING, &colorimetry,
        "the frames' colorimetry (the format's default; bt2100-pq or "
        "bt2100-hlg for cltonemap)", "STR"},
    {"chains", 0, 0, G_OPTION_ARG_STRING, &chains,
        "';'-separated chains (identity, clgaussian and the three filters)",
        "LIST"},
    {"producers", 0, 0, G_OPTION_ARG_STRING, &producers,
        "pool, pageable or both (pool,pageable)", "LIST"},
    {"streams", 0, 0, G_OPTION_ARG_STRING, &stream_list,
        "stream counts (1,2,4,8,16)", "LIST"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &total,
        "frames of all streams together a row (400)", "N"},
    {"devices", 0, 0, G_OPTION_ARG_STRING, &device_list,
        "devices that {dev} in a chain takes in turn", "LIST"},
    {"cpu", 0, 0, G_OPTION_ARG_INT, &show_cpu,
        "1: the process's CPU time after each figure", "0|1"},
    {NULL}
  };
  GOptionContext *oc = g_option_context_new ("- clfilters streams benchmark");
  GError *err = NULL;

  g_option_context_add_main_entries (oc, entries, NULL);
  g_option_context_add_group (oc, gst_init_get_option_group ());
  if (!g_option_context_parse (oc, &argc, &argv, &err)) {
    g_printerr ("streambench: %s\n", err->message);
    return 2;
  }
  g_option_context_free (oc);
  if (!device)
    device = g_strdup ("");
  if (!format)
    format = g_strdup ("NV12");
  if (!chains)
    chains = g_strdup ("identity;clgaussian;"
        "clgaussian ! cllaplace ! clhistogram");
  if (!producers)
    producers = g_strdup ("pool,pageable");
  if (!stream_list)
    stream_list = g_strdup ("1,2,4,8,16");
  if (device_list)
    devices = g_strsplit (device_list, ",", -1);
  if (*device)
    g_setenv ("GST_CL_DEVICE", device, TRUE);
  gst_init (&argc, &argv);
  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  if (colorimetry && !gst_video_colorimetry_from_string (&info.colorimetry,
          colorimetry)) {
    g_printerr ("streambench: unknown colorimetry \"%s\"\n", colorimetry);
    return 2;
  }
  counts = parse_counts (stream_list, &n_counts);
  bench_floors (device, info.size, &fl);
  g_print ("# streambench: %s %dx%d (%.1f MB), %d frames a row, device "
      "\"%s\"\n", format, width, height, info.size / 1e6, total, device);
  g_print ("floors a frame: pinned both ways at once %.3f ms, upload %.3f ms, "
      "download %.3f ms; host memcpy %.3f ms, over %u threads %.3f ms\n",
      fl.overlapped, fl.up, fl.down, fl.memcpy_ms, fl.threads,
      fl.memcpy_threads_ms);
  g_print ("| chain | producer |");
  for (i = 0; i < n_counts; i++)
    g_print (" %d |", counts[i]);
  g_print ("\n|---|---|");
  for (i = 0; i < n_counts; i++)
    g_print ("---:|");
  g_print ("\n");
  chain_list = g_strsplit (chains, ";", -1);
  producer_list = g_strsplit (producers, ",", -1);
  for (c = 0; chain_list[c]; c++) {
    for (p = 0; producer_list[p]; p++) {
      gboolean pool = g_str_equal (producer_list[p], "pool");
      g_print ("| %s | %s |", chain_list[c], producer_list[p]);
      for (i = 0; i < n_counts; i++) {
        gdouble cpu_ms, ms = run_streams (chain_list[c], &info, pool,
            counts[i], total, &cpu_ms);
        if (show_cpu)
          g_print (" %.3f (cpu %.3f) |", ms, cpu_ms);
        else
          g_print (" %.3f |", ms);
        fflush (stdout);
      }
      g_print ("\n");
    }
  }
  g_strfreev (chain_list);
  g_strfreev (producer_list);
  g_strfreev (devices);
  g_free (counts);
  g_free (device);
  g_free (format);
  g_free (colorimetry);
  g_free (chains);
  g_free (producers);
  g_free (stream_list);
  g_free (device_list);
  return 0;
}
