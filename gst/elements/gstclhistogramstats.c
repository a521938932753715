/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogramstats.c: clhistogram's statistics (gstclhistogramstats.h).
 * Exact levels and double statistics of the counts of every level, binned
 * into the message's histograms; tests/check/histogramstats.c checks them
 * against plain computations over the samples the counts stand for. */
#include "gstclhistogramstats.h"

#include <math.h>
#include <string.h>

static const gchar *const slot_names[GST_CL_HISTOGRAM_SLOTS] = {
  "luma", "red", "green", "blue"
};

/**
 * gst_cl_histogram_log_table:
 *
 * The logarithm of each of the 2^@depth levels, ln (0.001 + v / (2^@depth
 * - 1)), computed once a depth: 65536 calls to log() a message would cost
 * more than the counting.
 *
 * Returns: (transfer full): 2^@depth doubles
 */
gdouble *
gst_cl_histogram_log_table (guint depth)
{
  guint v, levels = 1u << depth;
  gdouble *table = g_new (gdouble, levels);

  /* the same expression as the statistics always used for 8 bits
   * (v / 255.0), so that their values stay identical */
  for (v = 0; v < levels; v++)
    table[v] = log (0.001 + v / (gdouble) (levels - 1));
  return table;
}

/* the smallest level whose cumulative count reaches pct[k] % of @n, for
 * the three percentiles in one pass over the levels @lo to @hi: level 0
 * when the target is 0 (the cumulative count of level 0 reaches it), else
 * a level present */
static void
percentiles (const guint64 * c, guint levels, guint lo, guint hi, guint64 n,
    const gdouble * pct, guint * res)
{
  guint v, k, pending = 0;
  guint64 cum = 0;

  for (k = 0; k < 3; k++) {
    res[k] = levels - 1;
    if (pct[k] * (gdouble) n <= 0)
      res[k] = 0;
    else
      pending |= 1u << k;
  }
  for (v = lo; v <= hi && pending; v++) {
    if (!c[v])
      continue;
    cum += c[v];
    for (k = 0; k < 3; k++)
      if ((pending & (1u << k)) && (gdouble) cum * 100.0 >= pct[k] *
          (gdouble) n) {
        res[k] = v;
        pending &= ~(1u << k);
      }
  }
}

/**
 * gst_cl_histogram_slot_stats:
 * @counts: counts of 2^@depth levels, summing to @n
 * @log_table: gst_cl_histogram_log_table() of @depth
 * @low, @high: the percentiles of the `low` and `high` levels
 *
 * The statistics of one slot. Only the range of levels present is scanned
 * (natural content of 16-bit formats spans a fraction of the 65536
 * levels). The sums run in the order and with the expressions the 8-bit
 * statistics always had, so that their values stay identical. Nothing
 * counted gives every statistic 0.
 */
void
gst_cl_histogram_slot_stats (const guint64 * c, guint depth,
    const gdouble * log_table, guint64 n, gdouble low, gdouble high,
    GstClHistogramSlotStats * st)
{
  const guint levels = 1u << depth;
  const gdouble pct[3] = { 50.0, low, high };
  guint res[3], v, lo, hi;
  guint64 sum = 0;
  gdouble sq = 0, logsum = 0;

  memset (st, 0, sizeof (*st));
  for (lo = 0; lo < levels && !c[lo]; lo++);
  if (lo == levels)
    return;
  for (hi = levels - 1; !c[hi]; hi--);
  st->min = lo;
  st->max = hi;
  for (v = lo; v <= hi; v++) {
    if (!c[v])
      continue;
    sum += c[v] * v;
    logsum += (gdouble) c[v] * log_table[v];
  }
  if (n > 0) {
    st->mean = (gdouble) sum / n;
    for (v = lo; v <= hi; v++)
      if (c[v])
        sq += (gdouble) c[v] * (v - st->mean) * (v - st->mean);
    st->variance = sq / n;
    st->log_average = exp (logsum / n);
  }
  percentiles (c, levels, lo, hi, n, pct, res);
  st->median = res[0];
  st->low = res[1];
  st->high = res[2];
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

/* the message's arrays, one value a counted slot in each */
enum
{
  F_CHANNELS, F_HISTOGRAM, F_MIN, F_MAX, F_MEDIAN, F_LOW, F_HIGH, F_MEAN,
  F_VARIANCE, F_LOG_AVERAGE, N_FIELDS
};

static const gchar *const field_names[N_FIELDS] = {
  "channels", "histogram", "min", "max", "median", "low", "high", "mean",
  "variance", "log-average"
};

/* @bins bins of @c (bin i counts the levels v with floor (v * bins /
 * 2^depth) = i), appended to @hists as one array */
static void
append_binned (GValue * hists, const guint64 * c, guint depth, guint bins,
    const GstClHistogramSlotStats * st, guint64 pixels)
{
  GValue hist = G_VALUE_INIT;
  guint64 *binned = g_new0 (guint64, bins);
  guint v, i;

  if (pixels > 0)
    for (v = st->min; v <= st->max; v++)
      binned[((guint64) v * bins) >> depth] += c[v];
  g_value_init (&hist, GST_TYPE_ARRAY);
  for (i = 0; i < bins; i++) {
    GValue cnt = G_VALUE_INIT;
    g_value_init (&cnt, G_TYPE_UINT64);
    g_value_set_uint64 (&cnt, binned[i]);
    gst_value_array_append_and_take_value (&hist, &cnt);
  }
  gst_value_array_append_and_take_value (hists, &hist);
  g_free (binned);
}

/* slot @slot's name, histogram and statistics, appended to @a */
static void
append_slot (GValue * a, const GstClHistogramInterval * iv, guint slot,
    guint bins, gdouble low, gdouble high)
{
  const guint64 *c = iv->counts + ((gsize) slot << iv->depth);
  GValue name = G_VALUE_INIT;
  GstClHistogramSlotStats st;

  g_value_init (&name, G_TYPE_STRING);
  g_value_set_static_string (&name, slot_names[slot]);
  gst_value_array_append_and_take_value (&a[F_CHANNELS], &name);
  gst_cl_histogram_slot_stats (c, iv->depth, iv->log_table, iv->pixels, low,
      high, &st);
  append_binned (&a[F_HISTOGRAM], c, iv->depth, bins, &st, iv->pixels);
  append_uint (&a[F_MIN], st.min);
  append_uint (&a[F_MAX], st.max);
  append_uint (&a[F_MEDIAN], st.median);
  append_uint (&a[F_LOW], st.low);
  append_uint (&a[F_HIGH], st.high);
  append_double (&a[F_MEAN], st.mean);
  append_double (&a[F_VARIANCE], st.variance);
  append_double (&a[F_LOG_AVERAGE], st.log_average);
}

/**
 * gst_cl_histogram_interval_structure:
 * @bins: bins of each histogram (the element's `bins`)
 * @low, @high: the percentiles of the `low` and `high` fields
 *
 * The "clhistogram" structure of @interval: the fields of the element's
 * message and meta (docs/elements/clhistogram.md).
 *
 * Returns: (transfer full): the structure
 */
GstStructure *
gst_cl_histogram_interval_structure (const GstClHistogramInterval * iv,
    guint bins, gdouble low, gdouble high)
{
  GValue a[N_FIELDS] = { G_VALUE_INIT, };
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  GstStructure *s;
  guint slot, f;

  for (f = 0; f < N_FIELDS; f++)
    g_value_init (&a[f], GST_TYPE_ARRAY);
  for (slot = 0; slot < GST_CL_HISTOGRAM_SLOTS; slot++)
    if (iv->want & (1u << slot))
      append_slot (a, iv, slot, bins, low, high);
  if (GST_CLOCK_TIME_IS_VALID (iv->start) &&
      GST_CLOCK_TIME_IS_VALID (iv->end) && iv->end >= iv->start)
    duration = iv->end - iv->start;
  s = gst_structure_new ("clhistogram",
      "timestamp", G_TYPE_UINT64, (guint64) iv->start,
      "stream-time", G_TYPE_UINT64, (guint64) iv->start_stream,
      "running-time", G_TYPE_UINT64, (guint64) iv->start_running,
      "duration", G_TYPE_UINT64, (guint64) duration,
      "frames", G_TYPE_UINT, iv->frames,
      "pixels", G_TYPE_UINT64, iv->pixels,
      "bins", G_TYPE_UINT, bins, NULL);
  for (f = 0; f < N_FIELDS; f++)
    gst_structure_take_value (s, field_names[f], &a[f]);
  /* the bits of the levels above: 8, or the format's depth */
  gst_structure_set (s, "depth", G_TYPE_UINT, iv->depth, NULL);
  return s;
}
