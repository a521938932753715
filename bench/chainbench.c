/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* chainbench: per-frame cost of clfilters chains between system-memory
 * neighbours, against the floors measured in the same run.
 *
 *   chainbench [--device gpu] [--width 3840 --height 2160] [--format RGBA]
 *              [--frames 200] [--chains "clgaussian;cllaplace ! clhistogram"]
 *
 * The producer is an appsrc fed in two ways: "pool" buffers come from the
 * pool the first element proposes (what videotestsrc or a decoder does:
 * pinned staging on a GPU, memory the device reads in place on a CPU) and
 * get one byte written each, so that every frame is uploaded; "pageable"
 * buffers are a ring of ordinary malloc'd frames (a producer that ignores
 * the proposed pool). The consumer is an appsink in another thread that
 * maps every output frame and reads one byte per 4 KiB page: a sink that
 * never maps (fakesink) would hide the download.
 *
 * Floors, measured here on the same device: pinned transfers of one frame
 * (clEnqueueWriteBuffer / ReadBuffer from a mapped CL_MEM_ALLOC_HOST_PTR
 * buffer): upload alone, download alone, one after the other, both at once
 * on two queues; and a host memcpy of a frame.
 */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <string.h>

#include "floors.h"

static gint frames = 200, warmup = 20;

typedef struct
{
  GstElement *sink;
  gint n;
  guint64 sum;
} Reader;

static gpointer
reader (gpointer data)
{
  Reader *r = data;
  GstSample *s;

  while ((s = gst_app_sink_pull_sample (GST_APP_SINK (r->sink)))) {
    GstBuffer *b = gst_sample_get_buffer (s);
    GstMapInfo map;
    if (gst_buffer_map (b, &map, GST_MAP_READ)) {
      gsize i;
      for (i = 0; i < map.size; i += 4096)
        r->sum += map.data[i];
      gst_buffer_unmap (b, &map);
    }
    gst_sample_unref (s);
    g_atomic_int_inc (&r->n);
  }
  return NULL;
}

/* ms per frame of @chain, from the time of frames - warmup frames */
static gdouble
run_chain (const gchar * chain, const GstVideoInfo * info, gboolean pool)
{
  gchar *caps = gst_caps_to_string (gst_video_info_to_caps (info));
  gchar *desc = g_strdup_printf ("appsrc name=src caps=\"%s\" format=time "
      "block=true max-bytes=1 ! %s ! appsink name=sink sync=false "
      "max-buffers=4", caps, chain);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstElement *src, *sink;
  GstBufferPool *bpool = NULL;
  GstBuffer *ring[4];
  GThread *t;
  Reader r = { 0, };
  gint64 t0 = 0, t1;
  gint i;

  if (!p) {
    g_printerr ("%s: %s\n", desc, err->message);
    return -1;
  }
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  r.sink = sink;
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (i = 0; i < 4; i++) {
    ring[i] = gst_buffer_new_allocate (NULL, info->size, NULL);
    gst_buffer_memset (ring[i], 0, 0x40 + i, info->size);
  }
  t = g_thread_new ("reader", reader, &r);
  /* a first frame negotiates the chain: the pool is proposed after that */
  gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_ref (ring[0]));
  while (g_atomic_int_get (&r.n) < 1) {
    GstMessage *m = gst_bus_pop_filtered (GST_ELEMENT_BUS (p),
        GST_MESSAGE_ERROR);
    if (m) {
      GError *e = NULL;
      gst_message_parse_error (m, &e, NULL);
      g_printerr ("%s: %s\n", chain, e->message);
      exit (1);
    }
    g_usleep (1000);
  }
  if (pool) {
    GstQuery *q = gst_query_new_allocation (gst_video_info_to_caps (info),
        TRUE);
    GstPad *pad = gst_element_get_static_pad (src, "src");
    if (gst_pad_peer_query (pad, q) && gst_query_get_n_allocation_pools (q)) {
      GstStructure *config;
      gst_query_parse_nth_allocation_pool (q, 0, &bpool, NULL, NULL, NULL);
      config = gst_buffer_pool_get_config (bpool);
      gst_buffer_pool_config_set_params (config,
          gst_video_info_to_caps (info), info->size, 0, 0);
      gst_buffer_pool_set_config (bpool, config);
      gst_buffer_pool_set_active (bpool, TRUE);
    }
    gst_object_unref (pad);
    gst_query_unref (q);
    if (!bpool) {
      g_printerr ("%s: no pool proposed\n", chain);
      return -1;
    }
  }
  for (i = 1; i < frames; i++) {
    GstBuffer *b;
    if (i == warmup)
      t0 = g_get_monotonic_time ();
    if (bpool) {
      GstMapInfo map;
      gst_buffer_pool_acquire_buffer (bpool, &b, NULL);
      gst_buffer_map (b, &map, GST_MAP_WRITE);
      map.data[i % map.size] = i;
      gst_buffer_unmap (b, &map);
    } else {
      b = gst_buffer_ref (ring[i % 4]);
    }
    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), b) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  g_thread_join (t);
  t1 = g_get_monotonic_time ();
  if (r.n != frames)
    g_printerr ("%s: %d of %d frames came out\n", chain, r.n, frames);
  gst_element_set_state (p, GST_STATE_NULL);
  if (bpool) {
    gst_buffer_pool_set_active (bpool, FALSE);
    gst_object_unref (bpool);
  }
  for (i = 0; i < 4; i++)
    gst_buffer_unref (ring[i]);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (desc);
  g_free (caps);
  return (t1 - t0) / 1000.0 / (frames - warmup);
}

int
main (int argc, char **argv)
{
  gchar *device = NULL, *format = NULL, *chain_arg = NULL;
  gchar **custom = NULL;
  const gchar *const *list;
  gint n_chains;
  gint width = 3840, height = 2160, c;
  GstVideoInfo info;
  BenchFloors fl;
  static const gchar *chains[] = {
    "clgaussian",
    "cllaplace",
    "clhistogram",
    "clgaussian ! cllaplace ! clhistogram",
    "clupload ! clgaussian ! cllaplace ! clhistogram ! cldownload",
    "clgaussian ! clgaussian ! clgaussian ! clgaussian",
    "clgaussian ! cllaplace ! clhistogram ! cldownload ! queue",
    "clgaussian storage=buffer ! cllaplace storage=buffer ! clhistogram",
    "clgaussian storage=buffer ! clgaussian storage=buffer ! "
        "clgaussian storage=buffer ! clgaussian storage=buffer",
  };

  GOptionEntry entries[] = {
    {"device", 0, 0, G_OPTION_ARG_STRING, &device,
        "OpenCL device of the elements (sets GST_CL_DEVICE)", "SEL"},
    {"width", 0, 0, G_OPTION_ARG_INT, &width, "frame width (3840)", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &height, "frame height (2160)", "H"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &format, "video format (RGBA)",
        "FORMAT"},
    {"chains", 0, 0, G_OPTION_ARG_STRING, &chain_arg,
        "';'-separated chains instead of the built-in list", "LIST"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "frames a chain", "N"},
    {NULL}
  };
  GOptionContext *oc = g_option_context_new ("- clfilters chain benchmark");
  GError *err = NULL;

  g_option_context_add_main_entries (oc, entries, NULL);
  g_option_context_add_group (oc, gst_init_get_option_group ());
  if (!g_option_context_parse (oc, &argc, &argv, &err)) {
    g_printerr ("chainbench: %s\n", err->message);
    return 2;
  }
  g_option_context_free (oc);
  if (!device)
    device = g_strdup ("");
  if (!format)
    format = g_strdup ("RGBA");
  if (chain_arg)
    custom = g_strsplit (chain_arg, ";", -1);
  frames = MAX (frames, warmup + 10);
  if (*device)
    g_setenv ("GST_CL_DEVICE", device, TRUE);
  gst_init (&argc, &argv);
  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  bench_floors (device, info.size, &fl);
  g_print ("# %s %dx%d, %d frames, device \"%s\"\n", format, width, height,
      frames, device);
  g_print ("floors: pinned upload %.3f ms, download %.3f ms, both one after "
      "the other %.3f ms, both at once on two queues %.3f ms; host memcpy "
      "%.3f ms\n", fl.up, fl.down, fl.serial, fl.overlapped, fl.memcpy_ms);
  g_print ("%-62s %10s %10s\n", "chain", "pool ms", "pageable ms");
  list = custom ? (const gchar * const *) custom : chains;
  n_chains = custom ? (gint) g_strv_length (custom) :
      (gint) G_N_ELEMENTS (chains);
  for (c = 0; c < n_chains; c++) {
    gdouble a = run_chain (list[c], &info, TRUE);
    gdouble b = run_chain (list[c], &info, FALSE);
    g_print ("%-62s %10.3f %10.3f\n", list[c], a, b);
  }
  g_strfreev (custom);
  g_free (chain_arg);
  g_free (device);
  g_free (format);
  return 0;
}
