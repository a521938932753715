/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/**
 * SECTION:element-clclahe
 * @title: clclahe
 * @see_also: clhistogram, cvequalizehist
 *
 * Contrast-limited adaptive histogram equalization (CLAHE) of video on an
 * OpenCL device (a GPU, or the CPU through POCL): OpenCV's
 * `cv::createCLAHE (clip-limit, (tiles-x, tiles-y))->apply ()`, bit for bit.
 *
 * The frame is cut into a grid of tiles-x by tiles-y tiles. Each tile's
 * histogram is clipped at clip-limit times the tile's mean bin count (the
 * excess spread over all bins as OpenCV spreads it) and its running sum
 * becomes the tile's lookup table; each pixel is then the bilinear blend
 * of the tables of its four nearest tiles. Where the grid does not divide
 * the frame, the tiles cover the frame padded on the right and at the
 * bottom by mirroring (OpenCV's BORDER_REFLECT_101 padding, with its rule:
 * once either side needs padding, both sides get it). On a frame narrower
 * (shorter) than the grid, tiles-x (tiles-y) is taken as the frame's width
 * (height).
 *
 * Formats: GRAY8 and GRAY16_LE, and YUV formats of 8 to 16 bits, whose luma
 * plane is equalized and chroma planes copied unchanged. 8-bit samples have
 * 256 levels and 16-bit ones 65536, as in OpenCV (CV_8U, CV_16U); 10- and
 * 12-bit formats are equalized over their own 2^D levels with OpenCV's
 * arithmetic (histograms of 2^D bins, clip limit
 * max (int (clip-limit * tile area / 2^D), 1), scale (2^D - 1) / tile area),
 * and written back in their packing (P010_10LE keeps its low 6 bits zero).
 *
 * The properties can be changed while playing; they apply from the next
 * frame.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12 ! clclahe ! \
 *     videoconvert ! autovideosink
 * ]| Equalize the luma with OpenCV's defaults (clip limit 40, 8x8 tiles).
 * |[
 * gst-launch-1.0 filesrc location=dark.mp4 ! decodebin ! videoconvert ! \
 *     video/x-raw,format=GRAY8 ! clclahe clip-limit=2 tiles-x=16 tiles-y=9 ! \
 *     videoconvert ! autovideosink
 * ]| Gentler equalization over a finer grid.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclclahe.h"
#include "gstclkernels.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_clahe_debug);
#define GST_CAT_DEFAULT gst_cl_clahe_debug

enum
{
  PROP_0,
  PROP_CLIP_LIMIT,
  PROP_TILES_X,
  PROP_TILES_Y,
};

#define DEFAULT_CLIP_LIMIT 40.0
#define DEFAULT_TILES 8

/* work-items of the LUT kernels' groups (one group a tile): a power of two
 * that divides every histogram (256 bins and more) */
#define LUT_GROUP 256

/* the largest cell table the GPU blend takes (clahe.cl, clahe_put_cells) */
#define CELLS_MAX (16 << 20)

/* the formats: grey and YUV, whose first plane holds one sample a pixel */
#define CLAHE_FORMATS "{ GRAY8, GRAY16_LE, I420, YV12, NV12, NV21, Y42B, " \
  "Y444, P010_10LE, P016_LE, I420_10LE, I420_12LE, Y444_16LE }"

struct _GstClClahe
{
  GstClBaseFilter parent;

  /* properties, under the object lock */
  gdouble clip_limit;
  guint tiles_x, tiles_y;

  /* streaming thread */
  cl_kernel k_lut, k_lut_image, k_lut_wide, k_lut_wide_image;
  cl_kernel k_blend, k_blend16, k_blend_image;
  cl_kernel k_count_parts, k_blend_cells;
  cl_kernel k_blend_quads, k_blend16_quads;     /* CPU builds only */
  cl_kernel k_blend_planes, k_blend16_planes;   /* CPU builds with byte
                                                 * permutes only */
  gsize group_local, group_wide;        /* LUT kernels' group sizes */
  gsize group_parts;            /* the parts kernels' (GPUs) */
  cl_mem hists;                 /* GPUs: the tiles' histograms, zero
                                 * between frames */
  gsize hists_size;
  cl_mem lut;                   /* the tiles' LUTs, 16-bit entries */
  gsize lut_size;
  cl_mem hist;                  /* 16 bits: the tiles' histograms */
  gsize hist_size;
  cl_mem xtab;                  /* the blend's column table (clahe.cl) */
  gsize xtab_size;
  cl_mem cells;                 /* GPUs: the blend's cell table (clahe.cl) */
  gsize cells_size;
  /* the previous frame's end and queue: its blend may still read the LUTs
   * a frame of another queue is about to write */
  cl_command_queue last_queue;
  cl_event last_event;
};

G_DEFINE_TYPE_WITH_CODE (GstClClahe, gst_cl_clahe, GST_TYPE_CL_BASE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cl_clahe_debug, "clclahe", 0,
        "OpenCL contrast-limited adaptive histogram equalization"));
GST_ELEMENT_REGISTER_DEFINE (clclahe, "clclahe", GST_RANK_NONE,
    GST_TYPE_CL_CLAHE);

/* ------------------------------------------------------------------------ */
/* The grid, as OpenCV's CLAHE_Impl::apply () sets it up                    */

typedef struct
{
  gint tiles_x, tiles_y;
  gint tw, th;                  /* a tile, in pixels of the padded frame */
  gint bins;                    /* 2^D levels */
  gint clip;                    /* clip limit in counts, 0: none */
  gint maxv;
  gfloat lut_scale, inv_tw, inv_th;
} ClaheGrid;

static void
clahe_grid (gint width, gint height, guint tiles_x, guint tiles_y,
    gdouble clip_limit, gint depth, ClaheGrid * g)
{
  gint pw = width, ph = height, area;

  /* the grid reduced on frames smaller than it (interface.md) */
  g->tiles_x = MIN ((gint) tiles_x, width);
  g->tiles_y = MIN ((gint) tiles_y, height);
  /* OpenCV pads both sides once either is not divided, a whole tile row
   * (column) where that side was divided */
  if (width % g->tiles_x != 0 || height % g->tiles_y != 0) {
    pw = width + g->tiles_x - width % g->tiles_x;
    ph = height + g->tiles_y - height % g->tiles_y;
  }
  g->tw = pw / g->tiles_x;
  g->th = ph / g->tiles_y;
  area = g->tw * g->th;
  g->bins = 1 << depth;
  g->maxv = g->bins - 1;
  /* float32 quotients, as OpenCV computes them (and computed here: an
   * OpenCL division need not be correctly rounded) */
  g->lut_scale = (gfloat) (g->bins - 1) / (gfloat) area;
  g->inv_tw = 1.0f / (gfloat) g->tw;
  g->inv_th = 1.0f / (gfloat) g->th;
  g->clip = 0;
  if (clip_limit > 0.0)
    g->clip = MAX ((gint) (clip_limit * area / g->bins), 1);
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                  */

/* the largest group of @k up to LUT_GROUP: a power of two */
static gsize
lut_group (GstClDevice * device, cl_kernel k)
{
  size_t max = 1;
  gsize g = LUT_GROUP;

  if (clGetKernelWorkGroupInfo (k, device->device_id,
          CL_KERNEL_WORK_GROUP_SIZE, sizeof (max), &max, NULL) != CL_SUCCESS)
    max = 1;
  max = MIN (max, device->max_work_group_size);
  while (g > 1 && g > max)
    g /= 2;
  return g;
}

static gboolean
gst_cl_clahe_setup (GstClBaseFilter * base, cl_program program,
    GError ** error)
{
  GstClClahe *self = GST_CL_CLAHE (base);
  GstClDevice *device = GST_CL_BASE_TRANSFORM (base)->device;

  if (!(self->k_lut = gst_cl_kernel_new (program, "clahe_lut", error))
      || !(self->k_lut_wide = gst_cl_kernel_new (program, "clahe_lut_wide",
              error))
      || !(self->k_blend = gst_cl_kernel_new (program, "clahe_blend", error))
      || !(self->k_blend16 = gst_cl_kernel_new (program, "clahe_blend16",
              error))
      || !(self->k_count_parts = gst_cl_kernel_new (program,
              "clahe_count_parts", error))
      || !(self->k_blend_cells = gst_cl_kernel_new (program,
              "clahe_blend_cells", error)))
    return FALSE;
  if (device->image_support &&
      (!(self->k_lut_image = gst_cl_kernel_new (program, "clahe_lut_image",
                  error))
          || !(self->k_lut_wide_image = gst_cl_kernel_new (program,
                  "clahe_lut_wide_image", error))
          || !(self->k_blend_image = gst_cl_kernel_new (program,
                  "clahe_blend_image", error))))
    return FALSE;
  if (!gst_cl_device_builds_gpu_kernels (device) &&
      (!(self->k_blend_quads = gst_cl_kernel_new (program,
                  "clahe_blend_quads", error))
          || !(self->k_blend16_quads = gst_cl_kernel_new (program,
                  "clahe_blend16_quads", error))))
    return FALSE;
  if (!gst_cl_device_builds_gpu_kernels (device) && device->byte_permutes
      && (!(self->k_blend_planes = gst_cl_kernel_new (program,
                  "clahe_blend_planes", error))
          || !(self->k_blend16_planes = gst_cl_kernel_new (program,
                  "clahe_blend16_planes", error))))
    return FALSE;
  /* the image kernels take the same groups: the smaller of both */
  self->group_local = lut_group (device, self->k_lut);
  self->group_wide = lut_group (device, self->k_lut_wide);
  self->group_parts = lut_group (device, self->k_count_parts);
  if (self->k_lut_image)
    self->group_local = MIN (self->group_local,
        lut_group (device, self->k_lut_image));
  if (self->k_lut_wide_image)
    self->group_wide = MIN (self->group_wide,
        lut_group (device, self->k_lut_wide_image));
  return TRUE;
}

static void
release_kernel (cl_kernel * k)
{
  if (*k)
    clReleaseKernel (*k);
  *k = NULL;
}

static void
gst_cl_clahe_cleanup (GstClBaseFilter * base)
{
  GstClClahe *self = GST_CL_CLAHE (base);

  release_kernel (&self->k_lut);
  release_kernel (&self->k_lut_image);
  release_kernel (&self->k_lut_wide);
  release_kernel (&self->k_lut_wide_image);
  release_kernel (&self->k_blend);
  release_kernel (&self->k_blend16);
  release_kernel (&self->k_blend_image);
  release_kernel (&self->k_count_parts);
  release_kernel (&self->k_blend_cells);
  g_clear_pointer (&self->hists, clReleaseMemObject);
  self->hists_size = 0;
  release_kernel (&self->k_blend_quads);
  release_kernel (&self->k_blend_planes);
  release_kernel (&self->k_blend16_planes);
  release_kernel (&self->k_blend16_quads);
  g_clear_pointer (&self->lut, clReleaseMemObject);
  self->lut_size = 0;
  g_clear_pointer (&self->hist, clReleaseMemObject);
  self->hist_size = 0;
  g_clear_pointer (&self->xtab, clReleaseMemObject);
  self->xtab_size = 0;
  g_clear_pointer (&self->cells, clReleaseMemObject);
  self->cells_size = 0;
  g_clear_pointer (&self->last_event, clReleaseEvent);
  self->last_queue = NULL;
}

/* Whether the LUT kernels take groups of one work-item: the CPU shape
 * (strips) of the CPU build; the GPU build (GST_CL_GPU_KERNELS=1 on POCL:
 * the gpu-kernels test runs) takes the GPU's groups whatever the shape */
static gboolean
cpu_groups (GstClFrameWork * work)
{
  return gst_cl_frame_work_uses_strips (work) &&
      !gst_cl_device_builds_gpu_kernels (work->device);
}

/* How many copies of the histogram of @g the LUT kernels count in local
 * memory (with the group's partial sums), 0 where not even one fits. One
 * on GPUs, where up to 12 bits fit any device of OpenCL's full profile
 * (32 KB at least). On CPUs groups of one work-item count in up to 16
 * copies of 8-bit histograms and 4 of 10 and 12 bits (clahe.cl), fewer
 * where local memory is short; 16-bit histograms (256 KB) are local too
 * where one fits (POCL gives 512 KB to 2 MB): local memory there is the
 * core's cache, which the buffer's histograms, cold each frame, are not.
 * One copy only: more (256 KB each, zeroed and summed for each tile) cost
 * more than they spare, and the count takes flat areas four words at a
 * time instead (clahe.cl). */
static gint
histogram_copies (GstClClahe * self, GstClFrameWork * work,
    const ClaheGrid * g)
{
  GstClDevice *device = GST_CL_BASE_TRANSFORM (self)->device;
  const gboolean serial = cpu_groups (work);
  const gsize group = serial ? 1 : self->group_local;
  gint copies = !serial || g->bins > 4096 ? 1 : g->bins == 256 ? 16 : 4;

  if (!serial && g->bins > 4096)
    return 0;
  for (; copies > 0; copies /= 2)
    if (((gsize) g->bins * copies + 2 + group) * sizeof (guint32) <=
        device->local_mem_size)
      return copies;
  return 0;
}

/* The bytes of the GPU blend's cell table for @g (clahe.cl,
 * clahe_put_cells), 0 where the blend does not take one: GPU groups,
 * buffers, up to 12 bits with the histograms in local memory (the LUT
 * kernels that fill it), and at most CELLS_MAX (a 64x64 grid at 12 bits
 * would take 138 MB) */
static gsize
cells_size (GstClClahe * self, GstClFrameWork * work, const GstClPlane * src,
    const ClaheGrid * g)
{
  const gsize size = (gsize) (g->tiles_x + 1) * (g->tiles_y + 1) * g->bins *
      4 * sizeof (guint16);

  if (cpu_groups (work) || src->is_image || g->bins > 4096 ||
      size > CELLS_MAX || histogram_copies (self, work, g) == 0)
    return 0;
  return size;
}

/* Enqueues the LUTs of every tile of @g from @src into self->lut, and
 * the cell table into @cells, else the column table into self->xtab. A work-group a tile: one work-item on CPUs
 * (cpu_groups ()), which walks the tile as OpenCV's loop does; on GPUs a
 * group's items share the tile's pixels and bins. */
static gboolean
enqueue_luts (GstClClahe * self, GstClFrameWork * work,
    const GstClPlane * src, const ClaheGrid * g, cl_mem cells, GError ** error)
{
  const cl_int copies = histogram_copies (self, work, g);
  const gboolean local = copies > 0;
  const cl_int wide = GST_CL_PLANE_IS_WIDE (src);
  const cl_uint mask = (cl_uint) g->maxv;
  const gsize group = cpu_groups (work) ? 1 :
      local ? self->group_local : self->group_wide;
  const gsize scratch = (2 + group) * sizeof (guint32);
  GstClLaunch l = { {0,}, {0,}, 0, 0, FALSE, FALSE };
  cl_kernel k;
  cl_uint n;
  cl_int st;

  l.local[0] = group;
  l.local[1] = 1;
  l.global[0] = group * g->tiles_x * g->tiles_y;
  l.global[1] = 1;
  /* the arguments the buffer and image kernels share, after the plane's */
#define LUT_ARGS GST_CL_ARG (src->shift), GST_CL_ARG (mask), \
      GST_CL_ARG (g->tw), GST_CL_ARG (g->th), GST_CL_ARG (g->tiles_x), \
      GST_CL_ARG (g->bins), GST_CL_ARG (g->clip), GST_CL_ARG (g->lut_scale), \
      GST_CL_ARG (g->maxv), GST_CL_ARG (g->inv_tw), GST_CL_ARG (self->lut), \
      GST_CL_ARG (self->xtab), GST_CL_ARGS_END
  if (src->is_image) {
    k = local ? self->k_lut_image : self->k_lut_wide_image;
    n = 15;
    if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->width), GST_CL_ARG (src->height), LUT_ARGS))
      return FALSE;
  } else {
    k = local ? self->k_lut : self->k_lut_wide;
    n = 17;
    if (!gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->stride), GST_CL_ARG (wide),
            GST_CL_ARG (src->width), GST_CL_ARG (src->height), LUT_ARGS))
      return FALSE;
  }
#undef LUT_ARGS
  /* then the histogram (local memory: its copies, and how many; else the
   * buffer), and the group's sums */
  if (local) {
    st = clSetKernelArg (k, n++, g->bins * copies * sizeof (guint32), NULL);
    if (st == CL_SUCCESS)
      st = clSetKernelArg (k, n++, sizeof (copies), &copies);
  } else {
    st = clSetKernelArg (k, n++, sizeof (cl_mem), &self->hist);
  }
  if (st == CL_SUCCESS)
    st = clSetKernelArg (k, n++, scratch, NULL);
  /* clahe_lut: then the cell table (NULL: none) */
  if (st == CL_SUCCESS && k == self->k_lut)
    st = clSetKernelArg (k, n, sizeof (cl_mem), &cells);
  if (st != CL_SUCCESS)
    return gst_cl_fail (error, st, "clSetKernelArg (local memory)");
  return gst_cl_frame_work_enqueue (work, k, &l, error);
}

/* GPUs, histograms in local memory, buffers: how many work-groups count
 * each tile (clahe_count_parts): about 4 groups a compute unit over the
 * grid, at most one a row of a tile; 1 where one group a tile will do. */
static gint
count_parts (GstClClahe * self, GstClFrameWork * work, const GstClPlane * src,
    const ClaheGrid * g)
{
  const gint tiles = g->tiles_x * g->tiles_y;
  const gint want = (4 * MAX (work->device->compute_units, 1) + tiles - 1) /
      tiles;

  if (cpu_groups (work) || src->is_image || g->bins > 4096
      || self->group_parts < 64)
    return 1;
  return CLAMP (want, 1, MIN (g->th, 64));
}

/* The local tables of a clahe_count_parts group: as many copies of the
 * histogram (up to 8) as 32 KB and the device's local memory hold */
static gint
count_copies (GstClDevice * device, const ClaheGrid * g)
{
  const gsize room = MIN (device->local_mem_size, 32 * 1024);
  gint copies = 8;

  while (copies > 1 && (gsize) copies * g->bins * sizeof (guint32) > room)
    copies /= 2;
  return copies;
}

/* Enqueues the LUTs of @g's tiles from @src, each tile counted by @parts
 * work-groups into its histogram, the last of them making its LUT (and
 * the cell table into @cells, else the column table). */
static gboolean
enqueue_luts_parts (GstClClahe * self, GstClFrameWork * work,
    const GstClPlane * src, const ClaheGrid * g, gint parts, cl_mem cells,
    GError ** error)
{
  const gint tiles = g->tiles_x * g->tiles_y;
  const gint copies = count_copies (work->device, g);
  const cl_int wide = GST_CL_PLANE_IS_WIDE (src);
  const cl_uint mask = (cl_uint) g->maxv;
  const gsize group = self->group_parts;
  /* the histograms, then a counter of the groups done a tile */
  const gsize bytes = (gsize) tiles * (g->bins + 1) * sizeof (guint32);
  GstClLaunch l = { {0,}, {0,}, 0, 0, FALSE, FALSE };
  gboolean fresh = FALSE;

  /* zeroed once made; each frame's kernel leaves it zero */
  if (!gst_cl_buffer_ensure (work->device->context, &self->hists,
          &self->hists_size, bytes, &fresh, "clCreateBuffer (tile histograms)",
          error) || (fresh && !gst_cl_buffer_zero (work->queue, self->hists,
              self->hists_size, "tile histograms", error)))
    return FALSE;
  l.local[0] = group;
  l.local[1] = l.global[1] = 1;
  l.global[0] = group * tiles * parts;
  return gst_cl_set_args (self->k_count_parts, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (wide), GST_CL_ARG (src->width),
      GST_CL_ARG (src->height), GST_CL_ARG (src->shift), GST_CL_ARG (mask),
      GST_CL_ARG (g->tw), GST_CL_ARG (g->th), GST_CL_ARG (g->tiles_x),
      GST_CL_ARG (g->bins), GST_CL_ARG (parts), GST_CL_ARG (self->hists),
      GST_CL_ARG_LOCAL ((gsize) copies * g->bins * sizeof (guint32)),
      GST_CL_ARG (copies), GST_CL_ARG (g->clip), GST_CL_ARG (g->lut_scale),
      GST_CL_ARG (g->maxv), GST_CL_ARG (g->inv_tw), GST_CL_ARG (self->lut),
      GST_CL_ARG (self->xtab), GST_CL_ARG_LOCAL ((2 + group) *
          sizeof (guint32)), GST_CL_ARG (cells), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, self->k_count_parts, &l, error);
}

/* The local memory of the quad blends (clahe.cl) over @l, 0 where they do
 * not run: in CPU builds' strips, up to 10 bits (a 12-bit table, 36,864
 * entries for 8x8 tiles, rebuilt once or twice a strip, would cost about
 * as much as the strip's pixels save), and where the work-items' tables
 * fit */
static gsize
quads_size (GstClClahe * self, GstClFrameWork * work, const GstClPlane * src,
    const ClaheGrid * g, const GstClLaunch * l)
{
  /* entries: a float4, or for 8-bit samples four bytes */
  const gsize entry = GST_CL_PLANE_IS_WIDE (src) ? 4 * sizeof (gfloat) : 4;
  const gsize size = (gsize) (g->tiles_x + 1) * g->bins * entry *
      l->local[0];

  if (!self->k_blend_quads || src->is_image || !cpu_groups (work) ||
      g->bins > 1024 || size > work->device->local_mem_size)
    return 0;
  return size;
}

/* Enqueues the GPU blend from the cell table @cells, @src into @dst:
 * four samples a work-item, the rows and group of the frame's shape */
static gboolean
enqueue_blend_cells (GstClClahe * self, GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, const ClaheGrid * g,
    cl_mem cells, GError ** error)
{
  const cl_int wide = GST_CL_PLANE_IS_WIDE (src);
  const cl_uint mask = (cl_uint) g->maxv;
  GstClLaunch l;
  gsize items;

  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  items = (gsize) (src->width + 3) / 4;
  l.global[0] = (items + l.local[0] - 1) / l.local[0] * l.local[0];
  l.chunk = 4;
  return gst_cl_set_args (self->k_blend_cells, error, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
      GST_CL_ARG (dst->stride), GST_CL_ARG (wide), GST_CL_ARG (src->width),
      GST_CL_ARG (src->height), GST_CL_ARG (src->shift), GST_CL_ARG (mask),
      GST_CL_ARG (g->inv_tw), GST_CL_ARG (g->inv_th), GST_CL_ARG (g->tiles_x),
      GST_CL_ARG (g->tiles_y), GST_CL_ARG (g->bins), GST_CL_ARG (g->maxv),
      GST_CL_ARG (cells), GST_CL_ARG (l.rows), GST_CL_ARGS_END)
      && gst_cl_frame_work_enqueue (work, self->k_blend_cells, &l, error);
}

/* Enqueues the blend of the four nearest tiles' LUTs, @src into @dst. */
static gboolean
enqueue_blend (GstClClahe * self, GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, const ClaheGrid * g,
    GError ** error)
{
  const cl_uint mask = (cl_uint) g->maxv;
  cl_kernel k;
  GstClLaunch l;
  gsize quads;
  gboolean ok;

  gst_cl_frame_work_launch_shape (work, src, FALSE, &l);
  quads = quads_size (self, work, src, g, &l);
  /* the arguments the three kernels share, after their planes' */
#define BLEND_ARGS GST_CL_ARG (src->width), GST_CL_ARG (src->height), \
      GST_CL_ARG (src->shift), GST_CL_ARG (mask), GST_CL_ARG (g->inv_th), \
      GST_CL_ARG (g->tiles_x), GST_CL_ARG (g->tiles_y), GST_CL_ARG (g->bins), \
      GST_CL_ARG (g->maxv), GST_CL_ARG (self->lut), GST_CL_ARG (self->xtab), \
      GST_CL_ARG (l.chunk), GST_CL_ARG (l.rows), GST_CL_ARGS_END
  if (src->is_image) {
    k = self->k_blend_image;
    ok = gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (dst->mem), BLEND_ARGS);
  } else {
    /* the planar blend takes the quad table's place and size */
    if (quads && GST_CL_PLANE_IS_WIDE (src))
      k = self->k_blend16_planes && g->bins == 1024 ?
          self->k_blend16_planes : self->k_blend16_quads;
    else if (quads)
      k = self->k_blend_planes ? self->k_blend_planes : self->k_blend_quads;
    else
      k = GST_CL_PLANE_IS_WIDE (src) ? self->k_blend16 : self->k_blend;
    ok = gst_cl_set_args (k, error, GST_CL_ARG (src->mem),
        GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
        GST_CL_ARG (dst->stride), BLEND_ARGS);
    /* the quad tables, after the arguments the kernels share */
    if (ok && quads) {
      cl_int st = clSetKernelArg (k, 17, quads, NULL);
      if (st != CL_SUCCESS)
        return gst_cl_fail (error, st, "clSetKernelArg (quad tables)");
    }
  }
#undef BLEND_ARGS
  return ok && gst_cl_frame_work_enqueue (work, k, &l, error);
}

/* The LUT buffer for @g, and, where the previous frame ran on another
 * queue, a wait for it (its blend reads the LUTs this frame rewrites). */
static gboolean
prepare_luts (GstClClahe * self, GstClFrameWork * work, const ClaheGrid * g,
    gint width, gsize cells, GError ** error)
{
  const gsize entries = (gsize) g->tiles_x * g->tiles_y * g->bins;
  /* and room past the last entry for the 4-byte reads of the CPU blend's
   * gathers (clahe_gather16) */
  const gsize spare = 32;

  if (!gst_cl_buffer_ensure (work->device->context, &self->lut,
          &self->lut_size, (entries + spare) * sizeof (guint16), NULL,
          "clCreateBuffer (tile LUTs)", error)
      || (histogram_copies (self, work, g) == 0 &&
          !gst_cl_buffer_ensure (work->device->context, &self->hist,
              &self->hist_size, entries * sizeof (guint32), NULL,
              "clCreateBuffer (tile histograms)", error))
      || !gst_cl_buffer_ensure (work->device->context, &self->xtab,
          &self->xtab_size, (gsize) width * 5 * sizeof (guint32), NULL,
          "clCreateBuffer (column table)", error)
      || (cells && !gst_cl_buffer_ensure (work->device->context, &self->cells,
              &self->cells_size, cells, NULL, "clCreateBuffer (cell table)",
              error)))
    return FALSE;
  if (self->last_event && self->last_queue != work->queue) {
    cl_int st = clEnqueueBarrierWithWaitList (work->queue, 1,
        &self->last_event, NULL);
    if (st != CL_SUCCESS)
      return gst_cl_fail (error, st, "clEnqueueBarrierWithWaitList");
  }
  return TRUE;
}

static gboolean
gst_cl_clahe_process (GstClBaseFilter * base, GstClFrameWork * work,
    const GstClPlane * src, const GstClPlane * dst, GError ** error)
{
  GstClClahe *self = GST_CL_CLAHE (base);
  ClaheGrid g;
  gdouble clip_limit;
  guint tiles_x, tiles_y;
  gint parts;
  gsize cells_bytes;
  cl_mem cells;

  GST_OBJECT_LOCK (self);
  clip_limit = self->clip_limit;
  tiles_x = self->tiles_x;
  tiles_y = self->tiles_y;
  GST_OBJECT_UNLOCK (self);

  clahe_grid (src->width, src->height, tiles_x, tiles_y, clip_limit,
      src->depth, &g);
  GST_LOG_OBJECT (self, "%dx%d tiles of %dx%d, %d bins, clip %d",
      g.tiles_x, g.tiles_y, g.tw, g.th, g.bins, g.clip);
  parts = count_parts (self, work, src, &g);
  cells_bytes = cells_size (self, work, src, &g);
  if (!prepare_luts (self, work, &g, src->width, cells_bytes, error))
    return FALSE;
  cells = cells_bytes ? self->cells : NULL;
  if (!(parts > 1 ? enqueue_luts_parts (self, work, src, &g, parts, cells,
              error) : enqueue_luts (self, work, src, &g, cells, error))
      || !(cells ? enqueue_blend_cells (self, work, src, dst, &g, cells,
              error) : enqueue_blend (self, work, src, dst, &g, error)))
    return FALSE;
  g_clear_pointer (&self->last_event, clReleaseEvent);
  if (work->last)
    clRetainEvent (work->last);
  self->last_event = work->last;
  self->last_queue = work->queue;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
gst_cl_clahe_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClClahe *self = GST_CL_CLAHE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CLIP_LIMIT:
      self->clip_limit = g_value_get_double (value);
      break;
    case PROP_TILES_X:
      self->tiles_x = g_value_get_uint (value);
      break;
    case PROP_TILES_Y:
      self->tiles_y = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_clahe_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClClahe *self = GST_CL_CLAHE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CLIP_LIMIT:
      g_value_set_double (value, self->clip_limit);
      break;
    case PROP_TILES_X:
      g_value_set_uint (value, self->tiles_x);
      break;
    case PROP_TILES_Y:
      g_value_set_uint (value, self->tiles_y);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* pad templates of the grey and YUV formats, in both memories */
static void
add_pad_templates (GstElementClass * element_class)
{
  GstCaps *caps = gst_caps_from_string (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
      (GST_CAPS_FEATURE_MEMORY_OPENCL_MEMORY, CLAHE_FORMATS) "; "
      GST_VIDEO_CAPS_MAKE (CLAHE_FORMATS));

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

static void
gst_cl_clahe_class_init (GstClClaheClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClBaseFilterClass *base_class = GST_CL_BASE_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cl_clahe_set_property;
  gobject_class->get_property = gst_cl_clahe_get_property;

  /**
   * GstClClahe:clip-limit:
   *
   * OpenCV's clipLimit: a tile's histogram is clipped at
   * max (int (clip-limit * tile area / levels), 1) counts a bin; 0 does
   * not clip (plain adaptive equalization).
   */
  g_object_class_install_property (gobject_class, PROP_CLIP_LIMIT,
      g_param_spec_double ("clip-limit", "Clip limit",
          "Contrast limit, as OpenCV's clipLimit (0: no clipping)", 0.0,
          GST_CL_CLAHE_MAX_CLIP_LIMIT, DEFAULT_CLIP_LIMIT, flags));
  /**
   * GstClClahe:tiles-x:
   *
   * Columns of the tile grid; on a frame narrower than that, its width.
   */
  g_object_class_install_property (gobject_class, PROP_TILES_X,
      g_param_spec_uint ("tiles-x", "Tiles across",
          "Columns of the tile grid (at most the frame's width)", 1,
          GST_CL_CLAHE_MAX_TILES, DEFAULT_TILES, flags));
  /**
   * GstClClahe:tiles-y:
   *
   * Rows of the tile grid; on a frame shorter than that, its height.
   */
  g_object_class_install_property (gobject_class, PROP_TILES_Y,
      g_param_spec_uint ("tiles-y", "Tiles down",
          "Rows of the tile grid (at most the frame's height)", 1,
          GST_CL_CLAHE_MAX_TILES, DEFAULT_TILES, flags));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL CLAHE", "Filter/Effect/Video",
      "Contrast-limited adaptive histogram equalization of the luma, "
      "bit-exact with OpenCV's CLAHE, on an OpenCL device",
      "clfilters developers");
  add_pad_templates (element_class);

  base_class->program_name = "clahe";
  base_class->program_source = gst_cl_source_clahe;
  base_class->setup = gst_cl_clahe_setup;
  base_class->cleanup = gst_cl_clahe_cleanup;
  base_class->process = gst_cl_clahe_process;
}

static void
gst_cl_clahe_init (GstClClahe * self)
{
  self->clip_limit = DEFAULT_CLIP_LIMIT;
  self->tiles_x = DEFAULT_TILES;
  self->tiles_y = DEFAULT_TILES;
}
