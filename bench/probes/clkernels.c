/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clkernels: the device time of another program's OpenCL kernels, an
 * LD_PRELOAD shim, for programs that do not report it (FFmpeg's
 * tonemap_opencl in bench/tonemap-gpu.sh). It turns profiling on for
 * every command queue the program creates, keeps an event of every kernel
 * it enqueues, and at exit prints, per kernel name, the launches and the
 * median and mean of their device time (CL_PROFILING_COMMAND_START to
 * _END). Events are kept until exit (at most MAX_EVENTS), so that their
 * times are read without waiting in the program's own calls.
 *
 *     LD_PRELOAD=build/bench/probes/libclkernels.so ffmpeg ...
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 100000
#define MAX_NAMES 32

typedef struct
{
  cl_event event;
  int name;
} Launch;

static Launch launches[MAX_EVENTS];
static int n_launches;
static char names[MAX_NAMES][64];
static int n_names;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

typedef cl_command_queue (*CreateQueue) (cl_context, cl_device_id,
    cl_command_queue_properties, cl_int *);
typedef cl_int (*EnqueueNd) (cl_command_queue, cl_kernel, cl_uint,
    const size_t *, const size_t *, const size_t *, cl_uint,
    const cl_event *, cl_event *);

static void *
next (const char *name)
{
  void *f = dlsym (RTLD_NEXT, name);

  if (!f) {
    fprintf (stderr, "# clkernels: no %s\n", name);
    abort ();
  }
  return f;
}

cl_command_queue
clCreateCommandQueue (cl_context context, cl_device_id device,
    cl_command_queue_properties properties, cl_int * errcode_ret)
{
  static CreateQueue real;

  if (!real)
    real = (CreateQueue) next ("clCreateCommandQueue");
  return real (context, device, properties | CL_QUEUE_PROFILING_ENABLE,
      errcode_ret);
}

/* the index of the kernel's name in names, added where new */
static int
name_index (cl_kernel kernel)
{
  char name[64] = "?";
  int i;

  clGetKernelInfo (kernel, CL_KERNEL_FUNCTION_NAME, sizeof (name), name,
      NULL);
  for (i = 0; i < n_names; i++)
    if (strcmp (names[i], name) == 0)
      return i;
  if (n_names == MAX_NAMES)
    return MAX_NAMES - 1;
  snprintf (names[n_names], sizeof (names[0]), "%s", name);
  return n_names++;
}

cl_int
clEnqueueNDRangeKernel (cl_command_queue queue, cl_kernel kernel,
    cl_uint dim, const size_t * offset, const size_t * global,
    const size_t * local, cl_uint n_wait, const cl_event * wait,
    cl_event * event)
{
  static EnqueueNd real;
  cl_event own = NULL;
  cl_int st;

  if (!real)
    real = (EnqueueNd) next ("clEnqueueNDRangeKernel");
  st = real (queue, kernel, dim, offset, global, local, n_wait, wait,
      event ? event : &own);
  if (st != CL_SUCCESS)
    return st;
  pthread_mutex_lock (&lock);
  if (n_launches < MAX_EVENTS) {
    launches[n_launches].event = event ? *event : own;
    launches[n_launches].name = name_index (kernel);
    if (event)
      clRetainEvent (*event);
    n_launches++;
  } else if (own) {
    clReleaseEvent (own);
  }
  pthread_mutex_unlock (&lock);
  return st;
}

static int
compare (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

__attribute__((destructor))
static void
report (void)
{
  double *t = malloc (sizeof (double) * (n_launches + 1));
  int i, k;

  for (k = 0; k < n_names; k++) {
    int n = 0;
    double sum = 0;
    for (i = 0; i < n_launches; i++) {
      cl_ulong s = 0, e = 0;
      if (launches[i].name != k)
        continue;
      clWaitForEvents (1, &launches[i].event);
      clGetEventProfilingInfo (launches[i].event,
          CL_PROFILING_COMMAND_START, sizeof (s), &s, NULL);
      clGetEventProfilingInfo (launches[i].event, CL_PROFILING_COMMAND_END,
          sizeof (e), &e, NULL);
      t[n++] = (e - s) / 1e3;
      sum += (e - s) / 1e3;
    }
    qsort (t, n, sizeof (double), compare);
    fprintf (stderr, "# clkernels: %-32s %6d launches, median %9.1f us, "
        "mean %9.1f us\n", names[k], n, n ? t[n / 2] : 0, n ? sum / n : 0);
  }
  free (t);
}
