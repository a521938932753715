/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltuner.c: measuring kernel work decompositions on a device and
 * keeping the fastest. See gstcltuner.h and docs/tuning.md.
 *
 * The search starts with a coordinate descent from the defaults, within
 * the device's shape (strips on CPUs, tiles elsewhere, or kernel-shape):
 * each free property in turn over its values, twice; then, while GST_CL_TUNER_BUDGET_US allows (it does for
 * most cases: a few hundred kernel runs), every other candidate of the
 * chosen shape's grid, so that combinations the descent cannot reach one
 * property at a time are measured too. Kernel times come from the
 * profiling events (the device's queues always profile), the minimum of a
 * few runs after one warm-up run (which also pays for any compilation the
 * driver does for a new work-group size). A choice replaces the defaults
 * only when a final alternated measurement confirms it is faster by more
 * than the noise. */
#include "config.h"
#include "gstcltuner.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_tuner_debug);
#define GST_CAT_DEFAULT gst_cl_tuner_debug

/* timed frames per candidate after the warm-up: enough for about
 * TARGET_MS of kernel time, within [MIN_REPS, MAX_REPS] (timings on a busy
 * CPU jump between levels, and short GPU kernels vary from run to run:
 * the minimum of many finds the quiet level). They run
 * back to back and are waited for once, so a candidate costs one wait, not
 * one a frame. The minimum of 48 frames of a kernel of a few microseconds
 * still moves by several percent from one measurement to the next
 * (docs/tuning.md). */
#define MIN_REPS 5
#define MAX_REPS 48
#define TARGET_MS 1.0
/* a candidate whose warm-up run takes this many times the best so far is
 * not timed further */
#define HOPELESS 4.0
/* the defaults are replaced only by a candidate this much faster */
#define NOISE 0.97
/* the median of three */
#define MED3(x) (MAX (MIN (x[0], x[1]), MIN (MAX (x[0], x[1]), x[2])))

/* the values tried for each property, per shape (0: the default) */
enum
{ GROUP, ROWS, PIXELS, N_FIELDS };
static const guint strip_values[N_FIELDS][9] = {
  {0},
  {0, 1, 2, 4, 8, 16, 32, 64},
  {0, 256, 1024, 4096},
};
static const guint tile_values[N_FIELDS][9] = {
  {0, 32, 64, 128, 256, 512, 1024},
  {0, 1, 2, 4, 8, 16},
  {0, 8, 16, 32},
};

static void
init_debug (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_tuner_debug, "cltuner", 0,
        "clfilters kernel tuning");
    g_once_init_leave (&done, 1);
  }
}

/**
 * gst_cl_tuner_mode:
 *
 * The mode GST_CL_TUNE asks for: "off", "force" or "sweep", otherwise
 * auto.
 */
GstClTunerMode
gst_cl_tuner_mode (void)
{
  const gchar *env = g_getenv ("GST_CL_TUNE");
  if (g_strcmp0 (env, "sweep") == 0)
    return GST_CL_TUNER_SWEEP;
  if (g_strcmp0 (env, "force") == 0)
    return GST_CL_TUNER_FORCE;
  if (g_strcmp0 (env, "off") == 0)
    return GST_CL_TUNER_OFF;
  return GST_CL_TUNER_AUTO;
}

/**
 * gst_cl_tuner_source_sum:
 *
 * The checksum that keys stored choices to the kernels they were measured
 * on: the program's source, the common source, the plugin version (the
 * host side decides what each property means) and GST_CL_TUNER_REVISION
 * (what the measurements ran on).
 *
 * Returns: (transfer full): a hex string
 */
gchar *
gst_cl_tuner_source_sum (const gchar * program_source)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gchar *hex;

  g_checksum_update (sum, (const guchar *) VERSION, -1);
  g_checksum_update (sum, (const guchar *) GST_CL_TUNER_REVISION, -1);
  g_checksum_update (sum, (const guchar *) program_source, -1);
  hex = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return hex;
}

/* One store per directory and device identity, for the process's
 * lifetime: what other processes store meanwhile is seen by the next
 * process (a save re-reads the file, so nothing of theirs is lost). */
static GstClTuneStore *
device_store (GstClDevice * device)
{
  static GMutex lock;
  static GHashTable *stores;
  GstClTuneStoreId id;
  GstClTuneStore *store;
  gchar platform_version[256] = "";
  gchar *key, *dir;

  clGetPlatformInfo (device->platform_id, CL_PLATFORM_VERSION,
      sizeof (platform_version) - 1, platform_version, NULL);
  id.device_name = device->name;
  id.device_version = device->version;
  id.driver_version = device->driver_version;
  id.platform_name = device->platform_name;
  id.platform_version = platform_version;
  dir = gst_cl_tune_store_dir ();
  key = g_strjoin ("\n", dir, id.device_name, id.device_version,
      id.driver_version, id.platform_name, id.platform_version, NULL);
  g_free (dir);

  g_mutex_lock (&lock);
  if (!stores)
    stores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  store = g_hash_table_lookup (stores, key);
  if (!store) {
    store = gst_cl_tune_store_open (&id);
    g_hash_table_insert (stores, key, store);
    key = NULL;
  }
  g_mutex_unlock (&lock);
  g_free (key);
  return store;
}

/**
 * gst_cl_tuner_lookup:
 *
 * Returns: whether @device's store has a choice for @case_key measured on
 * the kernels of @source_sum
 */
gboolean
gst_cl_tuner_lookup (GstClDevice * device, const gchar * case_key,
    const gchar * source_sum, GstClTuneEntry * entry)
{
  init_debug ();
  return gst_cl_tune_store_lookup (device_store (device), case_key,
      source_sum, entry);
}

/**
 * gst_cl_tuning_merge:
 *
 * @out gets the fields of @fixed that are set (explicit properties), and
 * the others from @tuned.
 */
void
gst_cl_tuning_merge (const GstClDecomposition * fixed, const GstClDecomposition * tuned,
    GstClDecomposition * out)
{
  GstClDecomposition r = *tuned;
  if (fixed->shape != GST_CL_KERNEL_SHAPE_AUTO)
    r.shape = fixed->shape;
  if (fixed->work_group_size)
    r.work_group_size = fixed->work_group_size;
  if (fixed->rows_per_item)
    r.rows_per_item = fixed->rows_per_item;
  if (fixed->pixels_per_item)
    r.pixels_per_item = fixed->pixels_per_item;
  *out = r;
}

/* ------------------------------------------------------------------------ */
/* Search                                                                   */

typedef struct
{
  GstClDevice *device;
  GstClDecomposition fixed;
  GstClTuneFields strips_fields, tiles_fields;
  GstClTunerRun run;
  gpointer user_data;
  gint64 start, deadline;
  gint64 slowest_us;            /* the longest a candidate took, builds
                                 * included */
  GHashTable *tried;            /* "strips|tiles g r p" -> ms (boxed) */
  guint measured;
  guint reps;                   /* timed runs per candidate */
} Search;

static guint *
field (GstClDecomposition * t, guint f)
{
  return f == GROUP ? &t->work_group_size : f == ROWS ? &t->rows_per_item :
      &t->pixels_per_item;
}

static gboolean
field_free (const Search * s, guint f)
{
  GstClDecomposition fixed = s->fixed;
  return *field (&fixed, f) == 0;
}

/* Whether the search varies field @f in the shape of @strips: not set
 * explicitly, and read by that shape's kernels. */
static gboolean
field_searched (const Search * s, gboolean strips, guint f)
{
  return field_free (s, f) &&
      ((strips ? s->strips_fields : s->tiles_fields) & (1u << f));
}

static gchar *
describe (Search * s, const GstClDecomposition * t)
{
  return g_strdup_printf ("%s g%u r%u p%u",
      gst_cl_tuning_uses_strips (t, s->device) ? "strips" : "tiles",
      t->work_group_size, t->rows_per_item, t->pixels_per_item);
}

/* Whether @a and @b cut the work the same way. */
static gboolean
same (Search * s, const GstClDecomposition * a, const GstClDecomposition * b)
{
  gchar *x = describe (s, a), *y = describe (s, b);
  gboolean eq = g_str_equal (x, y);
  g_free (x);
  g_free (y);
  return eq;
}

/* The kernels' time with @t (merged with the explicit properties): the
 * minimum of @reps runs after a warm-up, or the warm-up alone when it is
 * hopeless against @best_ms. Negative when the candidate cannot run (a
 * work-group too large for a kernel): it is skipped. */
static gboolean
measure (Search * s, const GstClDecomposition * t, gdouble best_ms, guint reps,
    gdouble * ms, GError ** error)
{
  GstClDecomposition m;
  GError *err = NULL;
  gchar *name;
  gdouble *cached, best;
  gint64 t0;

  gst_cl_tuning_merge (&s->fixed, t, &m);
  name = describe (s, &m);
  if ((cached = g_hash_table_lookup (s->tried, name))) {
    *ms = *cached;
    g_free (name);
    return TRUE;
  }
  s->measured++;
  t0 = g_get_monotonic_time ();
  if (!s->run (&m, 1, &best, s->user_data, &err)) {
    GST_INFO ("candidate %s cannot run: %s", name, err->message);
    g_clear_error (&err);
    best = -1;
  } else if (best_ms <= 0 || best < HOPELESS * best_ms) {
    if (!s->run (&m, reps, &best, s->user_data, error)) {
      g_free (name);
      return FALSE;
    }
  }
  s->slowest_us = MAX (s->slowest_us, g_get_monotonic_time () - t0);
  GST_DEBUG ("candidate %s: %.4f ms", name, best);
  g_hash_table_insert (s->tried, name, g_memdup2 (&best, sizeof (best)));
  *ms = best;
  return TRUE;
}

/* What the search leaves of the budget when it starts a candidate: the
 * time of the candidate itself and of the confirmation (3 alternated
 * measurements of the choice and of the defaults), each a warm-up and
 * s->reps frames of about @default_ms, and half as much again for the
 * noise. A fixed quarter of the budget was not enough where a frame takes
 * long (a slow CPU's radius-7 4K frames overran the budget). */
static gint64
search_reserve_us (const Search * s, gdouble default_ms)
{
  return (gint64) (1.5 * 7 * (s->reps + 1) * default_ms * 1000);
}

/* whether the next candidate would end past the deadline, if it takes as
 * long as the slowest so far: a candidate that builds a kernel (the band
 * kernel of clgaussian, per work-group size) takes longer than its frames,
 * which the reserve counts (NVIDIA, radius 7 in dot products: a search
 * stopped at the deadline alone overran the budget) */
static gboolean
over_budget (const Search * s)
{
  return g_get_monotonic_time () + s->slowest_us > s->deadline;
}

/* Coordinate descent from @best within its shape; @best and @best_ms
 * in/out. */
static gboolean
descend (Search * s, GstClDecomposition * best, gdouble * best_ms,
    GError ** error)
{
  gboolean strips, changed = TRUE;
  guint pass, f, i;
  gdouble ms;

  strips = gst_cl_tuning_uses_strips (best, s->device);
  for (pass = 0; pass < 2 && changed; pass++) {
    changed = FALSE;
    for (f = 0; f < N_FIELDS; f++) {
      const guint *values = strips ? strip_values[f] : tile_values[f];
      if (!field_searched (s, strips, f))
        continue;
      for (i = 0; i < 9 && (i == 0 || values[i]); i++) {
        GstClDecomposition c = *best;
        if (over_budget (s))
          return TRUE;
        *field (&c, f) = values[i];
        if (!measure (s, &c, *best_ms, s->reps, &ms, error))
          return FALSE;
        if (ms > 0 && ms < *best_ms) {
          *best = c;
          *best_ms = ms;
          changed = TRUE;
        }
      }
    }
  }
  return TRUE;
}

/* The rest of the grid of @best's shape, until the budget ends. */
static gboolean
grid (Search * s, GstClDecomposition * best, gdouble * best_ms,
    GError ** error)
{
  gboolean strips = gst_cl_tuning_uses_strips (best, s->device);
  const guint (*v)[9] = strips ? strip_values : tile_values;
  GstClDecomposition c = *best;
  guint g, r, p;
  gdouble ms;

  c.shape = strips ? GST_CL_KERNEL_SHAPE_STRIPS : GST_CL_KERNEL_SHAPE_TILES;
  for (g = 0; g < 9 && (g == 0 || v[GROUP][g]); g++)
    for (r = 0; r < 9 && (r == 0 || v[ROWS][r]); r++)
      for (p = 0; p < 9 && (p == 0 || v[PIXELS][p]); p++) {
        if ((g && !field_searched (s, strips, GROUP)) ||
            (r && !field_searched (s, strips, ROWS)) ||
            (p && !field_searched (s, strips, PIXELS)))
          continue;
        if (over_budget (s))
          return TRUE;
        c.work_group_size = v[GROUP][g];
        c.rows_per_item = v[ROWS][r];
        c.pixels_per_item = v[PIXELS][p];
        if (!measure (s, &c, *best_ms, s->reps, &ms, error))
          return FALSE;
        if (ms > 0 && ms < *best_ms) {
          *best = c;
          *best_ms = ms;
        }
      }
  return TRUE;
}

/* Alternated measurements of the choice and the defaults, three each: the
 * choice stays only if the median is faster by more than the noise. */
static gboolean
confirm (Search * s, GstClDecomposition * best, gdouble * best_ms,
    const GstClDecomposition * defaults, gdouble * default_ms, GError ** error)
{
  gdouble a[3], b[3], t;
  guint i;

  for (i = 0; i < 3; i++) {
    /* afresh: not the search's figures */
    g_hash_table_remove_all (s->tried);
    if (!measure (s, best, -1, s->reps, &a[i], error)
        || !measure (s, defaults, -1, s->reps, &b[i], error))
      return FALSE;
  }
  *best_ms = MED3 (a);
  *default_ms = MED3 (b);
  if (!(*best_ms < NOISE * *default_ms)) {
    t = *default_ms;
    *best = *defaults;
    *best_ms = t;
  }
  return TRUE;
}

/* Every candidate of the grid, for the report; then the sweep's best and
 * @chosen against each other, alternated: the minimum of a sweep is biased
 * low by the noise, so the head-to-head says how close @chosen is. */
static gboolean
sweep (Search * s, GPtrArray * out, const GstClDecomposition * chosen,
    GstClTunerReport * report, GError ** error)
{
  GstClDecomposition best = *chosen;
  gdouble best_ms = -1, a[3], b[3];
  guint sh, g, r, p, i;

  for (sh = 0; sh < 2; sh++) {
    GstClKernelShape shape = sh ? GST_CL_KERNEL_SHAPE_TILES :
        GST_CL_KERNEL_SHAPE_STRIPS;
    const guint (*v)[9] = sh ? tile_values : strip_values;
    if (s->fixed.shape != GST_CL_KERNEL_SHAPE_AUTO && s->fixed.shape != shape)
      continue;
    for (g = 0; g < 9 && (g == 0 || v[GROUP][g]); g++)
      for (r = 0; r < 9 && (r == 0 || v[ROWS][r]); r++)
        for (p = 0; p < 9 && (p == 0 || v[PIXELS][p]); p++) {
          GstClDecomposition c = { shape, v[GROUP][g], v[ROWS][r], v[PIXELS][p] };
          gdouble ms;
          if ((c.work_group_size && !field_searched (s, !sh, GROUP)) ||
              (c.rows_per_item && !field_searched (s, !sh, ROWS)) ||
              (c.pixels_per_item && !field_searched (s, !sh, PIXELS)))
            continue;
          /* measured afresh: the search's figures are for the search */
          g_hash_table_remove_all (s->tried);
          if (!measure (s, &c, -1, s->reps, &ms, error))
            return FALSE;
          if (ms > 0 && (best_ms < 0 || ms < best_ms)) {
            best = c;
            best_ms = ms;
          }
          g_ptr_array_add (out, gst_structure_new ("candidate",
                  "kernel-shape", G_TYPE_STRING, sh ? "tiles" : "strips",
                  "work-group-size", G_TYPE_UINT, c.work_group_size,
                  "rows-per-item", G_TYPE_UINT, c.rows_per_item,
                  "pixels-per-item", G_TYPE_UINT, c.pixels_per_item,
                  "ms", G_TYPE_DOUBLE, ms, NULL));
        }
  }
  for (i = 0; i < 3; i++) {
    g_hash_table_remove_all (s->tried);
    if (!measure (s, chosen, -1, s->reps, &a[i], error)
        || !measure (s, &best, -1, s->reps, &b[i], error))
      return FALSE;
  }
  report->recheck_chosen_ms = MED3 (a);
  report->recheck_best_ms = MED3 (b);
  return TRUE;
}

/* The search from the defaults: @s set up; *@best the tuning found, with
 * its time and the defaults' */
static gboolean
search (Search * s, const GstClDecomposition * fixed,
    GstClDecomposition * best, gdouble * best_ms, gdouble * default_ms,
    GError ** error)
{
  GstClDecomposition defaults = { 0, };
  GError *err = NULL;

  /* One run of the defaults before the clock starts: POCL compiles a
   * kernel on its first launch, which the first frame pays with or without
   * tuning; counted in the budget, it left no time to search. With the
   * explicit properties, as measure() runs it. */
  gst_cl_tuning_merge (fixed, &defaults, best);
  if (!s->run (best, 1, default_ms, s->user_data, &err)) {
    GST_INFO ("the defaults' first run failed: %s", err->message);
    g_clear_error (&err);
  }
  s->start = g_get_monotonic_time ();
  s->deadline = s->start + GST_CL_TUNER_BUDGET_US;
  s->reps = MIN_REPS;
  if (!measure (s, &defaults, -1, s->reps, default_ms, error))
    return FALSE;
  if (*default_ms < 0) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "the default tuning cannot run");
    return FALSE;
  }
  if (*default_ms > 0)
    s->reps = CLAMP ((guint) (TARGET_MS / *default_ms), MIN_REPS, MAX_REPS);
  s->deadline -= search_reserve_us (s, *default_ms);
  *best = defaults;
  *best_ms = *default_ms;
  if (!descend (s, best, best_ms, error) || !grid (s, best, best_ms, error))
    return FALSE;
  /* The other shape is not searched: tiles on CPUs and strips on GPUs lost
   * by large factors on every device measured (docs/tuning.md, "Why the
   * defaults are what they are"), and POCL compiles tiles anew for each
   * work-group size: the budget would go to a compiler. kernel-shape
   * set on the element searches that shape instead. Nothing to confirm
   * when the defaults stayed best. */
  if (same (s, best, &defaults)) {
    *best = defaults;
    *best_ms = *default_ms;
    return TRUE;
  }
  return confirm (s, best, best_ms, &defaults, default_ms, error);
}

/**
 * gst_cl_tuner_tune:
 * @fixed: the explicit tuning properties (not searched)
 * @strips_fields: the fields the strips kernels of the case read
 * @tiles_fields: the fields its tiles kernels read
 * @report: (out caller-allocates): the outcome; clear it with
 *   gst_cl_tuner_report_clear()
 *
 * Measures the tuning of @case_key through @run and stores it in
 * @device's store; with GST_CL_TUNER_SWEEP also every candidate. Callers
 * look for a stored one first (gst_cl_tuner_lookup()), before they make
 * the scratch frames @run needs.
 */
gboolean
gst_cl_tuner_tune (GstClDevice * device, const gchar * case_key,
    const gchar * source_sum, const GstClDecomposition * fixed,
    GstClTuneFields strips_fields, GstClTuneFields tiles_fields,
    GstClTunerMode mode, GstClTunerRun run,
    gpointer user_data, GstClTunerReport * report, GError ** error)
{
  GstClDecomposition best;
  gdouble best_ms, default_ms;
  GError *err = NULL;
  Search s = { 0, };
  gboolean ok = FALSE;

  init_debug ();
  memset (report, 0, sizeof (*report));
  s.device = device;
  s.fixed = *fixed;
  s.strips_fields = strips_fields;
  s.tiles_fields = tiles_fields;
  s.run = run;
  s.user_data = user_data;
  s.tried = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!search (&s, fixed, &best, &best_ms, &default_ms, error))
    goto done;
  /* stored with its shape resolved, so that the report names it */
  if (best.shape == GST_CL_KERNEL_SHAPE_AUTO)
    best.shape = gst_cl_tuning_uses_strips (&best, device) ?
        GST_CL_KERNEL_SHAPE_STRIPS : GST_CL_KERNEL_SHAPE_TILES;
  report->entry.tuning = best;
  report->entry.tuned_ms = best_ms;
  report->entry.default_ms = default_ms;
  report->measured = TRUE;
  report->candidates = s.measured;
  report->elapsed_ms = (g_get_monotonic_time () - s.start) / 1000.0;
  GST_INFO ("%s: %u candidates in %.0f ms, %.4f ms against %.4f ms with the "
      "defaults", case_key, s.measured, report->elapsed_ms, best_ms,
      default_ms);
  if (!gst_cl_tune_store_save (device_store (device), case_key, source_sum,
          &report->entry, &err)) {
    /* the choice is used anyway; it will be measured again next time */
    GST_WARNING ("could not store the tuning of %s: %s", case_key,
        err->message);
    g_clear_error (&err);
  }
  if (mode == GST_CL_TUNER_SWEEP) {
    report->sweep = g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_structure_free);
    if (!sweep (&s, report->sweep, &best, report, error))
      goto done;
  }
  ok = TRUE;

done:
  g_hash_table_unref (s.tried);
  if (!ok)
    gst_cl_tuner_report_clear (report);
  return ok;
}

void
gst_cl_tuner_report_clear (GstClTunerReport * report)
{
  g_clear_pointer (&report->sweep, g_ptr_array_unref);
}

/**
 * gst_cl_tuner_report_to_structure:
 *
 * The "clfilters-tuning" element message of a measured case
 * (docs/tuning.md).
 */
GstStructure *
gst_cl_tuner_report_to_structure (const GstClTunerReport * report,
    const gchar * case_key)
{
  const GstClDecomposition *t = &report->entry.tuning;
  GstStructure *s = gst_structure_new ("clfilters-tuning",
      "case", G_TYPE_STRING, case_key,
      "measured", G_TYPE_BOOLEAN, report->measured,
      "kernel-shape", G_TYPE_STRING,
      t->shape == GST_CL_KERNEL_SHAPE_STRIPS ? "strips" :
      t->shape == GST_CL_KERNEL_SHAPE_TILES ? "tiles" : "auto",
      "work-group-size", G_TYPE_UINT, t->work_group_size,
      "rows-per-item", G_TYPE_UINT, t->rows_per_item,
      "pixels-per-item", G_TYPE_UINT, t->pixels_per_item,
      "tuned-ms", G_TYPE_DOUBLE, report->entry.tuned_ms,
      "default-ms", G_TYPE_DOUBLE, report->entry.default_ms,
      "candidates", G_TYPE_UINT, report->candidates,
      "elapsed-ms", G_TYPE_DOUBLE, report->elapsed_ms, NULL);
  guint i;

  if (report->sweep) {
    GValue arr = G_VALUE_INIT, v = G_VALUE_INIT;
    gst_value_array_init (&arr, report->sweep->len);
    for (i = 0; i < report->sweep->len; i++) {
      g_value_init (&v, GST_TYPE_STRUCTURE);
      gst_value_set_structure (&v, report->sweep->pdata[i]);
      gst_value_array_append_and_take_value (&arr, &v);
      memset (&v, 0, sizeof (v));
    }
    gst_structure_take_value (s, "sweep", &arr);
    gst_structure_set (s, "recheck-chosen-ms", G_TYPE_DOUBLE,
        report->recheck_chosen_ms, "recheck-best-ms", G_TYPE_DOUBLE,
        report->recheck_best_ms, NULL);
  }
  return s;
}
