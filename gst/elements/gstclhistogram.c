/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/**
 * SECTION:element-clhistogram
 * @title: clhistogram
 * @see_also: level, videoanalyse, clgaussian
 *
 * Computes, on an OpenCL device, the histograms of the luma and/or colour
 * channels of video frames and the statistics a tone mapper or an
 * auto-exposure loop needs, and posts them on the bus as element messages
 * named `clhistogram`. Frames pass through unmodified and uncopied.
 *
 * The message has these fields, in this order:
 *
 * * `timestamp`, `stream-time`, `running-time`, `duration` (guint64): the
 *   start of the interval the message covers and its duration, as `level`
 * * `frames` (guint): frames accumulated
 * * `pixels` (guint64): samples counted per channel
 * * `bins` (guint): the value of the `bins` property
 * * `channels` (GstValueArray of strings): from `luma`, `red`, `green`,
 *   `blue`
 * * `histogram` (GstValueArray, one per channel, of GstValueArray of
 *   guint64): bin i counts the 8-bit levels v with floor (v * bins / 256) = i
 * * `min`, `max`, `median`, `low`, `high` (GstValueArray of guint): 8-bit
 *   levels, exact whatever `bins` is; `median`, `low` and `high` are the
 *   smallest level whose cumulative count reaches 50 %, `low-percentile` %
 *   and `high-percentile` % of `pixels`
 * * `mean`, `variance` (GstValueArray of gdouble), in 8-bit levels
 * * `log-average` (GstValueArray of gdouble): exp (mean (ln (0.001 + v/255)))
 * * `depth` (guint): the bits per sample of the format (8 for every format
 *   clhistogram takes today), the depth of the levels above
 *
 * With `attach-meta`, the buffer that completes an interval (every buffer
 * when `interval` is 0) also carries the same structure as a custom meta
 * named `GstClHistogramMeta` (gst_buffer_get_custom_meta()), so that a
 * consumer reads a frame's statistics with the frame; the element then
 * waits for each frame's counts before it pushes the frame. A buffer that
 * is not writable (another element holds it too) is copied first: on the
 * device when the frame is there. The last, partial interval at EOS is
 * posted as a message only (no buffer is left to carry it).
 *
 * Luma of RGB formats is (4899 R + 9617 G + 1868 B + 8192) >> 14 (OpenCV's
 * RGB2GRAY); of YUV formats the Y plane; of GRAY8 the value itself.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=3 ! clhistogram bins=8 ! fakesink
 * ]| Prints one message per frame with 8-bin luma histograms.
 * |[
 * gst-launch-1.0 -m v4l2src ! videoconvert ! video/x-raw,format=RGBx ! \
 *     clhistogram channels=all interval=1000000000 ! fakesink
 * ]| Luma and colour histograms of every second of a camera.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclhistogram.h"
#include "gstclkernels.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

enum
{
  PROP_0,
  PROP_BINS,
  PROP_CHANNELS,
  PROP_INTERVAL,
  PROP_POST_MESSAGES,
  PROP_LOW_PERCENTILE,
  PROP_HIGH_PERCENTILE,
  PROP_ATTACH_META,
};

#define DEFAULT_BINS 256
#define DEFAULT_CHANNELS GST_CL_HISTOGRAM_CHANNELS_LUMA
#define DEFAULT_INTERVAL 0
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_LOW_PERCENTILE 1.0
#define DEFAULT_HIGH_PERCENTILE 99.0
#define DEFAULT_ATTACH_META FALSE

/* the custom meta's name (interface: "Statistics on the buffer") */
#define HISTOGRAM_META "GstClHistogramMeta"


#define N_SLOTS 4               /* luma, red, green, blue */
#define PAIR_TABLE_SIZE 65536   /* counters per work-item in histogram_pairs */
#define MAX_PAIR_UNITS 64       /* above: plain counting (histogram_strips) */
#define MAX_HOST_UNITS 64       /* above: partials added on the device */
#define TILE_GROUP 256          /* work-items per group in tiles (automatic) */
#define TILE_MAX_GROUPS_X 64    /* groups across a row in tiles */
#define TILE_GROUPS_PER_CU 4    /* groups per compute unit in tiles */
#define TILE_COPIES 8           /* copies of the local tables in tiles */
static const gchar *const slot_names[N_SLOTS] = { "luma", "red", "green",
  "blue"
};

struct _GstClHistogram
{
  GstClBaseFilter parent;

  /* properties, under the object lock */
  guint bins;
  GstClHistogramChannels channels;
  guint64 interval;
  gboolean post_messages;
  gdouble low_percentile, high_percentile;
  gboolean attach_meta;

  /* caps, streaming thread */
  gboolean has_rgb;
  gint r_off, g_off, b_off;
  gint fps_n, fps_d;
  guint warned_want;            /* a want mask already warned about */

  /* accumulation, streaming thread */
  guint want;                   /* slots of the interval being accumulated */
  guint64 counts[N_SLOTS][256];
  guint frames;
  guint64 pixels;
  GstClockTime start, start_stream, start_running, end;
  gboolean finishing_current;   /* the frames being added end with the one
                                 * about to leave, which carries the interval
                                 * it completes (attach-meta) */
  GstStructure *meta;           /* that interval's statistics, attached when
                                 * the frame leaves (generate_output) */

  /* device */
  cl_kernel k_strips, k_tiles, k_image, k_pairs, k_reduce;
  cl_mem tables;                /* pair tables of histogram_pairs, zero
                                 * between frames */
  gsize tables_size;
  gboolean tables_dirty;        /* a frame failed: zero them again */
  cl_mem partials;
  gsize partials_size;
  cl_mem totals;                /* N_SLOTS * 256 sums of the partials */

  /* frames whose counts are still being read back, oldest first */
  GQueue pending;
};

/* On devices that copy frames, a frame's counts are read back while the
 * next frames are uploaded and counted: frame n is added (and posted) when
 * frame n + PENDING_FRAMES comes, waiting for its counts if needed, so that
 * messages come in frame order, always the same number of frames later
 * (runs are repeatable). On zero-copy devices (CPUs) there is no transfer
 * to overlap: each frame's message is posted before the frame goes on. */
#define PENDING_FRAMES 2

/* A counted frame: its counts on their way to the host, and what the
 * interval needs of it. */
typedef struct
{
  guint want;                   /* slots counted */
  gint n_units;                 /* partial histograms per slot */
  guint32 *host;                /* n_units * 256 per counted slot */
  cl_event read;                /* the last read, NULL if nothing counted */
  guint64 interval;
  GstClockTime pts, dur, stream, running;
  guint64 pixels;
} Pending;

G_DEFINE_TYPE_WITH_CODE (GstClHistogram, gst_cl_histogram,
    GST_TYPE_CL_BASE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cl_histogram_debug, "clhistogram", 0,
        "OpenCL histograms"));
GST_ELEMENT_REGISTER_DEFINE (clhistogram, "clhistogram", GST_RANK_NONE,
    GST_TYPE_CL_HISTOGRAM);

static GType
gst_cl_histogram_channels_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_HISTOGRAM_CHANNELS_LUMA, "Luma", "luma"},
    {GST_CL_HISTOGRAM_CHANNELS_RGB, "Red, green and blue", "rgb"},
    {GST_CL_HISTOGRAM_CHANNELS_ALL, "Luma, red, green and blue", "all"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClHistogramChannels", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ------------------------------------------------------------------------ */
/* Statistics and the message                                               */

static void
reset_interval (GstClHistogram * self)
{
  memset (self->counts, 0, sizeof (self->counts));
  self->frames = 0;
  self->pixels = 0;
  self->start = self->start_stream = self->start_running = self->end =
      GST_CLOCK_TIME_NONE;
}

/* smallest level whose cumulative count reaches percent % of n */
static guint
percentile_level (const guint64 * c, guint64 n, gdouble percent)
{
  guint64 cum = 0;
  guint v;
  for (v = 0; v < 256; v++) {
    cum += c[v];
    if ((gdouble) cum * 100.0 >= percent * (gdouble) n)
      return v;
  }
  return 255;
}

static void
append_uint (GValue * array, guint v)
{
  GValue val = G_VALUE_INIT;
  g_value_init (&val, G_TYPE_UINT);
  g_value_set_uint (&val, v);
  gst_value_array_append_and_take_value (array, &val);
}

static void
append_double (GValue * array, gdouble v)
{
  GValue val = G_VALUE_INIT;
  g_value_init (&val, G_TYPE_DOUBLE);
  g_value_set_double (&val, v);
  gst_value_array_append_and_take_value (array, &val);
}

static gboolean
copy_field (GQuark field, const GValue * value, gpointer dest)
{
  gst_structure_id_set_value ((GstStructure *) dest, field, value);
  return TRUE;
}

static GstStructure *
build_structure (GstClHistogram * self, guint bins, gdouble low, gdouble high)
{
  GValue names = G_VALUE_INIT, hists = G_VALUE_INIT;
  GValue vmin = G_VALUE_INIT, vmax = G_VALUE_INIT, vmed = G_VALUE_INIT;
  GValue vlow = G_VALUE_INIT, vhigh = G_VALUE_INIT, vmean = G_VALUE_INIT;
  GValue vvar = G_VALUE_INIT, vlog = G_VALUE_INIT;
  GValue *arrays[] = { &names, &hists, &vmin, &vmax, &vmed, &vlow, &vhigh,
    &vmean, &vvar, &vlog
  };
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  GstStructure *s;
  guint slot, i;

  for (i = 0; i < G_N_ELEMENTS (arrays); i++)
    g_value_init (arrays[i], GST_TYPE_ARRAY);

  for (slot = 0; slot < N_SLOTS; slot++) {
    const guint64 *c = self->counts[slot];
    GValue name = G_VALUE_INIT, hist = G_VALUE_INIT;
    guint64 n = self->pixels;
    gdouble sum = 0, sq = 0, logsum = 0, mean = 0, var = 0, logavg = 0;
    guint v, vmin_l = 0, vmax_l = 0;

    if (!(self->want & (1u << slot)))
      continue;
    g_value_init (&name, G_TYPE_STRING);
    g_value_set_static_string (&name, slot_names[slot]);
    gst_value_array_append_and_take_value (&names, &name);

    g_value_init (&hist, GST_TYPE_ARRAY);
    for (i = 0; i < bins; i++) {
      GValue cnt = G_VALUE_INIT;
      guint64 total = 0;
      /* levels v with floor (v * bins / 256) == i */
      for (v = (i * 256 + bins - 1) / bins; v < 256 && v * bins / 256 == i;
          v++)
        total += c[v];
      g_value_init (&cnt, G_TYPE_UINT64);
      g_value_set_uint64 (&cnt, total);
      gst_value_array_append_and_take_value (&hist, &cnt);
    }
    gst_value_array_append_and_take_value (&hists, &hist);

    for (v = 0; v < 256; v++) {
      if (!c[v])
        continue;
      vmax_l = v;
      sum += (gdouble) c[v] * v;
      logsum += (gdouble) c[v] * log (0.001 + v / 255.0);
    }
    for (v = 0; v < 256 && !c[v]; v++);
    vmin_l = v < 256 ? v : 0;
    if (n > 0) {
      mean = sum / n;
      for (v = 0; v < 256; v++)
        if (c[v])
          sq += (gdouble) c[v] * (v - mean) * (v - mean);
      var = sq / n;
      logavg = exp (logsum / n);
    }
    append_uint (&vmin, vmin_l);
    append_uint (&vmax, vmax_l);
    append_uint (&vmed, percentile_level (c, n, 50.0));
    append_uint (&vlow, percentile_level (c, n, low));
    append_uint (&vhigh, percentile_level (c, n, high));
    append_double (&vmean, mean);
    append_double (&vvar, var);
    append_double (&vlog, logavg);
  }

  if (GST_CLOCK_TIME_IS_VALID (self->start) &&
      GST_CLOCK_TIME_IS_VALID (self->end) && self->end >= self->start)
    duration = self->end - self->start;

  s = gst_structure_new ("clhistogram",
      "timestamp", G_TYPE_UINT64, (guint64) self->start,
      "stream-time", G_TYPE_UINT64, (guint64) self->start_stream,
      "running-time", G_TYPE_UINT64, (guint64) self->start_running,
      "duration", G_TYPE_UINT64, (guint64) duration,
      "frames", G_TYPE_UINT, self->frames,
      "pixels", G_TYPE_UINT64, self->pixels,
      "bins", G_TYPE_UINT, bins, NULL);
  gst_structure_take_value (s, "channels", &names);
  gst_structure_take_value (s, "histogram", &hists);
  gst_structure_take_value (s, "min", &vmin);
  gst_structure_take_value (s, "max", &vmax);
  gst_structure_take_value (s, "median", &vmed);
  gst_structure_take_value (s, "low", &vlow);
  gst_structure_take_value (s, "high", &vhigh);
  gst_structure_take_value (s, "mean", &vmean);
  gst_structure_take_value (s, "variance", &vvar);
  gst_structure_take_value (s, "log-average", &vlog);
  /* 8 bits per sample for every format taken so far */
  gst_structure_set (s, "depth", G_TYPE_UINT, 8, NULL);
  return s;
}

/* Attaches @s to @buffer (writable) as a GstClHistogramMeta. */
static void
attach_meta (GstBuffer * buffer, const GstStructure * s)
{
  GstCustomMeta *meta;
  GstStructure *ms;

  meta = gst_buffer_get_custom_meta (buffer, HISTOGRAM_META);
  if (!meta)
    meta = gst_buffer_add_custom_meta (buffer, HISTOGRAM_META);
  ms = gst_custom_meta_get_structure (meta);
  /* the message's structure: its name and fields */
  gst_structure_set_name (ms, gst_structure_get_name (s));
  gst_structure_remove_all_fields (ms);
  gst_structure_foreach (s, copy_field, ms);
}

/* Posts the accumulated interval (outside the object lock) and resets. */
static void
post_interval (GstClHistogram * self)
{
  GstStructure *s;
  gdouble low, high;
  guint bins;
  gboolean post, attach;

  if (self->frames == 0)
    return;
  GST_OBJECT_LOCK (self);
  bins = self->bins;
  low = self->low_percentile;
  high = self->high_percentile;
  post = self->post_messages;
  attach = self->attach_meta && self->finishing_current;
  GST_OBJECT_UNLOCK (self);
  if (post || attach) {
    s = build_structure (self, bins, low, high);
    if (attach) {
      if (self->meta)
        gst_structure_free (self->meta);
      self->meta = gst_structure_copy (s);
    }
    if (post)
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_element (GST_OBJECT (self), s));
    else
      gst_structure_free (s);
  }
  reset_interval (self);
}

/* ------------------------------------------------------------------------ */
/* Device                                                                   */

static gboolean finish_frames (GstClHistogram * self, guint keep,
    GError ** error);
static void drop_frames (GstClHistogram * self);

/* Counting reads each pixel once: images gain nothing on any device measured
 * (docs/tuning.md), and POCL emulates them. */
static GstClMemoryKind
gst_cl_histogram_auto_memory (GstClBaseFilter * base, GstClDevice * device,
    const GstVideoInfo * info)
{
  return GST_CL_MEMORY_BUFFER;
}

static gboolean
gst_cl_histogram_setup (GstClBaseFilter * base, cl_program program,
    GError ** error)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);
  GstClDevice *device = gst_cl_base_filter_get_device (base);
  cl_int st;

  if (!(self->k_strips = gst_cl_kernel_new (program, "histogram_strips", error))
      || !(self->k_pairs = gst_cl_kernel_new (program, "histogram_pairs", error))
      || !(self->k_reduce = gst_cl_kernel_new (program, "histogram_reduce", error))
      || !(self->k_tiles = gst_cl_kernel_new (program, "histogram_tiles", error)))
    return FALSE;
  if (device->image_support &&
      !(self->k_image = gst_cl_kernel_new (program, "histogram_image", error)))
    return FALSE;
  self->totals = clCreateBuffer (device->context, CL_MEM_READ_WRITE,
      N_SLOTS * 256 * sizeof (guint32), NULL, &st);
  if (st != CL_SUCCESS) {
    self->totals = NULL;
    return gst_cl_fail (error, st, "clCreateBuffer (histogram totals)");
  }
  reset_interval (self);
  return TRUE;
}

static void
gst_cl_histogram_cleanup (GstClBaseFilter * base)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);

  drop_frames (self);
  g_clear_pointer (&self->meta, gst_structure_free);
  if (self->k_strips)
    clReleaseKernel (self->k_strips);
  if (self->k_tiles)
    clReleaseKernel (self->k_tiles);
  if (self->k_image)
    clReleaseKernel (self->k_image);
  if (self->k_pairs)
    clReleaseKernel (self->k_pairs);
  if (self->k_reduce)
    clReleaseKernel (self->k_reduce);
  self->k_strips = self->k_tiles = self->k_image = self->k_pairs = NULL;
  self->k_reduce = NULL;
  if (self->totals)
    clReleaseMemObject (self->totals);
  self->totals = NULL;
  if (self->tables)
    clReleaseMemObject (self->tables);
  self->tables = NULL;
  self->tables_size = 0;
  if (self->partials)
    clReleaseMemObject (self->partials);
  self->partials = NULL;
  self->partials_size = 0;
}

static gboolean
gst_cl_histogram_configure (GstClBaseFilter * base, const GstVideoInfo * info,
    const GstClPlane * plane, GError ** error)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);

  self->has_rgb = GST_VIDEO_INFO_IS_RGB (info);
  self->r_off = self->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_R) : 0;
  self->g_off = self->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_G) : 0;
  self->b_off = self->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_B) : 0;
  self->fps_n = GST_VIDEO_INFO_FPS_N (info);
  self->fps_d = GST_VIDEO_INFO_FPS_D (info);
  /* new caps: what was accumulated is posted first */
  finish_frames (self, 0, NULL);
  post_interval (self);
  return TRUE;
}

static gboolean
ensure_partials (GstClHistogram * self, guint n_units, GError ** error)
{
  GstClDevice *device = gst_cl_base_filter_get_device (GST_CL_BASE_FILTER
      (self));
  gsize size = (gsize) N_SLOTS * n_units * 256 * sizeof (guint32);
  cl_int st;

  if (self->partials && self->partials_size >= size)
    return TRUE;
  if (self->partials)
    clReleaseMemObject (self->partials);
  self->partials = clCreateBuffer (device->context, CL_MEM_READ_WRITE, size,
      NULL, &st);
  if (st != CL_SUCCESS) {
    self->partials = NULL;
    return gst_cl_fail (error, st, "clCreateBuffer (partial histograms)");
  }
  self->partials_size = size;
  return TRUE;
}

/* n_units pair tables of 65536 counters, zero */
static gboolean
ensure_tables (GstClHistogram * self, guint n_units, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  GstClDevice *device = gst_cl_base_filter_get_device (base);
  gsize size = (gsize) n_units * PAIR_TABLE_SIZE * sizeof (guint32);
  const cl_uint zero = 0;
  cl_int st;

  if (!self->tables || self->tables_size < size) {
    if (self->tables)
      clReleaseMemObject (self->tables);
    self->tables = clCreateBuffer (device->context, CL_MEM_READ_WRITE, size,
        NULL, &st);
    if (st != CL_SUCCESS) {
      self->tables = NULL;
      self->tables_size = 0;
      return gst_cl_fail (error, st, "clCreateBuffer (pair tables)");
    }
    self->tables_size = size;
    self->tables_dirty = TRUE;
  }
  if (self->tables_dirty) {
    st = clEnqueueFillBuffer (gst_cl_base_filter_get_queue (base),
        self->tables, &zero, sizeof (zero), 0, self->tables_size, 0, NULL,
        NULL);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueFillBuffer (pair tables)");
    self->tables_dirty = FALSE;
  }
  return TRUE;
}

/* the channels to count for this frame: what was asked and the format has */
static guint
wanted_slots (GstClHistogram * self, GstClHistogramChannels channels)
{
  guint asked = channels == GST_CL_HISTOGRAM_CHANNELS_LUMA ? 0x1 :
      channels == GST_CL_HISTOGRAM_CHANNELS_RGB ? 0xe : 0xf;
  guint have = self->has_rgb ? 0xf : 0x1;

  if ((asked & have) != asked && self->warned_want != asked) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("The input format carries no colour channels: %s.",
            (asked & have) ? "counting luma only" : "no channel to count"),
        ("channels=%s on %s input", channels == GST_CL_HISTOGRAM_CHANNELS_RGB ?
            "rgb" : "all", self->has_rgb ? "RGB" : "luma-only"));
    self->warned_want = asked;
  }
  return asked & have;
}

/* The kernels count luma, the colour channels, or both. */
static gchar *
gst_cl_histogram_tuning_case (GstClBaseFilter * base)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);
  GstClHistogramChannels channels;
  guint want;

  GST_OBJECT_LOCK (self);
  channels = self->channels;
  GST_OBJECT_UNLOCK (self);
  want = (channels == GST_CL_HISTOGRAM_CHANNELS_LUMA ? 0x1 :
      channels == GST_CL_HISTOGRAM_CHANNELS_RGB ? 0xe : 0xf) &
      (self->has_rgb ? 0xf : 0x1);
  return g_strdup_printf ("channels=%s", want == 0x1 ? "luma" :
      want == 0xe ? "rgb" : want ? "all" : "none");
}

static gboolean
count_frame (GstClHistogram * self, const GstClPlane * src, Pending * pf,
    cl_event * events, guint * n_events, GError ** error)
{
  guint want = pf->want;
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  GstClDevice *device = gst_cl_base_filter_get_device (base);
  cl_command_queue queue = gst_cl_base_filter_get_queue (base);
  cl_int iwant = want, n_units, copies, st;
  gboolean totals = FALSE;
  gsize local_bytes;
  cl_mem partials;
  gboolean pairs = FALSE;
  guint slot, v;
  GstClLaunch l;

  if (!src->is_image && gst_cl_base_filter_uses_strips (base)) {
    gst_cl_base_filter_launch_shape (base, src, FALSE, &l);
    /* whole pixels per work-item */
    if (l.chunk % src->step)
      l.chunk += src->step - l.chunk % src->step;
    if (src->step == 1 && l.rows_auto) {
      /* pair tables: a few work-items per compute unit, each folding its
       * table once per frame */
      gsize items = MAX (1, 2 * device->compute_units / l.global[0]);
      l.rows = MAX (1, (src->height + items - 1) / items);
      l.global[1] = (src->height + l.rows - 1) / l.rows;
    }
    n_units = l.global[0] * l.global[1];
    if (src->step == 1 && n_units <= MAX_PAIR_UNITS) {
      pairs = TRUE;
      if (!ensure_partials (self, n_units, error)
          || !ensure_tables (self, n_units, error))
        return FALSE;
      /* until the frame is read back: a failed frame may leave counts in
       * the tables */
      self->tables_dirty = TRUE;
      if (!gst_cl_set_args (self->k_pairs, error, GST_CL_ARG (src->mem),
              GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
              GST_CL_ARG (src->height), GST_CL_ARG (l.chunk),
              GST_CL_ARG (l.rows), GST_CL_ARG (self->tables),
              GST_CL_ARG (self->partials), GST_CL_ARG (n_units),
              GST_CL_ARGS_END)
          || !gst_cl_base_filter_enqueue (base, self->k_pairs, &l, events,
              n_events, error))
        return FALSE;
    } else if (!ensure_partials (self, n_units, error)
        || !gst_cl_set_args (self->k_strips, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
            GST_CL_ARG (src->height), GST_CL_ARG (src->step),
            GST_CL_ARG (self->r_off), GST_CL_ARG (self->g_off),
            GST_CL_ARG (self->b_off), GST_CL_ARG (iwant),
            GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows),
            GST_CL_ARG (self->partials), GST_CL_ARG (n_units),
            GST_CL_ARGS_END)
        || !gst_cl_base_filter_enqueue (base, self->k_strips, &l, events,
            n_events, error))
      return FALSE;
  } else {
    /* a 2D range of work-groups: dimension 0 across a row (four one-byte
     * pixels or one pixel per work-item), dimension 1 striding over the
     * rows, a few groups per compute unit; local tables in as many copies
     * as local memory holds, up to TILE_COPIES */
    gboolean quads = !src->is_image && src->step == 1;
    /* sixteen one-byte pixels per item on rows of whole 16-byte vectors */
    cl_int sixteen = quads && src->stride % 16 == 0;
    gsize items = sixteen ? (src->width + 15) / 16 :
        quads ? (src->width + 3) / 4 : src->width;
    gsize group, groups_x, groups_y;
    cl_kernel k = src->is_image ? self->k_image : self->k_tiles;

    gst_cl_base_filter_launch_shape (base, src, FALSE, &l);
    if (l.group_auto)
      l.local[0] = MAX (1, MIN (TILE_GROUP, device->max_work_group_size));
    group = l.local[0];
    groups_x = CLAMP ((items + group - 1) / group, 1, TILE_MAX_GROUPS_X);
    groups_y = CLAMP (TILE_GROUPS_PER_CU * device->compute_units / groups_x,
        1, (gsize) src->height);
    copies = MAX (1, MIN (TILE_COPIES,
            device->local_mem_size / (N_SLOTS * 256 * sizeof (guint32))));
    local_bytes = (gsize) copies * N_SLOTS * 256 * sizeof (guint32);
    l.global[0] = groups_x * group;
    l.global[1] = groups_y;
    l.local[1] = 1;
    /* each group adds its counts into the totals (hundreds of groups on
     * GPUs: no partials to write, read or add up) */
    {
      const guint32 zero = 0;
      st = clEnqueueFillBuffer (queue, self->totals, &zero, sizeof (zero), 0,
          N_SLOTS * 256 * sizeof (guint32), 0, NULL, NULL);
      if (st != CL_SUCCESS)
        return gst_cl_fail (error, st, "clEnqueueFillBuffer (totals)");
    }
    if (src->is_image) {
      cl_int layout = src->step == 3 ? 3 : self->has_rgb ? 4 : 0;
      if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
              GST_CL_ARG (src->width), GST_CL_ARG (src->height),
              GST_CL_ARG (layout), GST_CL_ARG (self->r_off),
              GST_CL_ARG (self->g_off), GST_CL_ARG (self->b_off),
              GST_CL_ARG (iwant), GST_CL_ARG (self->totals),
              GST_CL_ARG_LOCAL (local_bytes), GST_CL_ARG (copies),
              GST_CL_ARGS_END))
        return FALSE;
    } else if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
            GST_CL_ARG (src->height), GST_CL_ARG (src->step),
            GST_CL_ARG (self->r_off), GST_CL_ARG (self->g_off),
            GST_CL_ARG (self->b_off), GST_CL_ARG (iwant),
            GST_CL_ARG (self->totals), GST_CL_ARG_LOCAL (local_bytes),
            GST_CL_ARG (copies), GST_CL_ARG (sixteen), GST_CL_ARGS_END)) {
      return FALSE;
    }
    if (!gst_cl_base_filter_enqueue (base, k, &l, events, n_events, error))
      return FALSE;
    totals = TRUE;
    n_units = 1;
  }

  partials = totals ? self->totals : self->partials;
  if (n_units > MAX_HOST_UNITS) {
    /* hundreds of partials (GPUs): added on the device into one partial
     * per slot, which is what the host then reads */
    GstClLaunch r = { {N_SLOTS * 256, 1}, {64, 1}, 1, 1, FALSE };
    if (!gst_cl_set_args (self->k_reduce, error, GST_CL_ARG (self->partials),
            GST_CL_ARG (n_units), GST_CL_ARG (iwant),
            GST_CL_ARG (self->totals), GST_CL_ARGS_END)
        || !gst_cl_base_filter_enqueue (base, self->k_reduce, &r, events,
            n_events, error))
      return FALSE;
    partials = self->totals;
    n_units = 1;
  }

  /* read back the partials of the counted slots, without waiting: the
   * next frames are counted meanwhile (the queue is in order, so they
   * overwrite the partials only after the reads) */
  pf->n_units = n_units;
  pf->host = g_malloc ((gsize) N_SLOTS * n_units * 256 * sizeof (guint32));
  for (slot = 0, v = 0; slot < N_SLOTS; slot++) {
    gsize bytes = (gsize) n_units * 256 * sizeof (guint32);
    cl_event ev = NULL;
    if (!(want & (1u << slot)))
      continue;
    st = clEnqueueReadBuffer (queue, partials, CL_FALSE,
        (gsize) slot * n_units * 256 * sizeof (guint32), bytes,
        pf->host + (gsize) v++ * n_units * 256, 0, NULL, &ev);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueReadBuffer (histograms)");
    if (pf->read)
      clReleaseEvent (pf->read);
    pf->read = ev;
  }
  clFlush (queue);
  if (pairs)
    self->tables_dirty = FALSE;
  return TRUE;
}

static void
pending_free (Pending * pf)
{
  if (pf->read) {
    /* the read writes into pf->host until it completes */
    gst_cl_event_wait (pf->read, NULL);
    clReleaseEvent (pf->read);
  }
  g_free (pf->host);
  g_free (pf);
}

/* Adds a frame whose counts arrived to the interval, posting it when it
 * is complete. */
static void
add_frame (GstClHistogram * self, Pending * pf)
{
  const guint32 *p = pf->host;
  guint slot, unit, v;

  if (self->frames > 0 && pf->want != self->want)
    post_interval (self);       /* the channels changed: a new interval */
  self->want = pf->want;
  for (slot = 0; slot < N_SLOTS; slot++) {
    if (!(pf->want & (1u << slot)))
      continue;
    for (unit = 0; unit < (guint) pf->n_units; unit++, p += 256)
      for (v = 0; v < 256; v++)
        self->counts[slot][v] += p[v];
  }
  if (self->frames == 0) {
    self->start = pf->pts;
    self->start_stream = pf->stream;
    self->start_running = pf->running;
  }
  if (GST_CLOCK_TIME_IS_VALID (pf->pts))
    self->end = pf->pts + (GST_CLOCK_TIME_IS_VALID (pf->dur) ? pf->dur : 0);
  self->frames++;
  self->pixels += pf->pixels;
  if (pf->interval == 0 || !GST_CLOCK_TIME_IS_VALID (self->start) ||
      !GST_CLOCK_TIME_IS_VALID (self->end) ||
      self->end - self->start >= pf->interval)
    post_interval (self);
}

/**
 * finish_frames:
 * @keep: frames that stay pending (0: all are finished)
 *
 * Adds the oldest frames, in order, while more than @keep are pending,
 * waiting for their counts.
 */
static gboolean
finish_frames (GstClHistogram * self, guint keep, GError ** error)
{
  Pending *pf;
  gboolean ok = TRUE;

  while (self->pending.length > keep &&
      (pf = g_queue_peek_head (&self->pending))) {
    if (pf->read)
      ok = gst_cl_event_wait (pf->read, error);
    g_queue_pop_head (&self->pending);
    if (ok)
      add_frame (self, pf);
    pending_free (pf);
    if (!ok)
      break;
  }
  return ok;
}

static void
drop_frames (GstClHistogram * self)
{
  Pending *pf;
  while ((pf = g_queue_pop_head (&self->pending)))
    pending_free (pf);
}

static gboolean
gst_cl_histogram_analyze (GstClBaseFilter * base, const GstClPlane * src,
    GstBuffer * buffer, cl_event * events, guint * n_events, GError ** error)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);
  GstBaseTransform *trans = GST_BASE_TRANSFORM (base);
  GstClHistogramChannels channels;
  Pending *pf;
  gboolean post, attach, ok;

  GST_OBJECT_LOCK (self);
  channels = self->channels;
  pf = g_new0 (Pending, 1);
  pf->interval = self->interval;
  post = self->post_messages;
  attach = self->attach_meta;
  GST_OBJECT_UNLOCK (self);

  if (!buffer) {
    /* tuning: the counting alone, nothing posted */
    gboolean ok = TRUE;
    pf->want = wanted_slots (self, channels);
    if (pf->want)
      ok = count_frame (self, src, pf, events, n_events, error);
    pending_free (pf);
    return ok;
  }
  if (!post && !attach) {
    g_free (pf);
    drop_frames (self);
    reset_interval (self);
    return TRUE;
  }
  pf->want = wanted_slots (self, channels);
  pf->pts = GST_BUFFER_PTS (buffer);
  pf->dur = GST_BUFFER_DURATION (buffer);
  if (!GST_CLOCK_TIME_IS_VALID (pf->dur) && self->fps_n > 0)
    pf->dur = gst_util_uint64_scale_int (GST_SECOND, self->fps_d,
        self->fps_n);
  pf->stream = pf->running = GST_CLOCK_TIME_NONE;
  if (trans->segment.format == GST_FORMAT_TIME &&
      GST_CLOCK_TIME_IS_VALID (pf->pts)) {
    pf->stream = gst_segment_to_stream_time (&trans->segment,
        GST_FORMAT_TIME, pf->pts);
    pf->running = gst_segment_to_running_time (&trans->segment,
        GST_FORMAT_TIME, pf->pts);
  }
  pf->pixels = (guint64) src->width * src->height;
  if (pf->want && !count_frame (self, src, pf, events, n_events, error)) {
    pending_free (pf);
    return FALSE;
  }
  g_queue_push_tail (&self->pending, pf);
  if (attach) {
    /* the frames before this one were pushed already: their intervals
     * carry no meta; then this frame's counts, before it is pushed */
    if (!finish_frames (self, 1, error))
      return FALSE;
    self->finishing_current = TRUE;
    ok = finish_frames (self, 0, error);
    self->finishing_current = FALSE;
    return ok;
  }
  return finish_frames (self, gst_cl_base_filter_get_device (base)->zero_copy ?
      0 : PENDING_FRAMES, error);
}

/* A DRAIN query: the counts of every frame received are added and
 * posted before it is answered. */
static gboolean
gst_cl_histogram_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);

  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN)
    finish_frames (self, 0, NULL);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_histogram_parent_class)->query
      (trans, direction, query);
}

static gboolean
gst_cl_histogram_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      /* every frame's counts, then the last, partial interval */
      finish_frames (self, 0, NULL);
      post_interval (self);
      break;
    case GST_EVENT_FLUSH_STOP:
      drop_frames (self);
      reset_interval (self);
      g_clear_pointer (&self->meta, gst_structure_free);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cl_histogram_parent_class)->sink_event
      (trans, event);
}

/* With attach-meta, the frame leaves with its statistics. In passthrough
 * the output is the input buffer, which the element itself still holds
 * while the device may read it: those references go first (the counts
 * were waited for, so the device is done), then a buffer that others hold
 * too is copied to carry the meta (its memory too: GstClMemory is not
 * shared between buffers, so a device frame is copied on the device). */
static GstFlowReturn
gst_cl_histogram_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  GstFlowReturn ret;
  GstStructure *s;

  ret = GST_BASE_TRANSFORM_CLASS (gst_cl_histogram_parent_class)->
      generate_output (trans, outbuf);
  s = self->meta;
  self->meta = NULL;
  if (ret == GST_FLOW_OK && *outbuf && s) {
    gst_cl_base_filter_drain (GST_CL_BASE_FILTER (self), NULL);
    if (!gst_buffer_is_writable (*outbuf))
      GST_LOG_OBJECT (self, "copying a buffer held elsewhere for the meta");
    *outbuf = gst_buffer_make_writable (*outbuf);
    attach_meta (*outbuf, s);
  }
  if (s)
    gst_structure_free (s);
  return ret;
}

static void
register_meta (void)
{
  static gsize done = 0;
  static const gchar *no_tags[] = { NULL };

  if (g_once_init_enter (&done)) {
    /* no tags: the statistics describe the frame's content, and elements
     * that keep the frame as it is keep them */
    gst_meta_register_custom (HISTOGRAM_META, no_tags, NULL, NULL, NULL);
    g_once_init_leave (&done, 1);
  }
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
gst_cl_histogram_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BINS:
      self->bins = g_value_get_uint (value);
      break;
    case PROP_CHANNELS:
      self->channels = g_value_get_enum (value);
      break;
    case PROP_INTERVAL:
      self->interval = g_value_get_uint64 (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_LOW_PERCENTILE:
      self->low_percentile = g_value_get_double (value);
      break;
    case PROP_HIGH_PERCENTILE:
      self->high_percentile = g_value_get_double (value);
      break;
    case PROP_ATTACH_META:
      self->attach_meta = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histogram_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BINS:
      g_value_set_uint (value, self->bins);
      break;
    case PROP_CHANNELS:
      g_value_set_enum (value, self->channels);
      break;
    case PROP_INTERVAL:
      g_value_set_uint64 (value, self->interval);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_LOW_PERCENTILE:
      g_value_set_double (value, self->low_percentile);
      break;
    case PROP_HIGH_PERCENTILE:
      g_value_set_double (value, self->high_percentile);
      break;
    case PROP_ATTACH_META:
      g_value_set_boolean (value, self->attach_meta);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histogram_class_init (GstClHistogramClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstClBaseFilterClass *base_class = GST_CL_BASE_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cl_histogram_set_property;
  gobject_class->get_property = gst_cl_histogram_get_property;

  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins",
          "Histogram bins: bin i counts 8-bit levels v with "
          "floor(v * bins / 256) = i", 1, 256, DEFAULT_BINS, flags));
  g_object_class_install_property (gobject_class, PROP_CHANNELS,
      g_param_spec_enum ("channels", "Channels",
          "Channels to measure (those the format lacks are left out)",
          gst_cl_histogram_channels_get_type (), DEFAULT_CHANNELS, flags));
  g_object_class_install_property (gobject_class, PROP_INTERVAL,
      g_param_spec_uint64 ("interval", "Interval",
          "Stream time (ns) each message covers; 0 = one message per frame",
          0, G_MAXUINT64, DEFAULT_INTERVAL, flags));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post \"clhistogram\" element messages", DEFAULT_POST_MESSAGES,
          flags));
  g_object_class_install_property (gobject_class, PROP_LOW_PERCENTILE,
      g_param_spec_double ("low-percentile", "Low percentile",
          "Percentile reported in the \"low\" field", 0.0, 100.0,
          DEFAULT_LOW_PERCENTILE, flags));
  g_object_class_install_property (gobject_class, PROP_HIGH_PERCENTILE,
      g_param_spec_double ("high-percentile", "High percentile",
          "Percentile reported in the \"high\" field", 0.0, 100.0,
          DEFAULT_HIGH_PERCENTILE, flags));
  g_object_class_install_property (gobject_class, PROP_ATTACH_META,
      g_param_spec_boolean ("attach-meta", "Attach meta",
          "Attach the statistics to the buffer that completes each interval "
          "as a custom meta \"" HISTOGRAM_META "\" (the message's "
          "structure); each frame's counts are then waited for before it is "
          "pushed", DEFAULT_ATTACH_META, flags));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL histogram analyzer", "Filter/Analyzer/Video",
      "Posts histograms and tone-mapping statistics of video frames, "
      "computed on an OpenCL device", "clfilters developers");
  gst_cl_element_class_add_pad_templates (element_class, TRUE, TRUE, TRUE,
      TRUE);

  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_histogram_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_histogram_query);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_generate_output);
  base_class->program_name = "histogram";
  base_class->program_source = gst_cl_source_histogram;
  base_class->setup = gst_cl_histogram_setup;
  base_class->auto_memory = gst_cl_histogram_auto_memory;
  base_class->cleanup = gst_cl_histogram_cleanup;
  base_class->configure = gst_cl_histogram_configure;
  base_class->analyze = gst_cl_histogram_analyze;
  base_class->tuning_case = gst_cl_histogram_tuning_case;

  gst_type_mark_as_plugin_api (gst_cl_histogram_channels_get_type (), 0);
  register_meta ();
}

static void
gst_cl_histogram_init (GstClHistogram * self)
{
  self->bins = DEFAULT_BINS;
  self->channels = DEFAULT_CHANNELS;
  self->interval = DEFAULT_INTERVAL;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->low_percentile = DEFAULT_LOW_PERCENTILE;
  self->high_percentile = DEFAULT_HIGH_PERCENTILE;
  self->attach_meta = DEFAULT_ATTACH_META;
  reset_interval (self);
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), TRUE);
}
