/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* cllayer.c: an OpenCL layer for the tests (loaded with OPENCL_LAYERS).
 *
 * - Counts live OpenCL objects by kind (contexts, command queues, programs,
 *   kernels, memory objects, SVM allocations): creations and retains minus
 *   releases. Tests
 *   read the counts through clfilters_layer_live() (dlsym) and check that
 *   they return to zero.
 * - Injects faults: CLFILTERS_LAYER_FAIL="clCreateBuffer:3" makes the 3rd
 *   call of clCreateBuffer fail (and every later one with
 *   CLFILTERS_LAYER_FAIL_ALL=1), counting from the first call made after the
 *   variable took its current value. Functions that can be made to fail:
 *   clCreateBuffer, clCreateImage, clCreateKernel, clCreateCommandQueue,
 *   clEnqueueNDRangeKernel, clEnqueueWriteBufferRect, clEnqueueReadBufferRect,
 *   clEnqueueMapBuffer, clEnqueueReadBuffer, clBuildProgram,
 *   clEnqueueWriteBuffer, clSVMAlloc.
 * - Counts frame transfers between host and device: uploads
 *   (clEnqueueWriteBuffer, clEnqueueWriteBufferRect, clEnqueueWriteImage)
 *   and downloads (clEnqueueReadBuffer, clEnqueueReadBufferRect,
 *   clEnqueueReadImage) of at least CLFILTERS_LAYER_MIN_BYTES bytes (so that
 *   small reads, like histogram counts, are left out), read through
 *   clfilters_layer_transfers().
 */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_layer.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum
{ K_CONTEXT, K_QUEUE, K_PROGRAM, K_KERNEL, K_MEM, K_SVM, N_KINDS };
static const char *const kind_names[N_KINDS] = { "context", "queue",
  "program", "kernel", "mem", "svm"
};

static atomic_long live[N_KINDS];
static atomic_long calls[16];
static char last_spec[128];
static pthread_mutex_t spec_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_icd_dispatch next;    /* the layer below */
static cl_icd_dispatch dispatch;        /* ours */

/* Live objects of @kind ("context", "queue", "program", "kernel", "mem",
 * "svm"),
 * or of every kind with NULL. */
__attribute__ ((visibility ("default")))
long
clfilters_layer_live (const char *kind)
{
  long total = 0;
  for (int i = 0; i < N_KINDS; i++)
    if (!kind || strcmp (kind, kind_names[i]) == 0)
      total += atomic_load (&live[i]);
  return total;
}

static atomic_long transfers[2];     /* uploads, downloads */

/* Frame transfers counted so far: @dir "upload" or "download"; with @reset,
 * the counter is then set back to 0. */
__attribute__ ((visibility ("default")))
long
clfilters_layer_transfers (const char *dir, int reset)
{
  int i = strcmp (dir, "upload") == 0 ? 0 : 1;
  return reset ? atomic_exchange (&transfers[i], 0) :
      atomic_load (&transfers[i]);
}

static void
count_transfer (int download, size_t bytes)
{
  const char *min = getenv ("CLFILTERS_LAYER_MIN_BYTES");
  if (bytes >= (size_t) (min ? atol (min) : 0))
    atomic_fetch_add (&transfers[download], 1);
}

/* Whether call number n (from 1) of the function @slot/@name must fail. */
static int
fail_now (int slot, const char *name)
{
  const char *spec = getenv ("CLFILTERS_LAYER_FAIL");
  size_t len = strlen (name);
  long n, at;

  if (!spec)
    return 0;
  pthread_mutex_lock (&spec_lock);
  if (strncmp (spec, last_spec, sizeof (last_spec)) != 0) {
    /* a new fault: count calls from now */
    for (int i = 0; i < 16; i++)
      atomic_store (&calls[i], 0);
    strncpy (last_spec, spec, sizeof (last_spec) - 1);
  }
  pthread_mutex_unlock (&spec_lock);
  n = atomic_fetch_add (&calls[slot], 1) + 1;
  if (strncmp (spec, name, len) != 0 || spec[len] != ':')
    return 0;
  at = atol (spec + len + 1);
  if (n == at)
    return 1;
  return n > at && getenv ("CLFILTERS_LAYER_FAIL_ALL") != NULL;
}

#define COUNT_CREATE(kind, obj) do { if (obj) atomic_fetch_add (&live[kind], 1); } while (0)
#define FAIL_ERR(slot, name, code) \
  do { if (fail_now (slot, name)) { if (errcode_ret) *errcode_ret = (code); return NULL; } } while (0)
#define FAIL_RET(slot, name, code) \
  do { if (fail_now (slot, name)) return (code); } while (0)

/* contexts */
static cl_context CL_API_CALL
l_clCreateContext (const cl_context_properties * p, cl_uint n,
    const cl_device_id * d, void (CL_CALLBACK * cb) (const char *,
        const void *, size_t, void *), void *ud, cl_int * errcode_ret)
{
  cl_context c = next.clCreateContext (p, n, d, cb, ud, errcode_ret);
  COUNT_CREATE (K_CONTEXT, c);
  return c;
}

static cl_int CL_API_CALL
l_clRetainContext (cl_context c)
{
  cl_int st = next.clRetainContext (c);
  if (st == CL_SUCCESS)
    atomic_fetch_add (&live[K_CONTEXT], 1);
  return st;
}

static cl_int CL_API_CALL
l_clReleaseContext (cl_context c)
{
  cl_int st = next.clReleaseContext (c);
  if (st == CL_SUCCESS)
    atomic_fetch_sub (&live[K_CONTEXT], 1);
  return st;
}

/* queues */
static cl_command_queue CL_API_CALL
l_clCreateCommandQueue (cl_context c, cl_device_id d,
    cl_command_queue_properties p, cl_int * errcode_ret)
{
  cl_command_queue q;
  FAIL_ERR (0, "clCreateCommandQueue", CL_OUT_OF_RESOURCES);
  q = next.clCreateCommandQueue (c, d, p, errcode_ret);
  COUNT_CREATE (K_QUEUE, q);
  return q;
}

static cl_int CL_API_CALL
l_clRetainCommandQueue (cl_command_queue q)
{
  cl_int st = next.clRetainCommandQueue (q);
  if (st == CL_SUCCESS)
    atomic_fetch_add (&live[K_QUEUE], 1);
  return st;
}

static cl_int CL_API_CALL
l_clReleaseCommandQueue (cl_command_queue q)
{
  cl_int st = next.clReleaseCommandQueue (q);
  if (st == CL_SUCCESS)
    atomic_fetch_sub (&live[K_QUEUE], 1);
  return st;
}

/* programs */
static cl_program CL_API_CALL
l_clCreateProgramWithSource (cl_context c, cl_uint n, const char **s,
    const size_t * l, cl_int * errcode_ret)
{
  cl_program p = next.clCreateProgramWithSource (c, n, s, l, errcode_ret);
  COUNT_CREATE (K_PROGRAM, p);
  return p;
}

static cl_int CL_API_CALL
l_clBuildProgram (cl_program p, cl_uint n, const cl_device_id * d,
    const char *o, void (CL_CALLBACK * cb) (cl_program, void *), void *ud)
{
  FAIL_RET (1, "clBuildProgram", CL_BUILD_PROGRAM_FAILURE);
  return next.clBuildProgram (p, n, d, o, cb, ud);
}

static cl_int CL_API_CALL
l_clRetainProgram (cl_program p)
{
  cl_int st = next.clRetainProgram (p);
  if (st == CL_SUCCESS)
    atomic_fetch_add (&live[K_PROGRAM], 1);
  return st;
}

static cl_int CL_API_CALL
l_clReleaseProgram (cl_program p)
{
  cl_int st = next.clReleaseProgram (p);
  if (st == CL_SUCCESS)
    atomic_fetch_sub (&live[K_PROGRAM], 1);
  return st;
}

/* kernels */
static cl_kernel CL_API_CALL
l_clCreateKernel (cl_program p, const char *name, cl_int * errcode_ret)
{
  cl_kernel k;
  FAIL_ERR (2, "clCreateKernel", CL_OUT_OF_RESOURCES);
  k = next.clCreateKernel (p, name, errcode_ret);
  COUNT_CREATE (K_KERNEL, k);
  return k;
}

static cl_int CL_API_CALL
l_clRetainKernel (cl_kernel k)
{
  cl_int st = next.clRetainKernel (k);
  if (st == CL_SUCCESS)
    atomic_fetch_add (&live[K_KERNEL], 1);
  return st;
}

static cl_int CL_API_CALL
l_clReleaseKernel (cl_kernel k)
{
  cl_int st = next.clReleaseKernel (k);
  if (st == CL_SUCCESS)
    atomic_fetch_sub (&live[K_KERNEL], 1);
  return st;
}

/* memory objects */
static cl_mem CL_API_CALL
l_clCreateBuffer (cl_context c, cl_mem_flags f, size_t s, void *h,
    cl_int * errcode_ret)
{
  cl_mem m;
  FAIL_ERR (3, "clCreateBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE);
  m = next.clCreateBuffer (c, f, s, h, errcode_ret);
  COUNT_CREATE (K_MEM, m);
  return m;
}

static cl_mem CL_API_CALL
l_clCreateImage (cl_context c, cl_mem_flags f, const cl_image_format * fmt,
    const cl_image_desc * d, void *h, cl_int * errcode_ret)
{
  cl_mem m;
  FAIL_ERR (4, "clCreateImage", CL_MEM_OBJECT_ALLOCATION_FAILURE);
  m = next.clCreateImage (c, f, fmt, d, h, errcode_ret);
  COUNT_CREATE (K_MEM, m);
  return m;
}

static cl_int CL_API_CALL
l_clRetainMemObject (cl_mem m)
{
  cl_int st = next.clRetainMemObject (m);
  if (st == CL_SUCCESS)
    atomic_fetch_add (&live[K_MEM], 1);
  return st;
}

static cl_int CL_API_CALL
l_clReleaseMemObject (cl_mem m)
{
  cl_int st = next.clReleaseMemObject (m);
  if (st == CL_SUCCESS)
    atomic_fetch_sub (&live[K_MEM], 1);
  return st;
}

/* shared virtual memory */
static void *CL_API_CALL
l_clSVMAlloc (cl_context c, cl_svm_mem_flags f, size_t s, cl_uint a)
{
  void *p;
  if (fail_now (12, "clSVMAlloc"))
    return NULL;
  p = next.clSVMAlloc (c, f, s, a);
  COUNT_CREATE (K_SVM, p);
  return p;
}

static void CL_API_CALL
l_clSVMFree (cl_context c, void *p)
{
  if (p)
    atomic_fetch_sub (&live[K_SVM], 1);
  next.clSVMFree (c, p);
}

/* enqueues that can be made to fail */
static cl_int CL_API_CALL
l_clEnqueueNDRangeKernel (cl_command_queue q, cl_kernel k, cl_uint dim,
    const size_t * off, const size_t * g, const size_t * l, cl_uint n,
    const cl_event * w, cl_event * e)
{
  FAIL_RET (5, "clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES);
  return next.clEnqueueNDRangeKernel (q, k, dim, off, g, l, n, w, e);
}

static cl_int CL_API_CALL
l_clEnqueueWriteBufferRect (cl_command_queue q, cl_mem m, cl_bool b,
    const size_t * bo, const size_t * ho, const size_t * r, size_t brp,
    size_t bsp, size_t hrp, size_t hsp, const void *p, cl_uint n,
    const cl_event * w, cl_event * e)
{
  FAIL_RET (6, "clEnqueueWriteBufferRect", CL_OUT_OF_RESOURCES);
  count_transfer (0, r[0] * r[1] * r[2]);
  return next.clEnqueueWriteBufferRect (q, m, b, bo, ho, r, brp, bsp, hrp,
      hsp, p, n, w, e);
}

static cl_int CL_API_CALL
l_clEnqueueReadBufferRect (cl_command_queue q, cl_mem m, cl_bool b,
    const size_t * bo, const size_t * ho, const size_t * r, size_t brp,
    size_t bsp, size_t hrp, size_t hsp, void *p, cl_uint n,
    const cl_event * w, cl_event * e)
{
  FAIL_RET (7, "clEnqueueReadBufferRect", CL_OUT_OF_RESOURCES);
  count_transfer (1, r[0] * r[1] * r[2]);
  return next.clEnqueueReadBufferRect (q, m, b, bo, ho, r, brp, bsp, hrp,
      hsp, p, n, w, e);
}

static void *CL_API_CALL
l_clEnqueueMapBuffer (cl_command_queue q, cl_mem m, cl_bool b,
    cl_map_flags f, size_t o, size_t s, cl_uint n, const cl_event * w,
    cl_event * e, cl_int * errcode_ret)
{
  FAIL_ERR (8, "clEnqueueMapBuffer", CL_MAP_FAILURE);
  return next.clEnqueueMapBuffer (q, m, b, f, o, s, n, w, e, errcode_ret);
}

static cl_int CL_API_CALL
l_clEnqueueReadBuffer (cl_command_queue q, cl_mem m, cl_bool b, size_t o,
    size_t s, void *p, cl_uint n, const cl_event * w, cl_event * e)
{
  FAIL_RET (9, "clEnqueueReadBuffer", CL_OUT_OF_RESOURCES);
  count_transfer (1, s);
  return next.clEnqueueReadBuffer (q, m, b, o, s, p, n, w, e);
}

static cl_int CL_API_CALL
l_clEnqueueWriteBuffer (cl_command_queue q, cl_mem m, cl_bool b, size_t o,
    size_t s, const void *p, cl_uint n, const cl_event * w, cl_event * e)
{
  FAIL_RET (11, "clEnqueueWriteBuffer", CL_OUT_OF_RESOURCES);
  count_transfer (0, s);
  return next.clEnqueueWriteBuffer (q, m, b, o, s, p, n, w, e);
}

static cl_int CL_API_CALL
l_clEnqueueWriteImage (cl_command_queue q, cl_mem m, cl_bool b,
    const size_t * o, const size_t * r, size_t rp, size_t sp, const void *p,
    cl_uint n, const cl_event * w, cl_event * e)
{
  count_transfer (0, r[0] * r[1] * r[2]);
  return next.clEnqueueWriteImage (q, m, b, o, r, rp, sp, p, n, w, e);
}

static cl_int CL_API_CALL
l_clEnqueueReadImage (cl_command_queue q, cl_mem m, cl_bool b,
    const size_t * o, const size_t * r, size_t rp, size_t sp, void *p,
    cl_uint n, const cl_event * w, cl_event * e)
{
  count_transfer (1, r[0] * r[1] * r[2]);
  return next.clEnqueueReadImage (q, m, b, o, r, rp, sp, p, n, w, e);
}

__attribute__ ((visibility ("default")))
CL_API_ENTRY cl_int CL_API_CALL
clGetLayerInfo (cl_layer_info param_name, size_t size, void *value,
    size_t * size_ret)
{
  static const char name[] = "clfilters test layer";
  const void *src;
  size_t n;
  cl_layer_api_version version = CL_LAYER_API_VERSION_100;

  switch (param_name) {
    case CL_LAYER_API_VERSION:
      src = &version;
      n = sizeof (version);
      break;
    case CL_LAYER_NAME:
      src = name;
      n = sizeof (name);
      break;
    default:
      return CL_INVALID_VALUE;
  }
  if (value) {
    if (size < n)
      return CL_INVALID_VALUE;
    memcpy (value, src, n);
  }
  if (size_ret)
    *size_ret = n;
  return CL_SUCCESS;
}

__attribute__ ((visibility ("default")))
CL_API_ENTRY cl_int CL_API_CALL
clInitLayer (cl_uint num_entries, const cl_icd_dispatch * target,
    cl_uint * num_entries_ret, const cl_icd_dispatch ** layer_dispatch)
{
  const cl_uint n = sizeof (cl_icd_dispatch) / sizeof (void *);
  if (!target || !num_entries_ret || !layer_dispatch || num_entries < n)
    return CL_INVALID_VALUE;
  next = *target;
  dispatch = *target;
#define WRAP(f) dispatch.f = l_##f
  WRAP (clCreateContext);
  WRAP (clRetainContext);
  WRAP (clReleaseContext);
  WRAP (clCreateCommandQueue);
  WRAP (clRetainCommandQueue);
  WRAP (clReleaseCommandQueue);
  WRAP (clCreateProgramWithSource);
  WRAP (clBuildProgram);
  WRAP (clRetainProgram);
  WRAP (clReleaseProgram);
  WRAP (clCreateKernel);
  WRAP (clRetainKernel);
  WRAP (clReleaseKernel);
  WRAP (clCreateBuffer);
  WRAP (clCreateImage);
  WRAP (clRetainMemObject);
  WRAP (clReleaseMemObject);
  WRAP (clSVMAlloc);
  WRAP (clSVMFree);
  WRAP (clEnqueueNDRangeKernel);
  WRAP (clEnqueueWriteBufferRect);
  WRAP (clEnqueueReadBufferRect);
  WRAP (clEnqueueMapBuffer);
  WRAP (clEnqueueReadBuffer);
  WRAP (clEnqueueWriteBuffer);
  WRAP (clEnqueueWriteImage);
  WRAP (clEnqueueReadImage);
#undef WRAP
  *num_entries_ret = n;
  *layer_dispatch = &dispatch;
  return CL_SUCCESS;
}
