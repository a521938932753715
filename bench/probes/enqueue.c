/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* enqueue: the probe behind "Many streams" in docs/performance.md. Does a
 * device's OpenCL driver take the enqueues of several host threads in
 * parallel, or one at a time? Each of 1, 2, 4, 8 and 16 threads has its own
 * in-order queue on the first GPU (else any device) and repeats a loop of
 * commands; the figure is the wall time over all iterations of all threads
 * (aggregate us an iteration: it falls as threads are added when the driver
 * takes them in parallel, stays or grows when it serialises them).
 *
 * Loops: a tiny kernel, a marker, a flush and a wait for the marker two
 * iterations back (what an element does a frame); the same with the first
 * three under one lock of the probe's own (one thread talks to the driver
 * at a time); ten clSetKernelArg; a status query of a completed event; a
 * marker and its release; an empty clFlush; and the first loop again with a
 * context a thread. Not built by meson; from the project root:
 *
 *     cc -O2 -o /tmp/enqueue bench/probes/enqueue.c -lOpenCL -lpthread
 *     /tmp/enqueue
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

enum
{
  LOOP_FRAME, LOOP_FRAME_LOCKED, LOOP_ARGS, LOOP_STATUS, LOOP_MARKER,
  LOOP_FLUSH, LOOP_FRAME_CONTEXTS, N_LOOPS
};

static const char *const loop_names[N_LOOPS] = {
  "kernel + marker + flush + wait",
  "the same, enqueues under one lock",
  "10 clSetKernelArg",
  "clGetEventInfo (status)",
  "marker + release",
  "empty clFlush",
  "kernel + marker + flush + wait, a context a thread",
};

static const char *source = "__kernel void k (__global uchar * a, int v) "
    "{ size_t i = get_global_id (0); if (i < 64) a[i] += (uchar) v; }";

static cl_device_id device;
static cl_context shared_context;
static int loop, iterations = 2000;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t start, end;    /* the timed loops, all threads */
static cl_program shared_program;

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* one iteration of the frame-like loops; *prev is the marker before */
static void
frame (cl_command_queue q, cl_kernel k, cl_event * prev, cl_event * older)
{
  const size_t global = 64;
  cl_event e;

  if (loop == LOOP_FRAME_LOCKED)
    pthread_mutex_lock (&lock);
  clEnqueueNDRangeKernel (q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
  clEnqueueMarkerWithWaitList (q, 0, NULL, &e);
  clFlush (q);
  if (loop == LOOP_FRAME_LOCKED)
    pthread_mutex_unlock (&lock);
  if (*older) {
    clWaitForEvents (1, older);
    clReleaseEvent (*older);
  }
  *older = *prev;
  *prev = e;
}

static void *
thread (void *data)
{
  cl_context ctx = loop == LOOP_FRAME_CONTEXTS ?
      clCreateContext (NULL, 1, &device, NULL, NULL, NULL) : shared_context;
  cl_program program = shared_program;
  cl_command_queue q = clCreateCommandQueue (ctx, device, 0, NULL);
  cl_mem m = clCreateBuffer (ctx, CL_MEM_READ_WRITE, 64, NULL, NULL);
  cl_event prev = NULL, older = NULL, done;
  cl_kernel k;
  cl_int v = 1, status;
  int i, a;

  if (ctx != shared_context) {
    program = clCreateProgramWithSource (ctx, 1, &source, NULL, NULL);
    clBuildProgram (program, 1, &device, "", NULL, NULL);
  }
  k = clCreateKernel (program, "k", NULL);
  clSetKernelArg (k, 0, sizeof (m), &m);
  clSetKernelArg (k, 1, sizeof (v), &v);
  clEnqueueMarkerWithWaitList (q, 0, NULL, &done);
  clFinish (q);
  pthread_barrier_wait (&start);
  for (i = 0; i < iterations; i++) {
    switch (loop) {
      case LOOP_ARGS:
        for (a = 0; a < 10; a++)
          clSetKernelArg (k, 1, sizeof (v), &v);
        break;
      case LOOP_STATUS:
        clGetEventInfo (done, CL_EVENT_COMMAND_EXECUTION_STATUS,
            sizeof (status), &status, NULL);
        break;
      case LOOP_MARKER:{
        cl_event e;
        clEnqueueMarkerWithWaitList (q, 0, NULL, &e);
        clReleaseEvent (e);
        break;
      }
      case LOOP_FLUSH:
        clFlush (q);
        break;
      default:
        frame (q, k, &prev, &older);
    }
  }
  clFinish (q);
  pthread_barrier_wait (&end);
  if (prev)
    clReleaseEvent (prev);
  if (older)
    clReleaseEvent (older);
  clReleaseEvent (done);
  clReleaseMemObject (m);
  clReleaseKernel (k);
  clReleaseCommandQueue (q);
  if (ctx != shared_context) {
    clReleaseProgram (program);
    clReleaseContext (ctx);
  }
  return NULL;
}

int
main (void)
{
  cl_platform_id platforms[8];
  cl_uint n_platforms = 0, p;
  char name[256] = "";
  int n;

  clGetPlatformIDs (8, platforms, &n_platforms);
  for (p = 0; p < n_platforms && !device; p++)
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_GPU, 1, &device,
            NULL) != CL_SUCCESS)
      device = NULL;
  for (p = 0; p < n_platforms && !device; p++)
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 1, &device,
            NULL) != CL_SUCCESS)
      device = NULL;
  if (!device) {
    fprintf (stderr, "no OpenCL device\n");
    return 1;
  }
  clGetDeviceInfo (device, CL_DEVICE_NAME, sizeof (name), name, NULL);
  printf ("# %s, %d iterations a thread\n", name, iterations);
  shared_context = clCreateContext (NULL, 1, &device, NULL, NULL, NULL);
  shared_program = clCreateProgramWithSource (shared_context, 1, &source,
      NULL, NULL);
  clBuildProgram (shared_program, 1, &device, "", NULL, NULL);
  for (loop = 0; loop < N_LOOPS; loop++) {
    for (n = 1; n <= 16; n *= 2) {
      pthread_t threads[16];
      double t0, dt;
      int i;
      pthread_barrier_init (&start, NULL, n + 1);
      pthread_barrier_init (&end, NULL, n + 1);
      for (i = 0; i < n; i++)
        pthread_create (&threads[i], NULL, thread, NULL);
      /* set-up (contexts, builds) is not timed */
      pthread_barrier_wait (&start);
      t0 = now ();
      pthread_barrier_wait (&end);
      dt = now () - t0;
      for (i = 0; i < n; i++)
        pthread_join (threads[i], NULL);
      pthread_barrier_destroy (&start);
      pthread_barrier_destroy (&end);
      printf ("%-52s threads %2d: %8.3f us an iteration, all threads\n",
          loop_names[loop], n, dt * 1e6 / ((double) n * iterations));
      fflush (stdout);
    }
  }
  clReleaseProgram (shared_program);
  clReleaseContext (shared_context);
  return 0;
}
