/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasefilter.c: base class of the clfilters elements.
 *
 * Owns the device, the command queue, the program and the frame storage of
 * an element, validates input buffers, moves planes to and from the device
 * and measures transfers and kernels. Subclasses only launch kernels.
 */
#include "gstclbasefilter.h"
#include "gstcllayout.h"
#include "gstclpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

enum
{
  PROP_0,
  PROP_MEMORY,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_PROFILING,
  PROP_KERNEL_SHAPE,
  PROP_WORK_GROUP_SIZE,
  PROP_ROWS_PER_ITEM,
  PROP_PIXELS_PER_ITEM,
};

#define DEFAULT_MEMORY GST_CL_MEMORY_AUTO
#define DEFAULT_DEVICE ""
#define DEFAULT_PROFILING FALSE
#define DEFAULT_KERNEL_SHAPE GST_CL_KERNEL_SHAPE_AUTO

/* automatic work decomposition */
#define STRIP_MAX_ROWS 16       /* rows per work-item in strips */
#define TILE_GROUP_SIZE 64      /* work-group size of tiles */

typedef struct
{
  GstClKernelShape shape;
  guint work_group_size, rows_per_item, pixels_per_item;
} Tuning;

typedef struct
{
  /* properties, under the object lock */
  GstClMemoryKind memory;
  gchar *device_selector;
  gchar *device_name;
  gboolean profiling;
  Tuning tuning;

  /* from start() to stop(), used by the streaming thread */
  GstClDevice *device;
  cl_command_queue queue;
  cl_program program;
  gboolean set_up;
  gboolean image;               /* memory kind in use for the current caps */
  GstClPlaneStore in_store, out_store;
  Tuning frame_tuning;          /* snapshot for the frame being filtered */

  /* profiling, streaming thread */
  guint prof_frames;
  guint64 prof_upload, prof_kernel, prof_download;
  GstClockTime prof_last_post;
} GstClBaseFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClBaseFilter, gst_cl_base_filter,
    GST_TYPE_VIDEO_FILTER, G_ADD_PRIVATE (GstClBaseFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cl_base_filter_debug, "clbasefilter", 0,
        "clfilters base class"));

#define PRIV(self) \
  ((GstClBaseFilterPrivate *) gst_cl_base_filter_get_instance_private (self))

GType
gst_cl_memory_kind_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_MEMORY_AUTO, "The kind measured faster on the device "
          "(buffers on CPUs; images for 4-byte pixels on GPUs)", "auto"},
    {GST_CL_MEMORY_BUFFER, "OpenCL buffers", "buffer"},
    {GST_CL_MEMORY_IMAGE, "OpenCL images", "image"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClMemoryKind", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_kernel_shape_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_KERNEL_SHAPE_AUTO, "Strips on CPU devices, tiles elsewhere",
        "auto"},
    {GST_CL_KERNEL_SHAPE_STRIPS, "Each work-item filters whole rows "
          "(CPU shape)", "strips"},
    {GST_CL_KERNEL_SHAPE_TILES, "Each work-item filters a few bytes of a row "
          "in large work-groups (GPU shape)", "tiles"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClKernelShape", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ------------------------------------------------------------------------ */
/* For subclasses                                                           */

GstClDevice *
gst_cl_base_filter_get_device (GstClBaseFilter * self)
{
  return PRIV (self)->device;
}

cl_command_queue
gst_cl_base_filter_get_queue (GstClBaseFilter * self)
{
  return PRIV (self)->queue;
}

/**
 * gst_cl_base_filter_uses_strips:
 *
 * Whether the frame being filtered uses the CPU shape of kernels (strips of
 * rows) rather than the GPU shape (tiles).
 */
gboolean
gst_cl_base_filter_uses_strips (GstClBaseFilter * self)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  switch (priv->frame_tuning.shape) {
    case GST_CL_KERNEL_SHAPE_STRIPS:
      return TRUE;
    case GST_CL_KERNEL_SHAPE_TILES:
      return FALSE;
    default:
      return gst_cl_device_is_cpu (priv->device);
  }
}

/**
 * gst_cl_base_filter_launch_shape:
 * @vectors: the kernel works on 16-byte vectors: chunks are multiples of 16
 *
 * The work decomposition of a kernel over @plane, from the tuning properties
 * (0 = automatic). Local sizes are fixed, global sizes rounded up to them, so
 * that a new resolution never makes the driver compile a new variant.
 */
void
gst_cl_base_filter_launch_shape (GstClBaseFilter * self,
    const GstClPlane * plane, gboolean vectors, GstClLaunch * launch)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  const Tuning *t = &priv->frame_tuning;
  gsize chunk, rows, group, n;

  if (gst_cl_base_filter_uses_strips (self)) {
    chunk = t->pixels_per_item ? t->pixels_per_item * (gsize) plane->step :
        (gsize) plane->units;
    rows = t->rows_per_item ? t->rows_per_item :
        (gsize) CLAMP (plane->height / 32, 1, STRIP_MAX_ROWS);
    group = t->work_group_size ? t->work_group_size : 1;
  } else {
    chunk = t->pixels_per_item ? t->pixels_per_item * (gsize) plane->step :
        (vectors ? 16 : 1);
    /* 4 rows per item for texel kernels: 967 against 793 GB/s for a 4K
     * RGBA image on an H100 (docs/tuning.md) */
    rows = t->rows_per_item ? t->rows_per_item : (vectors ? 2 : 4);
    group = t->work_group_size ? t->work_group_size : TILE_GROUP_SIZE;
  }
  if (vectors)
    chunk = GST_ROUND_UP_16 (chunk);
  chunk = MAX (chunk, 1);
  group = MAX (1, MIN (group, priv->device->max_work_group_size));
  n = (plane->units + chunk - 1) / chunk;
  launch->global[0] = (n + group - 1) / group * group;
  launch->global[1] = (plane->height + rows - 1) / rows;
  launch->local[0] = group;
  launch->local[1] = 1;
  launch->chunk = chunk;
  launch->rows = rows;
  launch->rows_auto = t->rows_per_item == 0;
  launch->group_auto = t->work_group_size == 0;
}

/**
 * gst_cl_base_filter_enqueue:
 * @events: (nullable): where to append the launch's event when profiling
 */
gboolean
gst_cl_base_filter_enqueue (GstClBaseFilter * self, cl_kernel kernel,
    const GstClLaunch * launch, cl_event * events, guint * n_events,
    GError ** error)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  cl_event *ev = NULL;
  cl_int st;

  if (events && n_events && *n_events < GST_CL_MAX_KERNEL_EVENTS)
    ev = &events[*n_events];
  st = clEnqueueNDRangeKernel (priv->queue, kernel, 2, NULL, launch->global,
      launch->local, 0, NULL, ev);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueNDRangeKernel");
  if (ev)
    (*n_events)++;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Lifecycle                                                                */

static gboolean gst_cl_base_filter_stop (GstBaseTransform * trans);

static gboolean
gst_cl_base_filter_start (GstBaseTransform * trans)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GError *err = NULL;
  gchar *selector;

  GST_OBJECT_LOCK (self);
  selector = g_strdup (priv->device_selector);
  GST_OBJECT_UNLOCK (self);

  priv->device = gst_cl_device_acquire (selector, &err);
  if (!priv->device)
    goto no_device;
  GST_OBJECT_LOCK (self);
  g_free (priv->device_name);
  priv->device_name = g_strdup (priv->device->name);
  GST_OBJECT_UNLOCK (self);
  g_object_notify (G_OBJECT (self), "device-name");
  GST_INFO_OBJECT (self, "using OpenCL device %u.%u \"%s\" (%s)",
      priv->device->platform_index, priv->device->device_index,
      priv->device->name, priv->device->platform_name);

  priv->queue = gst_cl_device_create_queue (priv->device, &err);
  if (!priv->queue)
    goto failed;
  priv->program = gst_cl_device_get_program (priv->device,
      klass->program_name, klass->program_source, &err);
  if (!priv->program)
    goto build_failed;
  if (klass->setup && !klass->setup (self, priv->program, &err))
    goto failed;
  priv->set_up = TRUE;
  priv->prof_frames = 0;
  priv->prof_upload = priv->prof_kernel = priv->prof_download = 0;
  priv->prof_last_post = GST_CLOCK_TIME_NONE;
  g_free (selector);
  return TRUE;

  /* ERRORS */
no_device:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", err->message),
        ("device property \"%s\", GST_CL_DEVICE \"%s\"", selector,
            GST_STR_NULL (g_getenv ("GST_CL_DEVICE"))));
    goto cleanup;
  }
build_failed:
  {
    /* the debug text carries the build log */
    GST_ELEMENT_ERROR (self, LIBRARY, INIT,
        ("Could not build the OpenCL kernels %s.cl for device \"%s\".",
            klass->program_name, priv->device->name), ("%s", err->message));
    goto cleanup;
  }
failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not set up OpenCL on device \"%s\".", priv->device->name),
        ("%s", err->message));
    goto cleanup;
  }
cleanup:
  {
    g_clear_error (&err);
    g_free (selector);
    gst_cl_base_filter_stop (trans);
    return FALSE;
  }
}

static gboolean
gst_cl_base_filter_stop (GstBaseTransform * trans)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);

  if (priv->queue)
    clFinish (priv->queue);
  /* also after a failed setup: cleanup releases what setup created */
  if (klass->cleanup)
    klass->cleanup (self);
  priv->set_up = FALSE;
  gst_cl_plane_store_clear (&priv->in_store);
  gst_cl_plane_store_clear (&priv->out_store);
  if (priv->program)
    clReleaseProgram (priv->program);
  priv->program = NULL;
  if (priv->queue)
    clReleaseCommandQueue (priv->queue);
  priv->queue = NULL;
  gst_clear_object (&priv->device);
  return TRUE;
}

/**
 * gst_cl_base_filter_measured_memory:
 *
 * What `memory=auto` chooses for a filter, from the measurements in
 * docs/tuning.md: buffers on CPUs and on devices that share host memory
 * (POCL emulates images in software: several times slower), images for
 * 4-byte pixels on other devices (the texture path reads a whole pixel per
 * access and caches the neighbourhood: half the kernel time of buffers on
 * an H100), buffers for the rest (1- and 3-byte samples gain nothing).
 */
GstClMemoryKind
gst_cl_base_filter_measured_memory (GstClDevice * device,
    const GstVideoInfo * info)
{
  if (gst_cl_device_is_cpu (device) || device->host_unified)
    return GST_CL_MEMORY_BUFFER;
  return GST_VIDEO_INFO_COMP_PSTRIDE (info, 0) == 4 ? GST_CL_MEMORY_IMAGE :
      GST_CL_MEMORY_BUFFER;
}

static gboolean
gst_cl_base_filter_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (filter);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstClMemoryKind kind;
  GError *err = NULL;
  gchar *why = NULL;

  if (!priv->set_up)
    return FALSE;
  GST_OBJECT_LOCK (self);
  kind = priv->memory;
  GST_OBJECT_UNLOCK (self);
  if (kind == GST_CL_MEMORY_AUTO) {
    kind = klass->auto_memory ? klass->auto_memory (self, priv->device,
        in_info) : gst_cl_base_filter_measured_memory (priv->device, in_info);
    /* auto falls back to buffers quietly where images are not possible */
    if (kind == GST_CL_MEMORY_IMAGE &&
        (!gst_cl_plane_image_possible (priv->device, in_info, 0, &why) ||
            !gst_cl_plane_image_possible (priv->device, out_info, 0, &why))) {
      GST_INFO_OBJECT (self, "memory=auto: buffers (%s)", why);
      g_clear_pointer (&why, g_free);
      kind = GST_CL_MEMORY_BUFFER;
    }
  }

  priv->image = kind == GST_CL_MEMORY_IMAGE;
  if (priv->image && (!gst_cl_plane_image_possible (priv->device, in_info, 0,
              &why) || !gst_cl_plane_image_possible (priv->device, out_info,
              0, &why))) {
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("memory=image is not possible for %s %dx%d on this device: using "
            "OpenCL buffers instead.",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info)),
        ("%s", why));
    g_free (why);
    priv->image = FALSE;
  }
  GST_INFO_OBJECT (self, "%s %dx%d in OpenCL %s",
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
      priv->image ? "images" : "buffers");

  if (!gst_cl_plane_store_configure (&priv->in_store, priv->device, in_info,
          0, priv->image, FALSE, &err)
      || (!klass->analyze && !gst_cl_plane_store_configure (&priv->out_store,
              priv->device, out_info, 0, priv->image, TRUE, &err))
      || (klass->configure && !klass->configure (self, in_info,
              &priv->in_store.desc, &err)))
    goto failed;
  return TRUE;

failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Could not allocate OpenCL memory for %dx%d frames on \"%s\".",
          GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
          priv->device->name), ("%s", err->message));
  g_clear_error (&err);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Streaming                                                                */

static guint64
event_ns (cl_event ev)
{
  cl_ulong start = 0, end = 0;
  if (!ev)
    return 0;
  clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_START, sizeof (start),
      &start, NULL);
  clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_END, sizeof (end), &end,
      NULL);
  return end > start ? end - start : 0;
}

static void
post_profile (GstClBaseFilter * self, GstClockTime pts, GstClockTime rt)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  guint n = priv->prof_frames;
  GstStructure *s;

  if (n == 0)
    return;
  s = gst_structure_new ("cl-profile",
      "timestamp", G_TYPE_UINT64, (guint64) pts,
      "running-time", G_TYPE_UINT64, (guint64) rt,
      "frames", G_TYPE_UINT, n,
      "upload-ns", G_TYPE_UINT64, priv->prof_upload / n,
      "kernel-ns", G_TYPE_UINT64, priv->prof_kernel / n,
      "download-ns", G_TYPE_UINT64, priv->prof_download / n, NULL);
  priv->prof_frames = 0;
  priv->prof_upload = priv->prof_kernel = priv->prof_download = 0;
  priv->prof_last_post = rt;
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static void
account_profile (GstClBaseFilter * self, GstBuffer * buf, cl_event up,
    cl_event * kev, guint n_kev, cl_event down)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstClockTime pts = GST_BUFFER_PTS (buf), rt;

  priv->prof_frames++;
  priv->prof_upload += event_ns (up);
  priv->prof_download += event_ns (down);
  if (n_kev > 0) {
    cl_ulong start = 0, end = 0;
    clGetEventProfilingInfo (kev[0], CL_PROFILING_COMMAND_START,
        sizeof (start), &start, NULL);
    clGetEventProfilingInfo (kev[n_kev - 1], CL_PROFILING_COMMAND_END,
        sizeof (end), &end, NULL);
    priv->prof_kernel += end > start ? end - start : 0;
  }
  rt = trans->segment.format == GST_FORMAT_TIME ?
      gst_segment_to_running_time (&trans->segment, GST_FORMAT_TIME, pts) :
      GST_CLOCK_TIME_NONE;
  if (!GST_CLOCK_TIME_IS_VALID (rt))
    return;
  if (!GST_CLOCK_TIME_IS_VALID (priv->prof_last_post))
    priv->prof_last_post = rt;
  else if (rt >= priv->prof_last_post + GST_SECOND)
    post_profile (self, pts, rt);
}

static void
release_events (cl_event * up, cl_event * kev, guint n_kev, cl_event * down)
{
  guint i;
  if (*up)
    clReleaseEvent (*up);
  if (*down)
    clReleaseEvent (*down);
  for (i = 0; i < n_kev; i++)
    clReleaseEvent (kev[i]);
  *up = *down = NULL;
}

static GstFlowReturn
filter_frame (GstClBaseFilter * self, GstVideoFrame * in, GstVideoFrame * out)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  cl_event up = NULL, down = NULL, kev[GST_CL_MAX_KERNEL_EVENTS];
  guint n_kev = 0, p;
  gboolean profiling, host_planes, early;
  GstClPlane src, dst;
  GError *err = NULL;

  GST_OBJECT_LOCK (self);
  profiling = priv->profiling;
  priv->frame_tuning = priv->tuning;
  GST_OBJECT_UNLOCK (self);

  if (!gst_cl_plane_store_upload (&priv->in_store, priv->queue, in, 0, &src,
          profiling ? &up : NULL, &err)
      || !gst_cl_plane_store_bind (&priv->out_store, out, 0, &dst, &err)
      || !klass->process (self, &src, &dst, profiling ? kev : NULL, &n_kev,
          &err))
    goto failed;
  /* The planes the kernels do not filter (chroma) pass unchanged, copied
   * by the host (disjoint bytes of the frames) while the device uploads,
   * filters and downloads plane 0: that download is only enqueued, then
   * everything is flushed (some drivers, NVIDIA's, hold commands until a
   * flush or a blocking call), and the queue waited for after the copy.
   * Stores that wrap the frames (CPU devices) map the output after the
   * copy instead, which waits for the kernels. */
  host_planes = GST_VIDEO_FRAME_N_PLANES (in) > 1;
  early = host_planes && !gst_cl_plane_store_wraps (&priv->out_store);
  if (early && !gst_cl_plane_store_download (&priv->out_store, priv->queue,
          out, 0, FALSE, profiling ? &down : NULL, &err))
    goto failed;
  if (host_planes)
    clFlush (priv->queue);
  for (p = 1; p < GST_VIDEO_FRAME_N_PLANES (in); p++)
    gst_video_frame_copy_plane (out, in, p);
  if (early) {
    cl_int st = clFinish (priv->queue);
    if (st != CL_SUCCESS) {
      gst_cl_fail (&err, st, "clFinish");
      goto failed;
    }
  } else if (!gst_cl_plane_store_download (&priv->out_store, priv->queue,
          out, 0, TRUE, profiling ? &down : NULL, &err)) {
    goto failed;
  }
  gst_cl_plane_store_end_frame (&priv->in_store);
  gst_cl_plane_store_end_frame (&priv->out_store);

  if (profiling)
    account_profile (self, in->buffer, up, kev, n_kev, down);
  release_events (&up, kev, n_kev, &down);
  return GST_FLOW_OK;

failed:
  {
    /* nothing may still use the frames' memory once they are unmapped */
    clFinish (priv->queue);
    gst_cl_plane_store_end_frame (&priv->in_store);
    gst_cl_plane_store_end_frame (&priv->out_store);
    release_events (&up, kev, n_kev, &down);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("OpenCL processing failed on device \"%s\".", priv->device->name),
        ("%s", err->message));
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
}

static GstFlowReturn
analyze_frame (GstClBaseFilter * self, GstVideoFrame * frame)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = PRIV (self);
  cl_event up = NULL, down = NULL, kev[GST_CL_MAX_KERNEL_EVENTS];
  guint n_kev = 0;
  gboolean profiling;
  GstClPlane src;
  GError *err = NULL;

  GST_OBJECT_LOCK (self);
  profiling = priv->profiling;
  priv->frame_tuning = priv->tuning;
  GST_OBJECT_UNLOCK (self);

  if (!gst_cl_plane_store_upload (&priv->in_store, priv->queue, frame, 0,
          &src, profiling ? &up : NULL, &err)
      || !klass->analyze (self, &src, frame, profiling ? kev : NULL, &n_kev,
          &err)) {
    clFinish (priv->queue);
    gst_cl_plane_store_end_frame (&priv->in_store);
    release_events (&up, kev, n_kev, &down);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("OpenCL processing failed on device \"%s\".", priv->device->name),
        ("%s", err->message));
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  /* the upload may still read the frame if the element enqueued nothing
   * that waits for it (e.g. no channel to count): the frame is unmapped
   * next */
  clFinish (priv->queue);
  gst_cl_plane_store_end_frame (&priv->in_store);
  if (profiling)
    account_profile (self, frame->buffer, up, kev, n_kev, down);
  release_events (&up, kev, n_kev, &down);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cl_base_filter_transform_frame_ip (GstVideoFilter * filter,
    GstVideoFrame * frame)
{
  return analyze_frame (GST_CL_BASE_FILTER (filter), frame);
}

/* In place (analyzers, in passthrough): an invalid buffer is dropped with a
 * warning, as in transform(). */
static GstFlowReturn
gst_cl_base_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);
  GstVideoFrame frame;
  GstFlowReturn ret;
  gchar *reason = NULL;

  if (G_UNLIKELY (!filter->negotiated)) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_cl_layout_check (&filter->in_info, gst_buffer_get_video_meta (buf),
          gst_buffer_get_size (buf), &reason))
    goto invalid;
  if (!gst_video_frame_map (&frame, &filter->in_info, buf,
          GST_MAP_READ | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    reason = g_strdup ("the buffer could not be mapped as a video frame");
    goto invalid;
  }
  ret = gst_cl_base_filter_transform_frame_ip (filter, &frame);
  gst_video_frame_unmap (&frame);
  return ret;

invalid:
  GST_ELEMENT_WARNING (trans, STREAM, FORMAT,
      ("Dropping a buffer that does not hold a whole frame of the "
          "negotiated format."), ("%s", reason));
  g_free (reason);
  return GST_BASE_TRANSFORM_FLOW_DROPPED;
}

static GstFlowReturn
gst_cl_base_filter_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in, GstVideoFrame * out)
{
  return filter_frame (GST_CL_BASE_FILTER (filter), in, out);
}

/* Replaces GstVideoFilter's transform: a buffer that does not hold a whole
 * frame is dropped with a warning instead of letting an unwritten output
 * buffer go downstream. */
static GstFlowReturn
gst_cl_base_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);
  GstVideoFrame in, out;
  GstFlowReturn ret;
  gchar *reason = NULL;

  if (G_UNLIKELY (!filter->negotiated)) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_cl_layout_check (&filter->in_info,
          gst_buffer_get_video_meta (inbuf), gst_buffer_get_size (inbuf),
          &reason))
    goto invalid;
  if (!gst_video_frame_map (&in, &filter->in_info, inbuf,
          GST_MAP_READ | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    reason = g_strdup ("the buffer could not be mapped as a video frame");
    goto invalid;
  }
  if (!gst_video_frame_map (&out, &filter->out_info, outbuf,
          GST_MAP_WRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    gst_video_frame_unmap (&in);
    reason = g_strdup ("the output buffer could not be mapped");
    goto invalid;
  }
  ret = gst_cl_base_filter_transform_frame (filter, &in, &out);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return ret;

invalid:
  GST_ELEMENT_WARNING (trans, STREAM, FORMAT,
      ("Dropping a buffer that does not hold a whole frame of the "
          "negotiated format."), ("%s", reason));
  g_free (reason);
  return GST_BASE_TRANSFORM_FLOW_DROPPED;
}

static void
gst_cl_base_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime ts;

  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  ts = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (trans), ts);
}

static gboolean
gst_cl_base_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = PRIV (self);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS && priv->prof_frames > 0)
    post_profile (self, GST_CLOCK_TIME_NONE, priv->prof_last_post);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->sink_event
      (trans, event);
}

/* ------------------------------------------------------------------------ */
/* Allocation: pinned frames for devices that copy them                     */

static GstBufferPool *
pinned_pool_for (GstClBaseFilter * self, GstCaps * caps, guint * size)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (!caps || !gst_video_info_from_caps (&info, caps))
    return NULL;
  pool = gst_cl_pinned_pool_new (priv->device);
  if (!pool)
    return NULL;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, 0, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  *size = info.size;
  return pool;
}

/* Upstream is offered frames in pinned memory: their upload then runs at
 * the bus's speed (docs/performance.md). */
static gboolean
gst_cl_base_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstBufferPool *pool;
  GstCaps *caps;
  gboolean need_pool;
  guint size = 0;

  if (!priv->device || !gst_cl_pinned_pool_wanted (priv->device) ||
      gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->
        propose_allocation (trans, decide_query, query);
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (need_pool && (pool = pinned_pool_for (self, caps, &size))) {
    gst_query_add_allocation_pool (query, pool, size, 0, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/* Analyzers run in passthrough: GstBaseTransform forwards upstream's
 * ALLOCATION query downstream. When downstream brings no pool, the
 * analyzer offers pinned frames itself: they pass through untouched and are
 * ordinary memory to everyone else. */
static gboolean
gst_cl_base_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstBufferPool *pool, *theirs = NULL;
  GstCaps *caps;
  gboolean need_pool, ret;
  guint size = 0;

  ret = GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->query
      (trans, direction, query);
  if (direction != GST_PAD_SINK || GST_QUERY_TYPE (query) !=
      GST_QUERY_ALLOCATION || !gst_base_transform_is_passthrough (trans) ||
      !priv->device || !gst_cl_pinned_pool_wanted (priv->device))
    return ret;
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &theirs, NULL, NULL, NULL);
  if (theirs) {
    gst_object_unref (theirs);
    return ret;
  }
  if (need_pool && (pool = pinned_pool_for (self, caps, &size))) {
    GST_DEBUG_OBJECT (self, "offering pinned frames upstream");
    if (gst_query_get_n_allocation_pools (query) > 0)
      gst_query_set_nth_allocation_pool (query, 0, pool, size, 0, 0);
    else
      gst_query_add_allocation_pool (query, pool, size, 0, 0);
    gst_object_unref (pool);
    ret = TRUE;
  }
  return ret;
}

/* Output frames go to pinned memory unless downstream brings its own pool
 * (a sink's video memory, another clfilters element's pinned pool). */
static gboolean
gst_cl_base_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = PRIV (self);
  GstBufferPool *theirs = NULL, *pool;
  GstCaps *caps;
  guint size = 0;

  if (priv->device && gst_cl_pinned_pool_wanted (priv->device)) {
    if (gst_query_get_n_allocation_pools (query) > 0)
      gst_query_parse_nth_allocation_pool (query, 0, &theirs, NULL, NULL,
          NULL);
    gst_query_parse_allocation (query, &caps, NULL);
    if (!theirs && (pool = pinned_pool_for (self, caps, &size))) {
      GST_DEBUG_OBJECT (self, "output frames in pinned memory");
      if (gst_query_get_n_allocation_pools (query) > 0)
        gst_query_set_nth_allocation_pool (query, 0, pool, size, 0, 0);
      else
        gst_query_add_allocation_pool (query, pool, size, 0, 0);
      gst_object_unref (pool);
    }
    if (theirs)
      gst_object_unref (theirs);
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->
      decide_allocation (trans, query);
}

/* ------------------------------------------------------------------------ */
/* Properties                                                               */

static void
gst_cl_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_MEMORY:
      priv->memory = g_value_get_enum (value);
      break;
    case PROP_DEVICE:
      g_free (priv->device_selector);
      priv->device_selector = g_value_dup_string (value);
      if (!priv->device_selector)
        priv->device_selector = g_strdup ("");
      break;
    case PROP_PROFILING:
      priv->profiling = g_value_get_boolean (value);
      break;
    case PROP_KERNEL_SHAPE:
      priv->tuning.shape = g_value_get_enum (value);
      break;
    case PROP_WORK_GROUP_SIZE:
      priv->tuning.work_group_size = g_value_get_uint (value);
      break;
    case PROP_ROWS_PER_ITEM:
      priv->tuning.rows_per_item = g_value_get_uint (value);
      break;
    case PROP_PIXELS_PER_ITEM:
      priv->tuning.pixels_per_item = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_MEMORY:
      g_value_set_enum (value, priv->memory);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, priv->device_selector);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, priv->device_name);
      break;
    case PROP_PROFILING:
      g_value_set_boolean (value, priv->profiling);
      break;
    case PROP_KERNEL_SHAPE:
      g_value_set_enum (value, priv->tuning.shape);
      break;
    case PROP_WORK_GROUP_SIZE:
      g_value_set_uint (value, priv->tuning.work_group_size);
      break;
    case PROP_ROWS_PER_ITEM:
      g_value_set_uint (value, priv->tuning.rows_per_item);
      break;
    case PROP_PIXELS_PER_ITEM:
      g_value_set_uint (value, priv->tuning.pixels_per_item);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_filter_finalize (GObject * object)
{
  GstClBaseFilterPrivate *priv = PRIV (GST_CL_BASE_FILTER (object));
  g_free (priv->device_selector);
  g_free (priv->device_name);
  G_OBJECT_CLASS (gst_cl_base_filter_parent_class)->finalize (object);
}

static void
gst_cl_base_filter_class_init (GstClBaseFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_cl_base_filter_set_property;
  gobject_class->get_property = gst_cl_base_filter_get_property;
  gobject_class->finalize = gst_cl_base_filter_finalize;

  /**
   * GstClBaseFilter:memory:
   *
   * Where frames live on the device. Applies from the next start.
   */
  g_object_class_install_property (gobject_class, PROP_MEMORY,
      g_param_spec_enum ("memory", "Memory",
          "Where frames live on the device: OpenCL buffers or images "
          "(auto: the kind measured faster on the device: buffers on CPUs, "
          "images for 4-byte pixels on GPUs)",
          GST_TYPE_CL_MEMORY_KIND, DEFAULT_MEMORY,
          rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: \"\" = $GST_CL_DEVICE, else the first GPU, else the "
          "first device; or gpu, cpu, accelerator, a platform.device index "
          "such as 1.0, or part of the device or platform name",
          DEFAULT_DEVICE, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the OpenCL device in use once started", "",
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_PROFILING,
      g_param_spec_boolean ("profiling", "Profiling",
          "Measure upload, kernel and download times and post them in "
          "\"cl-profile\" element messages, at most once a second",
          DEFAULT_PROFILING, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_KERNEL_SHAPE,
      g_param_spec_enum ("kernel-shape", "Kernel shape",
          "Tuning: how work is split among work-items (every value gives the "
          "same output)", GST_TYPE_CL_KERNEL_SHAPE, DEFAULT_KERNEL_SHAPE,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_WORK_GROUP_SIZE,
      g_param_spec_uint ("work-group-size", "Work-group size",
          "Tuning: work-items per work-group (0 = automatic: 1 in strips; "
          "in tiles 64, 128 for clgaussian's one-pass radius kernel, 256 "
          "for clhistogram)", 0, 1024, 0, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_ROWS_PER_ITEM,
      g_param_spec_uint ("rows-per-item", "Rows per work-item",
          "Tuning: rows each work-item filters (0 = automatic)", 0, 4096, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_PIXELS_PER_ITEM,
      g_param_spec_uint ("pixels-per-item", "Pixels per work-item",
          "Tuning: pixels of a row each work-item filters (0 = automatic: "
          "the whole row in strips, 16 bytes in tiles)", 0, 65536, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_base_filter_start);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_decide_allocation);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_base_filter_query);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_base_filter_stop);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_before_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_base_filter_sink_event);
  vfilter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_info);
  vfilter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_frame);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_ip);
  vfilter_class->transform_frame_ip =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_frame_ip);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BASE_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_MEMORY_KIND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_KERNEL_SHAPE, 0);
}

static void
gst_cl_base_filter_init (GstClBaseFilter * self)
{
  GstClBaseFilterPrivate *priv = PRIV (self);
  priv->memory = DEFAULT_MEMORY;
  priv->device_selector = g_strdup (DEFAULT_DEVICE);
  priv->device_name = g_strdup ("");
  priv->profiling = DEFAULT_PROFILING;
  priv->tuning.shape = DEFAULT_KERNEL_SHAPE;
}
