/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* probe.h: what the standalone GPU probes of bench/probes share: reading a
 * kernel file, building a program, the first GPU (else any device) with a
 * profiling queue, and the time of an event. Included by each probe's one
 * C file; not built by meson. */
#ifndef PROBE_H
#define PROBE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static char *
slurp (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (!f) { perror (path); exit (1); }
  fseek (f, 0, SEEK_END);
  long n = ftell (f);
  fseek (f, 0, SEEK_SET);
  char *s = malloc (n + 1);
  if (fread (s, 1, n, f) != (size_t) n) exit (1);
  s[n] = 0;
  fclose (f);
  return s;
}

static cl_program
build (const char **srcs, int n, const char *opts)
{
  cl_int st;
  cl_program p = clCreateProgramWithSource (ctx, n, srcs, NULL, &st);
  st = clBuildProgram (p, 1, &dev, opts, NULL, NULL);
  if (st) {
    static char log[200000];
    clGetProgramBuildInfo (p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf (stderr, "build %d (%s): %s\n", st, opts, log);
    exit (1);
  }
  return p;
}

static int
cmpd (const void *a, const void *b)
{
  double x = *(double *) a, y = *(double *) b;
  return x < y ? -1 : x > y;
}

static double
ev_ms (cl_event e)
{
  cl_ulong a, b;
  clWaitForEvents (1, &e);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_START, 8, &a, NULL);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_END, 8, &b, NULL);
  clReleaseEvent (e);
  return (b - a) / 1e6;
}

/* the first GPU, else any device; a context and a profiling queue */
static void
open_device (void)
{
  cl_platform_id plats[8];
  cl_uint np;
  int found = 0;
  clGetPlatformIDs (8, plats, &np);
  for (cl_uint i = 0; i < np && !found; i++)
    if (clGetDeviceIDs (plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) == 0)
      found = 1;
  for (cl_uint i = 0; i < np && !found; i++)
    if (clGetDeviceIDs (plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == 0)
      found = 1;
  if (!found) { fprintf (stderr, "no device\n"); exit (1); }
  char name[256];
  clGetDeviceInfo (dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf ("device %s\n", name);
  ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, NULL);
  q = clCreateCommandQueue (ctx, dev, CL_QUEUE_PROFILING_ENABLE, NULL);
}

#endif
