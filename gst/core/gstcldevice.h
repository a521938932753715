/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcldevice.h: an OpenCL device, its context and its shared programs. */
#pragma once

#include "gstcl.h"

G_BEGIN_DECLS

/**
 * GstClQueueKind:
 * @GST_CL_QUEUE_COMPUTE: kernels and device-side copies of every element
 * @GST_CL_QUEUE_UPLOAD: host-to-device transfers
 * @GST_CL_QUEUE_DOWNLOAD: device-to-host transfers
 *
 * The device owns its command queues and every element enqueues on them,
 * in pipeline order, so that neighbours on one queue need no wait between
 * them. On devices that copy frames (discrete GPUs) the three are separate
 * in-order queues, so that both bus directions and the kernels of
 * different frames overlap; on zero-copy devices the upload and download
 * queue is one, where CPU maps run.
 */
typedef enum
{
  GST_CL_QUEUE_COMPUTE,
  GST_CL_QUEUE_UPLOAD,
  GST_CL_QUEUE_DOWNLOAD,
  GST_CL_N_QUEUES,
} GstClQueueKind;

/* At most this many sets of the three queues on a device. */
#define GST_CL_MAX_QUEUE_SETS 8
#define GST_CL_MAX_QUEUES (GST_CL_MAX_QUEUE_SETS * GST_CL_N_QUEUES)

/**
 * GST_CL_QUEUE_OF_SET:
 *
 * The index of the queue of @kind in the set @set: what
 * gst_cl_device_get_queue() and the memory's events take. The kinds
 * themselves are the queues of set 0.
 */
#define GST_CL_QUEUE_OF_SET(set, kind) ((set) * GST_CL_N_QUEUES + (kind))
#define GST_CL_QUEUE_SET(queue) ((queue) / GST_CL_N_QUEUES)

#define GST_TYPE_CL_DEVICE (gst_cl_device_get_type ())
G_DECLARE_FINAL_TYPE (GstClDevice, gst_cl_device, GST, CL_DEVICE, GstObject);

/**
 * GstClDotProducts:
 * @GST_CL_DOT_NONE: none: kernels multiply and add
 * @GST_CL_DOT_PORTABLE: the kernels' dot-product forms written out in
 *   OpenCL C (slower than multiply-adds; GST_CL_DOT_PRODUCTS=1, so that the
 *   test suites check those kernels on any device)
 * @GST_CL_DOT_PTX: NVIDIA's dp4a, dp2a and prmt, in inline PTX (compute
 *   capability 6.1 and later)
 *
 * How a kernel's integer dot products are built (the -DGST_CL_DOT value of
 * kernels/gaussian_band.cl).
 */
typedef enum
{
  GST_CL_DOT_NONE = 0,
  GST_CL_DOT_PORTABLE = 1,
  GST_CL_DOT_PTX = 2,
} GstClDotProducts;

/**
 * GstClDevice:
 *
 * One OpenCL device with its context and the programs built for it. There is
 * one GstClDevice per device in a process: every element that selects the
 * same device shares it (and its programs). It is a GstObject so that it can
 * later travel between elements in a GstContext.
 */
struct _GstClDevice
{
  GstObject parent;

  /*< public, read-only after creation >*/
  cl_platform_id platform_id;
  cl_device_id device_id;
  cl_context context;
  guint platform_index, device_index;
  gchar *name;                  /* CL_DEVICE_NAME */
  gchar *platform_name;         /* CL_PLATFORM_NAME */
  gchar *version;               /* CL_DEVICE_VERSION */
  gchar *driver_version;        /* CL_DRIVER_VERSION */
  cl_device_type type;
  gboolean host_unified;        /* device reads host memory in place */
  gboolean image_support;
  gsize image2d_max_width, image2d_max_height;
  cl_ulong local_mem_size;
  gsize max_work_group_size;
  guint compute_units;           /* CL_DEVICE_MAX_COMPUTE_UNITS */
  cl_ulong max_alloc;           /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
  guint simd_floats;            /* CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
                                 * POCL says 16 where the CPU's vector
                                 * registers hold 16 floats (AVX-512) */
  gboolean byte_permutes;       /* the CPU kernels may use AVX-512 VBMI's
                                 * byte permutes (POCL on a CPU that has
                                 * them; GST_CL_VBMI=0 turns them off) */
  gboolean gathers;             /* the CPU kernels may gather 16 lanes in
                                 * one instruction (POCL on an Intel CPU
                                 * with AVX-512; GST_CL_GATHERS=0 turns
                                 * them off, =1 on) */

  gboolean zero_copy;           /* frames stay in host memory that the device
                                 * reads in place: host_unified, unless
                                 * GST_CL_ZERO_COPY=0 forces the copying path */
  cl_uint mem_base_align;       /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
  gboolean svm_frames;          /* zero-copy frames in fine-grained SVM, which
                                 * the CPU touches without map commands
                                 * (gstclsvm.h); GST_CL_SVM=0 turns it off */

  GstClDotProducts dot_products; /* integer dot products a kernel may use */

  /*< private >*/
  GMutex lock;
  GHashTable *programs;         /* "name|options" -> cl_program */
  cl_command_queue queues[GST_CL_MAX_QUEUES];     /* in-order queues, by
                                                 * set then kind */
  guint n_queue_sets;
  gint next_queue_set;
};


GstClDevice *gst_cl_device_acquire (const gchar * selector, GError ** error);

gboolean gst_cl_device_is_cpu (GstClDevice * device);
gboolean gst_cl_device_builds_gpu_kernels (GstClDevice * device);

cl_program gst_cl_device_get_program (GstClDevice * device,
    const gchar * name, const gchar * source, GError ** error);

gboolean gst_cl_device_has_program_with_defines (GstClDevice * device,
    const gchar * name, const gchar * defines);
cl_program gst_cl_device_get_program_with_defines (GstClDevice * device,
    const gchar * name, const gchar * source, const gchar * defines,
    GError ** error);

cl_command_queue gst_cl_device_create_queue (GstClDevice * device,
    GError ** error);

cl_command_queue gst_cl_device_get_queue (GstClDevice * device,
    guint queue);

guint gst_cl_device_next_queue_set (GstClDevice * device);

gboolean gst_cl_device_flush (GstClDevice * device);

gboolean gst_cl_device_finish (GstClDevice * device, GError ** error);

const gchar *gst_cl_device_type_nick (GstClDevice * device);

gboolean gst_cl_device_has_image_format (GstClDevice * device,
    cl_channel_order order, cl_channel_type type);

gchar *gst_cl_device_describe_all (void);

G_END_DECLS
