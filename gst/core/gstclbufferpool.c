/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbufferpool.c: a buffer pool of frames on an OpenCL device.
 *
 * Each buffer holds one GstClMemory (the whole frame) and a GstVideoMeta
 * with its layout. The elements use the pool for their output and offer it
 * upstream: a producer that writes into it through a CPU map writes into
 * the frame's pinned staging copy (copying devices) or straight into the
 * memory the device reads (zero-copy devices).
 *
 * Acquiring a buffer never waits: the device commands that still use a
 * recycled frame are in the memory's events, which the next writer waits
 * for on the device (or its CPU map on the host).
 */
#include "gstclbufferpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_cl_buffer_pool_debug

struct _GstClBufferPool
{
  GstBufferPool parent;

  GstClDevice *device;
  GstVideoInfo info;
};

G_DEFINE_TYPE_WITH_CODE (GstClBufferPool, gst_cl_buffer_pool,
    GST_TYPE_BUFFER_POOL, GST_DEBUG_CATEGORY_INIT (gst_cl_buffer_pool_debug,
        "clbufferpool", 0, "clfilters buffer pool"));

static const gchar **
gst_cl_buffer_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };
  return options;
}

static gboolean
gst_cl_buffer_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GstCaps *caps;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps || !gst_video_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (self, "no video caps in the configuration");
    return FALSE;
  }
  gst_buffer_pool_config_set_params (config, caps, self->info.size, min, max);
  return GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->set_config
      (pool, config);
}

static GstFlowReturn
gst_cl_buffer_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GError *err = NULL;
  GstClMemory *mem = gst_cl_memory_new (self->device, &self->info, &err);

  if (!mem) {
    GST_ERROR_OBJECT (self, "%s", err->message);
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, GST_MEMORY_CAST (mem));
  /* always: consumers of memory:OpenCLMemory read the layout there */
  gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
      GST_VIDEO_INFO_HEIGHT (&self->info),
      GST_VIDEO_INFO_N_PLANES (&self->info), self->info.offset,
      self->info.stride);
  return GST_FLOW_OK;
}

/* Nothing is allocated ahead: frames come on demand (a failed allocation
 * in the base class's start() would also leak the frames made before it,
 * and unused frames cost device memory). */
static gboolean
gst_cl_buffer_pool_start (GstBufferPool * pool)
{
  return TRUE;
}

static void
gst_cl_buffer_pool_finalize (GObject * object)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (object);
  gst_clear_object (&self->device);
  G_OBJECT_CLASS (gst_cl_buffer_pool_parent_class)->finalize (object);
}

static void
gst_cl_buffer_pool_class_init (GstClBufferPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = gst_cl_buffer_pool_finalize;
  pool_class->get_options = gst_cl_buffer_pool_get_options;
  pool_class->set_config = gst_cl_buffer_pool_set_config;
  pool_class->alloc_buffer = gst_cl_buffer_pool_alloc_buffer;
  pool_class->start = gst_cl_buffer_pool_start;
}

static void
gst_cl_buffer_pool_init (GstClBufferPool * self)
{
}

/**
 * gst_cl_buffer_pool_new:
 *
 * A pool of frames on @device. Configure it with video caps like any
 * GstBufferPool.
 *
 * Returns: (transfer full): the pool
 */
GstBufferPool *
gst_cl_buffer_pool_new (GstClDevice * device)
{
  GstClBufferPool *self = g_object_new (GST_TYPE_CL_BUFFER_POOL, NULL);

  gst_object_ref_sink (self);
  self->device = gst_object_ref (device);
  return GST_BUFFER_POOL (self);
}

/**
 * gst_cl_buffer_pool_get_device:
 *
 * Returns: (transfer none) (nullable): the device of @pool when it is a
 * #GstClBufferPool
 */
GstClDevice *
gst_cl_buffer_pool_get_device (GstBufferPool * pool)
{
  return GST_IS_CL_BUFFER_POOL (pool) ? GST_CL_BUFFER_POOL (pool)->device :
      NULL;
}

/**
 * gst_cl_buffer_pool_new_configured:
 *
 * Returns: (transfer full) (nullable): a pool of frames of @caps on
 * @device, configured with video meta, at least @min buffers and no
 * maximum (buffers held downstream must never starve it)
 */
GstBufferPool *
gst_cl_buffer_pool_new_configured (GstClDevice * device, GstCaps * caps,
    gsize size, guint min)
{
  GstBufferPool *pool = gst_cl_buffer_pool_new (device);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/**
 * gst_cl_buffer_pool_propose_allocation:
 *
 * Answers an upstream ALLOCATION query with a pool of device frames: a
 * system-memory producer writes into their pinned staging copy (or, on
 * zero-copy devices, into the memory the device reads in place), a
 * clfilters producer on the same device fills them on the device.
 */
gboolean
gst_cl_buffer_pool_propose_allocation (GstQuery * query, GstClDevice * device)
{
  GstBufferPool *pool;
  GstVideoInfo info;
  gboolean need_pool;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (need_pool && caps && gst_video_info_from_caps (&info, caps) &&
      (pool = gst_cl_buffer_pool_new_configured (device, caps, info.size,
              2))) {
    gst_query_add_allocation_pool (query, pool, info.size, 2, 0);
    gst_object_unref (pool);
  }
  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/**
 * gst_cl_buffer_pool_decide_allocation:
 *
 * Output frames are device frames whatever the caps: under system-memory
 * caps the consumer's CPU map downloads them (the producer starts that
 * download as soon as its kernels are queued). Downstream's pool is used
 * when it is one of device frames of @device, else a new one.
 */
gboolean
gst_cl_buffer_pool_decide_allocation (GstQuery * query, GstClDevice * device)
{
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstVideoInfo info;
  guint min = 0, max = 0;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, &min, &max);
    if (pool && gst_cl_buffer_pool_get_device (pool) != device)
      gst_clear_object (&pool);
  }
  min = MAX (min, 2);
  if (!pool)
    pool = gst_cl_buffer_pool_new (device);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_ERROR_OBJECT (pool, "could not configure a pool of device frames");
    gst_object_unref (pool);
    return FALSE;
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, info.size, min, 0);
  else
    gst_query_add_allocation_pool (query, pool, info.size, min, 0);
  gst_object_unref (pool);
  return TRUE;
}
