/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemapkernels.c: cltonemap's kernels and device state.
 *
 * cltonemap is a converter on the filters' base class (its `convert`):
 * the frame loop brings the input to the device and hands over both whole
 * frames on the compute queue of the frame's stream (docs/design.md).
 * Here a frame's three kernels are enqueued through the frame's work:
 * the histogram of the frame (dynamic peak only), the curve from it and
 * the smoothing state kept on the device, and the mapping of every pixel;
 * the last one ends the frame. The messages' records are read without
 * waiting and posted, in frame order, once read (waiting only for those
 * more than 2 frames old), all of them before EOS. */
#include "gstcltonemapkernels.h"
#include "core/gstclcaps.h"
#include "core/gstclkernel.h"
#include "core/gstcllayout.h"
#include "gstclshared.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_tone_map_kernels_debug);
#define GST_CAT_DEFAULT gst_cl_tone_map_kernels_debug

/* messages waiting for their record beyond which the host waits */
#define PENDING_MAX 2

/* One frame's message: its record, read without waiting. */
typedef struct
{
  cl_event read;
  cl_float rec[4];
  GstClockTime timestamp;
  gboolean dynamic;
} Pending;

static cl_mem
new_buffer (GstClDevice * device, gsize bytes, GError ** error)
{
  cl_int st;
  cl_mem m = clCreateBuffer (device->context, CL_MEM_READ_WRITE, bytes,
      NULL, &st);
  if (!m)
    gst_cl_fail (error, st, "clCreateBuffer (tone mapping state)");
  return m;
}

/* ------------------------------------------------------------------------ */
/* Start and stop                                                           */

/**
 * gst_cl_tone_map_kernels_setup:
 *
 * Creates the kernels of @program and the device buffers on @device, the
 * histogram and the smoothing state zeroed on @queue.
 */
gboolean
gst_cl_tone_map_kernels_setup (GstClToneMapKernels * k, GstClDevice * device,
    cl_program program, cl_command_queue queue, GError ** error)
{
  static gsize debug_done = 0;
  size_t wg = 0;

  if (g_once_init_enter (&debug_done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_tone_map_kernels_debug,
        "cltonemapkernels", 0, "cltonemap kernels");
    g_once_init_leave (&debug_done, 1);
  }
  k->reset = TRUE;
  if (!(k->k_hist = gst_cl_kernel_new (program, "tonemap_hist", error))
      || !(k->k_curve = gst_cl_kernel_new (program, "tonemap_curve", error))
      || !(k->k_map = gst_cl_kernel_new (program, "tonemap_map", error))
      || !(k->k_hist_semi16 = gst_cl_kernel_new (program,
              "tonemap_hist_semi16", error))
      || !(k->k_map_semi16 = gst_cl_kernel_new (program,
              "tonemap_map_semi16", error))
      || !(k->k_histx8 = gst_cl_kernel_new (program, "tonemap_hist_x8",
              error))
      || !(k->k_mapx8 = gst_cl_kernel_new (program, "tonemap_map_x8", error))
      || !(k->cfg = new_buffer (device, GST_CL_TONEMAP_CFG_SIZE * 4, error))
      || !(k->params = new_buffer (device, GST_CL_TONEMAP_PAR_SIZE * 4,
              error))
      || !(k->state = new_buffer (device, GST_CL_TONEMAP_STATE_SIZE * 4,
              error))
      || !(k->hist = new_buffer (device, GST_CL_TONEMAP_BINS * 4, error))
      || !(k->lut = new_buffer (device, sizeof (((GstClToneMapSetup *)
                      NULL)->lut), error))
      || !(k->gain = new_buffer (device, GST_CL_TONEMAP_LUT * 8, error)))
    return FALSE;
  clGetKernelWorkGroupInfo (k->k_hist, device->device_id,
      CL_KERNEL_WORK_GROUP_SIZE, sizeof (wg), &wg, NULL);
  k->hist_local = MAX (1, MIN (wg, GST_CL_TONEMAP_GROUP));
  return gst_cl_buffer_zero (queue, k->hist, GST_CL_TONEMAP_BINS * 4,
      "tone mapping histogram", error)
      && gst_cl_buffer_zero (queue, k->state, GST_CL_TONEMAP_STATE_SIZE * 4,
      "tone mapping state", error);
}

/* Releases what setup made (the device finished its work before). */
void
gst_cl_tone_map_kernels_cleanup (GstClToneMapKernels * k)
{
  Pending *p;

  while ((p = g_queue_pop_head (&k->pending))) {
    clReleaseEvent (p->read);
    g_free (p);
  }
  g_clear_pointer (&k->k_hist, clReleaseKernel);
  g_clear_pointer (&k->k_curve, clReleaseKernel);
  g_clear_pointer (&k->k_map, clReleaseKernel);
  g_clear_pointer (&k->k_map_semi16, clReleaseKernel);
  g_clear_pointer (&k->k_hist_semi16, clReleaseKernel);
  g_clear_pointer (&k->k_histx8, clReleaseKernel);
  g_clear_pointer (&k->k_mapx8, clReleaseKernel);
  g_clear_pointer (&k->cfg, clReleaseMemObject);
  g_clear_pointer (&k->params, clReleaseMemObject);
  g_clear_pointer (&k->state, clReleaseMemObject);
  g_clear_pointer (&k->hist, clReleaseMemObject);
  g_clear_pointer (&k->lut, clReleaseMemObject);
  g_clear_pointer (&k->gain, clReleaseMemObject);
}

/**
 * gst_cl_tone_map_kernels_configure:
 *
 * The constants and tables of new caps written (no frame in flight), and
 * the dynamic peak started afresh.
 */
gboolean
gst_cl_tone_map_kernels_configure (GstClToneMapKernels * k,
    GstClDevice * device, cl_command_queue queue,
    const GstClToneMapSetup * setup, GError ** error)
{
  cl_int st;

  memcpy (k->in_fmt, setup->in_fmt.s, sizeof (k->in_fmt));
  memcpy (k->out_fmt, setup->out_fmt.s, sizeof (k->out_fmt));
  k->meta_peak = setup->meta_peak;
  /* the CPU kernels where the program is built for a CPU (GST_CL_CPU); the
   * GPU shapes otherwise, also on POCL with GST_CL_GPU_KERNELS=1, as the
   * tests' -gpu-kernels runs check them */
  k->fastx8 = !gst_cl_device_builds_gpu_kernels (device) &&
      setup->in_fmt.s[1] == setup->in_fmt.s[2];
  k->reset = TRUE;
  /* once per caps, not per frame: a blocking write is fine here */
  st = clEnqueueWriteBuffer (queue, k->cfg, CL_TRUE, 0, sizeof (setup->cfg),
      setup->cfg, 0, NULL, NULL);
  if (st == CL_SUCCESS)
    st = clEnqueueWriteBuffer (queue, k->lut, CL_TRUE, 0,
        sizeof (setup->lut), setup->lut, 0, NULL, NULL);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueWriteBuffer (tone mapping)");
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* One frame                                                                */

/* A 1-D launch of @items work-items in groups of @group. */
static void
launch_1d (GstClLaunch * l, size_t items, size_t group)
{
  memset (l, 0, sizeof (*l));
  l->global[0] = items;
  l->global[1] = l->local[1] = 1;
  l->local[0] = group;
}

/* Whether the GPU kernels of 16-bit 4:2:0 semi-planar input (P010_10LE,
 * P016_LE) take the input frame of geometry @sg: word pairs at even
 * offsets and strides, offsets in 32 bits. */
static gboolean
semi16_input (GstClToneMapKernels * k, const GstClFrameWork * work,
    const GstClFramePair * frames, const cl_int8 * sg)
{
  const cl_int *f = k->in_fmt;

  return gst_cl_device_builds_gpu_kernels (work->device) &&
      f[0] == GST_CL_TONEMAP_KIND_SEMI && f[1] == 1 && f[2] == 1 &&
      f[3] == 2 && ((sg->s[0] | sg->s[1] | sg->s[3] | sg->s[4]) & 1) == 0
      && frames->in_layout->size < G_MAXINT32;
}

/* ... and the mapping of such input into 8-bit semi-planar output
 * (NV12), offsets in 32 bits */
static gboolean
map_semi16 (GstClToneMapKernels * k, const GstClFrameWork * work,
    const GstClFramePair * frames, const cl_int8 * sg)
{
  const cl_int *d = k->out_fmt;

  return semi16_input (k, work, frames, sg) &&
      d[0] == GST_CL_TONEMAP_KIND_SEMI && d[3] == 1 && d[5] == 0 &&
      frames->out_layout->size < G_MAXINT32;
}

/* Whether the two planes of geometry @sg allow loads or stores of
 * @bytes (offsets and strides multiples of it): the `vec` of
 * tonemap_hist_semi16 (16-byte loads) and tonemap_map_semi16 */
static cl_int
semi16_vec (const cl_int8 * sg, cl_int bytes)
{
  return ((sg->s[0] | sg->s[1] | sg->s[3] | sg->s[4]) & (bytes - 1)) == 0;
}

/* 1. the histogram of the frame (dynamic peak only) */
static gboolean
enqueue_hist (GstClToneMapKernels * k, GstClFrameWork * work,
    const GstClFramePair * frames, const cl_int8 * geo, cl_int w, cl_int h,
    cl_float hlg_peak, GError ** error)
{
  const size_t nbx = (w + (1 << k->in_fmt[1]) - 1) >> k->in_fmt[1];
  const size_t nby = (h + (1 << k->in_fmt[2]) - 1) >> k->in_fmt[2];
  /* enough work-groups to fill the device, each counting many pixels
   * into its local table before one atomic add per bin */
  size_t groups = MIN ((nbx * nby + k->hist_local - 1) / k->hist_local,
      MAX (1, work->device->compute_units) *
      (gst_cl_device_builds_gpu_kernels (work->device) ? 8 : 1));
  GstClLaunch l;

  if (k->fastx8) {
    /* eight work-items a compute unit, at least 8 rows of blocks each:
     * each adds its private tables to hist with atomics, which the
     * cores contend for */
    const cl_int items = 8 * MAX (1, (cl_int) work->device->compute_units);
    const cl_int rows = MAX (8, ((cl_int) nby + items - 1) / items);
    launch_1d (&l, (nby + rows - 1) / rows, 1);
    return gst_cl_set_args (k->k_histx8, error, GST_CL_ARG (frames->in),
        GST_CL_ARG (k->in_fmt), GST_CL_ARG (*geo), GST_CL_ARG (w),
        GST_CL_ARG (h), GST_CL_ARG (rows), GST_CL_ARG (k->cfg),
        GST_CL_ARG (k->lut), GST_CL_ARG (hlg_peak), GST_CL_ARG (k->hist),
        GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, k->k_histx8, &l, error);
  }
  if (semi16_input (k, work, frames, geo)) {
    /* a quad of TM_QUAD (4) blocks a work-item */
    const size_t quads = (nbx + 3) / 4 * nby;
    cl_int vec = semi16_vec (geo, 16);
    groups = MIN (groups, (quads + k->hist_local - 1) / k->hist_local);
    launch_1d (&l, groups * k->hist_local, k->hist_local);
    return gst_cl_set_args (k->k_hist_semi16, error, GST_CL_ARG (frames->in),
        GST_CL_ARG (k->in_fmt), GST_CL_ARG (*geo), GST_CL_ARG (w),
        GST_CL_ARG (h), GST_CL_ARG (vec), GST_CL_ARG (k->cfg),
        GST_CL_ARG (k->lut), GST_CL_ARG (hlg_peak), GST_CL_ARG (k->hist),
        GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, k->k_hist_semi16, &l, error);
  }
  launch_1d (&l, MAX (groups, 1) * k->hist_local, k->hist_local);
  return gst_cl_set_args (k->k_hist, error, GST_CL_ARG (frames->in),
      GST_CL_ARG (k->in_fmt), GST_CL_ARG (*geo), GST_CL_ARG (w),
      GST_CL_ARG (h), GST_CL_ARG (k->cfg), GST_CL_ARG (k->lut),
      GST_CL_ARG (hlg_peak), GST_CL_ARG (k->hist), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, k->k_hist, &l, error);
}

/* 2. the frame's curve, on the device, from its histogram or the fixed
 * peak */
static gboolean
enqueue_curve (GstClToneMapKernels * k, GstClFrameWork * work,
    const GstClToneMapSettings * s, guint64 pixels, GError ** error)
{
  cl_uint need = (cl_uint) gst_cl_tonemap_percentile_need (s->percentile,
      pixels);
  cl_int dynamic = s->peak_mode == GST_CL_TONE_PEAK_DYNAMIC;
  cl_int reset = k->reset;
  cl_float lw_fixed = s->peak_mode == GST_CL_TONE_PEAK_METADATA &&
      k->meta_peak > 0.0 ? k->meta_peak : s->source_peak;
  cl_float lt = s->target_peak, threshold = s->scene_threshold;
  cl_float coef = gst_cl_tonemap_smoothing_coef (s->smoothing_period);
  cl_int curve = s->curve;
  GstClLaunch l;

  if (dynamic)
    k->reset = FALSE;
  launch_1d (&l, GST_CL_TONEMAP_GROUP, GST_CL_TONEMAP_GROUP);
  return gst_cl_set_args (k->k_curve, error, GST_CL_ARG (k->hist),
      GST_CL_ARG (k->state), GST_CL_ARG (k->params), GST_CL_ARG (k->gain),
      GST_CL_ARG (need), GST_CL_ARG (dynamic), GST_CL_ARG (reset),
      GST_CL_ARG (lw_fixed), GST_CL_ARG (lt), GST_CL_ARG (threshold),
      GST_CL_ARG (coef), GST_CL_ARG (curve), GST_CL_ARG (k->lut),
      GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, k->k_curve, &l, error);
}

/* The mapping's launch over the frame's chroma blocks: a row of blocks a
 * work-item in groups of one on CPUs (POCL pays for each work-group; a row
 * vectorises; left to itself it took the whole column as one group: one
 * core), a block a work-item on other devices (two side by side in
 * tonemap_map_semi16, @semi16), in groups of `work-group-size` (default
 * 64) along the row. */
static void
map_launch (GstClToneMapKernels * k, const GstClFrameWork * work, cl_int w,
    cl_int h, gboolean semi16, GstClLaunch * l)
{
  const cl_int nbx = (w + (1 << k->in_fmt[1]) - 1) >> k->in_fmt[1];
  const cl_int nby = (h + (1 << k->in_fmt[2]) - 1) >> k->in_fmt[2];
  size_t group = work->decomposition.work_group_size ?
      work->decomposition.work_group_size : 64;

  memset (l, 0, sizeof (*l));
  group = MIN (group, work->device->max_work_group_size);
  if (!gst_cl_device_builds_gpu_kernels (work->device)) {
    l->chunk = nbx;
    group = 1;
  } else {
    l->chunk = semi16 ? 2 : 1;
  }
  l->global[0] = GST_ROUND_UP_N ((size_t) (nbx + l->chunk - 1) / l->chunk,
      group);
  l->global[1] = nby;
  l->local[0] = group;
  l->local[1] = 1;
}

/* 3. every pixel */
static gboolean
enqueue_map (GstClToneMapKernels * k, GstClFrameWork * work,
    const GstClFramePair * frames, const cl_int8 * sg, const cl_int8 * dg,
    cl_int w, cl_int h, const GstClToneMapSettings * s, GError ** error)
{
  cl_float lt = s->target_peak, hlg_peak = s->hlg_peak;
  const gboolean semi16 = map_semi16 (k, work, frames, sg);
  GstClLaunch l;

  map_launch (k, work, w, h, semi16, &l);
  if (semi16) {
    /* its `vec`: whether its 8-byte loads and 4-byte stores are aligned */
    const cl_int vec = semi16_vec (sg, 8) && semi16_vec (dg, 4);
    return gst_cl_set_args (k->k_map_semi16, error, GST_CL_ARG (frames->in),
        GST_CL_ARG (k->in_fmt), GST_CL_ARG (*sg), GST_CL_ARG (frames->out),
        GST_CL_ARG (*dg), GST_CL_ARG (w), GST_CL_ARG (h), GST_CL_ARG (vec),
        GST_CL_ARG (k->cfg), GST_CL_ARG (k->lut), GST_CL_ARG (k->gain),
        GST_CL_ARG (lt), GST_CL_ARG (hlg_peak), GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, k->k_map_semi16, &l, error);
  }
  if (k->fastx8)
    return gst_cl_set_args (k->k_mapx8, error, GST_CL_ARG (frames->in),
        GST_CL_ARG (k->in_fmt), GST_CL_ARG (*sg), GST_CL_ARG (frames->out),
        GST_CL_ARG (k->out_fmt), GST_CL_ARG (*dg), GST_CL_ARG (w),
        GST_CL_ARG (h), GST_CL_ARG (k->cfg), GST_CL_ARG (k->lut),
        GST_CL_ARG (k->gain), GST_CL_ARG (lt), GST_CL_ARG (hlg_peak),
        GST_CL_ARGS_END)
        && gst_cl_frame_work_enqueue (work, k->k_mapx8, &l, error);
  return gst_cl_set_args (k->k_map, error, GST_CL_ARG (frames->in),
      GST_CL_ARG (k->in_fmt), GST_CL_ARG (*sg), GST_CL_ARG (frames->out),
      GST_CL_ARG (k->out_fmt), GST_CL_ARG (*dg), GST_CL_ARG (w),
      GST_CL_ARG (h), GST_CL_ARG (l.chunk), GST_CL_ARG (k->cfg),
      GST_CL_ARG (k->lut), GST_CL_ARG (k->gain), GST_CL_ARG (lt),
      GST_CL_ARG (hlg_peak), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, k->k_map, &l, error);
}

/* The frame's record, read without waiting, for its message: after the
 * mapping on the in-order queue, and not the frame's end (nothing of the
 * frames is in it). */
static gboolean
enqueue_record (GstClToneMapKernels * k, GstClFrameWork * work,
    GstBuffer * buffer, const GstClToneMapSettings * s, GError ** error)
{
  Pending *p = g_new0 (Pending, 1);
  cl_int st = clEnqueueReadBuffer (work->queue, k->params, CL_FALSE,
      GST_CL_TONEMAP_PAR_RECORD * sizeof (cl_float), sizeof (p->rec), p->rec,
      0, NULL, &p->read);

  if (st != CL_SUCCESS) {
    g_free (p);
    return gst_cl_fail (error, st, "clEnqueueReadBuffer (tone mapping peak)");
  }
  p->timestamp = GST_BUFFER_PTS (buffer);
  p->dynamic = s->peak_mode == GST_CL_TONE_PEAK_DYNAMIC;
  g_queue_push_tail (&k->pending, p);
  return TRUE;
}

/**
 * gst_cl_tone_map_kernels_enqueue:
 * @buffer: the input, for the message's timestamp; NULL for the tuner's
 *   frames, which post nothing
 *
 * A frame's kernels on @work's queue, not waited for.
 */
gboolean
gst_cl_tone_map_kernels_enqueue (GstClToneMapKernels * k,
    GstClFrameWork * work, const GstClFramePair * frames,
    const GstClToneMapSettings * s, GstBuffer * buffer, GError ** error)
{
  cl_int w = GST_VIDEO_INFO_WIDTH (frames->in_layout);
  cl_int h = GST_VIDEO_INFO_HEIGHT (frames->in_layout);
  cl_float hlg_peak = s->hlg_peak;
  cl_int8 sg, dg;

  gst_cl_tonemap_geometry (frames->in_layout, &sg);
  gst_cl_tonemap_geometry (frames->out_layout, &dg);
  return (s->peak_mode != GST_CL_TONE_PEAK_DYNAMIC
      || enqueue_hist (k, work, frames, &sg, w, h, hlg_peak, error))
      && enqueue_curve (k, work, s, (guint64) w * h, error)
      && enqueue_map (k, work, frames, &sg, &dg, w, h, s, error)
      && (!s->post_messages || !buffer
      || enqueue_record (k, work, buffer, s, error));
}

/**
 * gst_cl_tone_map_kernels_post:
 * @all: wait for every record (EOS, flush, stop), else post those read
 *   and wait only for those more than 2 frames old
 *
 * Posts the "cltonemap" messages of the frames whose records are read,
 * in frame order.
 */
void
gst_cl_tone_map_kernels_post (GstClToneMapKernels * k, GstElement * element,
    gboolean all)
{
  Pending *p;

  while ((p = g_queue_peek_head (&k->pending))) {
    GstStructure *s;
    gdouble frame_peak;
    gboolean ok;

    if (!all && !gst_cl_event_done (p->read) &&
        g_queue_get_length (&k->pending) <= PENDING_MAX)
      break;
    ok = gst_cl_event_wait (p->read, NULL);
    g_queue_pop_head (&k->pending);
    clReleaseEvent (p->read);
    frame_peak = p->dynamic ? gst_cl_tonemap_pq_eotf (p->rec[0]) : p->rec[2];
    s = gst_structure_new ("cltonemap", "timestamp", G_TYPE_UINT64,
        p->timestamp, "frame-peak", G_TYPE_DOUBLE, frame_peak, "peak",
        G_TYPE_DOUBLE, (gdouble) p->rec[2], "scene-cut", G_TYPE_BOOLEAN,
        p->dynamic && p->rec[3] != 0.0f, NULL);
    g_free (p);
    if (ok)
      gst_element_post_message (element,
          gst_message_new_element (GST_OBJECT (element), s));
    else
      gst_structure_free (s);
  }
}

