/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcl.c: error reporting helpers of the clfilters core. */
#include "gstcl.h"

#include <stdarg.h>

G_DEFINE_QUARK (gst-cl-error-quark, gst_cl_error);

const gchar *
gst_cl_status_name (cl_int status)
{
  switch (status) {
#define N(x) case x: return #x
      N (CL_SUCCESS);
      N (CL_DEVICE_NOT_FOUND);
      N (CL_DEVICE_NOT_AVAILABLE);
      N (CL_COMPILER_NOT_AVAILABLE);
      N (CL_MEM_OBJECT_ALLOCATION_FAILURE);
      N (CL_OUT_OF_RESOURCES);
      N (CL_OUT_OF_HOST_MEMORY);
      N (CL_PROFILING_INFO_NOT_AVAILABLE);
      N (CL_MEM_COPY_OVERLAP);
      N (CL_IMAGE_FORMAT_MISMATCH);
      N (CL_IMAGE_FORMAT_NOT_SUPPORTED);
      N (CL_BUILD_PROGRAM_FAILURE);
      N (CL_MAP_FAILURE);
      N (CL_MISALIGNED_SUB_BUFFER_OFFSET);
      N (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      N (CL_COMPILE_PROGRAM_FAILURE);
      N (CL_LINKER_NOT_AVAILABLE);
      N (CL_LINK_PROGRAM_FAILURE);
      N (CL_DEVICE_PARTITION_FAILED);
      N (CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
      N (CL_INVALID_VALUE);
      N (CL_INVALID_DEVICE_TYPE);
      N (CL_INVALID_PLATFORM);
      N (CL_INVALID_DEVICE);
      N (CL_INVALID_CONTEXT);
      N (CL_INVALID_QUEUE_PROPERTIES);
      N (CL_INVALID_COMMAND_QUEUE);
      N (CL_INVALID_HOST_PTR);
      N (CL_INVALID_MEM_OBJECT);
      N (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
      N (CL_INVALID_IMAGE_SIZE);
      N (CL_INVALID_SAMPLER);
      N (CL_INVALID_BINARY);
      N (CL_INVALID_BUILD_OPTIONS);
      N (CL_INVALID_PROGRAM);
      N (CL_INVALID_PROGRAM_EXECUTABLE);
      N (CL_INVALID_KERNEL_NAME);
      N (CL_INVALID_KERNEL_DEFINITION);
      N (CL_INVALID_KERNEL);
      N (CL_INVALID_ARG_INDEX);
      N (CL_INVALID_ARG_VALUE);
      N (CL_INVALID_ARG_SIZE);
      N (CL_INVALID_KERNEL_ARGS);
      N (CL_INVALID_WORK_DIMENSION);
      N (CL_INVALID_WORK_GROUP_SIZE);
      N (CL_INVALID_WORK_ITEM_SIZE);
      N (CL_INVALID_GLOBAL_OFFSET);
      N (CL_INVALID_EVENT_WAIT_LIST);
      N (CL_INVALID_EVENT);
      N (CL_INVALID_OPERATION);
      N (CL_INVALID_BUFFER_SIZE);
      N (CL_INVALID_GLOBAL_WORK_SIZE);
      N (CL_INVALID_PROPERTY);
      N (CL_INVALID_IMAGE_DESCRIPTOR);
      N (CL_INVALID_COMPILER_OPTIONS);
      N (CL_INVALID_LINKER_OPTIONS);
#undef N
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "unknown OpenCL error";
  }
}

gboolean
gst_cl_fail (GError ** error, cl_int status, const gchar * what)
{
  g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
      "%s failed: %s (%d)", what, gst_cl_status_name (status), status);
  return FALSE;
}

gboolean
gst_cl_set_args (cl_kernel kernel, GError ** error, ...)
{
  va_list ap;
  gsize size;
  cl_uint index = 0;
  gboolean ok = TRUE;

  va_start (ap, error);
  while ((size = va_arg (ap, gsize)) != 0) {
    const void *value = va_arg (ap, const void *);
    cl_int st = clSetKernelArg (kernel, index, size, value);
    if (st != CL_SUCCESS) {
      gchar *what = g_strdup_printf ("clSetKernelArg (%u)", index);
      ok = gst_cl_fail (error, st, what);
      g_free (what);
      break;
    }
    index++;
  }
  va_end (ap);
  return ok;
}

static cl_int
event_status (cl_event event)
{
  cl_int status = CL_QUEUED;
  cl_int st = clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS,
      sizeof (status), &status, NULL);
  return st != CL_SUCCESS ? st : status;
}

/* clWaitForEvents for the commands of @queue, rather than wait_polling():
 * on CPU devices (POCL's wait sleeps, and polling takes the cores the
 * kernels run on), or everywhere with GST_CL_WAIT=spin */
static gboolean
wait_blocks (cl_command_queue queue)
{
  static gsize env = 0;
  cl_device_type type = CL_DEVICE_TYPE_GPU;
  cl_device_id device;

  if (g_once_init_enter (&env))
    g_once_init_leave (&env, g_strcmp0 (g_getenv ("GST_CL_WAIT"),
            "spin") == 0 ? 2 : 1);
  if (env == 2)
    return TRUE;
  if (queue && clGetCommandQueueInfo (queue, CL_QUEUE_DEVICE,
          sizeof (device), &device, NULL) == CL_SUCCESS)
    clGetDeviceInfo (device, CL_DEVICE_TYPE, sizeof (type), &type, NULL);
  return (type & CL_DEVICE_TYPE_CPU) != 0;
}

/* the status looked at without a pause for this long, for the commands
 * about to complete; then with pauses growing to MAX_PAUSE_US */
#define POLL_US 20
#define MAX_PAUSE_US 100

static cl_int
wait_polling (cl_event event)
{
  gint64 until = g_get_monotonic_time () + POLL_US;
  gulong pause = 5;
  cl_int status;

  while ((status = event_status (event)) != CL_COMPLETE && status >= 0) {
    if (g_get_monotonic_time () < until)
      continue;
    g_usleep (pause);
    pause = MIN (pause * 2, MAX_PAUSE_US);
  }
  return status;
}

/**
 * gst_cl_event_wait:
 *
 * Waits on the host for @event; FALSE with @error set when the command
 * failed. One of the few host waits of the plugin (CPU maps, the bound on
 * frames in flight, stop): see docs/design.md.
 *
 * On a GPU the wait looks at the event's status, briefly without a pause,
 * then sleeping between looks. NVIDIA's clWaitForEvents spins: each
 * waiting thread burns a core, and with many streams the waiting threads
 * take the host's cores from those with work. Event callbacks are no
 * better: the driver runs them late, tens of milliseconds behind. CPU
 * devices, and GST_CL_WAIT=spin, use clWaitForEvents (docs/performance.md,
 * "Many streams").
 */
gboolean
gst_cl_event_wait (cl_event event, GError ** error)
{
  cl_command_queue queue = NULL;
  cl_int st, status = event_status (event);

  if (status == CL_COMPLETE)
    return TRUE;
  if (status < 0)
    return gst_cl_fail (error, status, "the command");
  /* the command must be submitted, or nothing ever completes it (the
   * core flushes what it enqueues; a driver's calls are not free: NVIDIA's
   * take one lock for every thread of the process) */
  if (clGetEventInfo (event, CL_EVENT_COMMAND_QUEUE, sizeof (queue), &queue,
          NULL) != CL_SUCCESS)
    queue = NULL;
  if (status == CL_QUEUED && queue)
    clFlush (queue);
  if (wait_blocks (queue)) {
    st = clWaitForEvents (1, &event);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clWaitForEvents");
    return TRUE;
  }
  status = wait_polling (event);
  if (status < 0)
    return gst_cl_fail (error, status, "the command");
  return TRUE;
}

/**
 * gst_cl_buffer_ensure:
 * @mem: (inout): the buffer, replaced by a larger one where it holds less
 *   than @size bytes (its content is then lost)
 * @have: (inout): the bytes *@mem holds
 * @fresh: (out) (optional): set to TRUE when a new buffer was made
 * @what: names the allocation in errors
 *
 * A device buffer of at least @size bytes in *@mem.
 */
gboolean
gst_cl_buffer_ensure (cl_context context, cl_mem * mem, gsize * have,
    gsize size, gboolean * fresh, const gchar * what, GError ** error)
{
  cl_int st;

  if (*mem && *have >= size)
    return TRUE;
  g_clear_pointer (mem, clReleaseMemObject);
  *have = 0;
  *mem = clCreateBuffer (context, CL_MEM_READ_WRITE, size, NULL, &st);
  if (st != CL_SUCCESS) {
    *mem = NULL;
    return gst_cl_fail (error, st, what);
  }
  *have = size;
  if (fresh)
    *fresh = TRUE;
  return TRUE;
}

/**
 * gst_cl_buffer_zero:
 * @what: names the fill in errors
 *
 * Enqueues the zeroing of the first @size bytes of @mem on @queue.
 */
gboolean
gst_cl_buffer_zero (cl_command_queue queue, cl_mem mem, gsize size,
    const gchar * what, GError ** error)
{
  const cl_uint zero = 0;
  cl_int st = clEnqueueFillBuffer (queue, mem, &zero, sizeof (zero), 0, size,
      0, NULL, NULL);

  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, what);
  return TRUE;
}

/**
 * gst_cl_event_done:
 *
 * Whether @event has completed (or failed), without waiting.
 */
gboolean
gst_cl_event_done (cl_event event)
{
  cl_int status = CL_QUEUED;
  if (clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS,
          sizeof (status), &status, NULL) != CL_SUCCESS)
    return TRUE;
  return status == CL_COMPLETE || status < 0;
}
