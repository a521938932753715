/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclbasetransform.h: the device layer under every clfilters element. */
#pragma once

#include "gstcldevice.h"

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_BASE_TRANSFORM (gst_cl_base_transform_get_type ())
#define GST_CL_BASE_TRANSFORM(obj) (G_TYPE_CHECK_INSTANCE_CAST ((obj), \
    GST_TYPE_CL_BASE_TRANSFORM, GstClBaseTransform))
#define GST_CL_BASE_TRANSFORM_CLASS(klass) \
  (G_TYPE_CHECK_CLASS_CAST ((klass), GST_TYPE_CL_BASE_TRANSFORM, \
      GstClBaseTransformClass))
#define GST_CL_BASE_TRANSFORM_GET_CLASS(obj) \
  (G_TYPE_INSTANCE_GET_CLASS ((obj), GST_TYPE_CL_BASE_TRANSFORM, \
      GstClBaseTransformClass))
#define GST_IS_CL_BASE_TRANSFORM(obj) (G_TYPE_CHECK_INSTANCE_TYPE ((obj), \
    GST_TYPE_CL_BASE_TRANSFORM))

typedef struct _GstClBaseTransform GstClBaseTransform;
typedef struct _GstClBaseTransformClass GstClBaseTransformClass;

/**
 * GstClBaseTransform:
 * @device: the device in use, from start() to stop()
 * @queue_set: the device's queues for the frames this element brings to
 *   it (gst_cl_device_next_queue_set())
 * @in_info: the input's format, once caps are set
 * @out_info: the output's format, once caps are set
 * @negotiated: whether caps are set and accepted
 *
 * An element on an OpenCL device, as GstCudaBaseTransform and
 * GstGLBaseFilter are: the `device` and `device-name` properties, the
 * device found and shared through GstContext (gstclcontext.h) in start()
 * and released in stop(), context queries, the formats of the caps, and
 * device frames proposed upstream and used downstream (gstclbufferpool.h).
 * clupload and cldownload derive from it, and so does the filters' base,
 * #GstClBaseFilter.
 */
struct _GstClBaseTransform
{
  GstBaseTransform parent;

  /*< protected >*/
  GstClDevice *device;
  guint queue_set;
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean negotiated;
};

/**
 * GstClBaseTransformClass:
 * @set_info: the caps are set: prepare for frames of @in_info and
 *   @out_info (before @in_info and @out_info of the instance change)
 * @device_frames: whether the element proposes device frames upstream and
 *   allocates its output from device frames (TRUE unless the subclass
 *   says otherwise: cldownload)
 * @passthrough_pool: whether the element, in passthrough, offers device
 *   frames upstream when downstream brings no pool (FALSE unless the
 *   subclass says otherwise: the filters' analyzers)
 */
struct _GstClBaseTransformClass
{
  GstBaseTransformClass parent_class;

    gboolean (*set_info) (GstClBaseTransform * self, GstCaps * incaps,
      GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info);

  gboolean device_frames;
  gboolean passthrough_pool;
};

GType gst_cl_base_transform_get_type (void);

GstFlowReturn gst_cl_base_transform_check_input (GstClBaseTransform * self,
    GstBuffer * buf);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstClBaseTransform, gst_object_unref)

G_END_DECLS
