/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclfiltertuning.c: a filter's side of tuning=auto: the tuning of the
 * case its caps and settings make, stored or measured on scratch frames
 * with one frame of the element's own kernels per candidate, for the
 * tuner (gstcltuner.c, docs/tuning.md). */
#include "gstclfiltertuning.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_filter_tuning_debug);
#define GST_CAT_DEFAULT gst_cl_filter_tuning_debug

static void
init_debug (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_filter_tuning_debug,
        "clfiltertuning", 0, "clfilters filters' tuning");
    g_once_init_leave (&done, 1);
  }
}

GType
gst_cl_tuning_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_TUNING_AUTO, "The work decomposition measured fastest on this "
          "device, measured once and kept on disk", "auto"},
    {GST_CL_TUNING_DEFAULTS, "The built-in choices, nothing measured or "
          "stored", "defaults"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClTuning", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ------------------------------------------------------------------------ */
/* The tuning properties                                                    */

enum
{
  SETTING_MODE,
  SETTING_KERNEL_SHAPE,
  SETTING_WORK_GROUP_SIZE,
  SETTING_ROWS_PER_ITEM,
  SETTING_PIXELS_PER_ITEM,
};

void
gst_cl_tuning_settings_init (GstClTuningSettings * settings)
{
  memset (settings, 0, sizeof (*settings));
  settings->mode = GST_CL_TUNING_AUTO;
  settings->fixed.shape = GST_CL_KERNEL_SHAPE_AUTO;
}

/**
 * gst_cl_tuning_settings_install:
 * @first_id: the property id of the first of GST_CL_TUNING_N_PROPERTIES
 *
 * Installs a filter's tuning properties on @klass.
 */
void
gst_cl_tuning_settings_install (GObjectClass * klass, guint first_id)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  /**
   * GstClBaseFilter:tuning:
   *
   * The work decomposition of the kernels: measured on the device the
   * first time a case (settings, format, size) needs it and kept on disk
   * under $XDG_CACHE_HOME/clfilters, or the built-in defaults. Explicit
   * tuning properties override it. Applies from the next caps.
   */
  g_object_class_install_property (klass, first_id + SETTING_MODE,
      g_param_spec_enum ("tuning", "Tuning",
          "Work decomposition of the kernels: auto = measured on this device "
          "once (before the first frame of a new size, at most 2 s) and kept "
          "on disk; defaults = the built-in choices. Explicit tuning "
          "properties override it; every choice gives the same output",
          GST_TYPE_CL_TUNING_MODE, GST_CL_TUNING_AUTO,
          rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (klass, first_id + SETTING_KERNEL_SHAPE,
      g_param_spec_enum ("kernel-shape", "Kernel shape",
          "Tuning: how work is split among work-items (every value gives the "
          "same output)", GST_TYPE_CL_KERNEL_SHAPE, GST_CL_KERNEL_SHAPE_AUTO,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (klass, first_id + SETTING_WORK_GROUP_SIZE,
      g_param_spec_uint ("work-group-size", "Work-group size",
          "Tuning: work-items per work-group (0 = automatic: 1 in strips; "
          "in tiles 64, 128 for the 3x3 kernels of 8-byte words and for "
          "clgaussian's radius band (four bytes each), 256 for "
          "clhistogram, 512 where it reads 16 bytes per item)", 0, 1024, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (klass, first_id + SETTING_ROWS_PER_ITEM,
      g_param_spec_uint ("rows-per-item", "Rows per work-item",
          "Tuning: rows each work-item filters (0 = automatic)", 0, 4096, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (klass, first_id + SETTING_PIXELS_PER_ITEM,
      g_param_spec_uint ("pixels-per-item", "Pixels per work-item",
          "Tuning: pixels of a row each work-item filters (0 = automatic: "
          "the whole row in strips, 16 bytes in tiles, 8 in the 3x3 kernels "
          "of 8-byte words and 4 in clgaussian's radius band, which a value "
          "set here turns off)", 0, 65536, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));
  gst_type_mark_as_plugin_api (GST_TYPE_CL_KERNEL_SHAPE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_TUNING_MODE, 0);
}

/* @id counts from the first tuning property; FALSE: not one of them */
gboolean
gst_cl_tuning_settings_set (GstClTuningSettings * settings, guint id,
    const GValue * value)
{
  switch (id) {
    case SETTING_MODE:
      settings->mode = g_value_get_enum (value);
      return TRUE;
    case SETTING_KERNEL_SHAPE:
      settings->fixed.shape = g_value_get_enum (value);
      return TRUE;
    case SETTING_WORK_GROUP_SIZE:
      settings->fixed.work_group_size = g_value_get_uint (value);
      return TRUE;
    case SETTING_ROWS_PER_ITEM:
      settings->fixed.rows_per_item = g_value_get_uint (value);
      return TRUE;
    case SETTING_PIXELS_PER_ITEM:
      settings->fixed.pixels_per_item = g_value_get_uint (value);
      return TRUE;
    default:
      return FALSE;
  }
}

gboolean
gst_cl_tuning_settings_get (const GstClTuningSettings * settings, guint id,
    GValue * value)
{
  switch (id) {
    case SETTING_MODE:
      g_value_set_enum (value, settings->mode);
      return TRUE;
    case SETTING_KERNEL_SHAPE:
      g_value_set_enum (value, settings->fixed.shape);
      return TRUE;
    case SETTING_WORK_GROUP_SIZE:
      g_value_set_uint (value, settings->fixed.work_group_size);
      return TRUE;
    case SETTING_ROWS_PER_ITEM:
      g_value_set_uint (value, settings->fixed.rows_per_item);
      return TRUE;
    case SETTING_PIXELS_PER_ITEM:
      g_value_set_uint (value, settings->fixed.pixels_per_item);
      return TRUE;
    default:
      return FALSE;
  }
}

/* ------------------------------------------------------------------------ */
/* Measuring                                                                */

typedef struct
{
  const GstClFilterTuningCase *c;
  GstClPlane src, dst;
  GstClFramePair frames;
} TuneFrame;

/* @frames frames of the element's kernels on the scratch frames, back to
 * back, then waited for: the fastest frame's time from its first kernel's
 * start to its last one's end, as profiling measures it. */
static gboolean
tune_run (const GstClDecomposition * tuning, guint frames, gdouble * ms,
    gpointer data, GError ** error)
{
  TuneFrame *tf = data;
  const GstClFilterTuningCase *c = tf->c;
  GstClProfileFrame *prof = g_new0 (GstClProfileFrame, frames);
  gboolean ok = TRUE;
  guint i, n;

  for (n = 0; n < frames && ok; n++) {
    GstClProfileFrame *f = &prof[n];
    GstClFrameWork work = { c->device, c->queue, *tuning, TRUE, f->kernels, };

    ok = c->run (c->filter, &work, c->in_store ? &tf->src : NULL,
        c->out_store ? &tf->dst : NULL, &tf->frames, NULL, error);
    f->n_kernels = work.n_events;
    g_clear_pointer (&work.last, clReleaseEvent);
  }
  ok = gst_cl_device_finish (c->device, ok ? error : NULL) && ok;
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
 * pair table is read at random, the tuner picked decompositions that were
 * slower on real pictures (docs/tuning.md).
 * The filters' kernels take the same time on any picture. Samples of more
 * than 8 bits get the level in their high bits and noise below, at the
 * format's shift (all such formats here are little-endian).
 *
 * Row y of a plane is its row 0 moved left by two pixels a row, so each
 * plane is one line of width + 2 * height pixels built sample by sample,
 * then copied row by row (a loop over every sample of an 8K frame would
 * delay the tuner's start). */
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
      guint poffset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
      guint8 *s;

      /* GStreamer 1.22 gives P010_10LE's and P016_LE's Cr an offset of 1,
       * NV12's, where its word starts at byte 2 */
      if (depth > 8 && (poffset & 1))
        poffset *= 2;
      s = line + poffset;

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

/* The tuning of @c: stored, or measured now on scratch frames (at most
 * GST_CL_TUNER_BUDGET_US, before the first frame), or the defaults (also
 * for small frames and tuning=defaults). Never fails: a tuning that
 * cannot be measured leaves the defaults, with a warning. */
/* The tuner's frames: scratch input and output frames of the case's caps,
 * and the views of their first planes that the element's kernels take. */
static gboolean
scratch_frames (const GstClFilterTuningCase * c, GstClMemory ** in,
    GstClMemory ** out, TuneFrame * tf, GError ** error)
{
  if (!(*in = scratch_frame (c->device, c->in_info, TRUE, error))
      || (c->has_output && !(*out = scratch_frame (c->device, c->out_info,
                  FALSE, error)))
      || (c->in_store && !gst_cl_plane_store_view (c->in_store, c->queue,
              (*in)->buffer, c->in_info, TRUE, &tf->src, error))
      || (*out && c->out_store && !gst_cl_plane_store_view (c->out_store,
              c->queue, (*out)->buffer, c->out_info, FALSE, &tf->dst, error)))
    return FALSE;
  tf->frames.in = (*in)->buffer;
  tf->frames.in_layout = c->in_info;
  tf->frames.out = *out ? (*out)->buffer : NULL;
  tf->frames.out_layout = *out ? c->out_info : NULL;
  return TRUE;
}

void
gst_cl_filter_tuning_tune (GstClFilterTuning * t,
    const GstClFilterTuningCase * c, gchar * case_key)
{
  GstClMemory *in = NULL, *out = NULL;
  GstClTunerReport report;
  GstClTunerMode tuner_mode;
  GstClTuningSettings settings;
  TuneFrame tf = { c, };
  GError *err = NULL;

  init_debug ();
  memset (&t->tuned, 0, sizeof (t->tuned));
  g_clear_pointer (&t->case_key, g_free);
  GST_OBJECT_LOCK (c->element);
  settings = t->settings;
  GST_OBJECT_UNLOCK (c->element);
  if (settings.mode == GST_CL_TUNING_DEFAULTS || (guint64) GST_VIDEO_INFO_WIDTH
      (c->in_info) * GST_VIDEO_INFO_HEIGHT (c->in_info) <
      GST_CL_TUNER_MIN_PIXELS) {
    g_free (case_key);
    return;
  }
  if (!t->source_sum)
    t->source_sum = gst_cl_tuner_source_sum (c->program_source);
  t->case_key = case_key;
  tuner_mode = gst_cl_tuner_mode ();
  if (tuner_mode <= GST_CL_TUNER_OFF) {
    GstClTuneEntry entry;
    if (gst_cl_tuner_lookup (c->device, t->case_key, t->source_sum, &entry)) {
      t->tuned = entry.tuning;
      GST_DEBUG_OBJECT (c->element, "%s: stored tuning", t->case_key);
      return;
    }
    if (tuner_mode == GST_CL_TUNER_OFF)
      return;
  }

  if (!scratch_frames (c, &in, &out, &tf, &err)
      || !gst_cl_tuner_tune (c->device, t->case_key, t->source_sum,
          &settings.fixed, c->strips_fields, c->tiles_fields, tuner_mode,
          tune_run, &tf, &report, &err)) {
    GST_ELEMENT_WARNING (c->element, RESOURCE, SETTINGS,
        ("Could not measure the kernels' tuning: using the defaults."),
        ("%s: %s", t->case_key, err ? err->message : "?"));
    g_clear_error (&err);
  } else {
    t->tuned = report.entry.tuning;
    GST_INFO_OBJECT (c->element, "%s: tuning %s (%.4f ms, defaults %.4f ms)",
        t->case_key, report.measured ? "measured" : "stored",
        report.entry.tuned_ms, report.entry.default_ms);
    if (report.measured)
      gst_element_post_message (c->element,
          gst_message_new_element (GST_OBJECT (c->element),
              gst_cl_tuner_report_to_structure (&report, t->case_key)));
    gst_cl_tuner_report_clear (&report);
  }
  gst_cl_device_finish (c->device, NULL);
  if (in)
    gst_memory_unref (GST_MEMORY_CAST (in));
  if (out)
    gst_memory_unref (GST_MEMORY_CAST (out));
}

/* A setting that chooses other kernels changed while playing: the stored
 * tuning of the new case if there is one (measuring would stall the
 * stream), else the defaults. Takes @case_key. */
void
gst_cl_filter_tuning_retune (GstClFilterTuning * t, GstObject * element,
    GstClDevice * device, gchar * case_key)
{
  GstClTuneEntry entry;

  init_debug ();
  if (!t->case_key || g_str_equal (case_key, t->case_key)) {
    g_free (case_key);
    return;
  }
  memset (&t->tuned, 0, sizeof (t->tuned));
  if (gst_cl_tuner_lookup (device, case_key, t->source_sum, &entry))
    t->tuned = entry.tuning;
  GST_DEBUG_OBJECT (element, "now %s: %s tuning", case_key,
      t->tuned.shape ? "stored" : "default");
  g_free (t->case_key);
  t->case_key = case_key;
}

void
gst_cl_filter_tuning_clear (GstClFilterTuning * t)
{
  g_clear_pointer (&t->case_key, g_free);
  g_clear_pointer (&t->source_sum, g_free);
}

/* The decomposition of the next frame: the explicit properties over the
 * case's tuning (tuning=auto), or the explicit properties alone. @owner is
 * the filter, whose object lock guards the settings. */
void
gst_cl_filter_tuning_for_frame (GstClFilterTuning * t, GstObject * owner,
    GstClDecomposition * decomposition)
{
  GST_OBJECT_LOCK (owner);
  if (t->settings.mode == GST_CL_TUNING_AUTO)
    gst_cl_tuning_merge (&t->settings.fixed, &t->tuned, decomposition);
  else
    *decomposition = t->settings.fixed;
  GST_OBJECT_UNLOCK (owner);
}

/* Whether frames will take the GPU shape (tiles) as `kernel-shape` stands,
 * before any frame. */
gboolean
gst_cl_filter_tuning_expects_tiles (GstClFilterTuning * t, GstObject * owner,
    GstClDevice * device)
{
  GstClDecomposition d;

  GST_OBJECT_LOCK (owner);
  d = t->settings.fixed;
  GST_OBJECT_UNLOCK (owner);
  return !gst_cl_tuning_uses_strips (&d, device);
}

/* The work-group size frames will ask for, as far as it is known before
 * they come: the explicit `work-group-size` over a stored tuning. */
guint
gst_cl_filter_tuning_expected_group (GstClFilterTuning * t, GstObject * owner,
    GstClDevice * device)
{
  GstClDecomposition d;

  GST_OBJECT_LOCK (owner);
  gst_cl_tuning_merge (&t->settings.fixed, &t->tuned, &d);
  GST_OBJECT_UNLOCK (owner);
  return MIN (d.work_group_size, device->max_work_group_size);
}
