/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* words8.cl: candidate GPU 3x3 binomial kernels for bench/probes/words8.c
 * (rows of whole 32-bit words, sums in 16-bit lanes packed two to a word;
 * only 1- and 4-byte pixels) and two copy kernels. */
#define LO 0x00ff00ffu

inline uint
left_of (uint before, uint c, int step)
{
  return step == 4 ? before : (c << 8) | (before >> 24);
}

inline uint
right_of (uint c, uint after, int step)
{
  return step == 4 ? after : (c >> 8) | (after << 24);
}

inline void
hsum_w (uint bw, uint cw, uint aw, int step, uint * e, uint * o)
{
  const uint l = left_of (bw, cw, step), r = right_of (cw, aw, step);
  *e = (l & LO) + ((cw & LO) << 1) + (r & LO);
  *o = ((l >> 8) & LO) + (((cw >> 8) & LO) << 1) + ((r >> 8) & LO);
}

inline uint
vfin (uint e0, uint e1, uint e2, uint o0, uint o1, uint o2, uint c, uint keep)
{
  const uint se = e0 + (e1 << 1) + e2 + 0x00080008u;
  const uint so = o0 + (o1 << 1) + o2 + 0x00080008u;
  const uint res = ((se >> 4) & LO) | (((so >> 4) & LO) << 8);
  return bitselect (res, c, keep);
}

/* one word per item, walking `rows` rows */
inline void
row_w (const __global uint * row, int xw, int nw, int step, uint * e,
    uint * o, uint * c)
{
  const uint cw = row[xw];
  const uint bw = xw > 0 ? row[xw - 1] : (step == 4 ? cw : cw << 24);
  const uint aw = xw + 1 < nw ? row[xw + 1] : (step == 4 ? cw : cw >> 24);
  hsum_w (bw, cw, aw, step, e, o);
  *c = cw;
}

__kernel void
w4 (__global const uint * src, int ss, __global uint * dst, int ds, int nw,
    int height, int step, uint keep, int rows)
{
  const int xw = get_global_id (0), y0 = get_global_id (1) * rows;
  if (xw >= nw || y0 >= height)
    return;
  const int y1 = min (y0 + rows, height);
  uint e0, o0, c0, e1, o1, c1, e2, o2, c2;
  row_w (src + max (y0 - 1, 0) * ss, xw, nw, step, &e0, &o0, &c0);
  row_w (src + y0 * ss, xw, nw, step, &e1, &o1, &c1);
  for (int y = y0; y < y1; y++) {
    row_w (src + min (y + 1, height - 1) * ss, xw, nw, step, &e2, &o2, &c2);
    dst[y * ds + xw] = vfin (e0, e1, e2, o0, o1, o2, c1, keep);
    e0 = e1; o0 = o1; e1 = e2; o1 = o2; c1 = c2;
  }
}

/* two words per item (uint2), walking */
inline void
row_w2 (const __global uint * row, int xv, int nw, int step, uint2 * e,
    uint2 * o, uint2 * c)
{
  const int xw = xv * 2;
  const uint2 cw = vload2 (xv, row);
  const uint bw = xw > 0 ? row[xw - 1] : (step == 4 ? cw.x : cw.x << 24);
  const uint aw = xw + 2 < nw ? row[xw + 2] : (step == 4 ? cw.y : cw.y >> 24);
  uint ex, ox, ey, oy;
  hsum_w (bw, cw.x, cw.y, step, &ex, &ox);
  hsum_w (cw.x, cw.y, aw, step, &ey, &oy);
  *e = (uint2) (ex, ey);
  *o = (uint2) (ox, oy);
  *c = cw;
}

__kernel void
w8 (__global const uint * src, int ss, __global uint * dst, int ds, int nw,
    int height, int step, uint keep, int rows)
{
  const int xv = get_global_id (0), y0 = get_global_id (1) * rows;
  if (xv * 2 >= nw || y0 >= height)
    return;
  const int y1 = min (y0 + rows, height);
  uint2 e0, o0, c0, e1, o1, c1, e2, o2, c2;
  row_w2 (src + max (y0 - 1, 0) * ss, xv, nw, step, &e0, &o0, &c0);
  row_w2 (src + y0 * ss, xv, nw, step, &e1, &o1, &c1);
  for (int y = y0; y < y1; y++) {
    row_w2 (src + min (y + 1, height - 1) * ss, xv, nw, step, &e2, &o2, &c2);
    const uint2 se = e0 + (e1 << 1) + e2 + (uint2) (0x00080008u);
    const uint2 so = o0 + (o1 << 1) + o2 + (uint2) (0x00080008u);
    const uint2 res = ((se >> 4) & LO) | (((so >> 4) & LO) << 8);
    vstore2 (bitselect (res, c1, (uint2) (keep)), xv, dst + y * ds);
    e0 = e1; o0 = o1; e1 = e2; o1 = o2; c1 = c2;
  }
}

/* one word per item, neighbours' words from the lanes beside it through
 * local memory: each item loads one word per row only */
__kernel void
w4l (__global const uint * src, int ss, __global uint * dst, int ds, int nw,
    int height, int step, uint keep, int rows, __local uint * t)
{
  const int lx = get_local_id (0), L = get_local_size (0);
  const int xw = get_global_id (0), y0 = get_global_id (1) * rows;
  const int y1 = min (y0 + rows, height);
  const int inside = xw < nw && y0 < height;
  uint e[3], o[3], cc[3];
  /* t: L + 2 words */
  for (int k = -1; k <= rows; k++) {
    const int y = clamp (y0 + k, 0, height - 1);
    const __global uint *row = src + y * ss;
    barrier (CLK_LOCAL_MEM_FENCE);
    const uint cw = inside ? row[xw] : 0;
    if (inside)
      t[lx + 1] = cw;
    if (lx == 0)
      t[0] = xw > 0 && xw - 1 < nw ? row[xw - 1] : (step == 4 ? cw : cw << 24);
    if (lx == L - 1 || xw == nw - 1)
      t[lx + 2] = xw + 1 < nw ? row[xw + 1] : (step == 4 ? cw : cw >> 24);
    barrier (CLK_LOCAL_MEM_FENCE);
    uint ee, oo;
    hsum_w (t[lx], cw, t[lx + 2], step, &ee, &oo);
    e[0] = e[1]; o[0] = o[1]; cc[0] = cc[1];
    e[1] = e[2]; o[1] = o[2]; cc[1] = cc[2];
    e[2] = ee; o[2] = oo; cc[2] = cw;
    if (k >= 1 && inside && y0 + k - 1 < y1)
      dst[(y0 + k - 1) * ds + xw] = vfin (e[0], e[1], e[2], o[0], o[1], o[2],
          cc[1], keep);
    if (y0 + k >= y1)
      break;
  }
}

__kernel void
copy4 (__global const uint * s, __global uint * d)
{
  size_t i = get_global_id (0);
  d[i] = s[i];
}

__kernel void
copy16 (__global const uint4 * s, __global uint4 * d)
{
  size_t i = get_global_id (0);
  d[i] = s[i];
}
