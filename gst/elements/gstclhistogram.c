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
#include "gstclhistogramstats.h"
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


#define N_SLOTS GST_CL_HISTOGRAM_SLOTS     /* luma, red, green, blue */
#define PAIR_TABLE_SIZE 65536   /* counters per work-item in histogram_pairs */
#define MAX_PAIR_UNITS 64       /* above: plain counting (histogram_strips) */
#define MAX_HOST_UNITS 64       /* above: partials added on the device */
#define TILE_GROUP 256          /* work-items per group in tiles (automatic) */
#define TILE_MAX_GROUPS_X 64    /* groups across a row in tiles */
#define TILE_GROUPS_PER_CU 4    /* groups per compute unit in tiles */
#define TILE_COPIES 8           /* copies of the local tables in tiles */
/* tiles on rows of whole 16-byte vectors (one-byte and 4-byte pixels, 16
 * bytes per work-item, each walking down its column with the next rows'
 * loads in flight): what bench/probes/histogram.c found best on the H100
 * over its pictures: larger groups, fewer copies, and one group per
 * compute unit, each walking many rows (every group's clearing and merge
 * into the totals is overhead; its walk keeps the loads in flight: 4K
 * RGBA luma 97-99 % of the read-only reduction, against 81-82 % at 6
 * groups a compute unit and 66 % at 12) */
#define VEC_GROUP 512
#define VEC_GROUPS_PER_CU 1
#define VEC_COPIES 4
#define MAX_BINS 4096

/* histogram_tiles built for one format and launch: its arguments as
 * constants of the build (GST_CL_HIST_* in kernels/histogram.cl), so that
 * the branches on the channels and pixel size and the table addressing
 * fold away (H100, bench/probes/histogram.c: RGBA luma 1.25-1.3x faster,
 * all channels 1.1x, GRAY8 1.05-1.1x). Built at caps time on devices that
 * take the GPU kernels; a frame the build does not match (channels
 * changed while playing, rows not of whole 16-byte vectors) takes the
 * general kernel, which counts the same. */
typedef struct
{
  gint step, r_off, g_off, b_off, want, copies, sixteen;
} TilesBuild;
/* formats of more than 8 bits (counts of 2^D levels per slot) */
#define MAX_DEPTH 16
#define DEEP_UNITS_PER_CU 2     /* strips: tables per compute unit */
#define MAX_DEEP_UNITS 64       /* strips: tables at most, whatever the
                                 * tuning (2^16 levels: 256 KiB each) */
#define DEEP_REDUCE_SPAN 64     /* 16-level vectors per reduce work-item */
#define DEEP_LOCAL_BYTES 32768  /* tiles: local tables up to this size (2^10
                                 * and 2^12 levels), else global atomics */

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
  gint r_off, g_off, b_off;     /* in units: bytes, 16-bit samples or image
                                 * components */
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

  /* device */
  cl_kernel k_strips, k_tiles, k_image, k_pairs, k_reduce;
  cl_kernel k_tiles_fixed;      /* histogram_tiles built for tiles_fixed */
  TilesBuild tiles_fixed;
  TilesBuild tiles_unbuilt;     /* the frames' build last found not made
                                 * (valid if unbuilt_set): the general
                                 * kernel, without looking again */
  gboolean unbuilt_set;
  cl_mem tables;                /* pair tables of histogram_pairs, zero
                                 * between frames */
  gsize tables_size;
  gboolean tables_dirty;        /* a frame failed: zero them again */
  cl_mem partials;
  gsize partials_size;
  cl_mem totals;                /* N_SLOTS * 256 sums of the partials */

  /* formats of more than 8 bits */
  cl_kernel k_deep_strips, k_deep_reduce, k_deep_tiles, k_deep_image;
  cl_mem deep_tables;           /* strips: per work-item tables, zero
                                 * between frames */
  gsize deep_tables_size;
  gboolean deep_tables_dirty;   /* a frame failed: zero them again */
  cl_mem deep_totals;           /* counted slots << D counts of a frame */
  gsize deep_totals_size;

  /* frames whose counts are still being read back, oldest first */
  GQueue pending;
};

/* A frame's counts are read back while the next frames are counted: frame
 * n is added (and posted) when frame n + PENDING_FRAMES comes, waiting for
 * its counts if needed, so that messages come in frame order, always the
 * same number of frames later on every device (runs are repeatable). On
 * zero-copy devices (CPUs) too: waiting for each frame's counts before
 * returning serialised POCL's launch and completion latency and the rest of
 * the pipeline with the kernel, 0.18-0.26 ms a 1080p GRAY8 frame on the CI
 * machine (docs/performance.md). attach-meta waits for the frame's own. */
#define PENDING_FRAMES 2

/* A counted frame: its counts on their way to the host, and what the
 * interval needs of it. */
typedef struct
{
  guint want;                   /* slots counted */
  guint depth;                  /* levels: 2^depth per table */
  gint n_units;                 /* partial histograms per slot */
  guint32 *host;                /* n_units tables of 2^depth levels per
                                 * counted slot */
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
  GstClDevice *device = GST_CL_BASE_TRANSFORM (base)->device;
  cl_int st;

  if (!(self->k_strips = gst_cl_kernel_new (program, "histogram_strips", error))
      || !(self->k_pairs = gst_cl_kernel_new (program, "histogram_pairs", error))
      || !(self->k_reduce = gst_cl_kernel_new (program, "histogram_reduce", error))
      || !(self->k_tiles = gst_cl_kernel_new (program, "histogram_tiles", error))
      || !(self->k_deep_strips = gst_cl_kernel_new (program,
              "histogram_deep_strips", error))
      || !(self->k_deep_reduce = gst_cl_kernel_new (program,
              "histogram_deep_reduce", error))
      || !(self->k_deep_tiles = gst_cl_kernel_new (program,
              "histogram_deep_tiles", error)))
    return FALSE;
  if (device->image_support &&
      (!(self->k_image = gst_cl_kernel_new (program, "histogram_image", error))
          || !(self->k_deep_image = gst_cl_kernel_new (program,
                  "histogram_deep_image", error))))
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
  g_clear_pointer (&self->k_tiles_fixed, clReleaseKernel);
  g_clear_pointer (&self->k_deep_strips, clReleaseKernel);
  g_clear_pointer (&self->k_deep_reduce, clReleaseKernel);
  g_clear_pointer (&self->k_deep_tiles, clReleaseKernel);
  g_clear_pointer (&self->k_deep_image, clReleaseKernel);
  g_clear_pointer (&self->deep_tables, clReleaseMemObject);
  g_clear_pointer (&self->deep_totals, clReleaseMemObject);
  self->deep_tables_size = self->deep_totals_size = 0;
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

/* the slots to count for @channels on the caps' format */
static guint
slots_of (GstClHistogram * self, GstClHistogramChannels channels)
{
  guint asked = channels == GST_CL_HISTOGRAM_CHANNELS_LUMA ? 0x1 :
      channels == GST_CL_HISTOGRAM_CHANNELS_RGB ? 0xe : 0xf;

  return asked & (self->has_rgb ? 0xf : 0x1);
}

/* @b: what histogram_tiles takes for the 8-bit buffer @src counted in the
 * slots of @want */
static void
tiles_build_init (GstClHistogram * self, const GstClPlane * src, guint want,
    TilesBuild * b)
{
  GstClDevice *device = GST_CL_BASE_TRANSFORM (self)->device;

  b->step = src->step;
  b->r_off = self->r_off;
  b->g_off = self->g_off;
  b->b_off = self->b_off;
  b->want = want;
  /* 16 bytes per item on rows of whole 16-byte vectors: sixteen one-byte
   * pixels or four 4-byte ones */
  b->sixteen = !src->is_image && (src->step == 1 || src->step == 4)
      && src->stride % 16 == 0;
  /* local tables in as many copies as local memory holds, up to
   * TILE_COPIES (VEC_COPIES on the 16-byte paths) */
  b->copies = MAX (1, MIN (b->sixteen ? VEC_COPIES : TILE_COPIES,
          device->local_mem_size / (N_SLOTS * 256 * sizeof (guint32))));
}

/* The histogram_tiles kernel for @b: the build for it where there is one
 * (made here at caps time, @now, or one the device made before), else the
 * general kernel. */
static cl_kernel
tiles_kernel (GstClHistogram * self, const TilesBuild * b, gboolean now)
{
  GstClDevice *device = GST_CL_BASE_TRANSFORM (self)->device;
  GError *err = NULL;
  cl_program program;
  gchar *defines;
  cl_kernel k;

  if (self->k_tiles_fixed && memcmp (&self->tiles_fixed, b, sizeof (*b)) == 0)
    return self->k_tiles_fixed;
  if (!gst_cl_device_builds_gpu_kernels (device) || (!now
          && self->unbuilt_set
          && memcmp (&self->tiles_unbuilt, b, sizeof (*b)) == 0))
    return self->k_tiles;
  defines = g_strdup_printf ("-DGST_CL_HIST_STEP=%d -DGST_CL_HIST_R=%d "
      "-DGST_CL_HIST_G=%d -DGST_CL_HIST_B=%d -DGST_CL_HIST_WANT=%d "
      "-DGST_CL_HIST_COPIES=%d -DGST_CL_HIST_SIXTEEN=%d", b->step, b->r_off,
      b->g_off, b->b_off, b->want, b->copies, b->sixteen);
  if (!now && !gst_cl_device_has_program_with_defines (device, "histogram",
          defines)) {
    g_free (defines);
    self->tiles_unbuilt = *b;
    self->unbuilt_set = TRUE;
    return self->k_tiles;
  }
  program = gst_cl_device_get_program_with_defines (device, "histogram",
      gst_cl_source_histogram, defines, &err);
  g_free (defines);
  k = program ? gst_cl_kernel_new (program, "histogram_tiles", &err) : NULL;
  if (program)
    clReleaseProgram (program);
  if (!k) {
    GST_WARNING_OBJECT (self, "no histogram_tiles built for the format, the "
        "general kernel counts: %s", err->message);
    g_clear_error (&err);
    return self->k_tiles;
  }
  g_clear_pointer (&self->k_tiles_fixed, clReleaseKernel);
  self->k_tiles_fixed = k;
  self->tiles_fixed = *b;
  return k;
}

static gboolean
gst_cl_histogram_configure (GstClBaseFilter * base, const GstVideoInfo * info,
    const GstClPlane * plane, GError ** error)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);
  /* kernels index samples (two bytes each in 16-bit formats) or, in
   * images of 4-channel texels, components */
  const gint bytes = plane->sample_bytes;

  self->has_rgb = GST_VIDEO_INFO_IS_RGB (info);
  self->r_off = self->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_R) / bytes : 0;
  self->g_off = self->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_G) / bytes : 0;
  self->b_off = self->has_rgb ? GST_VIDEO_INFO_COMP_POFFSET (info,
      GST_VIDEO_COMP_B) / bytes : 0;
  self->fps_n = GST_VIDEO_INFO_FPS_N (info);
  self->fps_d = GST_VIDEO_INFO_FPS_D (info);
  /* new caps: what was accumulated is posted first */
  finish_frames (self, 0, NULL);
  post_interval (self);
  ensure_depth (self, GST_CL_PLANE_IS_WIDE (plane) ? plane->depth : 8);
  self->unbuilt_set = FALSE;
  /* the tiles kernel of the format, where frames will take it */
  if (!GST_CL_PLANE_IS_WIDE (plane) && !plane->is_image
      && gst_cl_base_filter_expects_tiles (base)) {
    GstClHistogramChannels channels;
    TilesBuild b;
    GST_OBJECT_LOCK (self);
    channels = self->channels;
    GST_OBJECT_UNLOCK (self);
    tiles_build_init (self, plane, slots_of (self, channels), &b);
    tiles_kernel (self, &b, TRUE);
  }
  return TRUE;
}

static gboolean
ensure_partials (GstClHistogram * self, guint n_units, GError ** error)
{
  GstClDevice *device = GST_CL_BASE_TRANSFORM (self)->device;
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
ensure_tables (GstClHistogram * self, GstClFrameWork * work, guint n_units,
    GError ** error)
{
  GstClDevice *device = work->device;
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
    st = clEnqueueFillBuffer (work->queue, self->tables, &zero,
        sizeof (zero), 0, self->tables_size, 0, NULL, NULL);
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

/* 8-bit formats: 256 levels per slot, as n_units partial tables or totals */
static gboolean
count_bytes (GstClHistogram * self, const GstClPlane * src, Pending * pf,
    GstClFrameWork * work, GError ** error)
{
  guint want = pf->want;
  GstClDevice *device = work->device;
  cl_command_queue queue = work->queue;
  cl_int iwant = want, n_units, copies, st;
  gboolean totals = FALSE;
  gsize local_bytes;
  cl_mem partials;
  gboolean pairs = FALSE;
  guint slot, v;
  GstClLaunch l;

  if (!src->is_image && gst_cl_frame_work_uses_strips (work)) {
    gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
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
    /* pair tables only where a work-item counts more pixels than its
     * table has counters: its fold reads and zeroes all of them */
    if (src->step == 1 && n_units <= MAX_PAIR_UNITS &&
        (gsize) src->units * src->height / n_units >= 2 * PAIR_TABLE_SIZE) {
      pairs = TRUE;
      if (!ensure_partials (self, n_units, error)
          || !ensure_tables (self, work, n_units, error))
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
          || !gst_cl_frame_work_enqueue (work, self->k_pairs, &l, error))
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
        || !gst_cl_frame_work_enqueue (work, self->k_strips, &l, error))
      return FALSE;
  } else {
    /* a 2D range of work-groups: dimension 0 across a row (16 bytes,
     * four one-byte pixels or one pixel per work-item), dimension 1
     * striding over the rows (one group per compute unit on the 16-byte
     * paths, each walking many rows; else TILE_GROUPS_PER_CU); local tables
     * in as many copies as local memory holds, up to TILE_COPIES (VEC_COPIES
     * on the 16-byte paths) */
    gboolean quads = !src->is_image && src->step == 1;
    TilesBuild b;
    cl_int sixteen;
    gsize items, group, groups_x, groups_y;
    cl_kernel k;

    tiles_build_init (self, src, want, &b);
    sixteen = b.sixteen;
    items = sixteen && src->step == 1 ? (src->width + 15) / 16 :
        sixteen || quads ? (src->width + 3) / 4 : src->width;
    k = src->is_image ? self->k_image : tiles_kernel (self, &b, FALSE);

    gsize per_cu = sixteen ? VEC_GROUPS_PER_CU : TILE_GROUPS_PER_CU;

    gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
    if (l.group_auto)
      l.local[0] = MAX (1, MIN (sixteen ? VEC_GROUP : TILE_GROUP,
              device->max_work_group_size));
    group = l.local[0];
    groups_x = CLAMP ((items + group - 1) / group, 1, TILE_MAX_GROUPS_X);
    groups_y = CLAMP (per_cu * device->compute_units / groups_x,
        1, (gsize) src->height);
    copies = b.copies;
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
    if (!gst_cl_frame_work_enqueue (work, k, &l, error))
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
        || !gst_cl_frame_work_enqueue (work, self->k_reduce, &r, error))
      return FALSE;
    partials = self->totals;
    n_units = 1;
  }

  /* read back the partials of the counted slots, without waiting: the
   * next frames are counted meanwhile (the queue is in order, so they
   * overwrite the partials only after the reads) */
  pf->depth = 8;
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
  /* the base class flushes the queue after the frame's marker */
  if (pairs)
    self->tables_dirty = FALSE;
  return TRUE;
}

/* a device buffer of at least @size bytes in *@mem */
static gboolean
ensure_buffer (GstClHistogram * self, cl_mem * mem, gsize * have, gsize size,
    gboolean * fresh, const gchar * what, GError ** error)
{
  GstClDevice *device = GST_CL_BASE_TRANSFORM (self)->device;
  cl_int st;

  if (*mem && *have >= size)
    return TRUE;
  g_clear_pointer (mem, clReleaseMemObject);
  *have = 0;
  *mem = clCreateBuffer (device->context, CL_MEM_READ_WRITE, size, NULL, &st);
  if (st != CL_SUCCESS) {
    *mem = NULL;
    return gst_cl_fail (error, st, what);
  }
  *have = size;
  if (fresh)
    *fresh = TRUE;
  return TRUE;
}

static gboolean
zero_buffer (cl_command_queue queue, cl_mem mem, gsize size,
    GError ** error)
{
  const cl_uint zero = 0;
  cl_int st = clEnqueueFillBuffer (queue, mem, &zero, sizeof (zero), 0, size,
      0, NULL, NULL);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueFillBuffer (histograms)");
  return TRUE;
}

/* CPUs: a few work-items count whole strips into tables of their own (a
 * bounded number, whatever the tuning: 2^16 levels take 256 KiB a table),
 * then histogram_deep_reduce adds them into deep_totals and zeroes them. */
static gboolean
count_deep_strips (GstClHistogram * self, const GstClPlane * src,
    cl_int iwant, cl_int n_tables, GstClFrameWork * work,
    GError ** error)
{
  GstClDevice *device = work->device;
  cl_int depth = src->depth, shift = src->shift, copies, n_units, n_cols;
  cl_int n_rects, chunk, rows, vectors, span;
  GstClLaunch l, r;
  gsize target;

  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  /* whole pixels per rectangle */
  chunk = l.chunk;
  if (chunk % src->step)
    chunk += src->step - chunk % src->step;
  rows = l.rows;
  target = CLAMP (DEEP_UNITS_PER_CU * device->compute_units, 1,
      MAX_DEEP_UNITS);
  n_cols = (src->units + chunk - 1) / chunk;
  if (l.rows_auto) {
    /* one strip per work-item, read in row order */
    gsize per_col = MAX (1, target / n_cols);
    rows = MAX (1, (src->height + per_col - 1) / per_col);
  }
  n_rects = n_cols * ((src->height + rows - 1) / rows);
  n_units = MIN ((gsize) n_rects, target);
  /* copies of one-sample tables spread repeated levels over several
   * counters: 4 for 2^10 and 2^12 levels (16 and 64 KiB in all, in the
   * core's caches), 2 for 2^16 (512 KiB); RGB pixels count their runs */
  copies = src->step != 1 ? 1 : depth <= 12 ? 4 : 2;

  if (!ensure_buffer (self, &self->deep_tables, &self->deep_tables_size,
          ((gsize) n_units * n_tables * copies << depth) * sizeof (guint32),
          &self->deep_tables_dirty, "clCreateBuffer (histogram tables)",
          error))
    return FALSE;
  if (self->deep_tables_dirty) {
    if (!zero_buffer (work->queue, self->deep_tables,
            self->deep_tables_size, error))
      return FALSE;
    self->deep_tables_dirty = FALSE;
  }
  /* until the reduce has run: a failed frame may leave counts there */
  self->deep_tables_dirty = TRUE;

  l.global[0] = n_units;
  l.global[1] = 1;
  l.local[0] = l.local[1] = 1;
  if (!gst_cl_set_args (self->k_deep_strips, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (self->r_off), GST_CL_ARG (self->g_off),
          GST_CL_ARG (self->b_off), GST_CL_ARG (iwant), GST_CL_ARG (depth),
          GST_CL_ARG (shift), GST_CL_ARG (chunk), GST_CL_ARG (rows),
          GST_CL_ARG (n_cols), GST_CL_ARG (n_rects),
          GST_CL_ARG (self->deep_tables), GST_CL_ARG (n_units),
          GST_CL_ARG (copies), GST_CL_ARGS_END)
      || !gst_cl_frame_work_enqueue (work, self->k_deep_strips, &l, error))
    return FALSE;

  /* a work-item per DEEP_REDUCE_SPAN vectors of 16 levels: a few dozen for
   * 2^16 levels, one for 2^10 */
  vectors = (n_tables << depth) / 16;
  span = DEEP_REDUCE_SPAN;
  r = l;
  r.global[0] = (vectors + span - 1) / span;
  if (!gst_cl_set_args (self->k_deep_reduce, error,
          GST_CL_ARG (self->deep_tables), GST_CL_ARG (n_units),
          GST_CL_ARG (n_tables), GST_CL_ARG (copies), GST_CL_ARG (depth),
          GST_CL_ARG (span), GST_CL_ARG (self->deep_totals), GST_CL_ARGS_END)
      || !gst_cl_frame_work_enqueue (work, self->k_deep_reduce, &r, error))
    return FALSE;
  return TRUE;
}

/* GPUs and images: work-groups add into deep_totals (zeroed first), from
 * local tables where they fit, else with global atomics. */
static gboolean
count_deep_tiles (GstClHistogram * self, const GstClPlane * src,
    cl_int iwant, cl_int n_tables, GstClFrameWork * work,
    GError ** error)
{
  GstClDevice *device = work->device;
  cl_int depth = src->depth, shift = src->shift, copies;
  gsize table_bytes = ((gsize) n_tables << depth) * sizeof (guint32);
  gsize items, group, groups_x, groups_y, budget, local_bytes;
  cl_kernel k = src->is_image ? self->k_deep_image : self->k_deep_tiles;
  GstClLaunch l;

  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  if (l.group_auto)
    l.local[0] = MAX (1, MIN (TILE_GROUP, device->max_work_group_size));
  /* eight one-sample pixels per work-item in buffers, else a pixel */
  items = !src->is_image && src->step == 1 ? (gsize) (src->units + 7) / 8 :
      (gsize) src->width;
  group = l.local[0];
  groups_x = CLAMP ((items + group - 1) / group, 1, TILE_MAX_GROUPS_X);
  groups_y = CLAMP (TILE_GROUPS_PER_CU * device->compute_units / groups_x, 1,
      (gsize) src->height);
  l.global[0] = groups_x * group;
  l.global[1] = groups_y;
  l.local[1] = 1;
  budget = MIN (DEEP_LOCAL_BYTES, device->local_mem_size);
  copies = MIN (TILE_COPIES, budget / table_bytes);
  /* a local argument cannot be empty */
  local_bytes = copies ? copies * table_bytes : sizeof (guint32);

  if (!zero_buffer (work->queue, self->deep_totals, table_bytes, error))
    return FALSE;
  if (src->is_image) {
    cl_int layout = self->has_rgb ? 4 : 0;
    if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->width), GST_CL_ARG (src->height),
            GST_CL_ARG (layout), GST_CL_ARG (self->r_off),
            GST_CL_ARG (self->g_off), GST_CL_ARG (self->b_off),
            GST_CL_ARG (iwant), GST_CL_ARG (depth), GST_CL_ARG (shift),
            GST_CL_ARG (self->deep_totals), GST_CL_ARG_LOCAL (local_bytes),
            GST_CL_ARG (copies), GST_CL_ARGS_END))
      return FALSE;
  } else if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
          GST_CL_ARG (src->stride), GST_CL_ARG (src->units),
          GST_CL_ARG (src->height), GST_CL_ARG (src->step),
          GST_CL_ARG (self->r_off), GST_CL_ARG (self->g_off),
          GST_CL_ARG (self->b_off), GST_CL_ARG (iwant), GST_CL_ARG (depth),
          GST_CL_ARG (shift), GST_CL_ARG (self->deep_totals),
          GST_CL_ARG_LOCAL (local_bytes), GST_CL_ARG (copies),
          GST_CL_ARGS_END)) {
    return FALSE;
  }
  return gst_cl_frame_work_enqueue (work, k, &l, error);
}

/* Formats of more than 8 bits: counts of all 2^D levels of each counted
 * slot, packed (the counted slots only) in deep_totals, read back in one
 * piece: 4 KiB (P010 luma) to 1 MiB (RGBA64 all channels). */
static gboolean
count_deep (GstClHistogram * self, const GstClPlane * src, Pending * pf,
    GstClFrameWork * work, GError ** error)
{
  cl_command_queue queue = work->queue;
  cl_int iwant = pf->want, n_tables = __builtin_popcount (pf->want);
  gsize bytes = ((gsize) n_tables << src->depth) * sizeof (guint32);
  gboolean ok;
  cl_int st;

  g_return_val_if_fail (src->depth > 8 && src->depth <= MAX_DEPTH, FALSE);
  if (!ensure_buffer (self, &self->deep_totals, &self->deep_totals_size,
          bytes, NULL, "clCreateBuffer (histogram totals)", error))
    return FALSE;
  if (!src->is_image && gst_cl_frame_work_uses_strips (work))
    ok = count_deep_strips (self, src, iwant, n_tables, work,
        error);
  else
    ok = count_deep_tiles (self, src, iwant, n_tables, work,
        error);
  if (!ok)
    return FALSE;

  pf->depth = src->depth;
  pf->n_units = 1;
  pf->host = g_malloc (bytes);
  st = clEnqueueReadBuffer (queue, self->deep_totals, CL_FALSE, 0, bytes,
      pf->host, 0, NULL, &pf->read);
  if (st != CL_SUCCESS) {
    pf->read = NULL;
    return gst_cl_fail (error, st, "clEnqueueReadBuffer (histograms)");
  }
  /* the base class flushes the queue after the frame's marker; the reduce
   * zeroed the tables */
  self->deep_tables_dirty = FALSE;
  return TRUE;
}

static gboolean
count_frame (GstClHistogram * self, const GstClPlane * src, Pending * pf,
    GstClFrameWork * work, GError ** error)
{
  if (GST_CL_PLANE_IS_WIDE (src))
    return count_deep (self, src, pf, work, error);
  return count_bytes (self, src, pf, work, error);
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
  const guint levels = 1u << pf->depth;
  guint slot, unit, v;

  if (self->frames > 0 && (pf->want != self->want || pf->depth !=
          self->depth))
    post_interval (self);       /* the channels changed: a new interval */
  ensure_depth (self, pf->depth);
  self->want = pf->want;
  for (slot = 0; slot < N_SLOTS; slot++) {
    guint64 *c = self->counts + ((gsize) slot << pf->depth);
    if (!(pf->want & (1u << slot)))
      continue;
    unit = 0;
    if (self->frames == 0) {
      /* the interval's first frame sets the counts */
      for (v = 0; v < levels; v++)
        c[v] = p[v];
      unit = 1;
      p += levels;
    }
    for (; unit < (guint) pf->n_units; unit++, p += levels)
      for (v = 0; v < levels; v++)
        c[v] += p[v];
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
    pf->want = wanted_slots (self, channels);
    pf->depth = GST_CL_PLANE_IS_WIDE (src) ? src->depth : 8;
    if (pf->want)
      ok = count_frame (self, src, pf, work, error);
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
  pf->depth = GST_CL_PLANE_IS_WIDE (src) ? src->depth : 8;
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
  if (pf->want && !count_frame (self, src, pf, work, error)) {
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
   * work-item follow from the format and the device (count_bytes,
   * count_deep_tiles) */
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
