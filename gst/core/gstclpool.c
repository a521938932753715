/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclpool.c: a buffer pool of pinned host memory for video frames.
 *
 * Devices with their own memory (discrete GPUs) copy frames over PCIe.
 * From ordinary (pageable) memory the driver stages every transfer through
 * its own pinned buffer, at a fifth of the bus speed (docs/performance.md:
 * 11 GB/s against 54 GB/s on an H100). Memory that the driver allocated
 * itself with CL_MEM_ALLOC_HOST_PTR and that stays mapped is pinned: frames
 * that live there go up and down at full speed, with no extra copy.
 *
 * Each buffer of this pool is one such OpenCL buffer, mapped once when it is
 * allocated and unmapped when it is freed, wrapped in an ordinary GstMemory:
 * to everything else in GStreamer it is system memory. The elements offer
 * the pool upstream (ALLOCATION query) and use it for their output when
 * downstream offers none.
 */
#include "gstclpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_pool_debug);
#define GST_CAT_DEFAULT gst_cl_pool_debug

struct _GstClPinnedPool
{
  GstBufferPool parent;

  GstClDevice *device;
  cl_command_queue queue;       /* for mapping and unmapping */
  GstVideoInfo info;
  gboolean add_meta;
};

G_DEFINE_TYPE_WITH_CODE (GstClPinnedPool, gst_cl_pinned_pool,
    GST_TYPE_BUFFER_POOL, GST_DEBUG_CATEGORY_INIT (gst_cl_pool_debug,
        "clpool", 0, "clfilters pinned buffer pool"));

/**
 * gst_cl_pinned_pool_wanted:
 *
 * Whether frames of @device gain from pinned memory: devices that do not
 * read host memory in place (also when GST_CL_ZERO_COPY=0 forces the copy
 * path, so that the pool is tested on CPU devices too).
 */
gboolean
gst_cl_pinned_pool_wanted (GstClDevice * device)
{
  const gchar *env = g_getenv ("GST_CL_ZERO_COPY");
  return !device->host_unified || (env && g_str_equal (env, "0"));
}

typedef struct
{
  GstClDevice *device;
  cl_command_queue queue;
  cl_mem mem;
  gpointer ptr;
} Pinned;

static void
pinned_free (gpointer data)
{
  Pinned *p = data;
  clEnqueueUnmapMemObject (p->queue, p->mem, p->ptr, 0, NULL, NULL);
  clFinish (p->queue);
  clReleaseMemObject (p->mem);
  clReleaseCommandQueue (p->queue);
  gst_object_unref (p->device);
  g_free (p);
}

static GstMemory *
pinned_memory_new (GstClPinnedPool * self, gsize size)
{
  Pinned *p;
  cl_int st;
  cl_mem mem;
  gpointer ptr;

  mem = clCreateBuffer (self->device->context,
      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &st);
  if (st != CL_SUCCESS) {
    GST_WARNING_OBJECT (self, "clCreateBuffer (%" G_GSIZE_FORMAT " bytes, "
        "ALLOC_HOST_PTR): %s", size, gst_cl_status_name (st));
    return NULL;
  }
  ptr = clEnqueueMapBuffer (self->queue, mem, CL_TRUE,
      CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &st);
  if (st != CL_SUCCESS) {
    GST_WARNING_OBJECT (self, "clEnqueueMapBuffer: %s",
        gst_cl_status_name (st));
    clReleaseMemObject (mem);
    return NULL;
  }
  p = g_new0 (Pinned, 1);
  p->device = gst_object_ref (self->device);
  p->queue = self->queue;
  clRetainCommandQueue (p->queue);
  p->mem = mem;
  p->ptr = ptr;
  return gst_memory_new_wrapped (0, ptr, size, 0, size, p, pinned_free);
}

static const gchar **
gst_cl_pinned_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };
  return options;
}

static gboolean
gst_cl_pinned_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstClPinnedPool *self = GST_CL_PINNED_POOL (pool);
  GstCaps *caps;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps || !gst_video_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (self, "no video caps in the configuration");
    return FALSE;
  }
  size = MAX (size, self->info.size);
  self->add_meta = gst_buffer_pool_config_has_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  return GST_BUFFER_POOL_CLASS (gst_cl_pinned_pool_parent_class)->set_config
      (pool, config);
}

static GstFlowReturn
gst_cl_pinned_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstClPinnedPool *self = GST_CL_PINNED_POOL (pool);
  GstMemory *mem = pinned_memory_new (self, self->info.size);

  if (!mem)
    return GST_FLOW_ERROR;
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  if (self->add_meta)
    gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
        GST_VIDEO_INFO_HEIGHT (&self->info),
        GST_VIDEO_INFO_N_PLANES (&self->info), self->info.offset,
        self->info.stride);
  return GST_FLOW_OK;
}

static void
gst_cl_pinned_pool_finalize (GObject * object)
{
  GstClPinnedPool *self = GST_CL_PINNED_POOL (object);
  if (self->queue)
    clReleaseCommandQueue (self->queue);
  gst_clear_object (&self->device);
  G_OBJECT_CLASS (gst_cl_pinned_pool_parent_class)->finalize (object);
}

static void
gst_cl_pinned_pool_class_init (GstClPinnedPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = gst_cl_pinned_pool_finalize;
  pool_class->get_options = gst_cl_pinned_pool_get_options;
  pool_class->set_config = gst_cl_pinned_pool_set_config;
  pool_class->alloc_buffer = gst_cl_pinned_pool_alloc_buffer;
}

static void
gst_cl_pinned_pool_init (GstClPinnedPool * self)
{
}

/**
 * gst_cl_pinned_pool_new:
 *
 * A pool of pinned frames for @device; NULL if no command queue could be
 * made. Configure it with video caps like any GstBufferPool.
 */
GstBufferPool *
gst_cl_pinned_pool_new (GstClDevice * device)
{
  GstClPinnedPool *self;
  cl_command_queue queue = gst_cl_device_create_queue (device, NULL);

  if (!queue)
    return NULL;
  self = g_object_new (GST_TYPE_CL_PINNED_POOL, NULL);
  gst_object_ref_sink (self);
  self->device = gst_object_ref (device);
  self->queue = queue;
  return GST_BUFFER_POOL (self);
}
