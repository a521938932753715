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

/* One frame of the element's kernels on the scratch frames, waited for:
 * the time from the first kernel's start to the last one's end, as
 * profiling measures it. */
static gboolean
tune_run (const GstClDecomposition * tuning, gdouble * ms, gpointer data,
    GError ** error)
{
  TuneFrame *tf = data;
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (tf->self);
  GstClBaseFilterPrivate *priv = gst_cl_base_filter_get_private (tf->self);
  GstClProfileFrame prof = { 0, };
  GstClProfile sum;
  gboolean ok;

  priv->frame_tuning = *tuning;
  priv->tuning_run = TRUE;
  ok = klass->process ? klass->process (tf->self, &tf->src, &tf->dst,
      prof.kernels, &prof.n_kernels, error) : klass->analyze (tf->self,
      &tf->src, NULL, prof.kernels, &prof.n_kernels, error);
  priv->tuning_run = FALSE;
  ok = gst_cl_device_finish (priv->device, ok ? error : NULL) && ok;
  gst_cl_profile_reset (&sum);
  prof.running_time = GST_CLOCK_TIME_NONE;
  gst_cl_profile_add (&sum, &prof);
  *ms = sum.kernel / 1e6;
  return ok;
}

/* Scratch frames of the caps, the input filled with noise. */
static GstClMemory *
scratch_frame (GstClDevice * device, const GstVideoInfo * info,
    gboolean fill, GError ** error)
{
  GstClMemory *m = gst_cl_memory_new (device, info, error);
  GstClWaitList wl = { {0}, 0 };
  GstMapInfo map;
  guint32 x = 2463534242u, *p;
  gsize i;

  if (!m || !fill)
    return m;
  if (!gst_memory_map (GST_MEMORY_CAST (m), &map, GST_MAP_WRITE)) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "could not map a scratch frame");
    gst_memory_unref (GST_MEMORY_CAST (m));
    return NULL;
  }
  for (i = 0, p = (guint32 *) map.data; i < map.size / 4; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    p[i] = x;
  }
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
  cl_command_queue q = gst_cl_device_get_queue (priv->device,
      GST_CL_QUEUE_COMPUTE);
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

