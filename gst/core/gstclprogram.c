/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclprogram.c: the programs of a device, built on first use from the
 * kernels' sources (gstclshared.h and common.cl first) and kept for the device's life, one a
 * set of build options; every element on the device shares them. The
 * functions are declared in gstcldevice.h, with the device they belong to.
 */
#include "gstcldevice.h"
#include "gstclkernels.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_program_debug);
#define GST_CAT_DEFAULT gst_cl_program_debug

static void
debug_init (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_program_debug, "clprogram", 0,
        "clfilters OpenCL program builds");
    g_once_init_leave (&done, 1);
  }
}

/**
 * gst_cl_device_get_program:
 * @name: the kernel file's base name, for logs and the cache key
 * @source: its source (the core's common.cl is prepended)
 *
 * Returns the program built for this device, building it on first use; all
 * elements on the device share it. Call from start(), never per frame.
 *
 * Returns: (transfer full): a retained program, or NULL with @error set
 * (for build failures, the message carries the build log).
 */
cl_program
gst_cl_device_get_program (GstClDevice * device, const gchar * name,
    const gchar * source, GError ** error)
{
  return gst_cl_device_get_program_with_defines (device, name, source, NULL,
      error);
}

/* the build log of @program on @device, "" when there is none */
static gchar *
build_log (GstClDevice * device, cl_program program)
{
  size_t size = 0;
  gchar *log;
  clGetProgramBuildInfo (program, device->device_id, CL_PROGRAM_BUILD_LOG,
      0, NULL, &size);
  log = g_malloc0 (size + 1);
  if (size)
    clGetProgramBuildInfo (program, device->device_id, CL_PROGRAM_BUILD_LOG,
        size, log, NULL);
  return log;
}

/* The build options of a program with @defines on @device, and (in *key)
 * what the device's programs are kept under */
static gchar *
program_options (GstClDevice * device, const gchar * name,
    const gchar * defines, gchar ** key)
{
  const gboolean cpu = !gst_cl_device_builds_gpu_kernels (device);
  const gchar *extra;
  gchar *options;

  /* GST_CL_GPU_KERNELS=1 builds the GPU variants of the kernels on a CPU
   * device too: the test suites run them on POCL (tests/meson.build) */
  /* GST_CL_BUILD_OPTIONS adds the driver's own options, for developers
   * who measure them (NVIDIA's -cl-nv-verbose puts each kernel's register
   * count in the build log, logged below; -cl-nv-maxrregcount=N caps it) */
  /* GST_CL_CPU16: the CPU kernels that have 16-lane paths take them where
   * a vector register holds 16 floats (AVX-512); with registers of 8 a
   * float16 takes two, and the 8-lane paths keep them free */
  /* GST_CL_VBMI: the CPU kernels that have paths of AVX-512 VBMI's byte
   * permutes take them; GST_CL_GATHER16: those that have paths of AVX-512
   * gathers (gstcldevice.c says where) */
  extra = g_getenv ("GST_CL_BUILD_OPTIONS");
  options = g_strdup_printf ("-cl-std=CL1.2%s%s%s%s%s%s%s%s",
      cpu ? " -DGST_CL_CPU=1" : "",
      cpu && device->simd_floats >= 16 ? " -DGST_CL_CPU16=1" : "",
      cpu && device->byte_permutes ? " -DGST_CL_VBMI=1" : "",
      cpu && device->gathers ? " -DGST_CL_GATHER16=1" : "",
      defines ? " " : "", defines ? defines : "", extra ? " " : "",
      extra ? extra : "");
  *key = g_strdup_printf ("%s|%s", name, options);
  return options;
}

/**
 * gst_cl_device_has_program_with_defines:
 *
 * Whether gst_cl_device_get_program_with_defines() for @name and @defines
 * would return a program built before (and so take no time).
 */
gboolean
gst_cl_device_has_program_with_defines (GstClDevice * device,
    const gchar * name, const gchar * defines)
{
  gchar *key, *options = program_options (device, name, defines, &key);
  gboolean has;

  g_mutex_lock (&device->lock);
  has = g_hash_table_contains (device->programs, key);
  g_mutex_unlock (&device->lock);
  g_free (key);
  g_free (options);
  return has;
}

/**
 * gst_cl_device_get_program_with_defines:
 * @defines: (nullable): more build options, such as "-DGST_CL_RADIUS=7",
 *   for the variants of a program specialised on constants
 *
 * As gst_cl_device_get_program(); each set of @defines is a program of its
 * own, built on first use (a compile of the source: tens to hundreds of
 * milliseconds, less where the driver keeps a cache of binaries) and kept
 * for the device's life.
 */
cl_program
gst_cl_device_get_program_with_defines (GstClDevice * device,
    const gchar * name, const gchar * source, const gchar * defines,
    GError ** error)
{
  const gchar *sources[3] = { gst_cl_source_gstclshared, gst_cl_source_common,
    source
  };
  gchar *key, *options = program_options (device, name, defines, &key);
  cl_program program;
  cl_int st;

  debug_init ();
  g_mutex_lock (&device->lock);
  program = g_hash_table_lookup (device->programs, key);
  if (program) {
    clRetainProgram (program);
    goto out;
  }
  program = clCreateProgramWithSource (device->context, 3, sources, NULL, &st);
  if (st != CL_SUCCESS) {
    gst_cl_fail (error, st, "clCreateProgramWithSource");
    program = NULL;
    goto out;
  }
  st = clBuildProgram (program, 1, &device->device_id, options, NULL, NULL);
  if (st == CL_SUCCESS && gst_debug_category_get_threshold (GST_CAT_DEFAULT)
      >= GST_LEVEL_DEBUG) {
    gchar *log = build_log (device, program);
    if (g_strstrip (log)[0])
      GST_DEBUG_OBJECT (device, "build log of %s.cl (%s):\n%s", name,
          options, log);
    g_free (log);
  }
  if (st != CL_SUCCESS) {
    gchar *log = build_log (device, program);
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_BUILD,
        "Building the OpenCL program %s.cl for \"%s\" failed (%s, options "
        "\"%s\"). Build log:\n%s", name, device->name,
        gst_cl_status_name (st), options, log);
    g_free (log);
    clReleaseProgram (program);
    program = NULL;
    goto out;
  }
  GST_INFO_OBJECT (device, "built program %s.cl (%s)", name, options);
  g_hash_table_insert (device->programs, g_strdup (key), program);
  clRetainProgram (program);
out:
  g_mutex_unlock (&device->lock);
  g_free (key);
  g_free (options);
  return program;
}
