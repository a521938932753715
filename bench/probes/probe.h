/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* probe.h: what the standalone GPU probes of bench/probes share: reading a
 * kernel file, building a program, the first GPU (else any device) with a
 * profiling queue, and the time of an event. Included by each probe's one
 * C file; built with -Dprobes=true (bench/probes/meson.build). */
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

/* the file @rel under the project root @dir */
static char *
slurp_at (const char *dir, const char *rel)
{
  char path[512];
  snprintf (path, sizeof path, "%s/%s", dir, rel);
  return slurp (path);
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

/* the frames: srcs[0]/dsts[0] hot, nb_cold pairs rotated for cold runs */
#define NB 8
static cl_mem srcs[NB], dsts[NB];
static int nb_cold;
static size_t fsize;
static unsigned char *ref, *out, *in;

typedef struct { cl_kernel k; size_t g[2], l[2]; int src_arg, dst_arg; } Launch;

/* median ms of @n launches after @warm (copybuf: clEnqueueCopyBuffer),
 * on the hot pair and rotating through the cold ones */
static void
timeit_n (Launch * L, int copybuf, double *hot, double *cold, int n, int warm)
{
  double t[64];
  for (int mode = 0; mode < 2; mode++) {
    for (int i = -warm; i < n; i++) {
      int b = mode == 0 ? 0 : (i + warm) % nb_cold;
      cl_event e;
      cl_int st;
      if (copybuf)
        st = clEnqueueCopyBuffer (q, srcs[b], dsts[b], 0, 0, fsize, 0, NULL, &e);
      else {
        clSetKernelArg (L->k, L->src_arg, sizeof (cl_mem), &srcs[b]);
        clSetKernelArg (L->k, L->dst_arg, sizeof (cl_mem), &dsts[b]);
        st = clEnqueueNDRangeKernel (q, L->k, 2, NULL, L->g, L->l, 0, NULL, &e);
      }
      if (st) { fprintf (stderr, "enqueue %d\n", st); exit (1); }
      double ms = ev_ms (e);
      if (i >= 0) t[i] = ms;
    }
    qsort (t, n, sizeof (double), cmpd);
    if (mode == 0) *hot = t[n / 2]; else *cold = t[n / 2];
  }
}

/* The copy floors of the current frames, printed: clEnqueueCopyBuffer and
 * @kc16 (one 16-byte vector per work-item, source argument 0, destination
 * 1); *best_hot and *best_cold get the faster of the two. */
static void
time_copies (cl_kernel kc16, double *best_hot, double *best_cold)
{
  double hot, cold;
  Launch L = { kc16, {fsize / 16, 1}, {256, 1}, 0, 1 };
  timeit_n (&L, 1, &hot, &cold, 30, 3);
  printf ("%-30s hot %.4f ms (%4.0f GB/s)  cold %.4f ms (%4.0f GB/s)\n",
      "clEnqueueCopyBuffer", hot, 2 * fsize / hot / 1e6, cold,
      2 * fsize / cold / 1e6);
  *best_hot = hot;
  *best_cold = cold;
  timeit_n (&L, 0, &hot, &cold, 30, 3);
  printf ("%-30s hot %.4f ms (%4.0f GB/s)  cold %.4f ms (%4.0f GB/s)\n",
      "copy16", hot, 2 * fsize / hot / 1e6, cold, 2 * fsize / cold / 1e6);
  if (hot < *best_hot)
    *best_hot = hot;
  if (cold < *best_cold)
    *best_cold = cold;
}

/* The frames of a case of @size bytes: in, out and ref allocated, and
 * enough device pairs to rotate through more than the L2 holds (nb_cold,
 * at most NB). frames_upload () then writes `in` to every source. */
static void
frames_new (size_t size)
{
  fsize = size;
  nb_cold = (int) ((400u << 20) / (2 * fsize)) + 1;
  if (nb_cold > NB)
    nb_cold = NB;
  in = malloc (fsize);
  out = malloc (fsize);
  ref = malloc (fsize);
  for (int b = 0; b < nb_cold; b++) {
    srcs[b] = clCreateBuffer (ctx, CL_MEM_READ_WRITE, fsize, NULL, NULL);
    dsts[b] = clCreateBuffer (ctx, CL_MEM_READ_WRITE, fsize, NULL, NULL);
  }
}

/* `in` filled with random bytes from @seed */
static void
frames_random (unsigned seed)
{
  srand (seed);
  for (size_t i = 0; i < fsize; i++)
    in[i] = rand () >> 7;
}

static void
frames_upload (void)
{
  for (int b = 0; b < nb_cold; b++)
    clEnqueueWriteBuffer (q, srcs[b], CL_TRUE, 0, fsize, in, 0, NULL, NULL);
}

static void
frames_free (void)
{
  for (int b = 0; b < nb_cold; b++) {
    clReleaseMemObject (srcs[b]);
    clReleaseMemObject (dsts[b]);
  }
  free (in);
  free (out);
  free (ref);
}

/* samples of dsts[0] that differ from ref */
static long
check (void)
{
  clEnqueueReadBuffer (q, dsts[0], CL_TRUE, 0, fsize, out, 0, NULL, NULL);
  long bad = 0;
  for (size_t i = 0; i < fsize; i++)
    bad += out[i] != ref[i];
  return bad;
}

static void
clear_dst (void)
{
  unsigned char z = 0x5a;
  clEnqueueFillBuffer (q, dsts[0], &z, 1, 0, fsize, 0, NULL, NULL);
  clFinish (q);
}

/* The histogram probes' timing: the median ms of @n launches of @k (after
 * two), its source (argument 0) rotating through the cold frames, or
 * srcs[0] alone (@hot 1), or each frame written from `in` just before,
 * as an element's upload does (@hot 2); the first @zero_bytes of @counts
 * zeroed before each launch. Negative where @k cannot launch (too many
 * registers for the group). */
static double
time_counts (cl_kernel k, cl_mem counts, size_t zero_bytes, size_t g[2],
    size_t l[2], int n, int hot)
{
  double t[64];
  const cl_uint zero = 0;
  for (int i = -2; i < n; i++) {
    int b = hot == 1 ? 0 : (i + 2) % nb_cold;
    cl_event e;
    clSetKernelArg (k, 0, sizeof (cl_mem), &srcs[b]);
    if (hot == 2)
      clEnqueueWriteBuffer (q, srcs[b], CL_FALSE, 0, fsize, in, 0, NULL,
          NULL);
    clEnqueueFillBuffer (q, counts, &zero, 4, 0, zero_bytes, 0, NULL, NULL);
    cl_int st = clEnqueueNDRangeKernel (q, k, 2, NULL, g, l, 0, NULL, &e);
    if (st)
      return -st;
    double ms = ev_ms (e);
    if (i >= 0)
      t[i] = ms;
  }
  qsort (t, n, sizeof (double), cmpd);
  return t[n / 2];
}

/* The levels of @counts (after @zero_bytes of it are zeroed and @k runs
 * once on the last cold frame) that differ from the C count @ref: @levels
 * of them, read into @out */
static int
check_counts (cl_kernel k, cl_mem counts, size_t zero_bytes, size_t g[2],
    size_t l[2], const unsigned *ref, unsigned *out, size_t levels)
{
  const cl_uint zero = 0;
  int bad = 0;
  clSetKernelArg (k, 0, sizeof (cl_mem), &srcs[nb_cold - 1]);
  clEnqueueFillBuffer (q, counts, &zero, 4, 0, zero_bytes, 0, NULL, NULL);
  clEnqueueNDRangeKernel (q, k, 2, NULL, g, l, 0, NULL, NULL);
  clEnqueueReadBuffer (q, counts, CL_TRUE, 0, levels * 4, out, 0, NULL,
      NULL);
  for (size_t i = 0; i < levels; i++)
    bad += out[i] != ref[i];
  return bad;
}

#endif
