/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* cpubound: what plain C reaches on this CPU without OpenCL, on the frames
 * and the rotation the benchmark uses (1080p GRAY8, 8 frames). It gives the
 * CPU figures of docs/performance.md a yardstick: memcpy (the floor), a read
 * of every byte, the best histogram loops we know and a 3x3 binomial blur
 * compiled by the C compiler, on one thread and split over two threads that
 * wait on a barrier for each frame (as POCL's workers wait for a kernel).
 *
 *   build/bench/cpubound [--frames N] [--random]
 *
 * Not a test: it prints medians and their ratio to memcpy. */

#include <glib.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define WIDTH 1920
#define HEIGHT 1080
#define N_FRAMES 8

typedef enum
{
  WORK_READ,
  WORK_HIST4,
  WORK_HIST_PAIRS,
  WORK_BLUR3,
  N_WORKS
} Work;

static const gchar *work_names[N_WORKS] = {
  "read every byte (sum)",
  "histogram, 4 tables, 1 increment per pixel",
  "histogram, pair table, 1 increment per 2 pixels",
  "3x3 binomial blur, plain C (-O3 -march=native)",
};

typedef struct
{
  Work work;
  const guint8 *src;
  guint8 *dst;
  gint y0, y1;
  guint32 *pairs;               /* 65536 counters, zero between frames */
  guint64 hist[256];
  guint64 sum;
} Job;

static void
do_read (Job * j)
{
  const guint64 *p = (const guint64 *) (j->src + (gsize) j->y0 * WIDTH);
  gsize n = (gsize) (j->y1 - j->y0) * WIDTH / 8, i;
  guint64 s = 0;
  for (i = 0; i < n; i++)
    s += p[i];
  j->sum = s;
}

static void
do_hist4 (Job * j)
{
  const guint8 *p = j->src + (gsize) j->y0 * WIDTH;
  gsize n = (gsize) (j->y1 - j->y0) * WIDTH, i;
  guint32 h[4][256];
  gint l;

  memset (h, 0, sizeof (h));
  for (i = 0; i + 8 <= n; i += 8) {
    guint64 w;
    memcpy (&w, p + i, 8);
    h[0][w & 255]++;
    h[1][(w >> 8) & 255]++;
    h[2][(w >> 16) & 255]++;
    h[3][(w >> 24) & 255]++;
    h[0][(w >> 32) & 255]++;
    h[1][(w >> 40) & 255]++;
    h[2][(w >> 48) & 255]++;
    h[3][w >> 56]++;
  }
  for (; i < n; i++)
    h[0][p[i]]++;
  for (l = 0; l < 256; l++)
    j->hist[l] = (guint64) h[0][l] + h[1][l] + h[2][l] + h[3][l];
}

static void
do_hist_pairs (Job * j)
{
  const guint8 *p = j->src + (gsize) j->y0 * WIDTH;
  gsize n = (gsize) (j->y1 - j->y0) * WIDTH, i;
  guint32 *t = j->pairs;
  gint hi, lo;

  memset (j->hist, 0, sizeof (j->hist));
  for (i = 0; i + 8 <= n; i += 8) {
    guint64 w;
    memcpy (&w, p + i, 8);
    t[w & 0xffff]++;
    t[(w >> 16) & 0xffff]++;
    t[(w >> 32) & 0xffff]++;
    t[w >> 48]++;
  }
  for (; i < n; i++)
    j->hist[p[i]]++;
  /* fold: entry lo + 256 * hi counts one pixel of each level */
  for (hi = 0; hi < 256; hi++) {
    guint64 s = 0;
    for (lo = 0; lo < 256; lo++) {
      guint32 c = t[hi * 256 + lo];
      s += c;
      j->hist[lo] += c;
    }
    j->hist[hi] += s;
  }
  memset (t, 0, 65536 * sizeof (guint32));
}

static void
do_blur3 (Job * j)
{
  gint y, x;
  for (y = j->y0; y < j->y1; y++) {
    const guint8 *a = j->src + (gsize) MAX (y - 1, 0) * WIDTH;
    const guint8 *b = j->src + (gsize) y * WIDTH;
    const guint8 *c = j->src + (gsize) MIN (y + 1, HEIGHT - 1) * WIDTH;
    guint8 *o = j->dst + (gsize) y * WIDTH;
    guint16 v[WIDTH];
    for (x = 0; x < WIDTH; x++)
      v[x] = a[x] + 2 * b[x] + c[x];
    o[0] = (3 * v[0] + v[1] + 8) >> 4;
    for (x = 1; x < WIDTH - 1; x++)
      o[x] = (v[x - 1] + 2 * v[x] + v[x + 1] + 8) >> 4;
    o[WIDTH - 1] = (v[WIDTH - 2] + 3 * v[WIDTH - 1] + 8) >> 4;
  }
}

static void
run_job (Job * j)
{
  switch (j->work) {
    case WORK_READ:
      do_read (j);
      break;
    case WORK_HIST4:
      do_hist4 (j);
      break;
    case WORK_HIST_PAIRS:
      do_hist_pairs (j);
      break;
    default:
      do_blur3 (j);
      break;
  }
}

/* the second thread: runs jobs[1] between two barriers, until stopped */
static pthread_barrier_t start_barrier, done_barrier;
static Job jobs[2];
static volatile gboolean stop;

static gpointer
worker (gpointer data)
{
  for (;;) {
    pthread_barrier_wait (&start_barrier);
    if (stop)
      return NULL;
    run_job (&jobs[1]);
    pthread_barrier_wait (&done_barrier);
  }
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

static gdouble
median (gdouble * v, gint n)
{
  qsort (v, n, sizeof (gdouble), (GCompareFunc) cmp_double);
  return v[n / 2];
}

int
main (int argc, char **argv)
{
  gint frames = 300, i, f, w, threads;
  gboolean random_content = FALSE;
  GOptionEntry entries[] = {
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "timed frames per case", "N"},
    {"random", 0, 0, G_OPTION_ARG_NONE, &random_content,
        "random bytes instead of smooth content", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- plain C yardsticks");
  GError *err = NULL;
  guint8 *src[N_FRAMES], *dst[N_FRAMES];
  guint32 *pairs[2];
  gdouble *t, *m, memcpy_ms, work_ms;
  GRand *rand = g_rand_new_with_seed (1);
  GThread *thread;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  frames = MAX (frames, 10);

  /* smooth content with a little noise, like a photograph; every frame
   * different so that rotating over them leaves the caches as the
   * benchmark does */
  for (f = 0; f < N_FRAMES; f++) {
    gint x, y;
    src[f] = g_malloc ((gsize) WIDTH * HEIGHT);
    dst[f] = g_malloc0 ((gsize) WIDTH * HEIGHT);
    for (y = 0; y < HEIGHT; y++)
      for (x = 0; x < WIDTH; x++) {
        gdouble v = 128 + 60 * sin (x * 0.01 * (f + 1)) * cos (y * 0.013) +
            g_rand_int_range (rand, -4, 5);
        src[f][(gsize) y * WIDTH + x] = random_content ?
            (guint8) g_rand_int (rand) : (guint8) CLAMP (v, 0, 255);
      }
  }
  pairs[0] = g_malloc0 (65536 * sizeof (guint32));
  pairs[1] = g_malloc0 (65536 * sizeof (guint32));
  pthread_barrier_init (&start_barrier, NULL, 2);
  pthread_barrier_init (&done_barrier, NULL, 2);
  thread = g_thread_new ("cpubound-worker", worker, NULL);

  t = g_new (gdouble, frames);
  m = g_new (gdouble, frames);
  g_print ("1080p GRAY8, %d frames rotating over %d, %s content; median "
      "ms/frame and ratio to memcpy (medians of the same run)\n\n",
      frames, N_FRAMES, random_content ? "random" : "smooth");
  g_print ("| work | threads | ms/frame | memcpy ms | x memcpy |\n");
  g_print ("|---|---:|---:|---:|---:|\n");
  for (w = 0; w < N_WORKS; w++) {
    for (threads = 1; threads <= 2; threads++) {
      for (i = -8; i < frames; i++) {
        gint64 t0, t1, t2;
        f = (i + 8) % N_FRAMES;
        jobs[0] = (Job) {
        w, src[f], dst[f], 0, HEIGHT, pairs[0]};
        if (threads == 2) {
          jobs[0].y1 = HEIGHT / 2;
          jobs[1] = (Job) {
          w, src[f], dst[f], HEIGHT / 2, HEIGHT, pairs[1]};
        }
        t0 = g_get_monotonic_time ();
        if (threads == 2)
          pthread_barrier_wait (&start_barrier);
        run_job (&jobs[0]);
        if (threads == 2)
          pthread_barrier_wait (&done_barrier);
        t1 = g_get_monotonic_time ();
        /* the floor, interleaved: copy the frame to another destination */
        memcpy (dst[(f + 3) % N_FRAMES], src[f], (gsize) WIDTH * HEIGHT);
        t2 = g_get_monotonic_time ();
        if (i >= 0) {
          t[i] = (t1 - t0) / 1000.0;
          m[i] = (t2 - t1) / 1000.0;
        }
      }
      if (w == WORK_HIST4 || w == WORK_HIST_PAIRS) {
        guint64 total = 0;
        gint l;
        for (l = 0; l < 256; l++)
          total += jobs[0].hist[l] + (threads == 2 ? jobs[1].hist[l] : 0);
        if (total != (guint64) WIDTH * HEIGHT) {
          g_printerr ("%s: counted %" G_GUINT64_FORMAT " pixels\n",
              work_names[w], total);
          return 1;
        }
      }
      memcpy_ms = median (m, frames);
      work_ms = median (t, frames);
      g_print ("| %s | %d | %.3f | %.3f | %.2f |\n", work_names[w], threads,
          work_ms, memcpy_ms, work_ms / memcpy_ms);
    }
  }

  stop = TRUE;
  pthread_barrier_wait (&start_barrier);
  g_thread_join (thread);
  for (f = 0; f < N_FRAMES; f++) {
    g_free (src[f]);
    g_free (dst[f]);
  }
  g_free (pairs[0]);
  g_free (pairs[1]);
  g_free (t);
  g_free (m);
  g_rand_free (rand);
  return 0;
}
