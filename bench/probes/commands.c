/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* commands: what each kind of command an element enqueues costs the host,
 * one thread, one in-order queue (the call's time; on NVIDIA the device's
 * lock is held about that long, so these times add up over all streams of
 * a device: docs/performance.md, "What limits streams on one GPU"). The
 * kinds are those the frame loop chooses between: a marker or the last
 * command's own event, a barrier or a wait list on the first command, a
 * rectangle copy, a linear copy or a copy kernel for the planes the
 * filters do not touch, a fill, and a flush after a command or of an empty
 * queue. The device is kept fed (a flush every 8 commands, a wait every 64)
 * so that the figures are of a steady stream, not of a full queue.
 * An argument N makes N more buffers of a frame's size in the context
 * first (each written once, so that it is on the device), as many
 * streams' pools and staging hold: does a command's cost grow with them?
 *
 *     build/bench/probes/commands [N]
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PLANE_BYTES (1920 * 540)        /* 1080p NV12's chroma plane */
#define ROUNDS 4000

static const char *source =
    "__kernel void copy (__global const uint4 * a, __global uint4 * b, "
    "int n) { size_t i = get_global_id (0); if (i < n) b[i] = a[i]; }";

static cl_context ctx;
static cl_command_queue q, other;
static cl_mem a, b;
static cl_kernel k;
static cl_event upload;

enum
{
  K_KERNEL, K_KERNEL_EVENT, K_KERNEL_WAIT, K_MARKER, K_BARRIER,
  K_COPY_RECT, K_COPY, K_FILL, K_FLUSH_EMPTY, K_RELEASE, N_KINDS
};

static const char *const names[N_KINDS] = {
  "copy kernel, no event", "copy kernel and its event",
  "copy kernel, wait list of 1 (other queue)", "marker",
  "barrier, wait list of 1 (other queue)", "rectangle copy",
  "linear copy", "fill (4 KiB)", "empty clFlush", "event release"
};

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void
kernel (cl_uint n_wait, const cl_event * wait, cl_event * ev)
{
  size_t global = PLANE_BYTES / 16, local = 256;
  global = (global + local - 1) / local * local;
  clEnqueueNDRangeKernel (q, k, 1, NULL, &global, &local, n_wait, wait, ev);
}

/* one command of @kind; returns the seconds its calls took */
static double
command (int kind)
{
  size_t origin[3] = { 0, 0, 0 }, region[3] = { 1920, 540, 1 };
  cl_uint zero = 0;
  cl_event ev = NULL;
  double t = now (), t2;

  switch (kind) {
    case K_KERNEL:
      kernel (0, NULL, NULL);
      break;
    case K_KERNEL_EVENT:
      kernel (0, NULL, &ev);
      break;
    case K_KERNEL_WAIT:
      kernel (1, &upload, NULL);
      break;
    case K_MARKER:
      clEnqueueMarkerWithWaitList (q, 0, NULL, &ev);
      break;
    case K_BARRIER:
      clEnqueueBarrierWithWaitList (q, 1, &upload, NULL);
      break;
    case K_COPY_RECT:
      clEnqueueCopyBufferRect (q, a, b, origin, origin, region, 1920, 0,
          1920, 0, 0, NULL, NULL);
      break;
    case K_COPY:
      clEnqueueCopyBuffer (q, a, b, 0, 0, PLANE_BYTES, 0, NULL, NULL);
      break;
    case K_FILL:
      clEnqueueFillBuffer (q, b, &zero, 4, 0, 4096, 0, NULL, NULL);
      break;
    case K_FLUSH_EMPTY:
      clFlush (q);
      break;
    case K_RELEASE:
      clEnqueueMarkerWithWaitList (q, 0, NULL, &ev);
      t = now ();
      clReleaseEvent (ev);
      return now () - t;
  }
  t2 = now () - t;
  if (ev)
    clReleaseEvent (ev);
  return t2;
}

/* @n more buffers of 3 MB in the context, each written once */
static void
more_buffers (int n)
{
  static char zeros[3 << 20];
  int i;

  for (i = 0; i < n; i++) {
    cl_mem m = clCreateBuffer (ctx, CL_MEM_READ_WRITE, sizeof (zeros), NULL,
        NULL);
    clEnqueueWriteBuffer (q, m, CL_FALSE, 0, sizeof (zeros), zeros, 0, NULL,
        NULL);
  }
  clFinish (q);
}

int
main (int argc, char **argv)
{
  cl_platform_id platforms[8];
  cl_uint n_platforms = 0, p;
  cl_device_id device = NULL;
  cl_program program;
  char name[256];
  int kind, i, n = PLANE_BYTES / 16;

  clGetPlatformIDs (8, platforms, &n_platforms);
  for (p = 0; p < n_platforms && !device; p++)
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_GPU, 1, &device,
            NULL) != CL_SUCCESS)
      device = NULL;
  for (p = 0; p < n_platforms && !device; p++)
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 1, &device,
            NULL) != CL_SUCCESS)
      device = NULL;
  if (!device)
    return 77;
  clGetDeviceInfo (device, CL_DEVICE_NAME, sizeof (name), name, NULL);
  ctx = clCreateContext (NULL, 1, &device, NULL, NULL, NULL);
  q = clCreateCommandQueue (ctx, device, 0, NULL);
  other = clCreateCommandQueue (ctx, device, 0, NULL);
  a = clCreateBuffer (ctx, CL_MEM_READ_WRITE, PLANE_BYTES, NULL, NULL);
  b = clCreateBuffer (ctx, CL_MEM_READ_WRITE, PLANE_BYTES, NULL, NULL);
  program = clCreateProgramWithSource (ctx, 1, &source, NULL, NULL);
  clBuildProgram (program, 1, &device, NULL, NULL, NULL);
  k = clCreateKernel (program, "copy", NULL);
  clSetKernelArg (k, 0, sizeof (a), &a);
  clSetKernelArg (k, 1, sizeof (b), &b);
  clSetKernelArg (k, 2, sizeof (n), &n);
  clEnqueueMarkerWithWaitList (other, 0, NULL, &upload);
  clFinish (other);
  more_buffers (argc > 1 ? atoi (argv[1]) : 0);
  printf ("# commands: %s, %d more buffers, us a call (one thread, "
      "steady stream)\n", name, argc > 1 ? atoi (argv[1]) : 0);
  for (kind = 0; kind < N_KINDS; kind++) {
    double total = 0;
    for (i = 0; i < ROUNDS; i++) {
      total += command (kind);
      if (i % 8 == 7)
        clFlush (q);
      if (i % 64 == 63)
        clFinish (q);
    }
    clFinish (q);
    printf ("%-44s %7.2f\n", names[kind], total / ROUNDS * 1e6);
  }
  {
    double t = now ();
    for (i = 0; i < ROUNDS; i++) {
      kernel (0, NULL, NULL);
      clFlush (q);
      if (i % 64 == 63)
        clFinish (q);
    }
    clFinish (q);
    printf ("%-44s %7.2f\n", "copy kernel + flush, wall",
        (now () - t) / ROUNDS * 1e6);
  }
  return 0;
}
