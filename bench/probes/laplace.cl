/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* laplace.cl: candidate clamps for the GPU Laplace kernel of 8-byte words
 * (bench/probes/laplace.c), built after kernels/common.cl with -D CLAMP=n.
 * The walk is laplace_words8's at strength 1 (kernels/laplace.cl); only the
 * clamp of the biased 16-bit lanes t (0..4845, 2295 meaning 0) differs:
 *   CLAMP 1: each 32-bit word's two lanes masked apart and clamped with
 *            unsigned min/max (the high lane in place, bounds << 16);
 *   CLAMP 2: ushort vector min/max (16x2 SIMD where the compiler has it). */
#define BIAS 0x08f708f7u
#define LO16 0x0000ffffu
#define HI16 0xffff0000u

inline uint2
clamp_lanes (uint2 t, const int edges)
{
#if CLAMP == 1
  if (!edges) {
    const uint2 lo = clamp (t & LO16, (uint2) (2295u), (uint2) (2550u));
    const uint2 hi = clamp (t & HI16, (uint2) (2295u << 16),
        (uint2) (2550u << 16));
    return (lo | hi) - BIAS;
  }
  const uint2 lo = min (abs_diff (t & LO16, (uint2) (2295u)), (uint2) (255u));
  const uint2 hi = min (abs_diff (t >> 16, (uint2) (2295u)), (uint2) (255u));
  return lo | (hi << 16);
#else
  ushort4 u = as_ushort4 (t);
  if (!edges)
    return as_uint2 (clamp (u, (ushort4) (2295), (ushort4) (2550))) - BIAS;
  return as_uint2 (min (abs_diff (u, (ushort4) (2295)), (ushort4) (255)));
#endif
}

inline __attribute__ ((always_inline)) void
lap_cand (__global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int units, int height, const int step, int alpha,
    int rows, const int edges)
{
  const int x = (int) get_global_id (0) * 8;
  const int y0 = (int) get_global_id (1) * rows;
  if (x >= units || y0 >= height)
    return;
  const int y1 = min (y0 + rows, height);
  const uchar8 keep = gst_cl_alpha_mask16 (alpha, step).lo;
  const __global uchar *above = src + (size_t) max (y0 - 1, 0) * src_stride;
  const __global uchar *row = src + (size_t) y0 * src_stride;
  const uint2 k = (uint2) (edges ? 9 : 10);
  uint2 e0, o0, c0, e1, o1, c1, e2, o2, c2;
  gst_cl_hsum8_packed (above, x, units, step, 0, &e0, &o0, &c0);
  gst_cl_hsum8_packed (row, x, units, step, 0, &e1, &o1, &c1);
  for (int y = y0; y < y1; y++) {
    gst_cl_hsum8_packed (src + (size_t) min (y + 1, height - 1) *
        src_stride, x, units, step, 0, &e2, &o2, &c2);
    const uint2 te = (c1 & GST_CL_EVEN_BYTES) * k + BIAS - (e0 + e1 + e2);
    const uint2 to = ((c1 >> 8) & GST_CL_EVEN_BYTES) * k + BIAS -
        (o0 + o1 + o2);
    const uint2 res = clamp_lanes (te, edges) | (clamp_lanes (to, edges) << 8);
    *(__global uint2 *) (dst + (size_t) y * dst_stride + x) =
        bitselect (res, c1, as_uint2 (keep));
    e0 = e1;
    o0 = o1;
    e1 = e2;
    o1 = o2;
    c1 = c2;
  }
}

/* kernels with a constant pixel size and mode, as laplace_words8 has */
#define LAP_KERNEL(name, STEP)                                          \
__kernel void                                                           \
name (__global const uchar * src, int src_stride, __global uchar * dst, \
    int dst_stride, int units, int height, int alpha, int rows,         \
    int edges)                                                          \
{                                                                       \
  if (edges)                                                            \
    lap_cand (src, src_stride, dst, dst_stride, units, height, STEP,    \
        alpha, rows, 1);                                                \
  else                                                                  \
    lap_cand (src, src_stride, dst, dst_stride, units, height, STEP,    \
        alpha, rows, 0);                                                \
}
LAP_KERNEL (lap_s4, 4)
LAP_KERNEL (lap_s1, 1)
