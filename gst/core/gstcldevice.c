/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcldevice.c: OpenCL device discovery, selection and queues (the
 * device's programs are built in gstclprogram.c).
 *
 * Nothing here runs before an element starts: plugin_init never touches
 * OpenCL (POCL hangs a child forked after OpenCL was used, and the plugin must
 * load on machines without any OpenCL driver).
 */
#include "gstcldevice.h"
#include "gstclsvm.h"

#include <stdlib.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_device_debug);
#define GST_CAT_DEFAULT gst_cl_device_debug

G_DEFINE_TYPE_WITH_CODE (GstClDevice, gst_cl_device, GST_TYPE_OBJECT,
    GST_DEBUG_CATEGORY_INIT (gst_cl_device_debug, "cldevice", 0,
        "clfilters OpenCL devices"));

#define INSTALL_HINT \
  "Install an OpenCL driver (ICD): on Debian/Ubuntu `sudo apt install " \
  "pocl-opencl-icd` runs OpenCL on the CPU; for a GPU install its vendor's " \
  "OpenCL package (e.g. nvidia-opencl-icd, intel-opencl-icd, " \
  "mesa-opencl-icd). `clinfo` lists what OpenCL can see."

/* one entry of the machine's device list */
typedef struct
{
  cl_platform_id platform;
  cl_device_id device;
  guint pi, di;
  cl_device_type type;
  gchar *name, *platform_name;
} Candidate;

static GMutex registry_lock;
static GHashTable *registry;    /* "pi.di" -> GWeakRef* (never removed) */

static gchar *
platform_string (cl_platform_id p, cl_platform_info what)
{
  size_t size = 0;
  gchar *s;
  if (clGetPlatformInfo (p, what, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup ("");
  s = g_malloc0 (size + 1);
  clGetPlatformInfo (p, what, size, s, NULL);
  return g_strstrip (s);
}

static gchar *
device_string (cl_device_id d, cl_device_info what)
{
  size_t size = 0;
  gchar *s;
  if (clGetDeviceInfo (d, what, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup ("");
  s = g_malloc0 (size + 1);
  clGetDeviceInfo (d, what, size, s, NULL);
  return g_strstrip (s);
}

static const gchar *
type_name (cl_device_type type)
{
  if (type & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (type & CL_DEVICE_TYPE_CPU)
    return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  return "other";
}

static void
candidate_clear (gpointer data)
{
  Candidate *c = data;
  g_free (c->name);
  g_free (c->platform_name);
}

/* Lists every device of every platform, in platform.device order. */
static GArray *
enumerate (GError ** error)
{
  cl_uint n_platforms = 0;
  cl_platform_id *platforms;
  GArray *list;
  cl_int st;
  guint i;

  st = clGetPlatformIDs (0, NULL, &n_platforms);
  if (st != CL_SUCCESS || n_platforms == 0) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_NO_PLATFORM,
        "No OpenCL platform is installed (clGetPlatformIDs: %s). "
        INSTALL_HINT, st != CL_SUCCESS ? gst_cl_status_name (st) : "none");
    return NULL;
  }
  platforms = g_new0 (cl_platform_id, n_platforms);
  clGetPlatformIDs (n_platforms, platforms, NULL);

  list = g_array_new (FALSE, TRUE, sizeof (Candidate));
  g_array_set_clear_func (list, candidate_clear);
  for (i = 0; i < n_platforms; i++) {
    cl_uint n_devices = 0, j;
    cl_device_id *devices;

    if (clGetDeviceIDs (platforms[i], CL_DEVICE_TYPE_ALL, 0, NULL,
            &n_devices) != CL_SUCCESS || n_devices == 0)
      continue;
    devices = g_new0 (cl_device_id, n_devices);
    clGetDeviceIDs (platforms[i], CL_DEVICE_TYPE_ALL, n_devices, devices, NULL);
    for (j = 0; j < n_devices; j++) {
      Candidate c = { platforms[i], devices[j], i, j, 0, NULL, NULL };
      clGetDeviceInfo (devices[j], CL_DEVICE_TYPE, sizeof (c.type), &c.type,
          NULL);
      c.name = device_string (devices[j], CL_DEVICE_NAME);
      c.platform_name = platform_string (platforms[i], CL_PLATFORM_NAME);
      g_array_append_val (list, c);
    }
    g_free (devices);
  }
  g_free (platforms);

  if (list->len == 0) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_NO_DEVICE,
        "%u OpenCL platform(s) found but no device. With POCL, check that "
        "its cache directory is writable (POCL_CACHE_DIR, by default "
        "~/.cache/pocl) and that POCL_DEVICES is unset or valid. "
        INSTALL_HINT, n_platforms);
    g_array_unref (list);
    return NULL;
  }
  return list;
}

static gchar *
describe_list (GArray * list)
{
  GString *s = g_string_new (NULL);
  guint i;
  for (i = 0; i < list->len; i++) {
    Candidate *c = &g_array_index (list, Candidate, i);
    g_string_append_printf (s, "%s%u.%u \"%s\" (%s, %s)", i ? "; " : "",
        c->pi, c->di, c->name, c->platform_name, type_name (c->type));
  }
  return g_string_free (s, FALSE);
}

/**
 * gst_cl_device_describe_all:
 *
 * Returns: (transfer full): a one-line list of the OpenCL devices of this
 * machine, or the reason there are none.
 */
gchar *
gst_cl_device_describe_all (void)
{
  GError *err = NULL;
  GArray *list = enumerate (&err);
  gchar *s;
  if (!list) {
    s = g_strdup (err->message);
    g_error_free (err);
    return s;
  }
  s = describe_list (list);
  g_array_unref (list);
  return s;
}

static gboolean
parse_index (const gchar * s, guint * pi, guint * di)
{
  gchar **parts = g_strsplit (s, ".", -1);
  gboolean ok = FALSE;
  guint64 a, b;
  if (g_strv_length (parts) == 2 &&
      g_ascii_string_to_unsigned (parts[0], 10, 0, G_MAXUINT, &a, NULL) &&
      g_ascii_string_to_unsigned (parts[1], 10, 0, G_MAXUINT, &b, NULL)) {
    *pi = a;
    *di = b;
    ok = TRUE;
  }
  g_strfreev (parts);
  return ok;
}

static gboolean
contains_nocase (const gchar * haystack, const gchar * needle_down)
{
  gchar *h = g_utf8_strdown (haystack, -1);
  gboolean found = strstr (h, needle_down) != NULL;
  g_free (h);
  return found;
}

/* Applies the selector rules of the `device` property; returns an index. */
static gint
select_candidate (GArray * list, const gchar * selector)
{
  gchar *sel = g_utf8_strdown (selector, -1);
  cl_device_type want = 0;
  guint pi, di, i;
  gint found = -1;

  g_strstrip (sel);
  if (*sel == '\0') {
    for (i = 0; i < list->len && found < 0; i++)
      if (g_array_index (list, Candidate, i).type & CL_DEVICE_TYPE_GPU)
        found = i;
    if (found < 0)
      found = 0;
    goto done;
  }
  if (g_str_equal (sel, "gpu"))
    want = CL_DEVICE_TYPE_GPU;
  else if (g_str_equal (sel, "cpu"))
    want = CL_DEVICE_TYPE_CPU;
  else if (g_str_equal (sel, "accelerator"))
    want = CL_DEVICE_TYPE_ACCELERATOR;
  if (want) {
    for (i = 0; i < list->len && found < 0; i++)
      if (g_array_index (list, Candidate, i).type & want)
        found = i;
    goto done;
  }
  if (parse_index (sel, &pi, &di)) {
    for (i = 0; i < list->len && found < 0; i++) {
      Candidate *c = &g_array_index (list, Candidate, i);
      if (c->pi == pi && c->di == di)
        found = i;
    }
    goto done;
  }
  for (i = 0; i < list->len && found < 0; i++) {
    Candidate *c = &g_array_index (list, Candidate, i);
    if (contains_nocase (c->name, sel) || contains_nocase (c->platform_name,
            sel))
      found = i;
  }
done:
  g_free (sel);
  return found;
}

/* How many sets of queues the device's streams spread over:
 * GST_CL_QUEUE_SETS, else QUEUE_SETS_CPU on CPU devices and 1 elsewhere.
 * POCL runs one command of an in-order queue at a time, each kernel over
 * all its threads: the kernels of independent streams in one queue wait
 * for each other, in several they share the cores (docs/performance.md,
 * "Many streams"). On a GPU more sets measured the
 * same as one: NVIDIA's driver serialises the enqueues of a device
 * whatever the queue (docs/design.md). */
#define QUEUE_SETS_CPU 8
static guint
queue_sets (GstClDevice * self)
{
  const gchar *env = g_getenv ("GST_CL_QUEUE_SETS");

  if (env)
    return CLAMP (atoi (env), 1, GST_CL_MAX_QUEUE_SETS);
  return (self->type & CL_DEVICE_TYPE_CPU) ? QUEUE_SETS_CPU : 1;
}

/* Separate upload and download queues on devices that copy frames, so
 * that both directions overlap the kernels. Zero-copy devices transfer
 * nothing: their second queue only maps frames for the CPU, so that a map
 * waits for the frame's own events, not for every kernel queued before. */
static gboolean
create_queues (GstClDevice * self, GError ** error)
{
  guint set, kind, i;

  self->n_queue_sets = queue_sets (self);
  for (set = 0; set < self->n_queue_sets; set++) {
    for (kind = 0; kind < GST_CL_N_QUEUES; kind++) {
      i = GST_CL_QUEUE_OF_SET (set, kind);
      if (kind == GST_CL_QUEUE_DOWNLOAD && self->zero_copy) {
        self->queues[i] = self->queues[i - 1];
        clRetainCommandQueue (self->queues[i]);
        continue;
      }
      self->queues[i] = gst_cl_device_create_queue (self, error);
      if (!self->queues[i])
        return FALSE;
    }
  }
  return TRUE;
}

/* Whether POCL runs the kernels on this very CPU (a CPU device that shares
 * the host's memory: not one of POCL's remote devices), so that what the
 * host's cpuid says holds for them; `env` "0" says no. */
static gboolean
pocl_on_host_cpu (GstClDevice * self, const gchar * env)
{
  if (env && g_str_equal (env, "0"))
    return FALSE;
  return (self->type & CL_DEVICE_TYPE_CPU) && self->host_unified &&
      self->platform_name &&
      strstr (self->platform_name, "Portable Computing Language");
}

/* Whether the CPU kernels may use AVX-512 VBMI (clahe.cl's planar blend):
 * POCL runs them on this CPU and builds them with clang, whose target
 * attribute enables the instructions in one function, whatever CPU model
 * POCL builds for. GST_CL_VBMI=0 keeps the kernels without them, so that
 * the tests check those here too. */
static gboolean
cpu_byte_permutes (GstClDevice * self)
{
#if defined (__x86_64__) || defined (__i386__)
  return pocl_on_host_cpu (self, g_getenv ("GST_CL_VBMI")) &&
      __builtin_cpu_supports ("avx512vbmi");
#else
  return FALSE;
#endif
}

/* Whether the CPU kernels may gather 16 lanes of 32 bits in one AVX-512
 * instruction (clahe.cl's 16-bit blend) rather than load them one by one:
 * POCL on this CPU, an Intel one with AVX-512 (there the gather took the
 * blend's loads in about two thirds of the time; AMD's Zen 5 gathers more
 * slowly than it loads). GST_CL_GATHERS=0 keeps the loads, so that the
 * tests check them here too; =1 takes the gathers on any CPU with
 * AVX-512. */
static gboolean
cpu_gathers (GstClDevice * self)
{
#if defined (__x86_64__) || defined (__i386__)
  const gchar *env = g_getenv ("GST_CL_GATHERS");

  return pocl_on_host_cpu (self, env) && __builtin_cpu_supports ("avx512f")
      && ((env && g_str_equal (env, "1")) || __builtin_cpu_is ("intel"));
#else
  return FALSE;
#endif
}

/* NVIDIA's OpenCL reports the compute capability (cl_nv_device_attribute_query)
 * and compiles inline PTX; dp4a and dp2a came with 6.1.
 * GST_CL_DOT_PRODUCTS=0 turns them off, =1 picks the portable form. */
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
static GstClDotProducts
dot_products (cl_device_id device)
{
  const gchar *env = g_getenv ("GST_CL_DOT_PRODUCTS");
  gchar *extensions;
  cl_uint major = 0, minor = 0;

  if (env && g_str_equal (env, "0"))
    return GST_CL_DOT_NONE;
  if (env && g_str_equal (env, "1"))
    return GST_CL_DOT_PORTABLE;
  extensions = device_string (device, CL_DEVICE_EXTENSIONS);
  if (extensions && strstr (extensions, "cl_nv_device_attribute_query")) {
    clGetDeviceInfo (device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV,
        sizeof (major), &major, NULL);
    clGetDeviceInfo (device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV,
        sizeof (minor), &minor, NULL);
  }
  g_free (extensions);
  return major > 6 || (major == 6 && minor >= 1) ? GST_CL_DOT_PTX
      : GST_CL_DOT_NONE;
}

static GstClDevice *
device_new (Candidate * c, GError ** error)
{
  cl_context_properties props[] = {
    CL_CONTEXT_PLATFORM, (cl_context_properties) c->platform, 0
  };
  cl_bool b = CL_FALSE;
  cl_int st;
  cl_context ctx;
  GstClDevice *self;

  ctx = clCreateContext (props, 1, &c->device, NULL, NULL, &st);
  if (st != CL_SUCCESS) {
    gst_cl_fail (error, st, "clCreateContext");
    return NULL;
  }
  self = g_object_new (GST_TYPE_CL_DEVICE, NULL);
  gst_object_ref_sink (self);
  self->platform_id = c->platform;
  self->device_id = c->device;
  self->context = ctx;
  self->platform_index = c->pi;
  self->device_index = c->di;
  self->type = c->type;
  self->name = g_strdup (c->name);
  self->platform_name = g_strdup (c->platform_name);
  self->version = device_string (c->device, CL_DEVICE_VERSION);
  self->driver_version = device_string (c->device, CL_DRIVER_VERSION);
  clGetDeviceInfo (c->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (b), &b,
      NULL);
  self->host_unified = b;
  b = CL_FALSE;
  clGetDeviceInfo (c->device, CL_DEVICE_IMAGE_SUPPORT, sizeof (b), &b, NULL);
  self->image_support = b;
  clGetDeviceInfo (c->device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof (gsize),
      &self->image2d_max_width, NULL);
  clGetDeviceInfo (c->device, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof (gsize),
      &self->image2d_max_height, NULL);
  clGetDeviceInfo (c->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof (cl_ulong),
      &self->local_mem_size, NULL);
  clGetDeviceInfo (c->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof (gsize),
      &self->max_work_group_size, NULL);
  {
    cl_uint cu = 1;
    clGetDeviceInfo (c->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (cu), &cu,
        NULL);
    self->compute_units = MAX (cu, 1);
  }
  {
    /* GST_CL_SIMD_FLOATS=16 takes the CPU kernels' 16-lane paths on CPUs
     * of 8-float registers too, so that the tests check them there */
    const gchar *env = g_getenv ("GST_CL_SIMD_FLOATS");
    cl_uint width = 1;
    clGetDeviceInfo (c->device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
        sizeof (width), &width, NULL);
    self->simd_floats = env ? g_ascii_strtoull (env, NULL, 10) : width;
    self->simd_floats = MAX (self->simd_floats, 1);
  }
  self->byte_permutes = cpu_byte_permutes (self);
  self->gathers = cpu_gathers (self);
  clGetDeviceInfo (c->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof (cl_ulong),
      &self->max_alloc, NULL);
  {
    cl_uint bits = 1024;
    clGetDeviceInfo (c->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof (bits),
        &bits, NULL);
    self->mem_base_align = MAX (bits / 8, 128);
  }
  if (!self->image_support)
    self->image2d_max_width = self->image2d_max_height = 0;
  {
    /* GST_CL_ZERO_COPY=0 forces the copying path of discrete GPUs, so that
     * it is tested on CPU devices too */
    const gchar *env = g_getenv ("GST_CL_ZERO_COPY");
    self->zero_copy = self->host_unified && !(env && g_str_equal (env, "0"));
    env = g_getenv ("GST_CL_SVM");
    self->svm_frames = self->zero_copy && !(env && g_str_equal (env, "0"))
        && gst_cl_svm_fine_grain_supported (c->device);
  }
  self->dot_products = dot_products (c->device);
  if (!create_queues (self, error)) {
    gst_object_unref (self);
    return NULL;
  }
  GST_INFO_OBJECT (self, "opened %u.%u \"%s\" (%s, %s), driver %s, "
      "unified memory %d, images %d (%" G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT
      "), dot products %d", c->pi, c->di, self->name, self->platform_name,
      type_name (c->type), self->driver_version, self->host_unified,
      self->image_support, self->image2d_max_width, self->image2d_max_height,
      self->dot_products);
  return self;
}

/**
 * gst_cl_device_acquire:
 * @selector: the `device` property value ("" for the default rules)
 *
 * Finds the device the selector names and returns the process-wide
 * GstClDevice for it, creating it on first use.
 *
 * Returns: (transfer full): the device, or NULL with @error set.
 */
GstClDevice *
gst_cl_device_acquire (const gchar * selector, GError ** error)
{
  GstClDevice *device = NULL;
  const gchar *env = g_getenv ("GST_CL_DEVICE");
  GArray *list;
  Candidate *c;
  GWeakRef *ref;
  gchar *key;
  gint idx;

  if ((!selector || !*selector) && env && *env)
    selector = env;
  if (!selector)
    selector = "";

  g_mutex_lock (&registry_lock);
  list = enumerate (error);
  if (!list)
    goto out;
  idx = select_candidate (list, selector);
  if (idx < 0) {
    gchar *all = describe_list (list);
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_NO_MATCH,
        "No OpenCL device matches \"%s\". The devices here are: %s. Use "
        "\"gpu\", \"cpu\", \"accelerator\", a platform.device index or part "
        "of a device or platform name.", selector, all);
    g_free (all);
    goto out;
  }
  c = &g_array_index (list, Candidate, idx);
  if (!registry)
    registry = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  key = g_strdup_printf ("%u.%u", c->pi, c->di);
  ref = g_hash_table_lookup (registry, key);
  if (ref)
    device = g_weak_ref_get (ref);
  if (!device) {
    device = device_new (c, error);
    if (device) {
      if (!ref) {
        ref = g_new0 (GWeakRef, 1);
        g_hash_table_insert (registry, g_strdup (key), ref);
      }
      g_weak_ref_set (ref, device);
    }
  }
  g_free (key);
out:
  if (list)
    g_array_unref (list);
  g_mutex_unlock (&registry_lock);
  return device;
}

gboolean
gst_cl_device_is_cpu (GstClDevice * device)
{
  return (device->type & CL_DEVICE_TYPE_CPU) != 0;
}

/**
 * gst_cl_device_builds_gpu_kernels:
 *
 * Whether programs are built with their GPU variants (GST_CL_CPU unset):
 * on GPUs, and on a CPU with GST_CL_GPU_KERNELS=1 (the test suites run the
 * GPU variants on POCL with it).
 */
gboolean
gst_cl_device_builds_gpu_kernels (GstClDevice * device)
{
  return !gst_cl_device_is_cpu (device)
      || g_strcmp0 (g_getenv ("GST_CL_GPU_KERNELS"), "1") == 0;
}

/**
 * gst_cl_device_create_queue:
 *
 * Creates an in-order command queue with profiling enabled (its cost is
 * negligible and it lets `profiling` be switched on at any time).
 *
 * Returns: (transfer full): the queue, or NULL with @error set.
 */
cl_command_queue
gst_cl_device_create_queue (GstClDevice * device, GError ** error)
{
  cl_int st;
  cl_command_queue q = clCreateCommandQueue (device->context,
      device->device_id, CL_QUEUE_PROFILING_ENABLE, &st);
  if (st != CL_SUCCESS) {
    gst_cl_fail (error, st, "clCreateCommandQueue");
    return NULL;
  }
  return q;
}

/**
 * gst_cl_device_get_queue:
 * @queue: a #GstClQueueKind (the device's first set), or
 *   GST_CL_QUEUE_OF_SET()
 *
 * The device's own in-order queue @queue, shared by the elements whose
 * frames run on its set (see #GstClQueueKind).
 *
 * Returns: (transfer none): the queue
 */
cl_command_queue
gst_cl_device_get_queue (GstClDevice * device, guint queue)
{
  return device->queues[queue];
}

/**
 * gst_cl_device_next_queue_set:
 *
 * The set of queues for an element that starts a stream: the sets in turn.
 */
guint
gst_cl_device_next_queue_set (GstClDevice * device)
{
  guint n = (guint) g_atomic_int_add (&device->next_queue_set, 1);
  return n % device->n_queue_sets;
}

/* Submits what was enqueued on the queues of @set. */
static gboolean
flush_set (GstClDevice * device, guint set)
{
  gboolean ok = TRUE;
  guint kind, i;

  for (kind = 0; kind < GST_CL_N_QUEUES; kind++) {
    i = GST_CL_QUEUE_OF_SET (set, kind);
    if (kind == 0 || device->queues[i] != device->queues[i - 1])
      ok &= clFlush (device->queues[i]) == CL_SUCCESS;
  }
  return ok;
}

/**
 * gst_cl_device_flush:
 *
 * Submits what was enqueued on every queue of the device. Needed after
 * work that another queue waits for (OpenCL requires it for cross-queue
 * events, and NVIDIA's driver holds commands until a flush).
 */
gboolean
gst_cl_device_flush (GstClDevice * device)
{
  gboolean ok = TRUE;
  guint set;

  for (set = 0; set < device->n_queue_sets; set++)
    ok &= flush_set (device, set);
  return ok;
}

/**
 * gst_cl_device_finish:
 *
 * Waits until every queue of the device is empty: for stop, flush and EOS,
 * never per frame.
 */
gboolean
gst_cl_device_finish (GstClDevice * device, GError ** error)
{
  guint i;
  cl_int st;

  for (i = 0; i < GST_CL_MAX_QUEUES; i++) {
    if (!device->queues[i])
      continue;
    st = clFinish (device->queues[i]);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clFinish");
  }
  return TRUE;
}

/**
 * gst_cl_device_type_nick:
 *
 * Returns: "gpu", "cpu", "accelerator" or "other" (the `device-type` field
 * of the gst.cl.device context)
 */
const gchar *
gst_cl_device_type_nick (GstClDevice * device)
{
  if (device->type & CL_DEVICE_TYPE_GPU)
    return "gpu";
  if (device->type & CL_DEVICE_TYPE_CPU)
    return "cpu";
  if (device->type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  return "other";
}

/**
 * gst_cl_device_has_image_format:
 *
 * Whether 2D images of this format can be read and written by kernels.
 */
gboolean
gst_cl_device_has_image_format (GstClDevice * device, cl_channel_order order,
    cl_channel_type type)
{
  static const cl_mem_flags flags[] = { CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY };
  guint f;

  if (!device->image_support)
    return FALSE;
  for (f = 0; f < G_N_ELEMENTS (flags); f++) {
    cl_uint n = 0, i;
    cl_image_format *formats;
    gboolean found = FALSE;
    if (clGetSupportedImageFormats (device->context, flags[f],
            CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n) != CL_SUCCESS || n == 0)
      return FALSE;
    formats = g_new0 (cl_image_format, n);
    clGetSupportedImageFormats (device->context, flags[f],
        CL_MEM_OBJECT_IMAGE2D, n, formats, NULL);
    for (i = 0; i < n && !found; i++)
      found = formats[i].image_channel_order == order &&
          formats[i].image_channel_data_type == type;
    g_free (formats);
    if (!found)
      return FALSE;
  }
  return TRUE;
}

static void
gst_cl_device_finalize (GObject * object)
{
  GstClDevice *self = GST_CL_DEVICE (object);
  guint i;

  GST_INFO_OBJECT (self, "closing \"%s\"", self->name);
  for (i = 0; i < GST_CL_MAX_QUEUES; i++) {
    if (self->queues[i]) {
      clFinish (self->queues[i]);
      clReleaseCommandQueue (self->queues[i]);
    }
  }
  g_hash_table_unref (self->programs);
  if (self->context)
    clReleaseContext (self->context);
  g_free (self->name);
  g_free (self->platform_name);
  g_free (self->version);
  g_free (self->driver_version);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (gst_cl_device_parent_class)->finalize (object);
}

static void
gst_cl_device_class_init (GstClDeviceClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_device_finalize;
}

static void
release_program (gpointer p)
{
  clReleaseProgram ((cl_program) p);
}

static void
gst_cl_device_init (GstClDevice * self)
{
  g_mutex_init (&self->lock);
  self->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      release_program);
}
