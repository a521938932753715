/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhostcopy.c: row copies in host memory over shared worker threads
 * (gstclhostcopy.h). */
#include "gstclhostcopy.h"

#include <stdlib.h>
#include <string.h>

/* a thread's share is at least this many bytes: below it, handing the
 * work to a thread costs more than it saves */
#define MIN_SHARE (256 * 1024)
/* one memory bus is saturated by a few threads */
#define MAX_THREADS 8

typedef struct
{
  GMutex lock;
  GCond done;
  guint pending;
} Job;

typedef struct
{
  GstClRows rows;
  Job *job;
} Share;

static GThreadPool *workers;
static guint n_threads;

static void
copy_rows (const GstClRows * r)
{
  guint i;

  if (r->dst_stride == r->src_stride && r->row_bytes + 64 > r->src_stride) {
    /* rows back to back (or nearly): one copy */
    memcpy (r->dst, r->src, (r->rows - 1) * r->src_stride + r->row_bytes);
    return;
  }
  for (i = 0; i < r->rows; i++)
    memcpy (r->dst + i * r->dst_stride, r->src + i * r->src_stride,
        r->row_bytes);
}

static void
work (gpointer data, gpointer user_data)
{
  Share *s = data;

  copy_rows (&s->rows);
  g_mutex_lock (&s->job->lock);
  if (--s->job->pending == 0)
    g_cond_signal (&s->job->done);
  g_mutex_unlock (&s->job->lock);
}

/**
 * gst_cl_host_copy_threads:
 *
 * How many threads a copy is spread over: the host's cores, at most
 * MAX_THREADS, or GST_CL_COPY_THREADS (1: the calling thread alone).
 */
guint
gst_cl_host_copy_threads (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    const gchar *env = g_getenv ("GST_CL_COPY_THREADS");
    n_threads = env ? (guint) atoi (env) :
        MIN ((guint) g_get_num_processors (), MAX_THREADS);
    n_threads = CLAMP (n_threads, 1, 64);
    if (n_threads > 1)
      /* not exclusive: GLib keeps the threads for every pool's use */
      workers = g_thread_pool_new (work, NULL, n_threads - 1, FALSE, NULL);
    g_once_init_leave (&done, 1);
  }
  return n_threads;
}

/**
 * gst_cl_host_copy_rows:
 *
 * Copies @rows, in equal shares of whole rows over the worker threads and
 * the calling thread, and returns when every share is done.
 */
void
gst_cl_host_copy_rows (const GstClRows * rows)
{
  Share shares[MAX_THREADS * 8];
  Job job;
  gsize bytes = rows->row_bytes * rows->rows;
  guint n = MIN (gst_cl_host_copy_threads (), bytes / MIN_SHARE);
  guint i, first = 0;

  n = MIN (MIN (n, rows->rows), G_N_ELEMENTS (shares));
  if (n <= 1 || !workers) {
    if (rows->rows > 0)
      copy_rows (rows);
    return;
  }
  g_mutex_init (&job.lock);
  g_cond_init (&job.done);
  job.pending = n - 1;
  for (i = 0; i < n; i++) {
    guint end = (guint) ((guint64) rows->rows * (i + 1) / n);
    shares[i].rows = *rows;
    shares[i].rows.dst = rows->dst + first * rows->dst_stride;
    shares[i].rows.src = rows->src + first * rows->src_stride;
    shares[i].rows.rows = end - first;
    shares[i].job = &job;
    first = end;
  }
  for (i = 1; i < n; i++)
    g_thread_pool_push (workers, &shares[i], NULL);
  copy_rows (&shares[0].rows);
  g_mutex_lock (&job.lock);
  while (job.pending > 0)
    g_cond_wait (&job.done, &job.lock);
  g_mutex_unlock (&job.lock);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.done);
}
