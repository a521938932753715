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
 *   guint64): bin i counts the sample values v with
 *   floor (v * bins / 2^D) = i, D being `depth`
 * * `min`, `max`, `median`, `low`, `high` (GstValueArray of guint): levels
 *   of D bits, exact whatever `bins` is; `median`, `low` and `high` are the
 *   smallest level whose cumulative count reaches 50 %, `low-percentile` %
 *   and `high-percentile` % of `pixels`
 * * `mean`, `variance` (GstValueArray of gdouble), in D-bit levels
 * * `log-average` (GstValueArray of gdouble):
 *   exp (mean (ln (0.001 + v / (2^D - 1))))
 * * `depth` (guint): D, the bits of a sample value of the format: 8 for the
 *   8-bit formats, 10 for P010_10LE and I420_10LE, 12 for I420_12LE, 16 for
 *   GRAY16_LE, P016_LE, Y444_16LE and RGBA64_LE
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
 * RGB2GRAY), on 16-bit values for RGBA64_LE; of YUV formats the Y plane; of
 * GRAY8 and GRAY16_LE the value itself.
 *
 * In the formats of more than 8 bits a sample is a little-endian 16-bit
 * word holding its value v of D bits at bit `shift` (6 for P010_10LE, 0
 * otherwise): v = (word >> shift) & (2^D - 1); the other bits are ignored.
 * The device counts all 2^D levels (65536 for 16-bit formats), so that the
 * statistics are exact whatever `bins` is (up to 4096).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=3 ! clhistogram bins=8 ! fakesink
 * ]| Prints one message per frame with 8-bin luma histograms.
 * |[
 * gst-launch-1.0 -m v4l2src ! videoconvert ! video/x-raw,format=RGBx ! \
 *     clhistogram channels=all interval=1000000000 ! fakesink
 * ]| Luma and colour histograms of every second of a camera.
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=1 ! \
 *     video/x-raw,format=P010_10LE,width=1920,height=1080 ! \
 *     clhistogram bins=1024 ! fakesink
 * ]| One bin per 10-bit level; `depth` is 10.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclhistogram.h"
#include "gstclhistogramcount.h"
#include "gstclhistogramstats.h"
#include "gstclkernels.h"

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

/* the custom meta's name (docs/elements/clhistogram.md, "Statistics on
 * the buffer") */
#define HISTOGRAM_META "GstClHistogramMeta"

#define N_SLOTS GST_CL_HISTOGRAM_SLOTS     /* luma, red, green, blue */
#define MAX_BINS 4096

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
  gint fps_n, fps_d;
  guint warned_want;            /* a want mask already warned about */

  /* accumulation, streaming thread */
  guint want;                   /* slots of the interval being accumulated */
  guint depth;                  /* bits of its levels: 8, or D of a format
                                 * of more than 8 bits */
  guint64 *counts;              /* N_SLOTS << depth: slot s, level v at
                                 * (s << depth) + v; valid for the slots of
                                 * want once a frame was added (the first
                                 * frame of an interval sets them) */
  gdouble *log_table;           /* ln (0.001 + v / (2^depth - 1)) */
  guint frames;
  guint64 pixels;
  GstClockTime start, start_stream, start_running, end;
  gboolean finishing_current;   /* the frames being added end with the one
                                 * about to leave, which carries the interval
                                 * it completes (attach-meta) */
  GstStructure *meta;           /* that interval's statistics, attached when
                                 * the frame leaves (generate_output) */

  /* the counting on the device, between setup and cleanup */
  GstClHistogramCount *count;

  /* frames whose counts are still being read back, oldest first */
  GQueue pending;
};

/* A frame's counts are read back while the next frames are counted: frame
 * n is added (and posted) when frame n + PENDING_FRAMES comes, waiting for
 * its counts if needed, so that messages come in frame order, always the
 * same number of frames later on every device (runs are repeatable). On
 * zero-copy devices (CPUs) too: waiting for each frame's counts before
 * returning would serialise the runtime's launch and completion latency
 * and the rest of the pipeline with the kernel (docs/performance.md, "CPU:
 * the elements against their peers"). attach-meta waits for the frame's
 * own. */
#define PENDING_FRAMES 2

/* A counted frame: its counts on their way to the host, and what the
 * interval needs of it. */
typedef struct
{
  GstClHistogramCounts counts;
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
  /* no clearing of the counts: the next interval's first frame sets them */
  self->frames = 0;
  self->pixels = 0;
  self->start = self->start_stream = self->start_running = self->end =
      GST_CLOCK_TIME_NONE;
}

/* Counts of 2^@depth levels per slot, and the logarithms of the levels
 * (computed once per depth: 65536 calls to log() per message would cost
 * more than the counting). Called between intervals. */
static void
ensure_depth (GstClHistogram * self, guint depth)
{

  if (self->counts && self->depth == depth)
    return;
  g_free (self->counts);
  g_free (self->log_table);
  self->depth = depth;
  self->counts = g_new (guint64, (gsize) N_SLOTS << depth);
  self->log_table = gst_cl_histogram_log_table (depth);
}

static gboolean
copy_field (GQuark field, const GValue * value, gpointer dest)
{
  gst_structure_id_set_value ((GstStructure *) dest, field, value);
  return TRUE;
}

/* The message of the interval accumulated so far */
static GstStructure *
build_structure (GstClHistogram * self, guint bins, gdouble low, gdouble high)
{
  GstClHistogramInterval iv = {
    self->depth, self->counts, self->log_table, self->want, self->frames,
    self->pixels, self->start, self->start_stream, self->start_running,
    self->end
  };

  return gst_cl_histogram_interval_structure (&iv, bins, low, high);
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
static GstClStorage
gst_cl_histogram_auto_storage (GstClBaseFilter * base, GstClDevice * device,
    const GstVideoInfo * info)
{
  return GST_CL_STORAGE_BUFFER;
}

static gboolean
gst_cl_histogram_setup (GstClBaseFilter * base, cl_program program,
    GError ** error)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);

  self->count = gst_cl_histogram_count_new (GST_CL_BASE_TRANSFORM
      (base)->device, program, GST_OBJECT (self), error);
  if (!self->count)
    return FALSE;
  reset_interval (self);
  return TRUE;
}

static void
gst_cl_histogram_cleanup (GstClBaseFilter * base)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);

  drop_frames (self);
  g_clear_pointer (&self->meta, gst_structure_free);
  g_clear_pointer (&self->count, gst_cl_histogram_count_free);
}


/* the slots to count for @channels on the caps' format */
static guint
slots_of (GstClHistogram * self, GstClHistogramChannels channels)
{
  guint asked = channels == GST_CL_HISTOGRAM_CHANNELS_LUMA ? 0x1 :
      channels == GST_CL_HISTOGRAM_CHANNELS_RGB ? 0xe : 0xf;

  return asked & (self->has_rgb ? 0xf : 0x1);
}

static gboolean
gst_cl_histogram_configure (GstClBaseFilter * base, const GstVideoInfo * info,
    const GstClPlane * plane, GError ** error)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);

  self->has_rgb = GST_VIDEO_INFO_IS_RGB (info);
  gst_cl_histogram_count_configure (self->count, info, plane);
  self->fps_n = GST_VIDEO_INFO_FPS_N (info);
  self->fps_d = GST_VIDEO_INFO_FPS_D (info);
  /* new caps: what was accumulated is posted first */
  finish_frames (self, 0, NULL);
  post_interval (self);
  ensure_depth (self, GST_CL_PLANE_IS_WIDE (plane) ? plane->depth : 8);
  /* the tiles kernel of the format, where frames will take it */
  if (!GST_CL_PLANE_IS_WIDE (plane) && !plane->is_image
      && gst_cl_base_filter_expects_tiles (base)) {
    GstClHistogramChannels channels;
    GST_OBJECT_LOCK (self);
    channels = self->channels;
    GST_OBJECT_UNLOCK (self);
    gst_cl_histogram_count_prepare_tiles (self->count, plane,
        slots_of (self, channels));
  }
  return TRUE;
}

/* the channels to count for this frame: what was asked and the format has */
static guint
wanted_slots (GstClHistogram * self, GstClHistogramChannels channels)
{
  guint asked = channels == GST_CL_HISTOGRAM_CHANNELS_LUMA ? 0x1 :
      channels == GST_CL_HISTOGRAM_CHANNELS_RGB ? 0xe : 0xf;
  guint have = slots_of (self, channels);

  if (have != asked && self->warned_want != asked) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("The input format carries no colour channels: %s.",
            have ? "counting luma only" : "no channel to count"),
        ("channels=%s on %s input", channels == GST_CL_HISTOGRAM_CHANNELS_RGB ?
            "rgb" : "all", self->has_rgb ? "RGB" : "luma-only"));
    self->warned_want = asked;
  }
  return have;
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
  want = slots_of (self, channels);
  return g_strdup_printf ("channels=%s", want == 0x1 ? "luma" :
      want == 0xe ? "rgb" : want ? "all" : "none");
}

static void
pending_free (Pending * pf)
{
  gst_cl_histogram_counts_clear (&pf->counts);
  g_free (pf);
}

/* Adds a frame whose counts arrived to the interval, posting it when it
 * is complete. */
static void
add_frame (GstClHistogram * self, Pending * pf)
{
  const GstClHistogramCounts *c = &pf->counts;

  if (self->frames > 0 && (c->want != self->want || c->depth != self->depth))
    post_interval (self);       /* the channels changed: a new interval */
  ensure_depth (self, c->depth);
  self->want = c->want;
  /* the interval's first frame sets the counts */
  gst_cl_histogram_counts_add (c, self->counts, self->frames == 0);
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
    if (pf->counts.read)
      ok = gst_cl_event_wait (pf->counts.read, error);
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
gst_cl_histogram_analyze (GstClBaseFilter * base, GstClFrameWork * work,
    const GstClPlane * src, GstBuffer * buffer, GError ** error)
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
    pf->counts.want = wanted_slots (self, channels);
    pf->counts.depth = GST_CL_PLANE_IS_WIDE (src) ? src->depth : 8;
    if (pf->counts.want)
      ok = gst_cl_histogram_count_frame (self->count, work, src, &pf->counts,
          error);
    pending_free (pf);
    return ok;
  }
  if (!post && !attach) {
    g_free (pf);
    drop_frames (self);
    reset_interval (self);
    return TRUE;
  }
  pf->counts.want = wanted_slots (self, channels);
  pf->counts.depth = GST_CL_PLANE_IS_WIDE (src) ? src->depth : 8;
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
  if (pf->counts.want && !gst_cl_histogram_count_frame (self->count, work,
          src, &pf->counts, error)) {
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
  return finish_frames (self, PENDING_FRAMES, error);
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
gst_cl_histogram_finalize (GObject * object)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  g_free (self->counts);
  g_free (self->log_table);
  G_OBJECT_CLASS (gst_cl_histogram_parent_class)->finalize (object);
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
  gobject_class->finalize = gst_cl_histogram_finalize;

  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins",
          "Histogram bins: bin i counts the sample values v of D bits (8, "
          "or the format's depth) with floor(v * bins / 2^D) = i", 1,
          MAX_BINS, DEFAULT_BINS, flags));
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
  base_class->auto_storage = gst_cl_histogram_auto_storage;
  base_class->cleanup = gst_cl_histogram_cleanup;
  base_class->configure = gst_cl_histogram_configure;
  base_class->analyze = gst_cl_histogram_analyze;
  base_class->tuning_case = gst_cl_histogram_tuning_case;
  /* the tiles kernels take a group size only: their rows and pixels per
   * work-item follow from the format and the device
   * (gstclhistogramcount.c: tiles_shape, count_deep_tiles) */
  base_class->tiles_fields = GST_CL_TUNE_GROUP;

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
