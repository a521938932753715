/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clhistogram's statistics without a device (gstclhistogramstats.c):
 * counts of every level, made up here, against plain computations over the
 * samples they stand for (sorted for the percentiles, summed in doubles
 * for the moments, binned one sample at a time). */
#include <gst/check/gstcheck.h>
#include <math.h>

#include "elements/gstclhistogramstats.h"

/* a small deterministic generator, so failures reproduce */
static guint32
next_rand (guint32 * state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

/* the samples that @c stands for, in increasing order */
static guint *
expand (const guint64 * c, guint levels, guint64 n)
{
  guint *samples = g_new (guint, MAX (n, 1));
  guint64 i = 0, k;
  guint v;

  for (v = 0; v < levels; v++)
    for (k = 0; k < c[v]; k++)
      samples[i++] = v;
  fail_unless (i == n);
  return samples;
}

/* the smallest sample whose rank (from 1) is at least pct % of n; 0 when
 * pct % of n is 0, as the element documents */
static guint
ref_percentile (const guint * samples, guint64 n, gdouble pct)
{
  guint64 i;

  if (pct * n <= 0)
    return 0;
  for (i = 0; i < n; i++)
    if ((i + 1) * 100.0 >= pct * n)
      return samples[i];
  return samples[n - 1];
}

static void
check_close (gdouble got, gdouble want, const gchar * what)
{
  fail_unless (fabs (got - want) <= 1e-9 * MAX (1.0, fabs (want)),
      "%s: %.17g, expected %.17g", what, got, want);
}

/* counts of 2^@depth levels: @n samples over @spread levels from @first,
 * or none */
static guint64 *
make_counts (guint depth, guint first, guint spread, guint64 n, guint32 seed)
{
  guint64 *c = g_new0 (guint64, 1u << depth), i;
  guint32 state = seed * 2654435761u + 1;

  for (i = 0; i < n; i++)
    c[first + next_rand (&state) % spread]++;
  return c;
}

typedef struct
{
  guint depth, first, spread;
  guint64 n;
} CountsCase;

static const CountsCase counts_cases[] = {
  {8, 0, 256, 100000}, {8, 17, 3, 1000}, {8, 255, 1, 5}, {8, 0, 1, 1},
  {8, 40, 200, 0}, {10, 100, 800, 50000}, {12, 4000, 90, 7777},
  {16, 0, 65536, 100000}, {16, 30000, 2000, 4321}, {16, 65535, 1, 3},
};

static const gdouble percentile_pairs[][2] = {
  {1, 99}, {0, 100}, {0.5, 50}, {25, 75}, {33.3, 99.99},
};

/* every statistic of one slot */
GST_START_TEST (test_slot_stats)
{
  const CountsCase *k = &counts_cases[__i__];
  guint levels = 1u << k->depth, p;
  guint64 *c = make_counts (k->depth, k->first, k->spread, k->n, __i__);
  gdouble *logs = gst_cl_histogram_log_table (k->depth);
  guint *samples = expand (c, levels, k->n);
  gdouble mean = 0, var = 0, logsum = 0;
  guint64 i;

  for (i = 0; i < k->n; i++) {
    mean += samples[i];
    logsum += log (0.001 + samples[i] / (gdouble) (levels - 1));
  }
  mean = k->n ? mean / k->n : 0;
  for (i = 0; i < k->n; i++)
    var += (samples[i] - mean) * (samples[i] - mean);
  for (p = 0; p < G_N_ELEMENTS (percentile_pairs); p++) {
    const gdouble *pct = percentile_pairs[p];
    GstClHistogramSlotStats st;

    gst_cl_histogram_slot_stats (c, k->depth, logs, k->n, pct[0], pct[1],
        &st);
    fail_unless_equals_int (st.min, k->n ? samples[0] : 0);
    fail_unless_equals_int (st.max, k->n ? samples[k->n - 1] : 0);
    fail_unless_equals_int (st.median, k->n ?
        ref_percentile (samples, k->n, 50) : 0);
    fail_unless_equals_int (st.low, k->n ?
        ref_percentile (samples, k->n, pct[0]) : 0);
    fail_unless_equals_int (st.high, k->n ?
        ref_percentile (samples, k->n, pct[1]) : 0);
    check_close (st.mean, mean, "mean");
    check_close (st.variance, k->n ? var / k->n : 0, "variance");
    check_close (st.log_average, k->n ? exp (logsum / k->n) : 0,
        "log-average");
  }
  g_free (samples);
  g_free (logs);
  g_free (c);
}

GST_END_TEST;

/* the array field @name of @s, value @i: the GValue */
static const GValue *
field_value (const GstStructure * s, const gchar * name, guint i)
{
  const GValue *array = gst_structure_get_value (s, name);

  fail_unless (array != NULL, "no field %s", name);
  fail_unless (i < gst_value_array_get_size (array));
  return gst_value_array_get_value (array, i);
}

/* the message of an interval: the counted slots in order, their
 * histograms binned sample by sample, the interval's fields */
GST_START_TEST (test_interval_structure)
{
  const guint depth = __i__ ? 10 : 8, levels = 1u << depth;
  const guint bins_list[] = { 1, 7, 256, 4096 };
  const gchar *names[] = { "luma", "red", "green", "blue" };
  guint64 *counts = g_new0 (guint64, (gsize) 4 << depth);
  gdouble *logs = gst_cl_histogram_log_table (depth);
  GstClHistogramInterval iv = { depth, counts, logs, 0xA, 3, 5000,
    10 * GST_SECOND, 20 * GST_SECOND, 30 * GST_SECOND, 11 * GST_SECOND
  };
  guint b, slot;

  for (slot = 0; slot < 4; slot++) {
    guint64 *c = make_counts (depth, slot * 13, levels - slot * 13, 5000,
        slot + 10 * __i__);
    memcpy (counts + ((gsize) slot << depth), c, levels * sizeof (guint64));
    g_free (c);
  }
  for (b = 0; b < G_N_ELEMENTS (bins_list); b++) {
    const guint bins = bins_list[b];
    GstStructure *s = gst_cl_histogram_interval_structure (&iv, bins, 1, 99);
    guint64 u;
    guint k = 0, i, v, d;

    fail_unless (gst_structure_has_name (s, "clhistogram"));
    fail_unless (gst_structure_get_uint (s, "depth", &d) && d == depth);
    fail_unless (gst_structure_get_uint64 (s, "pixels", &u) && u == 5000);
    fail_unless (gst_structure_get_uint64 (s, "duration", &u) &&
        u == GST_SECOND);
    fail_unless (gst_structure_get_uint (s, "frames", &d) && d == 3);
    fail_unless_equals_int (gst_value_array_get_size
        (gst_structure_get_value (s, "channels")), 2);
    for (slot = 0; slot < 4; slot++) {
      const guint64 *c = counts + ((gsize) slot << depth);
      const GValue *hist;
      guint64 *want = g_new0 (guint64, bins);
      if (!(iv.want & (1u << slot))) {
        g_free (want);
        continue;
      }
      fail_unless_equals_string (g_value_get_string (field_value (s,
                  "channels", k)), names[slot]);
      for (v = 0; v < levels; v++)
        want[(guint64) v * bins / levels] += c[v];
      hist = field_value (s, "histogram", k);
      fail_unless_equals_int (gst_value_array_get_size (hist), bins);
      for (i = 0; i < bins; i++)
        fail_unless_equals_uint64 (g_value_get_uint64
            (gst_value_array_get_value (hist, i)), want[i]);
      g_free (want);
      k++;
    }
    gst_structure_free (s);
  }
  g_free (logs);
  g_free (counts);
}

GST_END_TEST;

static Suite *
histogramstats_suite (void)
{
  Suite *s = suite_create ("histogramstats");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_slot_stats, 0, G_N_ELEMENTS (counts_cases));
  tcase_add_loop_test (tc, test_interval_structure, 0, 2);
  return s;
}

GST_CHECK_MAIN (histogramstats);
