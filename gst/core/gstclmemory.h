/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclmemory.h: video frames that live on an OpenCL device.
 *
 * A GstClMemory holds one whole frame (every plane, laid out as its
 * GstVideoInfo says) in one OpenCL buffer of one device. Buffers of such
 * memory travel between elements under the caps feature
 * memory:OpenCLMemory, so that a chain of clfilters elements moves a frame
 * to the device once and back once.
 *
 * Synchronisation is carried by the memory (see docs/design.md): the event
 * of the last command that wrote it, and per queue the last command that
 * used it. Device work waits for them through wait lists, never on the
 * host; the host waits only when the CPU maps the memory.
 *
 * CPU access:
 * - on zero-copy devices (CPUs through POCL, integrated GPUs) the buffer is
 *   host memory the device reads in place: fine-grained SVM where the
 *   device has it, which a CPU map only waits for (no command), else a
 *   buffer mapped by clEnqueueMapBuffer, which copies nothing;
 * - elsewhere a CPU map goes through a staging copy in pinned host memory,
 *   downloaded when the device copy is newer and uploaded (on the next
 *   device use) when the CPU wrote it.
 */
#pragma once

#include "gstcldevice.h"
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GST_CAPS_FEATURE_MEMORY_OPENCL_MEMORY:
 *
 * The caps feature of buffers whose memory is #GstClMemory.
 */
#define GST_CAPS_FEATURE_MEMORY_OPENCL_MEMORY "memory:OpenCLMemory"

#define GST_CL_MEMORY_TYPE "GstClMemory"

/**
 * GST_MAP_CL:
 *
 * Map flag for device access: gst_memory_map() then returns the memory's
 * cl_mem (a `cl_mem *` in info.data) without waiting for anything; the
 * caller orders its commands after gst_cl_memory_get_wait_list() and
 * records them with gst_cl_memory_set_event().
 */
#define GST_MAP_CL ((GstMapFlags) (GST_MAP_FLAG_LAST << 1))

/* At most this many events in one wait list of the core. */
#define GST_CL_MAX_WAIT 32

/**
 * GstClWaitList:
 *
 * Events a command must wait for; each one is retained, released by
 * gst_cl_wait_list_clear().
 */
typedef struct
{
  cl_event events[GST_CL_MAX_WAIT];
  guint n;
} GstClWaitList;

void gst_cl_wait_list_add (GstClWaitList * list, cl_event event);
void gst_cl_wait_list_clear (GstClWaitList * list);

typedef struct _GstClMemory GstClMemory;

/**
 * GstClMemory:
 * @device: the device the memory lives on
 * @info: the frame layout in @buffer (offsets and strides of every plane)
 * @buffer: the OpenCL buffer holding the frame
 */
struct _GstClMemory
{
  GstMemory mem;

  GstClDevice *device;
  GstVideoInfo info;
  cl_mem buffer;

  /*< private >*/
  GMutex lock;
  gboolean need_upload;         /* the staging copy is newer */
  gboolean need_download;       /* the device copy is newer */
  cl_event write_event;         /* last command that wrote @buffer */
  guint write_queue;            /* the queue it ran on (GST_CL_QUEUE_OF_SET) */
  cl_event use_events[GST_CL_MAX_QUEUES];        /* last command per queue
                                                 * that read or wrote @buffer */
  cl_mem staging;               /* pinned host copy (copying devices) */
  guint8 *staging_ptr;
  cl_event staging_event;       /* last transfer that read or wrote it */
  guint8 *map_ptr;              /* zero-copy devices: the mapped buffer */
  guint8 *svm;                  /* fine-grained SVM under @buffer, which the
                                 * CPU reads without a map (gstclsvm.h) */
  gint cpu_maps;
  gboolean cpu_wrote;
  GstBuffer *wrapped;           /* host memory wrapped in place, if any */
  GstMapInfo wrapped_map;
};

gboolean gst_is_cl_memory (GstMemory * mem);

GstClMemory *gst_cl_memory_new (GstClDevice * device,
    const GstVideoInfo * info, GError ** error);

GstClMemory *gst_cl_memory_wrap (GstClDevice * device, GstBuffer * buffer,
    const GstVideoInfo * info, GError ** error);

gboolean gst_cl_memory_get_wait_list (GstClMemory * mem, guint queue,
    gboolean write, GstClWaitList * list, GError ** error);

void gst_cl_memory_set_event (GstClMemory * mem, guint queue,
    cl_event event, gboolean wrote);

gboolean gst_cl_memory_start_download (GstClMemory * mem, GError ** error);

gboolean gst_cl_memory_start_upload (GstClMemory * mem, GError ** error);

/**
 * GstClPiece:
 *
 * @size bytes at @offset of a frame's memory.
 */
typedef struct
{
  gsize offset, size;
} GstClPiece;

/**
 * GstClPieceFill:
 * @staging: the frame's host copy, for the CPU to write
 * @piece: the index of the piece to write now
 *
 * Writes one piece of a frame into its host copy.
 */
typedef void (*GstClPieceFill) (guint8 * staging, guint piece,
    gpointer user_data);

gboolean gst_cl_memory_write_in_pieces (GstClMemory * mem, guint set,
    const GstClPiece * pieces, guint n_pieces, GstClPieceFill fill,
    gpointer user_data, GError ** error);

GstClMemory *gst_cl_buffer_get_memory (GstBuffer * buffer,
    GstClDevice * device);

G_END_DECLS
