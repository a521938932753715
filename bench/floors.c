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
  guint8 *a = g_malloc (size), *b = g_malloc (size);
  gint64 t0;
  gint k, n = 20;

  memset (a, 1, size);
  memset (b, 2, size);
  t0 = g_get_monotonic_time ();
  for (k = 0; k < n; k++)
    memcpy (k % 2 ? a : b, k % 2 ? b : a, size);
  f->memcpy_ms = (g_get_monotonic_time () - t0) / 1000.0 / n;
  f->up = f->down = f->serial = f->overlapped = -1;
  g_free (a);
  g_free (b);
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

