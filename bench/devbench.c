/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* devbench: the clfilters elements on one OpenCL device, with the floors of
 * that device, in C (for machines without GStreamer's Python bindings).
 *
 *     build/bench/devbench [--device SEL] [--sizes 1080p,4k] [--frames N]
 *                          [--only TEXT[,TEXT...]] [--tuning]
 *                          [--output FILE]
 *
 * Each case pushes N frames (8 distinct ones, rotating) through the element
 * in a GstHarness and takes the median time of push-and-pull per frame; a
 * second run with profiling=true gives the upload, kernel and download times
 * from the element's cl-profile message. The floors: memcpy of the frame on
 * the host; on devices that do not share host memory, the measured host to
 * device and device to host bandwidths (pageable and pinned) and the
 * device's own copy bandwidth. --tuning adds sweeps of the tuning
 * properties (docs/tuning.md). Not part of the test suite: see
 * docs/performance.md.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NFRAMES 8

typedef struct
{
  const gchar *name;
  gint w, h;
} Size;

static const Size sizes_all[] = {
  {"1080p", 1920, 1080}, {"4k", 3840, 2160}, {"8k", 7680, 4320},
};

typedef struct
{
  const gchar *desc;            /* element and properties */
  const gchar *format;
  gboolean tuning;              /* only with --tuning */
  const gchar *out_format;      /* converters: the output's (PQ input) */
} Case;

static const Case cases[] = {
  {"clgaussian", "GRAY8"}, {"clgaussian", "RGB"}, {"clgaussian", "RGBA"},
  {"clgaussian", "I420"}, {"clgaussian radius=7", "GRAY8"},
  {"clgaussian radius=7", "RGBA"},
  {"cllaplace", "RGB"}, {"cllaplace", "RGBA"}, {"cllaplace mode=edges", "RGB"},
  {"clhistogram", "GRAY8"}, {"clhistogram", "I420"},
  {"clhistogram", "RGBA"}, {"clhistogram channels=all", "RGBA"},
  /* 10 bits against 8: P010_10LE has twice NV12's bytes */
  {"clgaussian", "NV12"}, {"clgaussian", "P010_10LE"},
  {"clgaussian radius=7", "NV12"}, {"clgaussian radius=7", "P010_10LE"},
  {"cllaplace", "NV12"}, {"cllaplace", "P010_10LE"},
  {"clhistogram", "NV12"}, {"clhistogram", "P010_10LE"},
  /* CLAHE's kernels: tile histograms, LUTs, the blend */
  {"clclahe", "GRAY8"}, {"clclahe", "P010_10LE"}, {"clclahe", "GRAY16_LE"},
  /* HDR (PQ) to SDR: fixed peak = curve + mapping; dynamic adds the
   * histogram */
  {"cltonemap peak-mode=fixed", "P010_10LE", FALSE, "NV12"},
  {"cltonemap peak-mode=dynamic", "P010_10LE", FALSE, "NV12"},
  /* ... the general kernels: 10 bits out, planar 4:2:0 */
  {"cltonemap peak-mode=fixed", "P010_10LE", TRUE, "P010_10LE"},
  {"cltonemap peak-mode=fixed", "I420_10LE", TRUE, "I420"},
  /* tuning sweeps: the classic questions */
  {"clgaussian storage=image", "GRAY8", TRUE},
  {"clgaussian storage=image", "RGBA", TRUE},
  {"clgaussian radius=7 storage=image", "RGBA", TRUE},
  {"cllaplace storage=image", "RGBA", TRUE},
  {"clhistogram storage=image", "GRAY8", TRUE},
  {"cllaplace strength=0.5", "RGBA", TRUE},
  {"clgaussian kernel-shape=strips", "RGBA", TRUE},
  {"clgaussian kernel-shape=tiles", "RGBA", TRUE},
  {"clgaussian kernel-shape=tiles work-group-size=32", "RGBA", TRUE},
  {"clgaussian kernel-shape=tiles work-group-size=128", "RGBA", TRUE},
  {"clgaussian kernel-shape=tiles work-group-size=256", "RGBA", TRUE},
  {"clgaussian kernel-shape=tiles pixels-per-item=8", "RGBA", TRUE},
  {"clgaussian kernel-shape=tiles pixels-per-item=16", "RGBA", TRUE},
  {"clgaussian kernel-shape=tiles rows-per-item=8", "RGBA", TRUE},
  {"clgaussian kernel-shape=strips rows-per-item=4", "RGBA", TRUE},
  {"clgaussian kernel-shape=strips rows-per-item=64", "RGBA", TRUE},
  {"clgaussian kernel-shape=strips pixels-per-item=256", "RGBA", TRUE},
  {"clgaussian storage=image work-group-size=32", "RGBA", TRUE},
  {"clgaussian storage=image work-group-size=128", "RGBA", TRUE},
  {"clgaussian storage=image work-group-size=256", "RGBA", TRUE},
  {"clgaussian storage=image rows-per-item=2", "RGBA", TRUE},
  /* the band kernel (radius 2-16 on GPUs): rows a band walks */
  {"clgaussian radius=7 rows-per-item=8", "GRAY8", TRUE},
  {"clgaussian radius=7 rows-per-item=16", "GRAY8", TRUE},
  {"clgaussian radius=7 rows-per-item=32", "GRAY8", TRUE},
  {"clgaussian radius=7 rows-per-item=64", "GRAY8", TRUE},
  {"clgaussian radius=7 rows-per-item=8", "RGBA", TRUE},
  {"clgaussian radius=7 rows-per-item=16", "RGBA", TRUE},
  {"clgaussian radius=7 rows-per-item=32", "RGBA", TRUE},
  {"clgaussian radius=7 rows-per-item=64", "RGBA", TRUE},
  /* the one-pass tile of more than 8 bits: rows and group */
  {"clgaussian radius=7 rows-per-item=4", "P010_10LE", TRUE},
  {"clgaussian radius=7 rows-per-item=8", "P010_10LE", TRUE},
  {"clgaussian radius=7 rows-per-item=32", "P010_10LE", TRUE},
  {"clgaussian radius=7 work-group-size=32", "P010_10LE", TRUE},
  {"clgaussian radius=7 work-group-size=128", "P010_10LE", TRUE},
  {"clgaussian radius=7 work-group-size=256", "P010_10LE", TRUE},
  {"clgaussian radius=7 rows-per-item=16", "P010_10LE", TRUE},
  {"clgaussian radius=7 rows-per-item=64", "P010_10LE", TRUE},
  {"clgaussian radius=15", "P010_10LE", TRUE},
  {"clgaussian storage=image rows-per-item=4", "RGBA", TRUE},
  {"clgaussian storage=image pixels-per-item=2", "RGBA", TRUE},
};

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return n ? v[n / 2] : 0;
}

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* 8 frames of smooth gradients with fine noise: real-looking statistics
 * (neighbours alike, every level used) without image files */
static GstBuffer **
make_frames (const GstVideoInfo * vi)
{
  GstBuffer **f = g_new (GstBuffer *, NFRAMES);
  guint32 seed = 12345;
  gint i;

  for (i = 0; i < NFRAMES; i++) {
    GstMapInfo m;
    gsize j;
    f[i] = gst_buffer_new_allocate (NULL, vi->size, NULL);
    gst_buffer_map (f[i], &m, GST_MAP_WRITE);
    for (j = 0; j < m.size; j++) {
      gsize x = j % 4096, y = j / 4096;
      seed = seed * 1664525u + 1013904223u;
      m.data[j] = (guint8) ((x / 9 + y / 7 + i * 17) + (seed >> 29));
    }
    gst_buffer_unmap (f[i], &m);
    gst_buffer_add_video_meta_full (f[i], GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (vi), vi->width, vi->height,
        GST_VIDEO_INFO_N_PLANES (vi), (gsize *) vi->offset, (gint *) vi->stride);
  }
  return f;
}

typedef struct
{
  double ms;                    /* median per frame */
  double up, kernel, down;      /* ms, from cl-profile; < 0 if none */
  gchar *device;
  gchar *pool;                  /* type of the pool the input came from */
} Result;

static gboolean
run_case (const gchar * desc, const GstVideoInfo * vi,
    const GstVideoInfo * out_vi, GstBuffer ** frames, guint n,
    gboolean profiling, Result * r)
{
  GstHarness *h;
  GstElement *el;
  GstBuffer *pooled[NFRAMES] = { NULL, };
  GstCaps *caps;
  GstBus *bus;
  GstMessage *msg;
  double *t = g_new (double, n);
  guint i, warm = 10;
  gchar *d = profiling ? g_strdup_printf ("%s profiling=true", desc) :
      g_strdup (desc);

  h = gst_harness_new_parse (d);
  g_free (d);
  {
    /* the case's element: the first word of its description */
    gchar **words = g_strsplit (desc, " ", 2);
    el = gst_harness_find_element (h, words[0]);
    g_strfreev (words);
  }
  bus = gst_bus_new ();
  gst_element_set_bus (el, bus);
  caps = gst_video_info_to_caps (vi);
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  gst_harness_set_sink_caps (h, gst_video_info_to_caps (out_vi));
  /* like an upstream element (videotestsrc, a decoder), take the frames
   * from the pool the element proposes, if any */
  {
    GstQuery *q = gst_query_new_allocation (caps, TRUE);
    GstBufferPool *pool = NULL;
    guint size = 0, k;
    if (gst_pad_peer_query (h->srcpad, q) &&
        gst_query_get_n_allocation_pools (q) > 0)
      gst_query_parse_nth_allocation_pool (q, 0, &pool, &size, NULL, NULL);
    if (pool) {
      GstStructure *config = gst_buffer_pool_get_config (pool);
      gst_buffer_pool_config_set_params (config, caps, size, NFRAMES, 0);
      if (gst_buffer_pool_set_config (pool, config) &&
          gst_buffer_pool_set_active (pool, TRUE)) {
        for (k = 0; k < NFRAMES; k++) {
          GstBuffer *b = NULL;
          GstVideoFrame src, dst;
          if (gst_buffer_pool_acquire_buffer (pool, &b, NULL) != GST_FLOW_OK)
            break;
          gst_video_frame_map (&src, vi, frames[k], GST_MAP_READ);
          gst_video_frame_map (&dst, vi, b, GST_MAP_WRITE);
          gst_video_frame_copy (&dst, &src);
          gst_video_frame_unmap (&dst);
          gst_video_frame_unmap (&src);
          pooled[k] = b;
        }
        r->pool = g_strdup (G_OBJECT_TYPE_NAME (pool));
      }
      gst_object_unref (pool);
    }
    gst_query_unref (q);
  }
  gst_caps_unref (caps);
  for (i = 0; i < warm + n; i++) {
    GstBuffer *src = pooled[i % NFRAMES] ? pooled[i % NFRAMES] :
        frames[i % NFRAMES];
    GstBuffer *in = gst_buffer_ref (src), *out;
    double t0;
    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    t0 = now_s ();
    out = gst_harness_push_and_pull (h, in);
    if (i >= warm)
      t[i - warm] = now_s () - t0;
    if (!out) {
      g_printerr ("devbench: %s %s: no output buffer\n", desc,
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (vi)));
      for (i = 0; i < NFRAMES; i++)
        gst_clear_buffer (&pooled[i]);
      gst_object_unref (el);
      gst_object_unref (bus);
      gst_harness_teardown (h);
      g_free (t);
      return FALSE;
    }
    gst_buffer_unref (out);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  r->ms = median (t, n) * 1e3;
  r->up = r->kernel = r->down = -1;
  g_free (t);
  while ((msg = gst_bus_pop (bus))) {
    const GstStructure *s = gst_message_get_structure (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err;
      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("devbench: %s: %s\n", desc, err->message);
      g_error_free (err);
    }
    if (s && gst_structure_has_name (s, "cl-profile")) {
      guint64 u, k, dn;
      gst_structure_get_uint64 (s, "upload-ns", &u);
      gst_structure_get_uint64 (s, "kernel-ns", &k);
      gst_structure_get_uint64 (s, "download-ns", &dn);
      r->up = u / 1e6;
      r->kernel = k / 1e6;
      r->down = dn / 1e6;
    }
    gst_message_unref (msg);
  }
  g_free (r->device);
  g_object_get (el, "device-name", &r->device, NULL);
  gst_element_set_bus (el, NULL);
  gst_object_unref (bus);
  gst_object_unref (el);
  for (i = 0; i < NFRAMES; i++)
    gst_clear_buffer (&pooled[i]);
  gst_harness_teardown (h);
  return TRUE;
}

static double
memcpy_ms (gsize size, guint n)
{
  guint8 *src[NFRAMES], *dst[NFRAMES];
  double *t = g_new (double, n), m;
  guint i;

  for (i = 0; i < NFRAMES; i++) {
    src[i] = g_malloc (size);
    dst[i] = g_malloc (size);
    memset (src[i], i, size);
    memset (dst[i], 0, size);
  }
  for (i = 0; i < n; i++) {
    double t0 = now_s ();
    memcpy (dst[i % NFRAMES], src[i % NFRAMES], size);
    t[i] = now_s () - t0;
  }
  m = median (t, n) * 1e3;
  for (i = 0; i < NFRAMES; i++) {
    g_free (src[i]);
    g_free (dst[i]);
  }
  g_free (t);
  return m;
}

/* --------------------------------------------------------------------- */
/* device floors, straight OpenCL                                         */

typedef struct
{
  gboolean valid, unified;
  gchar name[256];
  double h2d_pageable, d2h_pageable, h2d_pinned, d2h_pinned;     /* GB/s */
  double device_copy;           /* GB/s read + written */
  /* from profiling events, kernel time only: */
  double copy_buffer;           /* clEnqueueCopyBuffer, GB/s read + written */
  double copy_kernel;           /* a 16-byte-per-item copy kernel, same */
  double reduce_kernel;         /* a read-only sum of every byte, GB/s read */
  guint rotation;               /* buffers (pairs) the three rotate through */
} Floors;

/* The device's best copy and a read-only pass, written as plainly as a
 * device allows: one 16-byte vector per work-item (a grid of them), and a
 * sum of 16-byte vectors, each item striding over the buffer, one atomic
 * add per work-group. What the filters' kernels are measured against
 * (bench/results/performance-history.md, "GPU kernels against the device's copy"). */
static const char *floor_source =
    "__kernel void copy16 (__global const uint4 * s, __global uint4 * d)\n"
    "{ size_t i = get_global_id (0); d[i] = s[i]; }\n"
    "__kernel void reduce16 (__global const uint4 * s, uint n,\n"
    "    __global uint * out, __local uint * l)\n"
    "{\n"
    "  uint4 acc = (uint4) (0);\n"
    "  for (size_t i = get_global_id (0); i < n; i += get_global_size (0))\n"
    "    acc += s[i];\n"
    "  uint lid = get_local_id (0);\n"
    "  l[lid] = acc.x + acc.y + acc.z + acc.w;\n"
    "  barrier (CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint k = get_local_size (0) / 2; k > 0; k >>= 1) {\n"
    "    if (lid < k) l[lid] += l[lid + k];\n"
    "    barrier (CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) atomic_add (out, l[0]);\n"
    "}\n";

/* The kernel time of event @e, waited for, in ms; releases @e. */
static double
event_ms (cl_event e)
{
  cl_ulong a = 0, b = 0;
  clWaitForEvents (1, &e);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_START, sizeof (a), &a,
      NULL);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_END, sizeof (b), &b, NULL);
  clReleaseEvent (e);
  return (b - a) / 1e6;
}

/* Launch @i of a timed loop: its kernel time into @t after @warm
 * launches that only warm up; @e is released either way. */
static void
keep_time (cl_event e, guint i, guint warm, double *t)
{
  if (i >= warm)
    t[i - warm] = event_ms (e);
  else
    clReleaseEvent (e);
}

/* Frames of @size bytes to rotate through so that none is still in the
 * device's cache when it comes round again (a pair at a time: 2 size bytes
 * per step, over a round at least four times the cache the device reports
 * and at least 256 MB, since NVIDIA's driver reports less than the H100's
 * 50 MB of L2), 2 to 8 pairs. */
static guint
floor_rotation (cl_device_id d, gsize size)
{
  cl_ulong cache = 0, round;
  guint n;

  clGetDeviceInfo (d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof (cache),
      &cache, NULL);
  round = MAX (4 * cache, (cl_ulong) 256 << 20);
  n = (guint) ((round + 2 * size - 1) / (2 * size));
  return CLAMP (n, 2, 8);
}

/* The kernel floors for @size bytes, each in a loop of its own over
 * buffers rotated as the element's frames are (floor_rotation): a copy or
 * reduction of a buffer that the launch before it read (or of the same
 * buffer again) finds part of it in the device's cache and at 4K on an
 * H100 (50 MB of L2) measured up to 15 % more than what the same copy
 * reaches on frames that arrive one after another. */
static void
measure_kernel_floors (cl_context ctx, cl_device_id d, gsize size, Floors * f)
{
  cl_command_queue q = clCreateCommandQueue (ctx, d,
      CL_QUEUE_PROFILING_ENABLE, NULL);
  cl_program p = clCreateProgramWithSource (ctx, 1, &floor_source, NULL,
      NULL);
  cl_kernel kc = NULL, kr = NULL;
  cl_mem out = clCreateBuffer (ctx, CL_MEM_READ_WRITE, 4, NULL, NULL);
  cl_mem src[8] = { NULL, }, dst[8] = { NULL, };
  size_t n16 = size / 16, gc = n16, lc = 256, units = 0, gr, lr = 256;
  const guint n_rot = floor_rotation (d, size), warm = 3, n = 20;
  double tb[20], tk[20], tr[20];
  cl_uint n32 = (cl_uint) n16;
  cl_event e;
  guint i, b;

  for (b = 0; b < n_rot; b++) {
    src[b] = clCreateBuffer (ctx, CL_MEM_READ_WRITE, size, NULL, NULL);
    dst[b] = clCreateBuffer (ctx, CL_MEM_READ_WRITE, size, NULL, NULL);
    if (!src[b] || !dst[b])
      goto done;
    /* written once, so that nothing is lazily allocated while timed */
    clEnqueueCopyBuffer (q, dst[b], src[b], 0, 0, size, 0, NULL, NULL);
  }
  if (!q || clBuildProgram (p, 1, &d, "", NULL, NULL) != CL_SUCCESS)
    goto done;
  kc = clCreateKernel (p, "copy16", NULL);
  kr = clCreateKernel (p, "reduce16", NULL);
  clGetDeviceInfo (d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (cl_uint), &units,
      NULL);
  gc = (n16 + lc - 1) / lc * lc;
  if (gc != n16)
    gc = n16 / lc * lc;         /* whole groups; the rest is not copied */
  /* a few groups per compute unit, each item striding */
  gr = MAX (1, (size_t) units) * 8 * lr;
  clSetKernelArg (kr, 1, sizeof (cl_uint), &n32);
  clSetKernelArg (kr, 2, sizeof (cl_mem), &out);
  clSetKernelArg (kr, 3, lr * sizeof (cl_uint), NULL);
  for (i = 0; i < warm + n; i++) {
    b = i % n_rot;
    clEnqueueCopyBuffer (q, src[b], dst[b], 0, 0, size, 0, NULL, &e);
    keep_time (e, i, warm, tb);
  }
  for (i = 0; i < warm + n; i++) {
    b = i % n_rot;
    clSetKernelArg (kc, 0, sizeof (cl_mem), &src[b]);
    clSetKernelArg (kc, 1, sizeof (cl_mem), &dst[b]);
    if (clEnqueueNDRangeKernel (q, kc, 1, NULL, &gc, &lc, 0, NULL, &e)
        != CL_SUCCESS)
      goto done;
    keep_time (e, i, warm, tk);
  }
  for (i = 0; i < warm + n; i++) {
    b = i % n_rot;
    clSetKernelArg (kr, 0, sizeof (cl_mem), &src[b]);
    if (clEnqueueNDRangeKernel (q, kr, 1, NULL, &gr, &lr, 0, NULL, &e)
        != CL_SUCCESS)
      goto done;
    keep_time (e, i, warm, tr);
  }
  f->copy_buffer = 2.0 * size / median (tb, n) / 1e6;
  f->copy_kernel = 2.0 * gc * 16 / median (tk, n) / 1e6;
  f->reduce_kernel = (double) size / median (tr, n) / 1e6;
  f->rotation = n_rot;
done:
  if (kc)
    clReleaseKernel (kc);
  if (kr)
    clReleaseKernel (kr);
  for (b = 0; b < n_rot; b++) {
    if (src[b])
      clReleaseMemObject (src[b]);
    if (dst[b])
      clReleaseMemObject (dst[b]);
  }
  clReleaseMemObject (out);
  clReleaseProgram (p);
  if (q)
    clReleaseCommandQueue (q);
}

static cl_device_id
pick_device (const gchar * sel)
{
  cl_platform_id plats[8];
  cl_uint np = 0, p;
  cl_device_id first = NULL;

  clGetPlatformIDs (8, plats, &np);
  for (p = 0; p < np; p++) {
    cl_device_id devs[8];
    cl_uint nd = 0, i;
    clGetDeviceIDs (plats[p], CL_DEVICE_TYPE_ALL, 8, devs, &nd);
    for (i = 0; i < nd; i++) {
      cl_device_type type;
      clGetDeviceInfo (devs[i], CL_DEVICE_TYPE, sizeof (type), &type, NULL);
      if (!first)
        first = devs[i];
      if (sel && g_str_equal (sel, "gpu") && (type & CL_DEVICE_TYPE_GPU))
        return devs[i];
      if (sel && g_str_equal (sel, "cpu") && (type & CL_DEVICE_TYPE_CPU))
        return devs[i];
      if ((!sel || !*sel) && (type & CL_DEVICE_TYPE_GPU))
        return devs[i];
    }
  }
  return first;
}

static double
time_transfer (cl_command_queue q, cl_mem dev, void *host, gsize size,
    gboolean up, guint n)
{
  double *t = g_new (double, n), m;
  guint i;
  for (i = 0; i < n; i++) {
    double t0 = now_s ();
    if (up)
      clEnqueueWriteBuffer (q, dev, CL_TRUE, 0, size, host, 0, NULL, NULL);
    else
      clEnqueueReadBuffer (q, dev, CL_TRUE, 0, size, host, 0, NULL, NULL);
    t[i] = now_s () - t0;
  }
  m = median (t, n);
  g_free (t);
  return size / m / 1e9;
}

static void
measure_floors (const gchar * sel, gsize size, Floors * f)
{
  cl_device_id d = pick_device (sel);
  cl_context ctx;
  cl_command_queue q;
  cl_mem dev, dev2, pinned;
  cl_bool unified = CL_FALSE;
  void *host, *pin;
  cl_int st;
  double *t;
  guint i, n = 20;

  memset (f, 0, sizeof (*f));
  if (!d)
    return;
  clGetDeviceInfo (d, CL_DEVICE_NAME, sizeof (f->name), f->name, NULL);
  clGetDeviceInfo (d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (unified),
      &unified, NULL);
  f->unified = unified;
  ctx = clCreateContext (NULL, 1, &d, NULL, NULL, &st);
  if (st != CL_SUCCESS)
    return;
  q = clCreateCommandQueue (ctx, d, 0, &st);
  dev = clCreateBuffer (ctx, CL_MEM_READ_WRITE, size, NULL, &st);
  dev2 = clCreateBuffer (ctx, CL_MEM_READ_WRITE, size, NULL, &st);
  pinned = clCreateBuffer (ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
      size, NULL, &st);
  pin = clEnqueueMapBuffer (q, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
      size, 0, NULL, NULL, &st);
  host = g_malloc (size);
  memset (host, 1, size);
  memset (pin, 1, size);
  f->h2d_pageable = time_transfer (q, dev, host, size, TRUE, n);
  f->d2h_pageable = time_transfer (q, dev, host, size, FALSE, n);
  f->h2d_pinned = time_transfer (q, dev, pin, size, TRUE, n);
  f->d2h_pinned = time_transfer (q, dev, pin, size, FALSE, n);
  t = g_new (double, n);
  for (i = 0; i < n; i++) {
    double t0 = now_s ();
    clEnqueueCopyBuffer (q, dev, dev2, 0, 0, size, 0, NULL, NULL);
    clFinish (q);
    t[i] = now_s () - t0;
  }
  f->device_copy = 2.0 * size / median (t, n) / 1e9;
  g_free (t);
  measure_kernel_floors (ctx, d, size, f);
  f->valid = TRUE;
  clEnqueueUnmapMemObject (q, pinned, pin, 0, NULL, NULL);
  clFinish (q);
  g_free (host);
  clReleaseMemObject (pinned);
  clReleaseMemObject (dev2);
  clReleaseMemObject (dev);
  clReleaseCommandQueue (q);
  clReleaseContext (ctx);
}

/* The kernel floors for @size bytes (a case's first plane: the copy of
 * the same bytes), into @f's kernel fields. Copies of a smaller
 * plane reach less bandwidth (a 4K GRAY8 plane, 8.3 MB, about 80 % of a
 * 4K RGBA frame's on an H100: the ramp of a launch weighs more), so each
 * case is held to its own. */
static void
measure_plane_floors (const gchar * sel, gsize size, Floors * f)
{
  cl_device_id d = pick_device (sel);
  cl_context ctx;
  cl_int st;

  if (!d)
    return;
  ctx = clCreateContext (NULL, 1, &d, NULL, NULL, &st);
  if (st != CL_SUCCESS)
    return;
  measure_kernel_floors (ctx, d, GST_ROUND_UP_16 (size), f);
  clReleaseContext (ctx);
}

/* --------------------------------------------------------------------- */

static void
out (FILE * o, const gchar * fmt, ...) G_GNUC_PRINTF (2, 3);

static void
out (FILE * o, const gchar * fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  if (o) {
    va_start (ap, fmt);
    vfprintf (o, fmt, ap);
    va_end (ap);
  }
}

/* the format column of @cs: the input's, "IN to OUT" for converters */
static gchar *
case_format (const Case * cs)
{
  return cs->out_format ? g_strdup_printf ("%s to %s", cs->format,
      cs->out_format) : g_strdup (cs->format);
}

/* whether "desc format" of @cs (case_format ()) contains one of the
 * comma-separated texts of @only */
static gboolean
case_selected (const Case * cs, const gchar * only)
{
  gchar *format = case_format (cs);
  gchar *name = g_strdup_printf ("%s %s", cs->desc, format);
  gchar **texts = g_strsplit (only, ",", -1);
  gboolean selected = FALSE;

  for (guint i = 0; texts[i] && !selected; i++)
    selected = strstr (name, texts[i]) != NULL;
  g_strfreev (texts);
  g_free (name);
  g_free (format);
  return selected;
}

static gchar *
fmt_ms (double v)
{
  return v < 0 ? g_strdup ("-") : g_strdup_printf ("%.3f", v);
}

int
main (int argc, char **argv)
{
  gchar *device = NULL, *sizes = NULL, *only = NULL, *output = NULL;
  gint frames = 100;
  gboolean tuning = FALSE;
  GOptionEntry entries[] = {
    {"device", 0, 0, G_OPTION_ARG_STRING, &device,
        "OpenCL device of the elements (sets GST_CL_DEVICE)", "SEL"},
    {"sizes", 0, 0, G_OPTION_ARG_STRING, &sizes,
        "comma-separated: 1080p, 4k, 8k (default 1080p,4k)", "LIST"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "timed frames per case", "N"},
    {"only", 0, 0, G_OPTION_ARG_STRING, &only,
        "only cases whose \"element format\" contains one of these "
        "(comma-separated, e.g. \"cllaplace RGB,clgaussian NV12\")",
        "TEXT[,TEXT...]"},
    {"tuning", 0, 0, G_OPTION_ARG_NONE, &tuning, "add the tuning sweeps",
        NULL},
    {"output", 0, 0, G_OPTION_ARG_STRING, &output,
        "also write the report here", "FILE"},
    {NULL}
  };
  GOptionContext *oc = g_option_context_new ("- clfilters device benchmark");
  GError *err = NULL;
  gchar **size_list;
  FILE *o = NULL;
  guint s, c;
  Result r = { 0, };

  g_option_context_add_main_entries (oc, entries, NULL);
  g_option_context_add_group (oc, gst_init_get_option_group ());
  if (!g_option_context_parse (oc, &argc, &argv, &err)) {
    g_printerr ("devbench: %s\n", err->message);
    return 2;
  }
  g_option_context_free (oc);
  if (device)
    g_setenv ("GST_CL_DEVICE", device, TRUE);
  gst_init (&argc, &argv);
  if (output && !(o = fopen (output, "w"))) {
    g_printerr ("devbench: cannot write %s\n", output);
    return 2;
  }
  size_list = g_strsplit (sizes ? sizes : "1080p,4k", ",", -1);

  out (o, "devbench: GStreamer %s, device selector \"%s\", %d frames per "
      "case, medians\n\n", gst_version_string (), device ? device : "",
      frames);
  for (s = 0; size_list[s]; s++) {
    const Size *sz = NULL;
    GstVideoInfo vi;
    Floors fl;
    guint k;

    for (k = 0; k < G_N_ELEMENTS (sizes_all); k++)
      if (g_str_equal (sizes_all[k].name, size_list[s]))
        sz = &sizes_all[k];
    if (!sz) {
      g_printerr ("devbench: unknown size %s\n", size_list[s]);
      return 2;
    }
    gst_video_info_set_format (&vi, GST_VIDEO_FORMAT_RGBA, sz->w, sz->h);
    measure_floors (device, vi.size, &fl);
    out (o, "### %s (%dx%d) on %s\n\n", sz->name, sz->w, sz->h,
        fl.valid ? fl.name : "?");
    if (fl.valid && !fl.unified)
      out (o, "Floors for an RGBA frame (%.1f MB): host to device %.1f GB/s "
          "pageable, %.1f GB/s pinned; device to host %.1f pageable, %.1f "
          "pinned; device copy %.0f GB/s (read + write). PCIe floor of a "
          "frame up and down, pinned: %.3f ms.\n\n", vi.size / 1e6,
          fl.h2d_pageable, fl.h2d_pinned, fl.d2h_pageable, fl.d2h_pinned,
          fl.device_copy, (vi.size / fl.h2d_pinned + vi.size / fl.d2h_pinned)
          / 1e6);
    else if (fl.valid)
      out (o, "The device shares host memory: no transfers; device copy "
          "%.1f GB/s (read + write).\n\n", fl.device_copy);
    if (fl.valid)
      out (o, "Kernel floors (profiling events, %.1f MB): "
          "clEnqueueCopyBuffer %.0f GB/s, copy kernel %.0f GB/s (read + "
          "write), read-only reduction %.0f GB/s, each rotating through %u "
          "buffers. \"of best copy\": against the copy (analyzers: the "
          "reduction) of the case's first plane, measured for its size.\n\n",
          vi.size / 1e6, fl.copy_buffer, fl.copy_kernel, fl.reduce_kernel,
          fl.rotation);
    out (o, "| element | format | ms/frame | memcpy ms | x memcpy | "
        "upload ms | kernel ms | download ms | kernel GB/s | of best copy | "
        "x PCIe floor | input frames |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      const Case *cs = &cases[c];
      GstVideoInfo fvi, ovi;
      GstBuffer **fr;
      Result p = { 0, };
      double mc, bytes, floor_ms = -1;
      gboolean analyzer = g_str_has_prefix (cs->desc, "clhistogram");
      gchar *u, *kk, *dd, *kgbs, *pf, *pc, *cf;
      double best;

      if (cs->tuning && !tuning)
        continue;
      if (only && !case_selected (cs, only))
        continue;
      gst_video_info_set_format (&fvi,
          gst_video_format_from_string (cs->format), sz->w, sz->h);
      ovi = fvi;
      if (cs->out_format) {
        gst_video_colorimetry_from_string (&fvi.colorimetry, "bt2100-pq");
        gst_video_info_set_format (&ovi,
            gst_video_format_from_string (cs->out_format), sz->w, sz->h);
        gst_video_colorimetry_from_string (&ovi.colorimetry, "bt709");
      }
      fr = make_frames (&fvi);
      if (!run_case (cs->desc, &fvi, &ovi, fr, frames, FALSE, &r)
          || !run_case (cs->desc, &fvi, &ovi, fr, MAX (frames / 2, 10), TRUE,
              &p)) {
        for (k = 0; k < NFRAMES; k++)
          gst_buffer_unref (fr[k]);
        g_free (fr);
        continue;
      }
      mc = memcpy_ms (fvi.size, frames);
      /* what the kernels must move: the first plane in (and out);
       * converters: the whole frame in and the whole frame out */
      bytes = cs->out_format ? (double) fvi.size + ovi.size :
          (double) GST_VIDEO_INFO_PLANE_STRIDE (&fvi, 0) *
          GST_VIDEO_INFO_COMP_HEIGHT (&fvi, 0) * (analyzer ? 1 : 2);
      /* filters against the best copy, analyzers against the read-only
       * reduction, of the first plane's bytes */
      if (fl.valid) {
        Floors plane = fl;
        if ((gsize) (bytes / (analyzer ? 1 : 2)) != vi.size)
          measure_plane_floors (device, (gsize) (bytes / (analyzer ? 1 : 2)),
              &plane);
        best = analyzer ? plane.reduce_kernel : MAX (plane.copy_buffer,
            plane.copy_kernel);
      } else
        best = 0;
      if (fl.valid && !fl.unified)
        floor_ms = (bytes / (analyzer ? 1 : 2) / fl.h2d_pinned +
            (analyzer ? 0 : bytes / 2 / fl.d2h_pinned)) / 1e6;
      u = fmt_ms (p.up);
      kk = fmt_ms (p.kernel);
      dd = fmt_ms (p.down);
      kgbs = p.kernel > 0 ? g_strdup_printf ("%.0f", bytes / p.kernel / 1e6)
          : g_strdup ("-");
      pf = floor_ms > 0 ? g_strdup_printf ("%.2f", r.ms / floor_ms) :
          g_strdup ("-");
      pc = p.kernel > 0 && best > 0 ? g_strdup_printf ("%.0f %%", 100 *
          bytes / p.kernel / 1e6 / best) : g_strdup ("-");
      out (o, "| %s | %s | %.3f | %.3f | %.2f | %s | %s | %s | %s | %s | %s | "
          "%s |\n", cs->desc, (cf = case_format (cs)), r.ms, mc, r.ms / mc,
          u, kk, dd,
          kgbs, pc, pf,
          !r.pool ? "allocated" : g_str_equal (r.pool, "GstClPinnedPool") ?
          "pinned pool" : "proposed pool");
      g_free (cf);
      g_free (u);
      g_free (kk);
      g_free (dd);
      g_free (kgbs);
      g_free (pc);
      g_free (pf);
      g_free (p.device);
      g_free (p.pool);
      g_clear_pointer (&r.pool, g_free);
      for (k = 0; k < NFRAMES; k++)
        gst_buffer_unref (fr[k]);
      g_free (fr);
    }
    out (o, "\nElement device: %s\n\n", r.device ? r.device : "?");
  }
  g_strfreev (size_list);
  g_free (r.device);
  if (o)
    fclose (o);
  return 0;
}
