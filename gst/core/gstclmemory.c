/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclmemory.c: video frames on an OpenCL device (GstClMemory) and their
 * allocator. See gstclmemory.h for the model. */
#include "gstclmemory.h"
#include "gstclsvm.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_memory_debug);
#define GST_CAT_DEFAULT gst_cl_memory_debug

/* ------------------------------------------------------------------------ */
/* Wait lists                                                               */

static void
flush_queue_of (cl_event event)
{
  cl_command_queue queue = NULL;

  if (clGetEventInfo (event, CL_EVENT_COMMAND_QUEUE, sizeof (queue), &queue,
          NULL) == CL_SUCCESS && queue)
    clFlush (queue);
}

/**
 * gst_cl_wait_list_add:
 *
 * Adds @event (retained) to @list, unless it is NULL, already there, or
 * already complete: an empty list spares the caller a barrier, and on
 * POCL every command costs a hand-over to the device's thread. An event
 * that failed stays, so that what waits for it fails too.
 */
void
gst_cl_wait_list_add (GstClWaitList * list, cl_event event)
{
  cl_int status = CL_QUEUED;
  guint i;

  if (!event)
    return;
  for (i = 0; i < list->n; i++)
    if (list->events[i] == event)
      return;
  if (clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS,
          sizeof (status), &status, NULL) == CL_SUCCESS
      && status == CL_COMPLETE)
    return;
  /* a command waited for from another queue must be submitted: an element
   * whose frames stay on the device leaves its queue to the next one's
   * flush (gstclframeloop.c) */
  if (status == CL_QUEUED)
    flush_queue_of (event);
  g_return_if_fail (list->n < GST_CL_MAX_WAIT);
  clRetainEvent (event);
  list->events[list->n++] = event;
}

void
gst_cl_wait_list_clear (GstClWaitList * list)
{
  guint i;
  for (i = 0; i < list->n; i++)
    clReleaseEvent (list->events[i]);
  list->n = 0;
}

/* ------------------------------------------------------------------------ */
/* Allocator                                                                */

#define GST_TYPE_CL_ALLOCATOR (gst_cl_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstClAllocator, gst_cl_allocator, GST, CL_ALLOCATOR,
    GstAllocator);

struct _GstClAllocator
{
  GstAllocator parent;
};

G_DEFINE_TYPE_WITH_CODE (GstClAllocator, gst_cl_allocator,
    GST_TYPE_ALLOCATOR, GST_DEBUG_CATEGORY_INIT (gst_cl_memory_debug,
        "clmemory", 0, "clfilters device memory"));

static GstAllocator *
cl_allocator (void)
{
  static GstAllocator *allocator;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a = g_object_new (GST_TYPE_CL_ALLOCATOR, NULL);
    gst_object_ref_sink (a);
    GST_OBJECT_FLAG_SET (a, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    gst_allocator_register (GST_CL_MEMORY_TYPE, gst_object_ref (a));
    g_once_init_leave (&allocator, a);
  }
  return allocator;
}

gboolean
gst_is_cl_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL &&
      GST_IS_CL_ALLOCATOR (mem->allocator);
}

static void
replace_event (cl_event * slot, cl_event event)
{
  if (event)
    clRetainEvent (event);
  if (*slot)
    clReleaseEvent (*slot);
  *slot = event;
}

static GstClMemory *
memory_init (GstClDevice * device, const GstVideoInfo * info, cl_mem buffer,
    gsize size)
{
  GstClMemory *m = g_new0 (GstClMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (m), GST_MEMORY_FLAG_NO_SHARE,
      cl_allocator (), NULL, size, 0, 0, size);
  m->device = gst_object_ref (device);
  m->info = *info;
  m->buffer = buffer;
  g_mutex_init (&m->lock);
  return m;
}

/**
 * gst_cl_memory_new:
 * @info: the frame layout (offsets and strides of every plane)
 *
 * A frame of @info.size bytes on @device: host memory the device reads in
 * place on zero-copy devices, device memory elsewhere.
 *
 * Returns: (transfer full): the memory, or NULL with @error set
 */
GstClMemory *
gst_cl_memory_new (GstClDevice * device, const GstVideoInfo * info,
    GError ** error)
{
  gsize size = MAX (info->size, 1);
  cl_mem_flags flags = CL_MEM_READ_WRITE |
      (device->zero_copy ? CL_MEM_ALLOC_HOST_PTR : 0);
  cl_mem buffer;
  cl_int st;

  if (device->max_alloc && size > device->max_alloc) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "a frame of %" G_GSIZE_FORMAT " bytes exceeds the largest memory "
        "object of device \"%s\" (%" G_GUINT64_FORMAT " bytes)", size,
        device->name, (guint64) device->max_alloc);
    return NULL;
  }
  if (device->svm_frames) {
    GstClMemory *m;
    gpointer svm = gst_cl_svm_alloc (device->context, size,
        device->mem_base_align);

    if (svm) {
      buffer = clCreateBuffer (device->context, CL_MEM_READ_WRITE |
          CL_MEM_USE_HOST_PTR, size, svm, &st);
      if (st != CL_SUCCESS) {
        gst_cl_svm_free (device->context, svm);
        gst_cl_fail (error, st, "clCreateBuffer (SVM frame)");
        return NULL;
      }
      m = memory_init (device, info, buffer, size);
      m->svm = svm;
      return m;
    }
    /* out of SVM: a mapped buffer serves as well */
    GST_INFO ("clSVMAlloc of %" G_GSIZE_FORMAT " bytes failed on \"%s\"",
        size, device->name);
  }
  buffer = clCreateBuffer (device->context, flags, size, NULL, &st);
  if (st != CL_SUCCESS) {
    gst_cl_fail (error, st, "clCreateBuffer (frame)");
    return NULL;
  }
  return memory_init (device, info, buffer, size);
}

/**
 * gst_cl_memory_wrap:
 * @buffer: a buffer of one system memory holding a frame laid out as @info
 *
 * On zero-copy devices: the memory of @buffer seen by the device in place
 * (no copy). @buffer stays mapped and referenced until the returned memory
 * is freed, which waits for the device's last use of it.
 *
 * Returns: (transfer full): the memory, or NULL (with @error set when an
 * OpenCL call failed; without it when @buffer cannot be wrapped)
 */
GstClMemory *
gst_cl_memory_wrap (GstClDevice * device, GstBuffer * buffer,
    const GstVideoInfo * info, GError ** error)
{
  GstClMemory *m;
  GstMapInfo map;
  cl_mem mem;
  cl_int st;

  if (!device->zero_copy || gst_buffer_n_memory (buffer) != 1)
    return NULL;
  if (!gst_buffer_map (buffer, &map, GST_MAP_READ))
    return NULL;
  mem = clCreateBuffer (device->context, CL_MEM_USE_HOST_PTR |
      CL_MEM_READ_WRITE, MAX (map.size, 1), map.data, &st);
  if (st != CL_SUCCESS) {
    gst_buffer_unmap (buffer, &map);
    gst_cl_fail (error, st, "clCreateBuffer (CL_MEM_USE_HOST_PTR)");
    return NULL;
  }
  m = memory_init (device, info, mem, MAX (map.size, 1));
  m->wrapped = gst_buffer_ref (buffer);
  m->wrapped_map = map;
  return m;
}

static void
gst_cl_memory_free (GstAllocator * allocator, GstMemory * memory)
{
  GstClMemory *m = (GstClMemory *) memory;
  cl_command_queue down = gst_cl_device_get_queue (m->device,
      GST_CL_QUEUE_DOWNLOAD);
  guint i;

  if (m->wrapped || m->svm) {
    /* the device may still use the host memory: it lives until then */
    for (i = 0; i < GST_CL_MAX_QUEUES; i++)
      if (m->use_events[i])
        gst_cl_event_wait (m->use_events[i], NULL);
    if (m->write_event)
      gst_cl_event_wait (m->write_event, NULL);
  }
  /* a transfer between the device copy and the staging copy reads or
   * writes the staging memory through its mapped pointer, which holds no
   * reference to it: it must end before that memory goes (a download
   * started for a frame dropped unread wrote into freed memory, seen by
   * ASan in lifecycle-copying) */
  if (m->staging_event)
    gst_cl_event_wait (m->staging_event, NULL);
  replace_event (&m->write_event, NULL);
  for (i = 0; i < GST_CL_MAX_QUEUES; i++)
    replace_event (&m->use_events[i], NULL);
  replace_event (&m->staging_event, NULL);
  if (m->map_ptr)
    clEnqueueUnmapMemObject (down, m->buffer, m->map_ptr, 0, NULL, NULL);
  if (m->staging) {
    clEnqueueUnmapMemObject (down, m->staging, m->staging_ptr, 0, NULL, NULL);
    clReleaseMemObject (m->staging);
  }
  /* OpenCL defers the release until the commands using it are done */
  clReleaseMemObject (m->buffer);
  gst_cl_svm_free (m->device->context, m->svm);
  if (m->wrapped) {
    gst_buffer_unmap (m->wrapped, &m->wrapped_map);
    gst_buffer_unref (m->wrapped);
  }
  gst_object_unref (m->device);
  g_mutex_clear (&m->lock);
  g_free (m);
}

/* Adds to @wl what must finish before the frame is read (its last write)
 * or, with @write, rewritten (also every use of it). */
static void
add_device_work (GstClMemory * m, gboolean write, GstClWaitList * wl)
{
  guint i;

  gst_cl_wait_list_add (wl, m->write_event);
  if (write)
    for (i = 0; i < GST_CL_MAX_QUEUES; i++)
      gst_cl_wait_list_add (wl, m->use_events[i]);
}

/* ------------------------------------------------------------------------ */
/* Transfers between the device copy and the staging copy (copying devices) */

static gboolean
ensure_staging (GstClMemory * m, GError ** error)
{
  gsize size = GST_MEMORY_CAST (m)->maxsize;
  cl_int st;

  if (m->staging)
    return TRUE;
  /* allocated by the driver and kept mapped: pinned, so that transfers run
   * at the bus's speed (docs/performance.md) */
  m->staging = clCreateBuffer (m->device->context, CL_MEM_READ_WRITE |
      CL_MEM_ALLOC_HOST_PTR, size, NULL, &st);
  if (st != CL_SUCCESS) {
    m->staging = NULL;
    return gst_cl_fail (error, st, "clCreateBuffer (staging)");
  }
  m->staging_ptr = clEnqueueMapBuffer (gst_cl_device_get_queue (m->device,
          GST_CL_QUEUE_DOWNLOAD), m->staging, CL_TRUE,
      CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &st);
  if (st != CL_SUCCESS) {
    clReleaseMemObject (m->staging);
    m->staging = NULL;
    return gst_cl_fail (error, st, "clEnqueueMapBuffer (staging)");
  }
  return TRUE;
}

/* staging -> device, on the upload queue of @set; called with the lock
 * held */
static gboolean
upload (GstClMemory * m, guint set, GError ** error)
{
  guint queue = GST_CL_QUEUE_OF_SET (set, GST_CL_QUEUE_UPLOAD);
  cl_command_queue q = gst_cl_device_get_queue (m->device, queue);
  GstClWaitList wl = { {0}, 0 };
  cl_event e = NULL;
  cl_int st;

  /* after the device's last use of the old content */
  add_device_work (m, TRUE, &wl);
  gst_cl_wait_list_add (&wl, m->staging_event);
  st = clEnqueueWriteBuffer (q, m->buffer, CL_FALSE, 0,
      GST_MEMORY_CAST (m)->maxsize, m->staging_ptr, wl.n,
      wl.n ? wl.events : NULL, &e);
  gst_cl_wait_list_clear (&wl);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueWriteBuffer (upload)");
  replace_event (&m->write_event, e);
  m->write_queue = queue;
  replace_event (&m->use_events[queue], e);
  replace_event (&m->staging_event, e);
  clReleaseEvent (e);
  clFlush (q);
  m->need_upload = FALSE;
  GST_LOG ("uploaded %p", m);
  return TRUE;
}

/* the queue of @kind in the set of the frame's last write: its stream */
static guint
queue_of_writer (GstClMemory * m, GstClQueueKind kind)
{
  return GST_CL_QUEUE_OF_SET (GST_CL_QUEUE_SET (m->write_queue), kind);
}

/* device -> staging, on the download queue of the set that wrote the frame;
 * called with the lock held */
static gboolean
download (GstClMemory * m, GError ** error)
{
  guint queue = queue_of_writer (m, GST_CL_QUEUE_DOWNLOAD);
  cl_command_queue q = gst_cl_device_get_queue (m->device, queue);
  GstClWaitList wl = { {0}, 0 };
  cl_event e = NULL;
  cl_int st;

  if (!ensure_staging (m, error))
    return FALSE;
  gst_cl_wait_list_add (&wl, m->write_event);
  gst_cl_wait_list_add (&wl, m->staging_event);
  st = clEnqueueReadBuffer (q, m->buffer, CL_FALSE, 0,
      GST_MEMORY_CAST (m)->maxsize, m->staging_ptr, wl.n,
      wl.n ? wl.events : NULL, &e);
  gst_cl_wait_list_clear (&wl);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueReadBuffer (download)");
  replace_event (&m->use_events[queue], e);
  replace_event (&m->staging_event, e);
  clReleaseEvent (e);
  clFlush (q);
  m->need_download = FALSE;
  GST_LOG ("downloading %p", m);
  return TRUE;
}

/**
 * gst_cl_memory_start_download:
 *
 * Starts bringing the frame to host memory now (copying devices), so that
 * a later CPU map finds it there or on its way. Does not wait.
 */
gboolean
gst_cl_memory_start_download (GstClMemory * mem, GError ** error)
{
  gboolean ok = TRUE;

  g_mutex_lock (&mem->lock);
  if (mem->need_download)
    ok = download (mem, error);
  g_mutex_unlock (&mem->lock);
  return ok;
}

/**
 * gst_cl_memory_start_upload:
 *
 * Starts bringing what the CPU wrote into the frame to the device now
 * (copying devices). Does not wait.
 */
gboolean
gst_cl_memory_start_upload (GstClMemory * mem, GError ** error)
{
  gboolean ok = TRUE;

  g_mutex_lock (&mem->lock);
  if (mem->need_upload)
    ok = upload (mem, GST_CL_QUEUE_SET (mem->write_queue), error);
  g_mutex_unlock (&mem->lock);
  return ok;
}

/**
 * gst_cl_memory_write_in_pieces:
 * @set: the set of queues whose upload queue carries the pieces
 * @pieces: byte ranges of the frame, in the order @fill writes them
 * @fill: writes a piece into the host copy
 *
 * Replaces the frame's content, piece by piece, from the CPU (copying
 * devices): each piece's upload starts as soon as @fill wrote it, so that
 * the CPU writes the next piece while the bus carries this one. The first
 * upload waits for the device's last use of the old content; the frame's
 * last write is the last piece's upload.
 */
gboolean
gst_cl_memory_write_in_pieces (GstClMemory * mem, guint set,
    const GstClPiece * pieces, guint n_pieces, GstClPieceFill fill,
    gpointer user_data, GError ** error)
{
  guint queue = GST_CL_QUEUE_OF_SET (set, GST_CL_QUEUE_UPLOAD);
  cl_command_queue q = gst_cl_device_get_queue (mem->device, queue);
  GstClWaitList wl = { {0}, 0 };
  cl_event e = NULL;
  cl_int st = CL_SUCCESS;
  gboolean ok;
  guint i;

  g_return_val_if_fail (!mem->device->zero_copy, FALSE);
  g_mutex_lock (&mem->lock);
  /* the CPU writes the host copy once no transfer uses it any more */
  ok = ensure_staging (mem, error) && (!mem->staging_event ||
      gst_cl_event_wait (mem->staging_event, error));
  if (ok)
    add_device_work (mem, TRUE, &wl);
  for (i = 0; ok && i < n_pieces; i++) {
    fill (mem->staging_ptr, i, user_data);
    if (e)
      clReleaseEvent (e);
    e = NULL;
    st = clEnqueueWriteBuffer (q, mem->buffer, CL_FALSE, pieces[i].offset,
        pieces[i].size, mem->staging_ptr + pieces[i].offset, wl.n,
        wl.n ? wl.events : NULL, &e);
    gst_cl_wait_list_clear (&wl);
    ok = st == CL_SUCCESS || gst_cl_fail (error, st,
        "clEnqueueWriteBuffer (piece)");
    clFlush (q);
  }
  gst_cl_wait_list_clear (&wl);
  if (ok && e) {
    replace_event (&mem->write_event, e);
    mem->write_queue = queue;
    replace_event (&mem->use_events[queue], e);
    replace_event (&mem->staging_event, e);
    mem->need_upload = FALSE;
    mem->need_download = FALSE;
  }
  if (e)
    clReleaseEvent (e);
  g_mutex_unlock (&mem->lock);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* Device access                                                            */

/**
 * gst_cl_memory_get_wait_list:
 * @queue: the queue the caller's command goes to
 * @write: whether the command writes the memory
 *
 * Adds to @list what a command on @queue must wait for before it reads (or
 * writes) @mem: its last write, and for a write also every use, except
 * those on @queue itself (in order already). Uploads a CPU write first.
 */
gboolean
gst_cl_memory_get_wait_list (GstClMemory * mem, guint queue,
    gboolean write, GstClWaitList * list, GError ** error)
{
  cl_command_queue q = gst_cl_device_get_queue (mem->device, queue);
  gboolean ok = TRUE;
  guint i;

  g_mutex_lock (&mem->lock);
  if (mem->need_upload)
    ok = upload (mem, GST_CL_QUEUE_SET (queue), error);
  if (ok && mem->write_event &&
      gst_cl_device_get_queue (mem->device, mem->write_queue) != q)
    gst_cl_wait_list_add (list, mem->write_event);
  if (ok && write) {
    for (i = 0; i < GST_CL_MAX_QUEUES; i++)
      if (gst_cl_device_get_queue (mem->device, i) != q)
        gst_cl_wait_list_add (list, mem->use_events[i]);
  }
  g_mutex_unlock (&mem->lock);
  return ok;
}

/**
 * gst_cl_memory_set_event:
 * @event: a command on @queue that used @mem
 * @wrote: whether it wrote @mem
 *
 * Records @event as the last use of @mem on @queue (and as its last write).
 */
void
gst_cl_memory_set_event (GstClMemory * mem, guint queue,
    cl_event event, gboolean wrote)
{
  g_mutex_lock (&mem->lock);
  replace_event (&mem->use_events[queue], event);
  if (wrote) {
    replace_event (&mem->write_event, event);
    mem->write_queue = queue;
    if (!mem->device->zero_copy) {
      mem->need_download = TRUE;
      mem->need_upload = FALSE;
    }
  }
  g_mutex_unlock (&mem->lock);
}

/**
 * gst_cl_buffer_get_memory:
 *
 * Returns: (transfer none) (nullable): the #GstClMemory of @buffer when it
 * holds exactly one, on @device (or any device when @device is NULL)
 */
GstClMemory *
gst_cl_buffer_get_memory (GstBuffer * buffer, GstClDevice * device)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!gst_is_cl_memory (mem))
    return NULL;
  if (device && ((GstClMemory *) mem)->device != device)
    return NULL;
  return (GstClMemory *) mem;
}

/* ------------------------------------------------------------------------ */
/* Maps                                                                     */

static gpointer
map_cpu (GstClMemory * m, GstMapFlags flags, GError ** error)
{
  cl_command_queue q = gst_cl_device_get_queue (m->device,
      queue_of_writer (m, GST_CL_QUEUE_DOWNLOAD));
  GstClWaitList wl = { {0}, 0 };
  cl_event wait;
  cl_int st;

  if (m->svm) {
    /* no command: the device's last write (and for a write every use)
     * is waited for on the host, and an event already complete costs a
     * status query */
    add_device_work (m, flags & GST_MAP_WRITE, &wl);
    st = wl.n ? clWaitForEvents (wl.n, wl.events) : CL_SUCCESS;
    gst_cl_wait_list_clear (&wl);
    if (st != CL_SUCCESS) {
      gst_cl_fail (error, st, "clWaitForEvents (CPU map)");
      return NULL;
    }
    return m->svm;
  }
  if (m->device->zero_copy) {
    if (m->cpu_maps == 0) {
      /* the device's last write (and for a write every use) first; the
       * map itself copies nothing where the device shares host memory */
      add_device_work (m, flags & GST_MAP_WRITE, &wl);
      m->map_ptr = clEnqueueMapBuffer (q, m->buffer, CL_TRUE,
          CL_MAP_READ | CL_MAP_WRITE, 0, GST_MEMORY_CAST (m)->maxsize, wl.n,
          wl.n ? wl.events : NULL, NULL, &st);
      gst_cl_wait_list_clear (&wl);
      if (st != CL_SUCCESS) {
        m->map_ptr = NULL;
        gst_cl_fail (error, st, "clEnqueueMapBuffer");
        return NULL;
      }
    }
    return m->map_ptr;
  }

  if (!ensure_staging (m, error))
    return NULL;
  if (m->need_download && !download (m, error))
    return NULL;
  /* the download, or an upload still reading the staging copy */
  wait = m->staging_event;
  if (wait && !gst_cl_event_wait (wait, error))
    return NULL;
  return m->staging_ptr;
}

static gpointer
gst_cl_memory_map_full (GstMemory * memory, GstMapInfo * info, gsize maxsize)
{
  GstClMemory *m = (GstClMemory *) memory;
  GError *err = NULL;
  gpointer p;

  g_mutex_lock (&m->lock);
  if (info->flags & GST_MAP_CL) {
    if (m->need_upload && !upload (m, GST_CL_QUEUE_SET (m->write_queue),
            &err))
      p = NULL;
    else
      p = &m->buffer;
  } else {
    p = map_cpu (m, info->flags, &err);
    if (p) {
      m->cpu_maps++;
      if (info->flags & GST_MAP_WRITE)
        m->cpu_wrote = TRUE;
    }
  }
  g_mutex_unlock (&m->lock);
  if (!p) {
    GST_ERROR ("could not map a frame of device \"%s\": %s", m->device->name,
        err ? err->message : "?");
    g_clear_error (&err);
  }
  return p;
}

static void
gst_cl_memory_unmap_full (GstMemory * memory, GstMapInfo * info)
{
  GstClMemory *m = (GstClMemory *) memory;
  cl_event e = NULL;
  guint i;

  g_mutex_lock (&m->lock);
  if (info->flags & GST_MAP_CL) {
    if ((info->flags & GST_MAP_WRITE) && !m->device->zero_copy) {
      m->need_download = TRUE;
      m->need_upload = FALSE;
    }
    g_mutex_unlock (&m->lock);
    return;
  }
  if (--m->cpu_maps == 0) {
    if (m->svm) {
      /* what the CPU wrote is in place; the commands that wrote or used
       * the memory before were waited for by the map */
      if (m->cpu_wrote) {
        replace_event (&m->write_event, NULL);
        for (i = 0; i < GST_CL_MAX_QUEUES; i++)
          replace_event (&m->use_events[i], NULL);
      }
    } else if (m->device->zero_copy) {
      guint queue = queue_of_writer (m, GST_CL_QUEUE_DOWNLOAD);
      cl_command_queue q = gst_cl_device_get_queue (m->device, queue);
      if (clEnqueueUnmapMemObject (q, m->buffer, m->map_ptr, 0, NULL,
              &e) == CL_SUCCESS) {
        replace_event (&m->use_events[queue], e);
        if (m->cpu_wrote) {
          replace_event (&m->write_event, e);
          m->write_queue = queue;
        }
        clReleaseEvent (e);
        clFlush (q);
      }
      m->map_ptr = NULL;
    } else if (m->cpu_wrote) {
      m->need_upload = TRUE;
      m->need_download = FALSE;
    }
    m->cpu_wrote = FALSE;
  }
  g_mutex_unlock (&m->lock);
}

/* A whole copy stays on the device; a part of the frame is copied on the
 * CPU into system memory. */
static GstMemory *
gst_cl_memory_copy (GstMemory * memory, gssize offset, gssize size)
{
  GstClMemory *src = (GstClMemory *) memory, *dst;
  GstClWaitList wl = { {0}, 0 };
  cl_command_queue q;
  GError *err = NULL;
  cl_event e = NULL;
  GstMapInfo map;
  GstMemory *sys;
  gpointer data;
  cl_int st;

  if (size < 0)
    size = memory->size - offset;
  if (offset != 0 || (gsize) size != memory->maxsize) {
    if (!gst_memory_map (memory, &map, GST_MAP_READ))
      return NULL;
    data = g_memdup2 (map.data + offset, size);
    sys = gst_memory_new_wrapped (0, data, size, 0, size, data, g_free);
    gst_memory_unmap (memory, &map);
    return sys;
  }
  dst = gst_cl_memory_new (src->device, &src->info, &err);
  if (!dst)
    goto failed;
  q = gst_cl_device_get_queue (src->device, GST_CL_QUEUE_COMPUTE);
  if (!gst_cl_memory_get_wait_list (src, GST_CL_QUEUE_COMPUTE, FALSE, &wl,
          &err))
    goto failed;
  st = clEnqueueCopyBuffer (q, src->buffer, dst->buffer, 0, 0, size, wl.n,
      wl.n ? wl.events : NULL, &e);
  gst_cl_wait_list_clear (&wl);
  if (st != CL_SUCCESS) {
    gst_cl_fail (&err, st, "clEnqueueCopyBuffer");
    goto failed;
  }
  gst_cl_memory_set_event (src, GST_CL_QUEUE_COMPUTE, e, FALSE);
  gst_cl_memory_set_event (dst, GST_CL_QUEUE_COMPUTE, e, TRUE);
  clReleaseEvent (e);
  gst_cl_device_flush (src->device);
  return GST_MEMORY_CAST (dst);

failed:
  GST_ERROR ("could not copy a frame on \"%s\": %s", src->device->name,
      err->message);
  g_clear_error (&err);
  if (dst)
    gst_memory_unref (GST_MEMORY_CAST (dst));
  return NULL;
}

static GstMemory *
gst_cl_memory_share (GstMemory * memory, gssize offset, gssize size)
{
  return NULL;                  /* GST_MEMORY_FLAG_NO_SHARE: copies instead */
}

static GstMemory *
gst_cl_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  g_warning ("GstClMemory is allocated with gst_cl_memory_new() or from a "
      "GstClBufferPool");
  return NULL;
}

static void
gst_cl_allocator_class_init (GstClAllocatorClass * klass)
{
  GstAllocatorClass *alloc_class = GST_ALLOCATOR_CLASS (klass);

  alloc_class->alloc = gst_cl_allocator_alloc;
  alloc_class->free = gst_cl_memory_free;
}

static void
gst_cl_allocator_init (GstClAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR (self);

  alloc->mem_type = GST_CL_MEMORY_TYPE;
  alloc->mem_map_full = gst_cl_memory_map_full;
  alloc->mem_unmap_full = gst_cl_memory_unmap_full;
  alloc->mem_copy = gst_cl_memory_copy;
  alloc->mem_share = gst_cl_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}
