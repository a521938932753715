/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhostcopy.c: copies of rows in host memory, in pieces, over worker
 * threads shared by the process (gstclhostcopy.h). */
#include "gstclhostcopy.h"

#include <stdlib.h>
#include <string.h>

/* a thread's share is at least this many bytes: below it, handing the
 * work to a thread costs more than it saves */
#define MIN_SHARE (256 * 1024)
/* one memory bus is saturated by a few threads */
#define MAX_THREADS 8

static GThreadPool *workers;
static void work_pieces (gpointer data, gpointer user_data);
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

/* How many threads a copy is spread over: the host's cores, at most
 * MAX_THREADS, or GST_CL_COPY_THREADS (1: the calling thread alone). */
static guint
copy_threads (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    const gchar *env = g_getenv ("GST_CL_COPY_THREADS");
    n_threads = env ? (guint) atoi (env) :
        MIN ((guint) g_get_num_processors (), MAX_THREADS);
    n_threads = CLAMP (n_threads, 1, 64);
    if (n_threads > 1)
      /* not exclusive: GLib keeps the threads for every pool's use */
      workers = g_thread_pool_new (work_pieces, NULL, n_threads - 1, FALSE,
          NULL);
    g_once_init_leave (&done, 1);
  }
  return n_threads;
}

#define MAX_PIECES 64

/**
 * GstClHostCopy:
 *
 * A copy of pieces (each a few #GstClRows) running on the worker threads
 * and the calling thread: every thread copies its share of each piece in
 * turn, so that each thread is woken once for the whole copy, and the
 * caller learns when each piece is complete (to start its transfer).
 */
struct _GstClHostCopy
{
  const GstClRows *rows;
  const guint *piece_rows;      /* piece k: rows piece_rows[k] to [k + 1] */
  guint n_pieces, n_threads;
  GMutex lock;
  GCond progress;
  guint done[MAX_PIECES];       /* threads done with each piece */
  guint finished;               /* threads done with every piece */
  guint caller_piece;           /* the caller's share copied up to here */
};

typedef struct
{
  GstClHostCopy *copy;
  guint thread;
} Worker;

/* thread @t's share of piece @k: a slice of each of its rows spans */
static void
copy_share (GstClHostCopy * c, guint k, guint t)
{
  guint i;

  for (i = c->piece_rows[k]; i < c->piece_rows[k + 1]; i++) {
    GstClRows r = c->rows[i];
    guint a = (guint) ((guint64) r.rows * t / c->n_threads);
    guint b = (guint) ((guint64) r.rows * (t + 1) / c->n_threads);
    if (b <= a)
      continue;
    r.dst += a * r.dst_stride;
    r.src += a * r.src_stride;
    r.rows = b - a;
    copy_rows (&r);
  }
  g_mutex_lock (&c->lock);
  c->done[k]++;
  g_cond_broadcast (&c->progress);
  g_mutex_unlock (&c->lock);
}

static void
work_pieces (gpointer data, gpointer user_data)
{
  Worker *w = data;
  GstClHostCopy *c = w->copy;
  guint k;

  for (k = 0; k < c->n_pieces; k++)
    copy_share (c, k, w->thread);
  g_mutex_lock (&c->lock);
  c->finished++;
  g_cond_broadcast (&c->progress);
  g_mutex_unlock (&c->lock);
  g_free (w);
}

/**
 * gst_cl_host_copy_start:
 * @rows: the row spans of every piece, alive until the copy is finished
 * @piece_rows: piece k is @rows[piece_rows[k]] to @rows[piece_rows[k + 1]]
 *
 * Starts copying the pieces on the worker threads. The caller's own share
 * of each piece is copied in gst_cl_host_copy_wait_piece().
 */
GstClHostCopy *
gst_cl_host_copy_start (const GstClRows * rows, const guint * piece_rows,
    guint n_pieces)
{
  GstClHostCopy *c = g_new0 (GstClHostCopy, 1);
  gsize bytes = 0;
  guint i, t;

  g_return_val_if_fail (n_pieces <= MAX_PIECES, NULL);
  for (i = piece_rows[0]; i < piece_rows[n_pieces]; i++)
    bytes += rows[i].row_bytes * rows[i].rows;
  c->rows = rows;
  c->piece_rows = piece_rows;
  c->n_pieces = n_pieces;
  c->n_threads = CLAMP (bytes / MIN_SHARE, 1, copy_threads ());
  if (!workers)
    c->n_threads = 1;
  g_mutex_init (&c->lock);
  g_cond_init (&c->progress);
  /* thread 0 is the caller */
  for (t = 1; t < c->n_threads; t++) {
    Worker *w = g_new (Worker, 1);
    w->copy = c;
    w->thread = t;
    g_thread_pool_push (workers, w, NULL);
  }
  return c;
}

/**
 * gst_cl_host_copy_wait_piece:
 *
 * Copies the caller's share of the pieces up to @piece and returns when
 * every thread is done with @piece.
 */
void
gst_cl_host_copy_wait_piece (GstClHostCopy * c, guint piece)
{
  for (; c->caller_piece <= piece; c->caller_piece++)
    copy_share (c, c->caller_piece, 0);
  g_mutex_lock (&c->lock);
  while (c->done[piece] < c->n_threads)
    g_cond_wait (&c->progress, &c->lock);
  g_mutex_unlock (&c->lock);
}

/**
 * gst_cl_host_copy_finish:
 *
 * Finishes the copy (every piece) and frees @copy.
 */
void
gst_cl_host_copy_finish (GstClHostCopy * c)
{
  if (c->n_pieces > 0)
    gst_cl_host_copy_wait_piece (c, c->n_pieces - 1);
  g_mutex_lock (&c->lock);
  while (c->finished < c->n_threads - 1)
    g_cond_wait (&c->progress, &c->lock);
  g_mutex_unlock (&c->lock);
  g_mutex_clear (&c->lock);
  g_cond_clear (&c->progress);
  g_free (c);
}
