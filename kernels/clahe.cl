/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clahe.cl: contrast-limited adaptive histogram equalization (clclahe),
 * OpenCV's createCLAHE().apply() operation for operation.
 *
 * Two kernels a frame (docs/elements/clclahe.md):
 * 1. clahe_lut*: one work-group per tile. The tile's histogram (of the
 *    frame padded on the right and bottom with BORDER_REFLECT_101, as
 *    OpenCV pads frames the grid does not divide), clipped at `clip` with
 *    the excess redistributed (an equal share to every bin, then one more
 *    to every residual_step-th bin), and its running sum scaled to the
 *    tile's LUT: lut[b] = round (sum (hist[0..b]) * lut_scale). Up to 4096
 *    bins (8, 10 and 12 bits) the histogram is in local memory; 16-bit
 *    histograms (65536 bins, 256 KB) are counted in the LUT buffer itself,
 *    which the work-group then turns into its LUT in place (the region of a
 *    tile belongs to its work-group alone, so a barrier orders it).
 * 2. clahe_blend*: each pixel is the bilinear blend of the LUTs of its four
 *    nearest tiles, in float32, in OpenCV's order, rounded half to even.
 *
 * Exactness: OpenCV computes in float32 with separate multiplies and adds
 * (its x86 baseline has no FMA), so contraction into fused multiply-adds,
 * which OpenCL C allows by default, is turned off; the host computes the
 * quotients (1 / tile width, (levels - 1) / area), as OpenCL's division
 * need not be correctly rounded.
 */
#pragma OPENCL FP_CONTRACT OFF

/* OpenCV's borderInterpolate () for BORDER_REFLECT_101, repeated for pads
 * longer than the frame (frames smaller than a tile) */
inline int
clahe_reflect101 (int p, int len)
{
  if (len == 1)
    return 0;
  while (p < 0 || p >= len)
    p = p < 0 ? -p : 2 * len - 2 - p;
  return p;
}

/* the value of a sample of a buffer plane: a byte, or a 16-bit word
 * holding `mask` at bit `shift` */
inline uint
clahe_load (const __global uchar * src, int stride, int wide, int x, int y,
    int shift, uint mask)
{
  const __global uchar *row = src + (size_t) y * stride;
  if (wide)
    return ((uint) ((const __global ushort *) row)[x] >> shift) & mask;
  return row[x];
}

inline uint
clahe_load_image (__read_only image2d_t src, int x, int y, int shift,
    uint mask)
{
  return (read_imageui (src, GST_CL_SAMPLER, (int2) (x, y)).x >> shift) &
      mask;
}

/* The LUT of the tile of this work-group from its histogram `hist` (local
 * or global memory: a macro, OpenCL C 1.2 has no generic pointers), bins a
 * multiple of the group size. `scratch`: 2 + group size uints of local
 * memory. Writes lut[b] for the tile's bins. */
#define CLAHE_HIST_TO_LUT(hist, lut, bins, clip, lut_scale, maxv, scratch) \
  do { \
    const int lid_ = (int) get_local_id (0), n_ = (int) get_local_size (0); \
    const int per_ = (bins) / n_, b0_ = lid_ * per_; \
    int b_, batch_, residual_, rstep_ = 1; \
    uint sum_ = 0; \
    if (lid_ == 0) \
      scratch[0] = 0; \
    barrier (CLK_LOCAL_MEM_FENCE); \
    if ((clip) > 0) { \
      uint over_ = 0; \
      for (b_ = lid_; b_ < (bins); b_ += n_) { \
        uint h_ = hist[b_]; \
        if (h_ > (uint) (clip)) { \
          over_ += h_ - (uint) (clip); \
          hist[b_] = (uint) (clip); \
        } \
      } \
      if (over_) \
        atomic_add (&scratch[0], over_); \
    } \
    barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); \
    /* OpenCV: batch to every bin, then +1 to bins 0, step, 2 step... \
     * while residual lasts */ \
    batch_ = (int) scratch[0] / (bins); \
    residual_ = (int) scratch[0] - batch_ * (bins); \
    if (residual_ > 0) \
      rstep_ = max ((bins) / residual_, 1); \
    for (b_ = b0_; b_ < b0_ + per_; b_++) { \
      uint h_ = hist[b_] + (uint) batch_; \
      if (residual_ > 0 && b_ % rstep_ == 0 && b_ / rstep_ < residual_) \
        h_++; \
      hist[b_] = h_; \
      sum_ += h_; \
    } \
    scratch[2 + lid_] = sum_; \
    barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); \
    sum_ = 0; \
    for (b_ = 0; b_ < lid_; b_++) \
      sum_ += scratch[2 + b_]; \
    for (b_ = b0_; b_ < b0_ + per_; b_++) { \
      sum_ += hist[b_]; \
      lut[b_] = (uint) clamp (convert_int_rte ((float) sum_ * (lut_scale)), \
          0, (maxv)); \
    } \
  } while (0)

/* The tile of this work-group: its first padded pixel and the walk over
 * its tw x th pixels, each read at its place in the frame */
#define CLAHE_FOR_TILE_PIXELS(tw, th, tiles_x, width, height, X, Y) \
  const int tile_ = (int) get_group_id (0); \
  const int tx0_ = (tile_ % (tiles_x)) * (tw), ty0_ = (tile_ / (tiles_x)) * (th); \
  int i_; \
  for (i_ = (int) get_local_id (0); i_ < (tw) * (th); \
      i_ += (int) get_local_size (0)) { \
    const int X = clahe_reflect101 (tx0_ + i_ % (tw), (width)); \
    const int Y = clahe_reflect101 (ty0_ + i_ / (tw), (height));

#define CLAHE_END_FOR }

/* Up to 12 bits: histogram in local memory (`hist`: bins uints) */
__kernel void
clahe_lut (const __global uchar * src, int stride, int wide, int width,
    int height, int shift, uint mask, int tw, int th, int tiles_x, int bins,
    int clip, float lut_scale, int maxv, __global uint * lut,
    __local uint * hist, __local uint * scratch)
{
  __global uint *tlut = lut + (size_t) get_group_id (0) * bins;
  int b;
  for (b = (int) get_local_id (0); b < bins; b += (int) get_local_size (0))
    hist[b] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  {
    CLAHE_FOR_TILE_PIXELS (tw, th, tiles_x, width, height, x, y)
        atomic_inc (&hist[clahe_load (src, stride, wide, x, y, shift, mask)]);
    CLAHE_END_FOR
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  CLAHE_HIST_TO_LUT (hist, tlut, bins, clip, lut_scale, maxv, scratch);
}

__kernel void
clahe_lut_image (__read_only image2d_t src, int width, int height, int shift,
    uint mask, int tw, int th, int tiles_x, int bins, int clip,
    float lut_scale, int maxv, __global uint * lut, __local uint * hist,
    __local uint * scratch)
{
  __global uint *tlut = lut + (size_t) get_group_id (0) * bins;
  int b;
  for (b = (int) get_local_id (0); b < bins; b += (int) get_local_size (0))
    hist[b] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  {
    CLAHE_FOR_TILE_PIXELS (tw, th, tiles_x, width, height, x, y)
        atomic_inc (&hist[clahe_load_image (src, x, y, shift, mask)]);
    CLAHE_END_FOR
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  CLAHE_HIST_TO_LUT (hist, tlut, bins, clip, lut_scale, maxv, scratch);
}

/* 16 bits: the tile's 65536 counts in its own region of the LUT buffer,
 * zeroed first (by the same work-group, so no command of its own) */
__kernel void
clahe_lut_wide (const __global uchar * src, int stride, int wide, int width,
    int height, int shift, uint mask, int tw, int th, int tiles_x, int bins,
    int clip, float lut_scale, int maxv, __global uint * lut,
    __local uint * scratch)
{
  volatile __global uint *tlut = lut + (size_t) get_group_id (0) * bins;
  int b;
  for (b = (int) get_local_id (0); b < bins; b += (int) get_local_size (0))
    tlut[b] = 0;
  barrier (CLK_GLOBAL_MEM_FENCE);
  {
    CLAHE_FOR_TILE_PIXELS (tw, th, tiles_x, width, height, x, y)
        atomic_inc (&tlut[clahe_load (src, stride, wide, x, y, shift, mask)]);
    CLAHE_END_FOR
  }
  barrier (CLK_GLOBAL_MEM_FENCE);
  CLAHE_HIST_TO_LUT (tlut, tlut, bins, clip, lut_scale, maxv, scratch);
}

__kernel void
clahe_lut_wide_image (__read_only image2d_t src, int width, int height,
    int shift, uint mask, int tw, int th, int tiles_x, int bins, int clip,
    float lut_scale, int maxv, __global uint * lut, __local uint * scratch)
{
  volatile __global uint *tlut = lut + (size_t) get_group_id (0) * bins;
  int b;
  for (b = (int) get_local_id (0); b < bins; b += (int) get_local_size (0))
    tlut[b] = 0;
  barrier (CLK_GLOBAL_MEM_FENCE);
  {
    CLAHE_FOR_TILE_PIXELS (tw, th, tiles_x, width, height, x, y)
        atomic_inc (&tlut[clahe_load_image (src, x, y, shift, mask)]);
    CLAHE_END_FOR
  }
  barrier (CLK_GLOBAL_MEM_FENCE);
  CLAHE_HIST_TO_LUT (tlut, tlut, bins, clip, lut_scale, maxv, scratch);
}

/* Where a row (column) lies between tile centres, as OpenCV computes it:
 * t = p * inv - 0.5 in float32, the tiles floor (t) and floor (t) + 1
 * clamped to the grid, the weight of the second t - floor (t). */
inline void
clahe_between (int p, float inv, int tiles, int *t1, int *t2, float *a)
{
  const float tf = (float) p * inv - 0.5f;
  const int f = (int) floor (tf);
  *a = tf - (float) f;
  *t1 = max (f, 0);
  *t2 = min (f + 1, tiles - 1);
}

/* OpenCV's blend of the four LUT entries, in its order */
inline uint
clahe_blend_value (const __global uint * lut, int bins, int tiles_x, int y1,
    int y2, float ya, int x, float inv_tw, uint v, int maxv)
{
  int x1, x2;
  float xa, xa1, ya1 = 1.0f - ya, res;
  clahe_between (x, inv_tw, tiles_x, &x1, &x2, &xa);
  xa1 = 1.0f - xa;
  res = ((float) lut[(size_t) (y1 * tiles_x + x1) * bins + v] * xa1 +
      (float) lut[(size_t) (y1 * tiles_x + x2) * bins + v] * xa) * ya1 +
      ((float) lut[(size_t) (y2 * tiles_x + x1) * bins + v] * xa1 +
      (float) lut[(size_t) (y2 * tiles_x + x2) * bins + v] * xa) * ya;
  return (uint) clamp (convert_int_rte (res), 0, maxv);
}

__kernel void
clahe_blend (const __global uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int wide, int width, int height, int shift, uint mask,
    float inv_tw, float inv_th, int tiles_x, int tiles_y, int bins, int maxv,
    const __global uint * lut, int chunk, int rows)
{
  int x0, x1, y0, y1, x, y;
  if (!gst_cl_work_rect (width, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (y = y0; y < y1; y++) {
    __global uchar *drow = dst + (size_t) y * dst_stride;
    int t1, t2;
    float ya;
    clahe_between (y, inv_th, tiles_y, &t1, &t2, &ya);
    for (x = x0; x < x1; x++) {
      uint v = clahe_load (src, src_stride, wide, x, y, shift, mask);
      uint r = clahe_blend_value (lut, bins, tiles_x, t1, t2, ya, x, inv_tw,
          v, maxv);
      if (wide)
        ((__global ushort *) drow)[x] = (ushort) (r << shift);
      else
        drow[x] = (uchar) r;
    }
  }
}

__kernel void
clahe_blend_image (__read_only image2d_t src, __write_only image2d_t dst,
    int width, int height, int shift, uint mask, float inv_tw, float inv_th,
    int tiles_x, int tiles_y, int bins, int maxv, const __global uint * lut,
    int chunk, int rows)
{
  int x0, x1, y0, y1, x, y;
  if (!gst_cl_work_rect (width, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (y = y0; y < y1; y++) {
    int t1, t2;
    float ya;
    clahe_between (y, inv_th, tiles_y, &t1, &t2, &ya);
    for (x = x0; x < x1; x++) {
      uint v = clahe_load_image (src, x, y, shift, mask);
      uint r = clahe_blend_value (lut, bins, tiles_x, t1, t2, ya, x, inv_tw,
          v, maxv);
      write_imageui (dst, (int2) (x, y), (uint4) (r << shift, 0, 0, 0));
    }
  }
}
