/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemapframe.c: cltonemap's frames on the device.
 *
 * The filters' frame loop (gst/core/gstclframeloop.c) hands an element
 * the first plane of a frame and copies the others from input to output:
 * right for filters of one format, not for a converter whose output has
 * another depth and whose chroma is computed. cltonemap therefore runs its
 * frames itself, with the core's pieces and the same rules
 * (docs/design.md): the input brought to the device (gst_cl_frame_input),
 * the compute queue of the frame's stream after what wrote the input and
 * what still reads the output, the three kernels, a marker whose event
 * goes on both frames' memory, the download started for system memory
 * downstream, at most 2 frames in flight. The messages' records are read
 * without waiting and posted, in frame order, once read (waiting only for
 * those more than 2 frames old), all of them before EOS. */
#include "gstcltonemapframe.h"
#include "core/gstclcaps.h"
#include "core/gstclkernel.h"
#include "core/gstcllayout.h"
#include "gstclshared.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_tone_map_frame_debug);
#define GST_CAT_DEFAULT gst_cl_tone_map_frame_debug

#define FRAMES_IN_FLIGHT 2
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

/* One frame's state between its steps. */
typedef struct
{
  GstClMemory *in, *out;
  GstBuffer *imported;
  GstVideoInfo in_layout, out_layout;
  GstClWaitList wl;
  GstClProfileFrame prof;
  guint compute;
  cl_command_queue q;
  cl_event done;
} Frame;

static void
release_kernel (cl_kernel * k)
{
  if (*k)
    clReleaseKernel (*k);
  *k = NULL;
}

static void
release_mem (cl_mem * m)
{
  if (*m)
    clReleaseMemObject (*m);
  *m = NULL;
}

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

/**
 * gst_cl_tone_map_frames_start:
 *
 * Builds the program and its kernels on @device and makes the device
 * buffers (the histogram zeroed).
 */
gboolean
gst_cl_tone_map_frames_start (GstClToneMapFrames * f, GstClDevice * device,
    guint queue_set, const gchar * source, GError ** error)
{
  static gsize debug_done = 0;
  cl_command_queue q;
  size_t wg = 0;

  if (g_once_init_enter (&debug_done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_tone_map_frame_debug, "cltonemapframe",
        0, "cltonemap frames on the device");
    g_once_init_leave (&debug_done, 1);
  }
  f->device = device;
  f->queue_set = f->frame_set = queue_set;
  gst_cl_in_flight_init (&f->in_flight, FRAMES_IN_FLIGHT);
  gst_cl_profile_reset (&f->profile);
  f->running = TRUE;
  f->reset = TRUE;
  if (!(f->program = gst_cl_device_get_program (device, "tonemap", source,
              error))
      || !(f->k_hist = gst_cl_kernel_new (f->program, "tonemap_hist", error))
      || !(f->k_curve = gst_cl_kernel_new (f->program, "tonemap_curve",
              error))
      || !(f->k_map = gst_cl_kernel_new (f->program, "tonemap_map", error))
      || !(f->k_histx8 = gst_cl_kernel_new (f->program, "tonemap_hist_x8",
              error))
      || !(f->k_mapx8 = gst_cl_kernel_new (f->program, "tonemap_map_x8",
              error))
      || !(f->cfg = new_buffer (device, GST_CL_TONEMAP_CFG_SIZE * 4, error))
      || !(f->params = new_buffer (device, GST_CL_TONEMAP_PAR_SIZE * 4,
              error))
      || !(f->state = new_buffer (device, GST_CL_TONEMAP_STATE_SIZE * 4,
              error))
      || !(f->hist = new_buffer (device, GST_CL_TONEMAP_BINS * 4, error))
      || !(f->lut = new_buffer (device, sizeof (((GstClToneMapSetup *)
                      NULL)->lut), error))
      || !(f->gain = new_buffer (device, (GST_CL_TONEMAP_LUT + 1) * 4,
              error)))
    return FALSE;
  clGetKernelWorkGroupInfo (f->k_hist, device->device_id,
      CL_KERNEL_WORK_GROUP_SIZE, sizeof (wg), &wg, NULL);
  f->hist_local = MAX (1, MIN (wg, GST_CL_TONEMAP_GROUP));
  q = gst_cl_device_get_queue (device, GST_CL_QUEUE_OF_SET (queue_set,
          GST_CL_QUEUE_COMPUTE));
  return gst_cl_buffer_zero (q, f->hist, GST_CL_TONEMAP_BINS * 4,
      "tone mapping histogram", error)
      && gst_cl_buffer_zero (q, f->state, GST_CL_TONEMAP_STATE_SIZE * 4,
      "tone mapping state", error);
}

/* Posts the messages whose records are read, in order: all of them
 * (waiting) with @all, else those read already and, waiting, those beyond
 * PENDING_MAX. */
static void
post_pending (GstClToneMapFrames * f, GstElement * element, gboolean all)
{
  Pending *p;

  while ((p = g_queue_peek_head (&f->pending))) {
    GstStructure *s;
    gdouble frame_peak;
    gboolean ok;

    if (!all && !gst_cl_event_done (p->read) &&
        g_queue_get_length (&f->pending) <= PENDING_MAX)
      break;
    ok = gst_cl_event_wait (p->read, NULL);
    g_queue_pop_head (&f->pending);
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

static void
post_profile (GstElement * element, GPtrArray * messages)
{
  guint i;

  for (i = 0; i < messages->len; i++)
    gst_element_post_message (element,
        gst_message_new_element (GST_OBJECT (element), messages->pdata[i]));
  g_ptr_array_free (messages, TRUE);
}

/**
 * gst_cl_tone_map_frames_drain:
 * @event: (nullable): EOS (the profiling totals posted too) or FLUSH_STOP
 *   (the next frame starts the dynamic peak afresh)
 *
 * Waits for every frame in flight and posts every message left.
 */
void
gst_cl_tone_map_frames_drain (GstClToneMapFrames * f, GstElement * element,
    GstEvent * event)
{
  GPtrArray *messages = g_ptr_array_new ();
  GstStructure *s;

  if (f->running)
    gst_cl_in_flight_retire (&f->in_flight, 0, &f->profile, messages, NULL);
  post_profile (element, messages);
  post_pending (f, element, TRUE);
  if (event && GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    f->reset = TRUE;
  if (event && GST_EVENT_TYPE (event) == GST_EVENT_EOS &&
      (s = gst_cl_profile_flush (&f->profile)))
    gst_element_post_message (element,
        gst_message_new_element (GST_OBJECT (element), s));
}

/**
 * gst_cl_tone_map_frames_stop:
 *
 * Drains, then releases the device state and the kernels.
 */
void
gst_cl_tone_map_frames_stop (GstClToneMapFrames * f, GstElement * element)
{
  if (f->running)
    gst_cl_tone_map_frames_drain (f, element, NULL);
  f->running = FALSE;
  if (f->device)
    gst_cl_device_finish (f->device, NULL);
  release_kernel (&f->k_hist);
  release_kernel (&f->k_curve);
  release_kernel (&f->k_map);
  release_kernel (&f->k_histx8);
  release_kernel (&f->k_mapx8);
  release_mem (&f->cfg);
  release_mem (&f->params);
  release_mem (&f->state);
  release_mem (&f->hist);
  release_mem (&f->lut);
  release_mem (&f->gain);
  if (f->program)
    clReleaseProgram (f->program);
  f->program = NULL;
  gst_cl_tone_map_frames_clear (f);
  f->device = NULL;
}

/* What caps made: the pool of device frames for input copied in. */
void
gst_cl_tone_map_frames_clear (GstClToneMapFrames * f)
{
  if (f->import_pool) {
    gst_buffer_pool_set_active (f->import_pool, FALSE);
    gst_clear_object (&f->import_pool);
  }
}

/**
 * gst_cl_tone_map_frames_set_caps:
 *
 * Takes @setup's constants for the frames of new caps (those of the old
 * ones drained before); the next dynamic frame is a scene cut.
 */
gboolean
gst_cl_tone_map_frames_set_caps (GstClToneMapFrames * f,
    const GstClToneMapSetup * setup, GstCaps * incaps, GstCaps * outcaps,
    GError ** error)
{
  cl_command_queue q = gst_cl_device_get_queue (f->device,
      GST_CL_QUEUE_OF_SET (f->frame_set, GST_CL_QUEUE_COMPUTE));
  cl_int st;

  if (!f->running) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED, "not started");
    return FALSE;
  }
  gst_cl_tone_map_frames_clear (f);
  f->hdr = TRUE;
  f->out_device = gst_cl_caps_on_device (outcaps);
  f->in_fmt = setup->in_fmt;
  f->out_fmt = setup->out_fmt;
  f->meta_peak = setup->meta_peak;
  /* the CPU kernels where the program is built for a CPU (GST_CL_CPU); the
   * GPU shapes otherwise, also on POCL with GST_CL_GPU_KERNELS=1, as the
   * tests' -gpu-kernels runs check them */
  f->fastx8 = !gst_cl_device_builds_gpu_kernels (f->device) &&
      setup->in_fmt.s[1] == setup->in_fmt.s[2] &&
      setup->out_fmt.s[3] == 1;
  f->reset = TRUE;
  /* once per caps, not per frame: a blocking write is fine here */
  st = clEnqueueWriteBuffer (q, f->cfg, CL_TRUE, 0, sizeof (setup->cfg),
      setup->cfg, 0, NULL, NULL);
  if (st == CL_SUCCESS)
    st = clEnqueueWriteBuffer (q, f->lut, CL_TRUE, 0, sizeof (setup->lut),
        setup->lut, 0, NULL, NULL);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueWriteBuffer (tone mapping)");
  GST_INFO ("%" GST_PTR_FORMAT " to %" GST_PTR_FORMAT, incaps, outcaps);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* One frame                                                                */

/* The input on the device, the queue the frame runs on, and a barrier
 * after what it waits for (gstclframeloop.c does the same for filters). */
static gboolean
frame_begin (GstClToneMapFrames * f, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GstBuffer * inbuf, GstBuffer * outbuf,
    gboolean profiling, Frame * fr, GError ** error)
{
  guint set;
  cl_int st;

  if (!(fr->in = gst_cl_frame_input (f->device, f->queue_set,
              &f->import_pool, in_info, inbuf, &fr->in_layout,
              &fr->imported, error)))
    return FALSE;
  /* the stream follows the frame; the element's own buffers (histogram,
   * state, curve) are used in frame order, also across queues */
  set = fr->in->write_event ? GST_CL_QUEUE_SET (fr->in->write_queue) :
      f->queue_set;
  if (set != f->frame_set)
    gst_cl_wait_list_add (&fr->wl, gst_cl_in_flight_newest (&f->in_flight));
  f->frame_set = set;
  fr->compute = GST_CL_QUEUE_OF_SET (set, GST_CL_QUEUE_COMPUTE);
  fr->q = gst_cl_device_get_queue (f->device, fr->compute);
  if (!(fr->out = gst_cl_buffer_get_memory (outbuf, f->device))) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "the output buffer is not a frame of the device");
    return FALSE;
  }
  gst_cl_layout_from_buffer (out_info, outbuf, &fr->out_layout);
  if (!gst_cl_memory_get_wait_list (fr->in, fr->compute, FALSE, &fr->wl,
          error) || !gst_cl_memory_get_wait_list (fr->out, fr->compute,
          TRUE, &fr->wl, error))
    return FALSE;
  if (profiling && fr->in->write_event && !f->device->zero_copy &&
      fr->in->write_queue == GST_CL_QUEUE_OF_SET (set, GST_CL_QUEUE_UPLOAD)) {
    fr->prof.upload = fr->in->write_event;
    clRetainEvent (fr->prof.upload);
  }
  if (fr->wl.n > 0) {
    st = clEnqueueBarrierWithWaitList (fr->q, fr->wl.n, fr->wl.events, NULL);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueBarrierWithWaitList");
  }
  return TRUE;
}

static gboolean
enqueue (Frame * fr, cl_kernel k, cl_uint dims, const size_t * global,
    const size_t * local, gboolean profiling, GError ** error)
{
  cl_event ev = NULL;
  cl_int st = clEnqueueNDRangeKernel (fr->q, k, dims, NULL, global, local, 0,
      NULL, profiling ? &ev : NULL);

  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueNDRangeKernel (tone mapping)");
  if (ev && fr->prof.n_kernels < GST_CL_MAX_KERNEL_EVENTS)
    fr->prof.kernels[fr->prof.n_kernels++] = ev;
  else if (ev)
    clReleaseEvent (ev);
  return TRUE;
}

/* 1. the histogram of the frame (dynamic peak only) */
static gboolean
enqueue_hist (GstClToneMapFrames * f, Frame * fr, const cl_int8 * geo,
    cl_int w, cl_int h, cl_float hlg_peak, gboolean profiling,
    GError ** error)
{
  const size_t nbx = (w + (1 << f->in_fmt.s[1]) - 1) >> f->in_fmt.s[1];
  const size_t nby = (h + (1 << f->in_fmt.s[2]) - 1) >> f->in_fmt.s[2];
  /* enough work-groups to fill the device, each counting many pixels
   * into its local table before one atomic add per bin */
  size_t groups = MIN ((nbx * nby + f->hist_local - 1) / f->hist_local,
      MAX (1, f->device->compute_units) *
      (gst_cl_device_builds_gpu_kernels (f->device) ? 8 : 1));
  size_t global = MAX (groups, 1) * f->hist_local;
  const size_t one = 1;
  const cl_int rows = 8;

  if (f->fastx8) {
    global = (nby + rows - 1) / rows;
    return gst_cl_set_args (f->k_histx8, error, GST_CL_ARG (fr->in->buffer),
        GST_CL_ARG (f->in_fmt), GST_CL_ARG (*geo), GST_CL_ARG (w),
        GST_CL_ARG (h), GST_CL_ARG (rows), GST_CL_ARG (f->cfg),
        GST_CL_ARG (f->lut), GST_CL_ARG (hlg_peak), GST_CL_ARG (f->hist),
        GST_CL_ARGS_END)
        && enqueue (fr, f->k_histx8, 1, &global, &one, profiling, error);
  }
  return gst_cl_set_args (f->k_hist, error, GST_CL_ARG (fr->in->buffer),
      GST_CL_ARG (f->in_fmt), GST_CL_ARG (*geo), GST_CL_ARG (w),
      GST_CL_ARG (h), GST_CL_ARG (f->cfg), GST_CL_ARG (f->lut),
      GST_CL_ARG (hlg_peak), GST_CL_ARG (f->hist), GST_CL_ARGS_END)
      && enqueue (fr, f->k_hist, 1, &global, &f->hist_local, profiling,
      error);
}

/* 2. the frame's curve, on the device, from its histogram or @lw_fixed */
static gboolean
enqueue_curve (GstClToneMapFrames * f, Frame * fr,
    const GstClToneMapSettings * s, guint64 pixels, gboolean profiling,
    GError ** error)
{
  const size_t group = GST_CL_TONEMAP_GROUP;
  cl_uint need = (cl_uint) gst_cl_tonemap_percentile_need (s->percentile,
      pixels);
  cl_int dynamic = s->peak_mode == GST_CL_TONE_PEAK_DYNAMIC;
  cl_int reset = f->reset;
  cl_float lw_fixed = s->peak_mode == GST_CL_TONE_PEAK_METADATA &&
      f->meta_peak > 0.0 ? f->meta_peak : s->source_peak;
  cl_float lt = s->target_peak, threshold = s->scene_threshold;
  cl_float coef = gst_cl_tonemap_smoothing_coef (s->smoothing_period);
  cl_int curve = s->curve;

  if (dynamic)
    f->reset = FALSE;
  return gst_cl_set_args (f->k_curve, error, GST_CL_ARG (f->hist),
      GST_CL_ARG (f->state), GST_CL_ARG (f->params), GST_CL_ARG (f->gain),
      GST_CL_ARG (need), GST_CL_ARG (dynamic), GST_CL_ARG (reset),
      GST_CL_ARG (lw_fixed), GST_CL_ARG (lt), GST_CL_ARG (threshold),
      GST_CL_ARG (coef), GST_CL_ARG (curve), GST_CL_ARGS_END)
      && enqueue (fr, f->k_curve, 1, &group, &group, profiling, error);
}

/* 3. every pixel: a row of chroma blocks per work-item on CPUs (POCL
 * pays for each work-group; a row vectorises), a block per work-item on
 * other devices */
static gboolean
enqueue_map (GstClToneMapFrames * f, Frame * fr, const cl_int8 * sg,
    const cl_int8 * dg, cl_int w, cl_int h, const GstClToneMapSettings * s,
    gboolean profiling, GError ** error)
{
  const cl_int nbx = (w + (1 << f->in_fmt.s[1]) - 1) >> f->in_fmt.s[1];
  const cl_int nby = (h + (1 << f->in_fmt.s[2]) - 1) >> f->in_fmt.s[2];
  const gboolean cpu = !gst_cl_device_builds_gpu_kernels (f->device);
  const cl_int chunk = cpu ? nbx : 1;
  /* work-groups of one item on CPUs, whatever POCL would choose (it took
   * the whole column of rows as one group: one core) */
  const size_t local[2] = { 1, 1 };
  const size_t global[2] = { (nbx + chunk - 1) / chunk, nby };
  cl_float lt = s->target_peak, hlg_peak = s->hlg_peak;

  if (f->fastx8)
    return gst_cl_set_args (f->k_mapx8, error, GST_CL_ARG (fr->in->buffer),
        GST_CL_ARG (f->in_fmt), GST_CL_ARG (*sg),
        GST_CL_ARG (fr->out->buffer), GST_CL_ARG (f->out_fmt),
        GST_CL_ARG (*dg), GST_CL_ARG (w), GST_CL_ARG (h),
        GST_CL_ARG (f->cfg), GST_CL_ARG (f->lut), GST_CL_ARG (f->gain),
        GST_CL_ARG (lt), GST_CL_ARG (hlg_peak), GST_CL_ARGS_END)
        && enqueue (fr, f->k_mapx8, 2, global, local, profiling, error);
  return gst_cl_set_args (f->k_map, error, GST_CL_ARG (fr->in->buffer),
      GST_CL_ARG (f->in_fmt), GST_CL_ARG (*sg), GST_CL_ARG (fr->out->buffer),
      GST_CL_ARG (f->out_fmt), GST_CL_ARG (*dg), GST_CL_ARG (w),
      GST_CL_ARG (h), GST_CL_ARG (chunk), GST_CL_ARG (f->cfg),
      GST_CL_ARG (f->lut), GST_CL_ARG (f->gain), GST_CL_ARG (lt),
      GST_CL_ARG (hlg_peak), GST_CL_ARGS_END)
      && enqueue (fr, f->k_map, 2, global, cpu ? local : NULL, profiling,
      error);
}

/* The frame's record, read without waiting, for its message. */
static gboolean
enqueue_record (GstClToneMapFrames * f, Frame * fr, GstBuffer * inbuf,
    const GstClToneMapSettings * s, GError ** error)
{
  Pending *p = g_new0 (Pending, 1);
  cl_int st = clEnqueueReadBuffer (fr->q, f->params, CL_FALSE,
      GST_CL_TONEMAP_PAR_RECORD * sizeof (cl_float), sizeof (p->rec), p->rec,
      0, NULL, &p->read);

  if (st != CL_SUCCESS) {
    g_free (p);
    return gst_cl_fail (error, st, "clEnqueueReadBuffer (tone mapping peak)");
  }
  p->timestamp = GST_BUFFER_PTS (inbuf);
  p->dynamic = s->peak_mode == GST_CL_TONE_PEAK_DYNAMIC;
  g_queue_push_tail (&f->pending, p);
  return TRUE;
}

static gboolean
frame_kernels (GstClToneMapFrames * f, Frame * fr, GstBuffer * inbuf,
    const GstVideoInfo * in_info, const GstClToneMapSettings * s,
    gboolean profiling, GError ** error)
{
  cl_int w = GST_VIDEO_INFO_WIDTH (in_info);
  cl_int h = GST_VIDEO_INFO_HEIGHT (in_info);
  cl_float hlg_peak = s->hlg_peak;
  cl_int8 sg, dg;

  gst_cl_tonemap_geometry (&fr->in_layout, &sg);
  gst_cl_tonemap_geometry (&fr->out_layout, &dg);
  return (s->peak_mode != GST_CL_TONE_PEAK_DYNAMIC
      || enqueue_hist (f, fr, &sg, w, h, hlg_peak, profiling, error))
      && enqueue_curve (f, fr, s, (guint64) w * h, profiling, error)
      && enqueue_map (f, fr, &sg, &dg, w, h, s, profiling, error)
      && (!s->post_messages || enqueue_record (f, fr, inbuf, s, error));
}

/* A marker's event on both frames' memory, the download started for
 * system memory downstream. */
static gboolean
frame_end (GstClToneMapFrames * f, Frame * fr, gboolean profiling,
    GError ** error)
{
  cl_int st = clEnqueueMarkerWithWaitList (fr->q, 0, NULL, &fr->done);

  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clEnqueueMarkerWithWaitList");
  gst_cl_memory_set_event (fr->in, fr->compute, fr->done, FALSE);
  gst_cl_memory_set_event (fr->out, fr->compute, fr->done, TRUE);
  if (!f->out_device && !gst_cl_memory_start_download (fr->out, error))
    return FALSE;
  if (profiling && !f->out_device && fr->out->staging_event) {
    fr->prof.download = fr->out->staging_event;
    clRetainEvent (fr->prof.download);
  }
  clFlush (fr->q);
  return TRUE;
}

static void
frame_clear (Frame * fr)
{
  gst_cl_wait_list_clear (&fr->wl);
  gst_cl_profile_frame_clear (&fr->prof);
  if (fr->done)
    clReleaseEvent (fr->done);
  if (fr->imported)
    gst_buffer_unref (fr->imported);
}

/**
 * gst_cl_tone_map_frames_run:
 *
 * One frame through the device, not waited for; posts the messages whose
 * records are read, or the error.
 */
gboolean
gst_cl_tone_map_frames_run (GstClToneMapFrames * f, GstElement * element,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info,
    GstBuffer * inbuf, GstBuffer * outbuf,
    const GstClToneMapSettings * s, gboolean profiling,
    const GstSegment * segment)
{
  GPtrArray *messages = g_ptr_array_new ();
  Frame fr = { NULL, };
  GError *err = NULL;

  if (!frame_begin (f, in_info, out_info, inbuf, outbuf, profiling, &fr,
          &err) || !frame_kernels (f, &fr, inbuf, in_info, s, profiling, &err)
      || !frame_end (f, &fr, profiling, &err))
    goto failed;
  fr.prof.pts = GST_BUFFER_PTS (inbuf);
  fr.prof.running_time = segment->format != GST_FORMAT_TIME ?
      GST_CLOCK_TIME_NONE : gst_segment_to_running_time (segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (inbuf));
  gst_cl_in_flight_push (&f->in_flight, fr.done, inbuf, fr.imported,
      profiling ? &fr.prof : NULL);
  if (profiling)
    memset (&fr.prof, 0, sizeof (fr.prof));
  frame_clear (&fr);
  if (!gst_cl_in_flight_retire (&f->in_flight, f->in_flight.depth,
          &f->profile, messages, &err))
    goto failed_retired;
  post_profile (element, messages);
  post_pending (f, element, FALSE);
  return TRUE;

failed:
  gst_cl_device_finish (f->device, NULL);
  frame_clear (&fr);
failed_retired:
  g_ptr_array_free (messages, TRUE);
  GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
      ("OpenCL tone mapping failed on device \"%s\".", f->device->name),
      ("%s", err ? err->message : "unknown"));
  g_clear_error (&err);
  return FALSE;
}
