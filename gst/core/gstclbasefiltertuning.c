/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasefiltertuning.c: the base class's side of tuning=auto: the case
 * a filter's caps and settings make, scratch frames to measure it on, and
 * one frame of the element's own kernels per candidate, for the tuner
 * (gstcltuner.c, docs/tuning.md). */
#include "gstclbasefilter-private.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_filter_tuning_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_tuning_debug

static void
init_debug (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_base_filter_tuning_debug,
        "clbasefiltertuning", 0, "clfilters base class: tuning");
    g_once_init_leave (&done, 1);
  }
}

typedef struct
{
  GstClBaseFilter *self;
  GstClPlane src, dst;
} TuneFrame;

/* @frames frames of the element's kernels on the scratch frames, back to
 * back, then waited for: the fastest frame's time from its first kernel's
 * start to its last one's end, as profiling measures it. */
static gboolean
tune_run (const GstClDecomposition * tuning, guint frames, gdouble * ms,
    gpointer data, GError ** error)
{
  TuneFrame *tf = data;
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (tf->self);
  GstClBaseFilterPrivate *priv = gst_cl_base_filter_get_private (tf->self);
  GstClProfileFrame *prof = g_new0 (GstClProfileFrame, frames);
  gboolean ok = TRUE;
  guint i, n;

  priv->frame_tuning = *tuning;
  priv->tuning_run = TRUE;
  for (n = 0; n < frames && ok; n++) {
    GstClProfileFrame *f = &prof[n];
    ok = klass->process ? klass->process (tf->self, &tf->src, &tf->dst,
        f->kernels, &f->n_kernels, error) : klass->analyze (tf->self,
        &tf->src, NULL, f->kernels, &f->n_kernels, error);
  }
  priv->tuning_run = FALSE;
  ok = gst_cl_device_finish (priv->device, ok ? error : NULL) && ok;
  *ms = G_MAXDOUBLE;
  for (i = 0; i < n; i++) {
    GstClProfile sum;
    gst_cl_profile_reset (&sum);
    prof[i].running_time = GST_CLOCK_TIME_NONE;
    gst_cl_profile_add (&sum, &prof[i]);
    *ms = MIN (*ms, sum.kernel / 1e6);
  }
  g_free (prof);
  return ok;
}

/* The scratch picture, 8 bits a sample: a diagonal ramp that rises and
 * falls by one level every four pixels, offset per component, plus 3 bits
 * of noise. Neighbouring pixels share a level about as often as in
 * photographs (one pair in eight), which is what a histogram's speed
 * depends on: on uniform noise, where no level repeats and a CPU's 256 KiB
 * pair table is read at random, the tuner picked a decomposition 1.3x
 * slower on real pictures (docs/tuning.md, "What the tuner measures on").
 * The filters' kernels take the same time on any picture. Samples of more
 * than 8 bits get the level in their high bits and noise below, at the
 * format's shift (all such formats here are little-endian).
 *
 * Row y of a plane is its row 0 moved left by two pixels a row, so each
 * plane is one line of width + 2 * height pixels built sample by sample,
 * then copied row by row (8K RGBA in milliseconds, not the 0.4 s of a
 * loop over every sample). */
#define SCRATCH_NOISE 4096      /* a power of two */

static guint
scratch_level (guint k, guint c, const guint8 * noise)
{
  guint t = ((k + 96 * c) >> 2) & 511;
  gint v = (gint) (t < 256 ? t : 511 - t) +
      (gint) (noise[(k + 523 * c) & (SCRATCH_NOISE - 1)] & 7) - 4;
  return CLAMP (v, 0, 255);
}

static void
scratch_fill (guint8 * data, const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint8 noise[SCRATCH_NOISE];
  guint32 rng = 2463534242u;
  guint c, i, p, k, y;

  for (i = 0; i < SCRATCH_NOISE; i++) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    noise[i] = rng >> 24;
  }
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    guint width = 0, height = 0, n;
    gsize pstride = 0;
    guint8 *line;

    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p) {
        width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
        height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
        pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
      }
    if (!width || !height || !pstride)
      continue;
    n = width + 2 * (height - 1);
    line = g_malloc0 (n * pstride);
    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
      guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c);
      guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
      guint8 *s = line + GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);

      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
        continue;
      for (k = 0; k < n; k++, s += pstride) {
        guint v = scratch_level (k, c, noise);
        if (depth <= 8)
          *s = v;
        else
          GST_WRITE_UINT16_LE (s, ((v << (depth - 8)) |
                  (noise[(k * 7 + c) & (SCRATCH_NOISE - 1)] >> (16 -
                          depth))) << shift);
      }
    }
    for (y = 0; y < height; y++)
      memcpy (data + GST_VIDEO_INFO_PLANE_OFFSET (info, p) +
          (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (info, p),
          line + (gsize) 2 * (height - 1 - y) * pstride, width * pstride);
    g_free (line);
  }
}

/* Scratch frames of the caps, the input filled with scratch_fill(). */
static GstClMemory *
scratch_frame (GstClDevice * device, const GstVideoInfo * info,
    gboolean fill, GError ** error)
{
  GstClMemory *m = gst_cl_memory_new (device, info, error);
  GstClWaitList wl = { {0}, 0 };
  GstMapInfo map;

  if (!m || !fill)
    return m;
  if (!gst_memory_map (GST_MEMORY_CAST (m), &map, GST_MAP_WRITE)) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "could not map a scratch frame");
    gst_memory_unref (GST_MEMORY_CAST (m));
    return NULL;
  }
  /* padding and unused bytes (RGBx's x) defined too */
  memset (map.data, 0, map.size);
  scratch_fill (map.data, info);
  gst_memory_unmap (GST_MEMORY_CAST (m), &map);
  /* on devices that copy frames this uploads it */
  if (!gst_cl_memory_get_wait_list (m, GST_CL_QUEUE_COMPUTE, FALSE, &wl,
          error) || !gst_cl_device_finish (device, error)) {
    gst_cl_wait_list_clear (&wl);
    gst_memory_unref (GST_MEMORY_CAST (m));
    return NULL;
  }
  gst_cl_wait_list_clear (&wl);
  return m;
}

static gchar *
tuning_case (GstClBaseFilter * self, const GstVideoInfo * info)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  gchar *extra = klass->tuning_case ? klass->tuning_case (self) : NULL;
  gchar *key = g_strdup_printf ("%s%s%s %s %dx%d %s",
      G_OBJECT_TYPE_NAME (self), extra ? " " : "", extra ? extra : "",
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
      gst_cl_base_filter_get_private (self)->image ? "image" : "buffer");
  g_free (extra);
  return key;
}

/* The tuning of the case the caps and settings make: stored, or measured
 * now on scratch frames (at most GST_CL_TUNER_BUDGET_US, before the first
 * frame), or the defaults. Never fails: a tuning that cannot be measured
 * leaves the defaults, with a warning. */
void
gst_cl_base_filter_tune (GstClBaseFilter * self,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = gst_cl_base_filter_get_private (self);
  cl_command_queue q = gst_cl_base_filter_get_queue (self);
  GstClMemory *in = NULL, *out = NULL;
  GstClTunerReport report;
  GstClTuningMode mode;
  GstClTunerMode tuner_mode;
  GstClDecomposition fixed;
  TuneFrame tf = { self, };
  GError *err = NULL;

  init_debug ();
  memset (&priv->tuned, 0, sizeof (priv->tuned));
  g_clear_pointer (&priv->case_key, g_free);
  GST_OBJECT_LOCK (self);
  mode = priv->tuning_mode;
  fixed = priv->tuning;
  GST_OBJECT_UNLOCK (self);
  if (mode == GST_CL_TUNING_DEFAULTS || (guint64) GST_VIDEO_INFO_WIDTH
      (in_info) * GST_VIDEO_INFO_HEIGHT (in_info) < GST_CL_TUNER_MIN_PIXELS)
    return;
  if (!priv->source_sum)
    priv->source_sum = gst_cl_tuner_source_sum (klass->program_source);
  priv->case_key = tuning_case (self, in_info);
  tuner_mode = gst_cl_tuner_mode ();
  if (tuner_mode <= GST_CL_TUNER_OFF) {
    GstClTuneEntry entry;
    if (gst_cl_tuner_lookup (priv->device, priv->case_key, priv->source_sum,
            &entry)) {
      priv->tuned = entry.tuning;
      GST_DEBUG_OBJECT (self, "%s: stored tuning", priv->case_key);
      return;
    }
    if (tuner_mode == GST_CL_TUNER_OFF)
      return;
  }

  if (!(in = scratch_frame (priv->device, in_info, TRUE, &err))
      || (!klass->analyze && !(out = scratch_frame (priv->device, out_info,
                  FALSE, &err)))
      || !gst_cl_plane_store_view (&priv->in_store, q, in->buffer, in_info,
          TRUE, &tf.src, &err)
      || (out && !gst_cl_plane_store_view (&priv->out_store, q, out->buffer,
              out_info, FALSE, &tf.dst, &err))
      || !gst_cl_tuner_tune (priv->device, priv->case_key, priv->source_sum,
          &fixed, klass->tiles_fields, tuner_mode, tune_run, &tf, &report,
          &err)) {
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("Could not measure the kernels' tuning: using the defaults."),
        ("%s: %s", priv->case_key, err ? err->message : "?"));
    g_clear_error (&err);
  } else {
    priv->tuned = report.entry.tuning;
    GST_INFO_OBJECT (self, "%s: tuning %s (%.4f ms, defaults %.4f ms)",
        priv->case_key, report.measured ? "measured" : "stored",
        report.entry.tuned_ms, report.entry.default_ms);
    if (report.measured)
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_element (GST_OBJECT (self),
              gst_cl_tuner_report_to_structure (&report, priv->case_key)));
    gst_cl_tuner_report_clear (&report);
  }
  gst_cl_device_finish (priv->device, NULL);
  if (in)
    gst_memory_unref (GST_MEMORY_CAST (in));
  if (out)
    gst_memory_unref (GST_MEMORY_CAST (out));
}

/* A setting that chooses other kernels changed while playing: its stored
 * tuning if there is one (measuring would stall the stream), else the
 * defaults. */
void
gst_cl_base_filter_retune (GstClBaseFilter * self)
{
  GstClBaseFilterPrivate *priv = gst_cl_base_filter_get_private (self);
  GstClTuneEntry entry;
  gchar *key;

  init_debug ();
  if (!priv->case_key || !GST_CL_BASE_FILTER_GET_CLASS (self)->tuning_case)
    return;
  key = tuning_case (self, &GST_VIDEO_FILTER (self)->in_info);
  if (g_str_equal (key, priv->case_key)) {
    g_free (key);
    return;
  }
  memset (&priv->tuned, 0, sizeof (priv->tuned));
  if (gst_cl_tuner_lookup (priv->device, key, priv->source_sum, &entry))
    priv->tuned = entry.tuning;
  GST_DEBUG_OBJECT (self, "now %s: %s tuning", key,
      priv->tuned.shape ? "stored" : "default");
  g_free (priv->case_key);
  priv->case_key = key;
}

