/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* cltime: where a process's OpenCL calls spend their time, an LD_PRELOAD
 * shim (the figures under "What limits streams on one GPU" in
 * docs/performance.md). Each wrapped call is timed on the calling thread
 * and summed over all threads; at exit the shim prints, per function, the
 * calls, their total time and the time a call. A sum above the wall time
 * means several threads were inside the driver at once; a call that takes
 * much longer with many streams than with one waits for a lock.
 *
 *     LD_PRELOAD=build/bench/probes/libcltime.so build/bench/streambench ...
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum
{
  F_ND, F_MARK, F_BAR, F_READ, F_WRITE, F_COPY, F_COPYRECT, F_READRECT,
  F_WRITERECT, F_FILL, F_FLUSH, F_RETAIN, F_RELEASE, F_INFO, F_ARG, F_WAIT,
  F_MAP, F_UNMAP, F_FINISH, F_CB, N_F
};

static const char *const names[N_F] = {
  "NDRangeKernel", "Marker", "Barrier", "ReadBuffer", "WriteBuffer",
  "CopyBuffer", "CopyBufferRect", "ReadBufferRect", "WriteBufferRect",
  "FillBuffer", "Flush", "RetainEvent", "ReleaseEvent", "GetEventInfo",
  "SetKernelArg", "WaitForEvents", "MapBuffer", "Unmap", "Finish",
  "SetEventCallback"
};

static _Atomic long long ns[N_F], calls[N_F];
static long long start;

static long long
now (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void
report (void)
{
  long long wall = now () - start, total = 0;
  int i;

  fprintf (stderr, "# cltime: wall %.1f ms\n", wall / 1e6);
  for (i = 0; i < N_F; i++) {
    if (!calls[i])
      continue;
    fprintf (stderr, "# %-18s %9lld calls %10.1f ms %7.2f us a call\n",
        names[i], (long long) calls[i], ns[i] / 1e6,
        ns[i] / 1e3 / calls[i]);
    total += ns[i];
  }
  fprintf (stderr, "# all calls %.1f ms (%.2f of the wall)\n", total / 1e6,
      (double) total / wall);
}

/* at exit, before the libraries' own teardown (a driver that crashes
 * there would take a destructor's report with it) */
__attribute__((constructor))
     static void init (void)
{
  start = now ();
  atexit (report);
}

/* The ICD loader's @name: the next library's, or where a program does not
 * link the loader (gst-launch-1.0, whose plugin loads it privately) the
 * loader's own. */
static void *
real_function (const char *name)
{
  static void *loader;
  void *f = dlsym (RTLD_NEXT, name);

  if (f)
    return f;
  if (!loader)
    loader = dlopen ("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  return loader ? dlsym (loader, name) : NULL;
}

/* the function @name of @params, calling the next library's with @args */
#define WRAP(idx, ret, name, params, args)                      \
  __attribute__((visibility ("default"))) ret name params   \
  {                                                             \
    static ret (*real) params;                                  \
    long long t0_;                                              \
    ret r_;                                                     \
    if (!real)                                                  \
      real = real_function (#name);                             \
    t0_ = now ();                                               \
    r_ = real args;                                             \
    ns[idx] += now () - t0_;                                    \
    calls[idx]++;                                               \
    return r_;                                                  \
  }

WRAP (F_ND, cl_int, clEnqueueNDRangeKernel, (cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g, const size_t *l, cl_uint n, const cl_event *w, cl_event *e), (q, k, d, o, g, l, n, w, e))
WRAP (F_MARK, cl_int, clEnqueueMarkerWithWaitList, (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))
WRAP (F_BAR, cl_int, clEnqueueBarrierWithWaitList, (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))
WRAP (F_READ, cl_int, clEnqueueReadBuffer, (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, void *p, cl_uint n, const cl_event *w, cl_event *e), (q, m, b, o, s, p, n, w, e))
WRAP (F_WRITE, cl_int, clEnqueueWriteBuffer, (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, const void *p, cl_uint n, const cl_event *w, cl_event *e), (q, m, b, o, s, p, n, w, e))
WRAP (F_COPY, cl_int, clEnqueueCopyBuffer, (cl_command_queue q, cl_mem a, cl_mem b, size_t oa, size_t ob, size_t s, cl_uint n, const cl_event *w, cl_event *e), (q, a, b, oa, ob, s, n, w, e))
WRAP (F_COPYRECT, cl_int, clEnqueueCopyBufferRect, (cl_command_queue q, cl_mem a, cl_mem b, const size_t *so, const size_t *dor, const size_t *r, size_t srp, size_t ssp, size_t drp, size_t dsp, cl_uint n, const cl_event *w, cl_event *e), (q, a, b, so, dor, r, srp, ssp, drp, dsp, n, w, e))
WRAP (F_READRECT, cl_int, clEnqueueReadBufferRect, (cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho, const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, void *p, cl_uint n, const cl_event *w, cl_event *e), (q, m, b, bo, ho, r, brp, bsp, hrp, hsp, p, n, w, e))
WRAP (F_WRITERECT, cl_int, clEnqueueWriteBufferRect, (cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho, const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, const void *p, cl_uint n, const cl_event *w, cl_event *e), (q, m, b, bo, ho, r, brp, bsp, hrp, hsp, p, n, w, e))
WRAP (F_FILL, cl_int, clEnqueueFillBuffer, (cl_command_queue q, cl_mem m, const void *pat, size_t ps, size_t o, size_t s, cl_uint n, const cl_event *w, cl_event *e), (q, m, pat, ps, o, s, n, w, e))
WRAP (F_FLUSH, cl_int, clFlush, (cl_command_queue q), (q))
WRAP (F_RETAIN, cl_int, clRetainEvent, (cl_event e), (e))
WRAP (F_RELEASE, cl_int, clReleaseEvent, (cl_event e), (e))
WRAP (F_INFO, cl_int, clGetEventInfo, (cl_event e, cl_event_info i, size_t s, void *v, size_t *r), (e, i, s, v, r))
WRAP (F_ARG, cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))
WRAP (F_WAIT, cl_int, clWaitForEvents, (cl_uint n, const cl_event *l), (n, l))
WRAP (F_MAP, void *, clEnqueueMapBuffer, (cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t o, size_t s, cl_uint n, const cl_event *w, cl_event *e, cl_int *st), (q, m, b, f, o, s, n, w, e, st))
WRAP (F_UNMAP, cl_int, clEnqueueUnmapMemObject, (cl_command_queue q, cl_mem m, void *p, cl_uint n, const cl_event *w, cl_event *e), (q, m, p, n, w, e))
WRAP (F_FINISH, cl_int, clFinish, (cl_command_queue q), (q))
WRAP (F_CB, cl_int, clSetEventCallback, (cl_event e, cl_int t, void (CL_CALLBACK *f) (cl_event, cl_int, void *), void *u), (e, t, f, u))
