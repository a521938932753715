/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclhistogramring.c: partial histograms in fine-grained SVM.
 *
 * On a device whose frames are fine-grained SVM (POCL on the CPU), a
 * frame's partial histograms are written by its kernel into one of a few
 * SVM buffers and added up by the host where they lie, once the kernel's
 * event completed: no read command a frame (on POCL every command is a
 * hand-over to the device's threads), no copy. A slot is busy from the
 * frame's count until its counts are cleared; where none is free, the
 * count reads into host memory as on other devices. */
#include "gstclhistogramring.h"
#include "core/gstclsvm.h"

/* frames whose counts may be pending at once: clhistogram keeps at most
 * three, and a tuning frame is cleared at once */
#define SLOTS 4

typedef struct
{
  gpointer svm;
  cl_mem mem;
  gsize size;
  gint busy;
} Slot;

struct _GstClHistogramRing
{
  GstClDevice *device;
  Slot slots[SLOTS];
};

/**
 * gst_cl_histogram_ring_new:
 *
 * Returns: (nullable): a ring for @device, or NULL where its frames are not
 * in fine-grained SVM
 */
GstClHistogramRing *
gst_cl_histogram_ring_new (GstClDevice * device)
{
  GstClHistogramRing *ring;

  if (!device->svm_frames)
    return NULL;
  ring = g_new0 (GstClHistogramRing, 1);
  ring->device = gst_object_ref (device);
  return ring;
}

static void
slot_clear (GstClHistogramRing * ring, Slot * s)
{
  g_clear_pointer (&s->mem, clReleaseMemObject);
  if (s->svm)
    gst_cl_svm_free (ring->device->context, s->svm);
  s->svm = NULL;
  s->size = 0;
}

/**
 * gst_cl_histogram_ring_free:
 *
 * Frees @ring; no slot may be busy (the counts that hold them cleared).
 */
void
gst_cl_histogram_ring_free (GstClHistogramRing * ring)
{
  guint i;

  if (!ring)
    return;
  for (i = 0; i < SLOTS; i++) {
    g_warn_if_fail (!g_atomic_int_get (&ring->slots[i].busy));
    slot_clear (ring, &ring->slots[i]);
  }
  gst_object_unref (ring->device);
  g_free (ring);
}

/* @s holding at least @size bytes of SVM, as a buffer too */
static gboolean
slot_ensure (GstClHistogramRing * ring, Slot * s, gsize size)
{
  cl_int st;

  if (s->mem && s->size >= size)
    return TRUE;
  slot_clear (ring, s);
  s->svm = gst_cl_svm_alloc (ring->device->context, size,
      ring->device->mem_base_align);
  if (!s->svm)
    return FALSE;
  s->mem = clCreateBuffer (ring->device->context, CL_MEM_READ_WRITE |
      CL_MEM_USE_HOST_PTR, size, s->svm, &st);
  if (st != CL_SUCCESS) {
    s->mem = NULL;
    slot_clear (ring, s);
    return FALSE;
  }
  s->size = size;
  return TRUE;
}

/**
 * gst_cl_histogram_ring_take:
 * @size: bytes the frame's partials take
 * @mem: (out): the slot's buffer, for the kernel
 * @host: (out): the same memory, for the host once the kernel completed
 * @busy: (out): the slot's flag, set; the counts clear it when done
 *
 * Returns: FALSE where no slot is free (or SVM ran out): the caller reads
 * into host memory instead
 */
gboolean
gst_cl_histogram_ring_take (GstClHistogramRing * ring, gsize size,
    cl_mem * mem, guint32 ** host, gint ** busy)
{
  guint i;

  if (!ring)
    return FALSE;
  for (i = 0; i < SLOTS; i++) {
    Slot *s = &ring->slots[i];
    if (g_atomic_int_get (&s->busy) || !slot_ensure (ring, s, size))
      continue;
    g_atomic_int_set (&s->busy, 1);
    *mem = s->mem;
    *host = s->svm;
    *busy = &s->busy;
    return TRUE;
  }
  return FALSE;
}
