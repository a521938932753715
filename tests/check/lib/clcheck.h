/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clcheck.h: the helpers shared by the clfilters gst-check tests, a small
 * library (clcheck.c) linked into each test program.
 *
 * Frames are made here from GstVideoInfo layouts (optionally with padded
 * strides and shifted planes described by a GstVideoMeta) and checked
 * against plain C references written in the tests, never against the
 * kernels' own output.
 */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <dlfcn.h>
#include <unistd.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

/* The plain C references and the loops comparing against them are the
 * tests' oracle, run over every sample of every frame; under the
 * sanitizers of scripts/reliability.sh they took 92 % of the clgaussian
 * suite's time (the radius references are O(r^2) a sample). They read only
 * frames mapped through GstVideoFrame, at clamped coordinates, and what the
 * sanitizers are there for is the plugin and the tests' buffer handling, so
 * the references are built without their checks. Their small helpers are
 * always inlined, into the references and sanitized code alike: GCC
 * inlines across differing no_sanitize attributes only such functions. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define TEST_REFERENCE __attribute__ ((no_sanitize ("address", "undefined")))
#define TEST_INLINE inline __attribute__ ((always_inline))
#else
#define TEST_REFERENCE
#define TEST_INLINE inline
#endif

/* What a run of a test program repeats from another run of the suite
 * (CLFILTERS_TEST_REPEATS, set per run in tests/meson.build and by
 * scripts/reliability.sh; CLFILTERS_TEST_REPEATS_GPU on a GPU): a
 * comma-separated list of areas, or "all". A test whose area is listed
 * runs the documented subset of its matrix that still reaches every kernel
 * and host code path of this run (each test says which subset, and why it
 * suffices); a run that does not list the area checks the whole matrix of
 * the same code. */
gboolean test_repeats (const gchar * area);

/* every format the filters accept */
static G_GNUC_UNUSED const gchar *const all_formats[] = {
  "GRAY8", "RGB", "BGR", "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx",
  "xRGB", "xBGR", "I420", "YV12", "NV12", "NV21", "Y42B", "Y444", NULL
};

/* the formats of more than 8 bits per sample (interface.md, "More than 8
 * bits per sample"), written out here rather than derived from GStreamer's
 * format tables: samples per pixel of plane 0, the sample kept unchanged
 * (-1: none), the depth D of a value and its shift in the 16-bit word */
typedef struct
{
  const gchar *name;
  gint step, keep, depth, shift;
} TestDeepFormat;

static G_GNUC_UNUSED const TestDeepFormat deep_formats[] = {
  {"GRAY16_LE", 1, -1, 16, 0}, {"P010_10LE", 1, -1, 10, 6},
  {"P016_LE", 1, -1, 16, 0}, {"I420_10LE", 1, -1, 10, 0},
  {"I420_12LE", 1, -1, 12, 0}, {"Y444_16LE", 1, -1, 16, 0},
  {"RGBA64_LE", 4, 3, 16, 0}, {NULL, 0, 0, 0, 0}
};

/* the entry of deep_formats for @format; NULL for 8-bit formats */
const TestDeepFormat *test_deep_format (const gchar * format);

static G_GNUC_UNUSED const gchar *const memory_kinds[] = { "buffer", "image", NULL };

/* Bytes per pixel of the filtered plane (plane 0) and the byte of each
 * pixel that must pass through unchanged (alpha or padding), by format;
 * written out here rather than derived from GStreamer's format tables. */
void test_format_pixel (const gchar * format, gint * step, gint * keep);

/* a small deterministic generator, so failures reproduce */
guint32 test_rand (guint32 * state);

typedef enum
{
  CONTENT_RANDOM,
  CONTENT_STRUCTURED,           /* gradients, a checkerboard and hard edges */
  /* formats of more than 8 bits only: random values, and every bit outside
   * the value's D bits set at random (which the filters must ignore: they
   * read (word >> shift) & (2^D - 1) and write those bits as zero) */
  CONTENT_DIRTY,
} TestContent;

/* One stored sample of a format of more than 8 bits: sample @c of pixel
 * (@x, @y) of a plane @w pixels wide and @h rows high: random, or a
 * structure of gradients and hard edges with the extreme levels 0 and
 * 2^D - 1 along the borders. */
guint16 test_deep_word (const TestDeepFormat * d, TestContent content, guint x,
    guint c, guint y, guint w, guint h, guint32 * state);


typedef struct
{
  GstVideoInfo info;            /* the layout of the buffer's data */
  GstBuffer *buffer;
} TestFrame;

/* The cases of the GPU kernels of 8-byte words (kernel-shape=tiles, rows
 * of whole words, gst_cl_launch_words8) that clgaussian's and cllaplace's
 * test_words8 go through: rows of one word and of a few (both ends of a
 * row in one work-item), heights below and above rows-per-item, strides
 * padded by whole words (the kernel) and by odd bytes (the general
 * kernel), the pixel sizes of first planes (1, 3 and 4 bytes; the
 * elements copy the other planes) and a kept padding byte. */
static G_GNUC_UNUSED const gchar *const words8_formats[] = { "GRAY8", "RGBA", "RGB",
  "BGR", "I420", "BGRx"
};

static G_GNUC_UNUSED const gchar *const words8_tunings[] = {
  "kernel-shape=tiles", "kernel-shape=tiles rows-per-item=1",
  "kernel-shape=tiles rows-per-item=3 work-group-size=16",
  "kernel-shape=tiles rows-per-item=16 work-group-size=1",
};

static G_GNUC_UNUSED const gint words8_sizes[][2] = { {8, 1}, {8, 3}, {16, 2}, {24, 17},
  {64, 9}, {200, 37}
};

#define TEST_PAD_ALIGNED 2
/* no padding, whole words (structured content), odd bytes */
static G_GNUC_UNUSED const gint words8_pads[] = { FALSE, TEST_PAD_ALIGNED, TRUE };

/* Makes a frame of @caps_info's format and size. With @padded, rows get
 * extra bytes (an odd number) and planes gaps between them, described by
 * a GstVideoMeta; with @padded TEST_PAD_ALIGNED the same in multiples of 8
 * bytes (rows of whole 8-byte words stay so: the GPU kernels of
 * gst_cl_launch_words8). Padding bytes are filled with a marker. */
TestFrame test_frame_new (const GstVideoInfo * caps_info, TestContent content,
    gboolean padded, guint32 seed);

GstVideoInfo test_info (const gchar * format, gint width, gint height);

gchar *test_caps_string (const gchar * format, gint width, gint height);

/* A plane of a mapped frame, for references. step: samples per pixel;
 * bytes (0 or 1: 8-bit samples; 2: 16-bit words holding a value of depth
 * bits at bit shift). */
typedef struct
{
  guint8 *data;
  gint stride, width, height, step;
  gint bytes, depth, shift;
} TestPlane;

TestPlane test_plane (GstVideoFrame * vf, guint plane);

/* The planes after the first of @in and @out, row by row: each changed
 * row adds one to @bad (the first ones are printed). Returns @bad. */
guint test_other_planes_unchanged (GstVideoFrame * in, GstVideoFrame * out,
    const gchar * format, const gchar * what, guint bad);

/* The value of sample @c of pixel (@x, @y) of @p, in its depth's levels
 * (bits outside them ignored), for any format. */
static G_GNUC_UNUSED TEST_INLINE gint
test_value (const TestPlane * p, gint x, gint y, gint c)
{
  const guint8 *row = p->data + (gsize) y * p->stride;
  if (p->bytes <= 1)
    return row[x * p->step + c];
  return (GST_READ_UINT16_LE (row + 2 * (x * p->step + c)) >> p->shift) &
      ((1 << p->depth) - 1);
}

/* The stored word (or byte) of sample @c of pixel (@x, @y) of @p. */
static G_GNUC_UNUSED TEST_INLINE guint
test_word (const TestPlane * p, gint x, gint y, gint c)
{
  const guint8 *row = p->data + (gsize) y * p->stride;
  if (p->bytes <= 1)
    return row[x * p->step + c];
  return GST_READ_UINT16_LE (row + 2 * (x * p->step + c));
}

/* Reference filter of one sample of any depth: the value (in the depth's
 * levels) of sample c of plane 0 of @src at (x, y). */
typedef gint (*TestValueRefFunc) (const TestPlane * src, gint x, gint y,
    gint c, gpointer data);

/* Compares @out with @in filtered by @ref, for any format: each filtered
 * sample's value within @tolerance of the reference, stored in the
 * format's packing (every bit outside the value zero, so P010_10LE keeps
 * its low 6 bits zero); the kept sample of each pixel and every other
 * plane unchanged. Returns the number of mismatches (printing the first). */
guint test_compare_values (GstBuffer * inbuf, const GstVideoInfo * in_info,
    GstBuffer * outbuf, const GstVideoInfo * out_info, const gchar * format,
    TestValueRefFunc ref, gpointer data, gint tolerance, const gchar * what);

/* Reference filter of one sample: plane 0 of @src at (x, y, byte c). */
typedef guint8 (*TestRefFunc) (const TestPlane * src, gint x, gint y, gint c,
    gpointer data);

/* Compares @out with @in filtered by @ref: plane 0 sample by sample, the
 * kept byte of each pixel and every other plane unchanged. Returns the
 * number of mismatches (and prints the first ones). */
guint test_compare (GstBuffer * inbuf, const GstVideoInfo * in_info,
    GstBuffer * outbuf, const GstVideoInfo * out_info, const gchar * format,
    TestRefFunc ref, gpointer data, gint tolerance, const gchar * what);

/* Holding the device. An element opens its device (OpenCL context, queues,
 * programs: about 0.1 s on POCL, built programs read from POCL's cache)
 * when none of the process is open, and the device closes with its last
 * user: each of the hundreds of harnesses of an element suite would open
 * it anew, most of a small case's time. Suites that set
 * test_holds_devices keep the device of a test's first harness (its
 * gst.cl.device context) until the test ends, so that later harnesses find
 * it open; test_leak_teardown() lets it go before it counts the objects
 * left. A device reads GST_CL_ZERO_COPY when it opens: a test that changes
 * it gets a new device at its next harness. */
extern gboolean test_holds_devices;

void test_release_device (void);

/* Holds the device of an element of @h once it has one. */
void test_hold_harness_device (GstHarness * h);

/* gst_harness_new_parse (@launch), on the held device unless
 * GST_CL_ZERO_COPY changed since it opened. */
GstHarness *test_harness_new (const gchar * launch);

/* Pushes @f (a ref is taken) and pulls the output. */
GstBuffer *test_push_pull (GstHarness * h, TestFrame * f);

static G_GNUC_UNUSED TEST_INLINE gint
clampi (gint v, gint lo, gint hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* The OpenCL test layer (tests/layer/cllayer.c) as the ICD loader loaded
 * it: the first library named in OPENCL_LAYERS (as meson test sets it) that
 * is loaded in this process and exports clfilters_layer_live(). Found
 * through the variable, never through a path compiled into the test, so that
 * a build folder run from another directory or machine (scripts/test-gpu.sh)
 * checks the layer it was given. Returns NULL when none is loaded. */
void *test_layer_handle (void);

/* Whether an OpenCL device exists, asked in a child process: OpenCL must
 * not be used in this process before check forks the tests (POCL hangs the
 * children). Returns 77 (skip) when there is none, unless the environment
 * says a device is required (CI), where it is a failure.
 * When OPENCL_LAYERS names a layer, the child also checks that the ICD
 * loader loaded the test layer: otherwise every leak check would pass
 * unseen (a layer path that does not exist on this machine, a loader
 * without layer support), so that is a failure, with the reason.
 * On a GPU (CLFILTERS_TEST_ON_GPU=1, scripts/test-gpu.sh) a variant whose
 * environment changes nothing there (CLFILTERS_TEST_SAME_ON, set by
 * tests/meson.build: "gpu" or "discrete-gpu") returns 77 too, saying so:
 * it would only repeat the plain run. */
gint test_require_opencl (void);

/* The live OpenCL objects once they stop going down: buffers carry device
 * frames (which hold their device), and a streaming thread may drop the
 * last buffer a moment after the state change to NULL returned (the task
 * releases its references after the join). Waits up to 2 s for zero. */
long test_settled_live (long (*live) (const char *));

/* After every test: when the OpenCL test layer is loaded (OPENCL_LAYERS, as
 * meson test sets it), no OpenCL object may outlive the test's pipelines.
 * test_require_opencl() made sure that the loader loads a layer it is
 * given; it is not loaded here when the test never used OpenCL, or hid
 * every ICD (the loader then loads no layer either). */
void test_leak_teardown (void);

void test_add_leak_check (TCase * tc);

/* CLFILTERS_TEST_SHARD=k/n (tests/meson.build runs a long program in n
 * parts, so that they spread over the cores): part k (0 to n-1) runs its
 * share of the iterations of each loop test added with
 * test_add_sharded_loop(), and part 0 also every test added with
 * test_add_sharded(). The parts' checks add up to the whole program's. */
void test_shard (guint * k, guint * n);

#define test_add_sharded(tc, f) G_STMT_START { \
  guint k_, n_; \
  test_shard (&k_, &n_); \
  if (k_ == 0) \
    tcase_add_test (tc, f); \
} G_STMT_END

#define test_add_sharded_loop(tc, f, s, e) G_STMT_START { \
  guint k_, n_; \
  test_shard (&k_, &n_); \
  tcase_add_loop_test (tc, f, (s) + ((e) - (s)) * k_ / n_, \
      (s) + ((e) - (s)) * (k_ + 1) / n_); \
} G_STMT_END

/* CLFILTERS_TEST_ONE_PROCESS=1 (scripts/test-gpu.sh) runs the cases of a
 * program that allows it in one process (CK_FORK=no) instead of a process
 * each: a GPU driver's start in each process (NVIDIA's: about a second,
 * more with many processes at once) was most of a small case's time on the
 * GPU machine. The programs that change what the ICD loader or POCL see
 * (errors, chain's two devices) or keep state of their own between cases
 * (tuning) need a process a case and use TEST_MAIN. */
#define TEST_MAIN_FULL(name, one_process) \
int \
main (int argc, char **argv) \
{ \
  gint r = test_require_opencl (); \
  if (r != 0) \
    return r; \
  if ((one_process) && g_strcmp0 (g_getenv ("CLFILTERS_TEST_ONE_PROCESS"), \
          "1") == 0) \
    g_setenv ("CK_FORK", "no", TRUE); \
  gst_check_init (&argc, &argv); \
  return gst_check_run_suite (name##_suite (), #name, __FILE__); \
}
#define TEST_MAIN(name) TEST_MAIN_FULL (name, FALSE)
#define TEST_MAIN_ONE_PROCESS(name) TEST_MAIN_FULL (name, TRUE)
