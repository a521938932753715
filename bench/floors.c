/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* floors.c: the transfer and copy floors of the benchmarks (floors.h). */
#include "floors.h"

#include <string.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

static gdouble
time_transfers (cl_command_queue qu, cl_command_queue qd, cl_mem dup,
    cl_mem ddown, void *hup, void *hdown, gsize size, gboolean up,
    gboolean down)
{
  gint64 t0 = 0;
  gint k, n = 20;

  for (k = 0; k < n + 3; k++) {
    if (k == 3) {
      clFinish (qu);
      clFinish (qd);
      t0 = g_get_monotonic_time ();
    }
    if (up)
      clEnqueueWriteBuffer (qu, dup, CL_FALSE, 0, size, hup, 0, NULL, NULL);
    if (down)
      clEnqueueReadBuffer (qd, ddown, CL_FALSE, 0, size, hdown, 0, NULL,
          NULL);
    clFlush (qu);
    clFlush (qd);
  }
  clFinish (qu);
  clFinish (qd);
  return (g_get_monotonic_time () - t0) / 1000.0 / n;
}

typedef struct
{
  guint8 *dst;
  const guint8 *src;
  gsize size;
} Part;

static gpointer
copy_part (gpointer data)
{
  Part *p = data;
  memcpy (p->dst, p->src, p->size);
  return NULL;
}

/* ms to copy a frame from a ring of 4 (not in cache) into one of 2 frames
 * (as a pinned staging ring), over @threads threads */
static gdouble
time_memcpy (gsize size, guint threads)
{
  guint8 *src[4], *dst[2];
  GThread *t[64];
  Part parts[64];
  gint64 t0 = 0;
  guint i, k, n = 24;

  for (i = 0; i < 4; i++)
    memset (src[i] = g_malloc (size), i + 1, size);
  for (i = 0; i < 2; i++)
    memset (dst[i] = g_malloc (size), 0, size);
  for (k = 0; k < n + 4; k++) {
    if (k == 4)
      t0 = g_get_monotonic_time ();
    for (i = 0; i < threads; i++) {
      gsize a = size * i / threads, b = size * (i + 1) / threads;
      parts[i].dst = dst[k % 2] + a;
      parts[i].src = src[k % 4] + a;
      parts[i].size = b - a;
      t[i] = threads > 1 ? g_thread_new ("copy", copy_part, &parts[i]) : NULL;
    }
    if (threads == 1)
      copy_part (&parts[0]);
    for (i = 0; i < threads && threads > 1; i++)
      g_thread_join (t[i]);
  }
  t0 = g_get_monotonic_time () - t0;
  for (i = 0; i < 4; i++)
    g_free (src[i]);
  for (i = 0; i < 2; i++)
    g_free (dst[i]);
  return t0 / 1000.0 / n;
}

void
bench_floors (const gchar * want, gsize size, BenchFloors * f)
{
  cl_platform_id ps[8];
  cl_device_id dev = NULL;
  cl_uint np = 0, i;
  cl_device_type type = g_strcmp0 (want, "cpu") == 0 ? CL_DEVICE_TYPE_CPU :
      CL_DEVICE_TYPE_GPU;
  cl_context ctx;
  cl_command_queue q1, q2;
  cl_mem pin1, pin2, d1, d2;
  void *h1, *h2;
  f->threads = MIN (g_get_num_processors (), 8);
  f->memcpy_ms = time_memcpy (size, 1);
  f->memcpy_threads_ms = time_memcpy (size, f->threads);
  f->up = f->down = f->serial = f->overlapped = -1;
  clGetPlatformIDs (8, ps, &np);
  for (i = 0; i < np && !dev; i++)
    if (clGetDeviceIDs (ps[i], type, 1, &dev, NULL) != CL_SUCCESS)
      dev = NULL;
  if (!dev)
    return;
  ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, NULL);
  q1 = clCreateCommandQueue (ctx, dev, 0, NULL);
  q2 = clCreateCommandQueue (ctx, dev, 0, NULL);
  pin1 = clCreateBuffer (ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size,
      NULL, NULL);
  pin2 = clCreateBuffer (ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size,
      NULL, NULL);
  d1 = clCreateBuffer (ctx, CL_MEM_READ_WRITE, size, NULL, NULL);
  d2 = clCreateBuffer (ctx, CL_MEM_READ_WRITE, size, NULL, NULL);
  h1 = clEnqueueMapBuffer (q1, pin1, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
      size, 0, NULL, NULL, NULL);
  h2 = clEnqueueMapBuffer (q2, pin2, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
      size, 0, NULL, NULL, NULL);
  memset (h1, 3, size);
  memset (h2, 4, size);
  f->up = time_transfers (q1, q2, d1, d2, h1, h2, size, TRUE, FALSE);
  f->down = time_transfers (q1, q2, d1, d2, h1, h2, size, FALSE, TRUE);
  f->serial = time_transfers (q1, q1, d1, d1, h1, h1, size, TRUE, TRUE);
  f->overlapped = time_transfers (q1, q2, d1, d2, h1, h2, size, TRUE, TRUE);
  clEnqueueUnmapMemObject (q1, pin1, h1, 0, NULL, NULL);
  clEnqueueUnmapMemObject (q2, pin2, h2, 0, NULL, NULL);
  clFinish (q1);
  clFinish (q2);
  clReleaseMemObject (pin1);
  clReleaseMemObject (pin2);
  clReleaseMemObject (d1);
  clReleaseMemObject (d2);
  clReleaseCommandQueue (q1);
  clReleaseCommandQueue (q2);
  clReleaseContext (ctx);
}

