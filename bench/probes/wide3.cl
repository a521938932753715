/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* wide3.cl: candidate GPU 3x3 binomial kernels of 16-bit planes holding
 * at most 12 bits at bit SHIFT (P010_10LE's luma: 10 bits at bit 6), for
 * bench/probes/wide3.c. Built once for each R (rows a work-item) and
 * SHIFT. Edges: the nearest row and column inside the plane.
 *
 * t8: a work-item takes 8 samples (one 16-byte word) of R rows, loading
 * all of its R + 2 rows' words and the words beside them at once, with no
 * walk: every load is in flight together, and the rows its neighbours
 * above and below load again come from the cache. Two samples are summed
 * in each 32-bit word (16-bit lanes: 16 * 4095 + 8 < 2^16). */

#define VMASK (((1u << (16 - SHIFT)) - 1u) * 0x10001u)

/* the horizontal sums l + 2c + r of the 8 samples of word c, with the
 * 32-bit words before (lw) and after (rw) it */
inline uint4
hsum8 (uint lw, uint4 c, uint rw)
{
  const uint4 prev = (uint4) (lw, c.x, c.y, c.z);
  const uint4 next = (uint4) (c.y, c.z, c.w, rw);
  const uint4 l = (c << 16) | (prev >> 16);
  const uint4 r = (c >> 16) | (next << 16);
  return ((l >> SHIFT) & VMASK) + (((c >> SHIFT) & VMASK) << 1) +
      ((r >> SHIFT) & VMASK);
}

/* row y's sums at word x (n4 words a row, ss4 a stride in words) */
inline uint4
row_sums (const __global uint4 * src, int ss4, int n4, int x, int y)
{
  const __global uint4 *row = src + (size_t) y * ss4;
  const __global uint *w = (const __global uint *) row;
  const uint4 c = row[x];
  const uint lw = x > 0 ? w[4 * x - 1] : c.x << 16;
  const uint rw = x + 1 < n4 ? w[4 * x + 4] : c.w >> 16;
  return hsum8 (lw, c, rw);
}

__kernel void
t8 (__global const uint4 * src, int ss4, __global uint4 * dst, int ds4,
    int n4, int height)
{
  const int x = get_global_id (0), y0 = get_global_id (1) * R;
  uint4 s[R + 2];

  if (x >= n4 || y0 >= height)
    return;
#pragma unroll
  for (int r = 0; r < R + 2; r++)
    s[r] = row_sums (src, ss4, n4, x, clamp (y0 + r - 1, 0, height - 1));
#pragma unroll
  for (int r = 0; r < R; r++)
    if (y0 + r < height)
      dst[(size_t) (y0 + r) * ds4 + x] = (((s[r] + (s[r + 1] << 1) +
                  s[r + 2] + 0x00080008u) >> 4) & VMASK) << SHIFT;
}

/* t8 walking down its column R rows at a time: the next R rows' words
 * loaded while the current ones are summed (R + 2 rows live) */
__kernel void
t8walk (__global const uint4 * src, int ss4, __global uint4 * dst, int ds4,
    int n4, int height, int span)
{
  const int x = get_global_id (0), y0 = get_global_id (1) * span;
  const int y1 = min (y0 + span, height);

  if (x >= n4 || y0 >= height)
    return;
  uint4 a = row_sums (src, ss4, n4, x, max (y0 - 1, 0));
  uint4 b = row_sums (src, ss4, n4, x, y0);
  for (int y = y0; y < y1; y += R) {
    uint4 s[R];
#pragma unroll
    for (int r = 0; r < R; r++)
      s[r] = row_sums (src, ss4, n4, x, min (y + r + 1, height - 1));
#pragma unroll
    for (int r = 0; r < R; r++) {
      if (y + r < y1)
        dst[(size_t) (y + r) * ds4 + x] = (((a + (b << 1) + s[r] +
                    0x00080008u) >> 4) & VMASK) << SHIFT;
      a = b;
      b = s[r];
    }
  }
}

__kernel void
copy16 (__global const uint4 * s, __global uint4 * d)
{
  size_t i = get_global_id (0);
  d[i] = s[i];
}

/* b16: 8-bit samples (GRAY8, a luma plane), 16 of them (one 16-byte word)
 * of R rows a work-item, every load at once; the even and the odd bytes
 * of each 32-bit word summed in 16-bit lanes */
#define EVEN 0x00ff00ffu

inline void
hsum16b (uint lw, uint4 c, uint rw, uint4 * e, uint4 * o)
{
  const uint4 prev = (uint4) (lw, c.x, c.y, c.z);
  const uint4 next = (uint4) (c.y, c.z, c.w, rw);
  const uint4 l = (c << 8) | (prev >> 24);
  const uint4 r = (c >> 8) | (next << 24);
  *e = (l & EVEN) + ((c & EVEN) << 1) + (r & EVEN);
  *o = ((l >> 8) & EVEN) + (((c >> 8) & EVEN) << 1) + ((r >> 8) & EVEN);
}

inline void
row_sums_b (const __global uint4 * src, int ss4, int n4, int x, int y,
    uint4 * e, uint4 * o)
{
  const __global uint4 *row = src + (size_t) y * ss4;
  const __global uint *w = (const __global uint *) row;
  const uint4 c = row[x];
  const uint lw = x > 0 ? w[4 * x - 1] : c.x << 24;
  const uint rw = x + 1 < n4 ? w[4 * x + 4] : c.w >> 24;
  hsum16b (lw, c, rw, e, o);
}

__kernel void
b16 (__global const uint4 * src, int ss4, __global uint4 * dst, int ds4,
    int n4, int height)
{
  const int x = get_global_id (0), y0 = get_global_id (1) * R;
  uint4 e[R + 2], o[R + 2];

  if (x >= n4 || y0 >= height)
    return;
#pragma unroll
  for (int r = 0; r < R + 2; r++)
    row_sums_b (src, ss4, n4, x, clamp (y0 + r - 1, 0, height - 1), &e[r],
        &o[r]);
#pragma unroll
  for (int r = 0; r < R; r++)
    if (y0 + r < height) {
      const uint4 se = e[r] + (e[r + 1] << 1) + e[r + 2] + 0x00080008u;
      const uint4 so = o[r] + (o[r + 1] << 1) + o[r + 2] + 0x00080008u;
      dst[(size_t) (y0 + r) * ds4 + x] = ((se >> 4) & EVEN) |
          (((so >> 4) & EVEN) << 8);
    }
}
