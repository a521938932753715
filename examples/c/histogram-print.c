/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* histogram-print: embeds a pipeline with clhistogram and prints, for every
 * message the element posts on the bus, the statistics of each channel and
 * a small text histogram. The shape of GStreamer's level example: a bus
 * watch, gst_structure_get_value() and the GstValueArray accessors.
 *
 *   histogram-print                              # 10 frames of videotestsrc
 *   histogram-print -n 0 -i "v4l2src"            # a webcam, until Ctrl-C
 *   histogram-print -i photo.png -c luma -b 32   # a file (video or picture)
 *   histogram-print -i "videotestsrc pattern=ball" --interval 1000000000
 *
 * Build: part of the meson build (build/examples/histogram-print), or alone:
 *   cc histogram-print.c -o histogram-print $(pkg-config --cflags --libs gstreamer-1.0) -lm
 */
#include <gst/gst.h>
#include <glib-unix.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  GMainLoop *loop;
  GstElement *pipeline;
  GstElement *histogram;
  gint max_frames;              /* 0: until EOS */
  guint frames_seen;
  guint messages;
  gboolean stopping;
  gint status;
} App;

/* One array element of a GST_TYPE_ARRAY field, e.g. mean[i] */
static const GValue *
array_item (const GstStructure * s, const gchar * field, guint i)
{
  const GValue *array = gst_structure_get_value (s, field);

  if (!array || !GST_VALUE_HOLDS_ARRAY (array)
      || i >= gst_value_array_get_size (array))
    return NULL;
  return gst_value_array_get_value (array, i);
}

static guint
uint_item (const GstStructure * s, const gchar * field, guint i)
{
  const GValue *v = array_item (s, field, i);
  return v && G_VALUE_HOLDS_UINT (v) ? g_value_get_uint (v) : 0;
}

static gdouble
double_item (const GstStructure * s, const gchar * field, guint i)
{
  const GValue *v = array_item (s, field, i);
  return v && G_VALUE_HOLDS_DOUBLE (v) ? g_value_get_double (v) : NAN;
}

/* The histogram of channel i, drawn with one character per bin (at most 64
 * columns: neighbouring bins are added up), from ' ' (empty) to '@'
 * (the fullest column) */
static void
print_histogram (const GstStructure * s, guint i)
{
  static const char ramp[] = " .:-=+*#%@";
  const GValue *hist = array_item (s, "histogram", i);
  guint64 cols[64] = { 0 }, top = 0;
  guint n, c, n_cols, per_col;

  if (!hist || !GST_VALUE_HOLDS_ARRAY (hist))
    return;
  n = gst_value_array_get_size (hist);
  per_col = (n + 63) / 64;
  n_cols = (n + per_col - 1) / per_col;
  for (c = 0; c < n; c++)
    cols[c / per_col] +=
        g_value_get_uint64 (gst_value_array_get_value (hist, c));
  for (c = 0; c < n_cols; c++)
    top = MAX (top, cols[c]);
  putchar ('|');
  for (c = 0; c < n_cols; c++)
    putchar (ramp[top ? (cols[c] * 9 + top - 1) / top : 0]);
  putchar ('|');
}

static void
print_message (App * app, const GstStructure * s)
{
  GstClockTime ts = GST_CLOCK_TIME_NONE, duration = GST_CLOCK_TIME_NONE;
  guint frames = 0, bins = 0, n_channels, i;
  guint64 pixels = 0;
  const GValue *channels;

  gst_structure_get_uint64 (s, "timestamp", &ts);
  gst_structure_get_uint64 (s, "duration", &duration);
  gst_structure_get_uint (s, "frames", &frames);
  gst_structure_get_uint64 (s, "pixels", &pixels);
  gst_structure_get_uint (s, "bins", &bins);
  channels = gst_structure_get_value (s, "channels");
  n_channels = channels ? gst_value_array_get_size (channels) : 0;

  printf ("#%u  %" GST_TIME_FORMAT " + %" GST_TIME_FORMAT
      "  %u frame%s, %" G_GUINT64_FORMAT " samples per channel, %u bins\n",
      app->messages, GST_TIME_ARGS (ts), GST_TIME_ARGS (duration), frames,
      frames == 1 ? "" : "s", pixels, bins);
  printf ("  %-6s %4s %4s %6s %4s %4s %8s %7s %8s  histogram\n", "", "min",
      "low", "median", "high", "max", "mean", "stddev", "log-avg");
  for (i = 0; i < n_channels; i++) {
    const gchar *name =
        g_value_get_string (gst_value_array_get_value (channels, i));

    printf ("  %-6s %4u %4u %6u %4u %4u %8.2f %7.2f %8.4f  ", name,
        uint_item (s, "min", i), uint_item (s, "low", i),
        uint_item (s, "median", i), uint_item (s, "high", i),
        uint_item (s, "max", i), double_item (s, "mean", i),
        sqrt (double_item (s, "variance", i)),
        double_item (s, "log-average", i));
    print_histogram (s, i);
    putchar ('\n');
  }
  fflush (stdout);
}

static gboolean
stop_timeout (gpointer user_data)
{
  App *app = user_data;

  g_printerr ("no EOS 3 s after asking for one: stopping\n");
  g_main_loop_quit (app->loop);
  return G_SOURCE_REMOVE;
}

/* Ends the stream: the EOS event goes to the sources, the pipeline drains
 * and the EOS message comes back on the bus. A source that ignores it gets
 * 3 seconds. */
static void
stop (App * app)
{
  app->stopping = TRUE;
  gst_element_send_event (app->pipeline, gst_event_new_eos ());
  g_timeout_add_seconds (3, stop_timeout, app);
}

static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  App *app = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);
      guint frames = 0;

      if (GST_MESSAGE_SRC (msg) != GST_OBJECT (app->histogram)
          || !gst_structure_has_name (s, "clhistogram"))
        break;
      if (app->max_frames > 0 && app->frames_seen >= (guint) app->max_frames)
        break;                  /* frames already on their way after the EOS */
      if (app->messages == 0) {
        gchar *device = NULL;
        g_object_get (app->histogram, "device-name", &device, NULL);
        printf ("clhistogram on OpenCL device \"%s\"\n", device);
        g_free (device);
      }
      app->messages++;
      print_message (app, s);
      gst_structure_get_uint (s, "frames", &frames);
      app->frames_seen += frames;
      if (app->max_frames > 0 && app->frames_seen >= (guint) app->max_frames
          && !app->stopping) {
        /* enough: let the pipeline drain and end with an EOS message */
        stop (app);
      }
      break;
    }
    case GST_MESSAGE_WARNING:{
      GError *err = NULL;
      gchar *debug = NULL;
      gst_message_parse_warning (msg, &err, &debug);
      g_printerr ("warning from %s: %s\n  (%s)\n", GST_OBJECT_NAME (msg->src),
          err->message, GST_STR_NULL (debug));
      g_clear_error (&err);
      g_free (debug);
      break;
    }
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;
      gchar *debug = NULL;
      gst_message_parse_error (msg, &err, &debug);
      g_printerr ("error from %s: %s\n  (%s)\n", GST_OBJECT_NAME (msg->src),
          err->message, GST_STR_NULL (debug));
      g_clear_error (&err);
      g_free (debug);
      app->status = 1;
      g_main_loop_quit (app->loop);
      break;
    }
    case GST_MESSAGE_EOS:
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  return TRUE;
}

static gboolean
on_sigint (gpointer user_data)
{
  App *app = user_data;

  if (app->stopping)
    g_main_loop_quit (app->loop);       /* a second Ctrl-C */
  else
    stop (app);
  return G_SOURCE_CONTINUE;
}

/* The source end: a file (a picture is repeated with imagefreeze) or a
 * gst-launch-1.0 source description */
static gchar *
source_description (const gchar * input, gint frames)
{
  if (g_file_test (input, G_FILE_TEST_IS_REGULAR)) {
    gchar *lower = g_ascii_strdown (input, -1), *quoted, *desc;
    gboolean picture = g_str_has_suffix (lower, ".png")
        || g_str_has_suffix (lower, ".jpg") || g_str_has_suffix (lower, ".jpeg")
        || g_str_has_suffix (lower, ".bmp") || g_str_has_suffix (lower, ".gif")
        || g_str_has_suffix (lower, ".tif") || g_str_has_suffix (lower, ".tiff");

    /* imagefreeze repeats the picture until its num-buffers (-1: forever):
     * it does not stop at an EOS event sent to the pipeline, which goes to
     * the filesrc that has already finished */
    quoted = g_strescape (input, NULL);
    if (picture)
      desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
          "imagefreeze num-buffers=%d", quoted, frames > 0 ? frames : -1);
    else
      desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin", quoted);
    g_free (quoted);
    g_free (lower);
    return desc;
  }
  return g_strdup (input);
}

int
main (int argc, char *argv[])
{
  App app = { 0 };
  gint frames = 10, bins = 16;
  gint64 interval = 0;
  gchar *input = NULL, *channels = NULL, *device = NULL, *storage = NULL;
  gchar *src, *desc;
  GOptionEntry entries[] = {
    {"frames", 'n', 0, G_OPTION_ARG_INT, &frames,
        "Stop after N frames (default 10; 0: until the end of the input)", "N"},
    {"input", 'i', 0, G_OPTION_ARG_STRING, &input,
          "A video or picture file, or a gst-launch-1.0 source description "
          "(default \"videotestsrc\")", "FILE|DESC"},
    {"channels", 'c', 0, G_OPTION_ARG_STRING, &channels,
        "luma, rgb or all (default all)", "CHANNELS"},
    {"bins", 'b', 0, G_OPTION_ARG_INT, &bins,
        "Histogram bins, 1..256 (default 16)", "N"},
    {"interval", 0, 0, G_OPTION_ARG_INT64, &interval,
        "Accumulate frames over this many ns per message (default 0: one "
          "message per frame)", "NS"},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device,
        "OpenCL device (gpu, cpu, 1.0, part of a name; default: "
          "GST_CL_DEVICE, else the first GPU, else the first device)", "SEL"},
    {"storage", 's', 0, G_OPTION_ARG_STRING, &storage,
        "auto, buffer or image (default auto)", "KIND"},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GstBus *bus;

  ctx = g_option_context_new ("- print clhistogram's statistics per frame");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  gst_init (&argc, &argv);

  /* RGBx so that the colour channels exist; clhistogram also takes GRAY8
   * and YUV (luma only) */
  src = source_description (input ? input : "videotestsrc", frames);
  desc = g_strdup_printf ("%s ! videoconvert ! video/x-raw,format=RGBx ! "
      "clhistogram name=hist ! fakesink sync=false", src);
  app.pipeline = gst_parse_launch (desc, &err);
  if (err) {
    /* also a missing element (no such element: the pipeline is returned
     * without it): say where the plugin is looked for */
    g_printerr ("could not build the pipeline \"%s\": %s\n", desc,
        err->message);
    if (g_error_matches (err, GST_PARSE_ERROR, GST_PARSE_ERROR_NO_SUCH_ELEMENT))
      g_printerr ("the clfilters plugin is not installed or not in "
          "GST_PLUGIN_PATH (from the build tree: source scripts/env.sh)\n");
    return 2;
  }
  app.histogram = gst_bin_get_by_name (GST_BIN (app.pipeline), "hist");
  /* properties set through GObject, as an application does; the enums
   * (channels, storage) from their nicks */
  gst_util_set_object_arg (G_OBJECT (app.histogram), "channels",
      channels ? channels : "all");
  g_object_set (app.histogram, "bins", (guint) CLAMP (bins, 1, 256),
      "interval", (guint64) MAX (interval, 0), NULL);
  if (device)
    g_object_set (app.histogram, "device", device, NULL);
  if (storage)
    gst_util_set_object_arg (G_OBJECT (app.histogram), "storage", storage);

  app.max_frames = frames;
  app.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (app.pipeline);
  gst_bus_add_watch (bus, on_message, &app);
  gst_object_unref (bus);
  g_unix_signal_add (SIGINT, on_sigint, &app);

  if (gst_element_set_state (app.pipeline,
          GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    /* the error message that says why is on the bus */
    app.status = 1;
  }
  g_main_loop_run (app.loop);

  gst_element_set_state (app.pipeline, GST_STATE_NULL);
  if (app.status == 0 && app.messages == 0) {
    g_printerr ("no clhistogram message\n");
    app.status = 1;
  }
  gst_object_unref (app.histogram);
  gst_object_unref (app.pipeline);
  g_main_loop_unref (app.loop);
  g_free (src);
  g_free (desc);
  return app.status;
}
