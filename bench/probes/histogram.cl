/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* histogram.cl: candidates of bench/probes/histogram.c, counted on one
 * table of 256 levels (GRAY8, or the luma of 4-byte RGBA pixels).
 *
 * hist_priv: every lane of a warp owns one bank of local memory: lane l of
 * warp w keeps its 256 levels as 16-bit counters, two to a word, in words
 * (w * 128 + level / 2) * 32 + l. Increments are plain (no atomics: no
 * other lane touches those words) and never conflict on a bank, whatever
 * the picture. ATOMIC=1 makes them atomic adds (the same words) to
 * compare. The host keeps each lane under 65536 pixels. At the end,
 * work-item p < 128 adds level pair p over every lane (lane s + p first,
 * so the 32 items of a warp read 32 banks) into the totals.
 *
 * hist_read: the same walk over the pixels with no counting (a sum of the
 * bytes), what the loads alone cost in this geometry. */
#define LUMA(r, g, b) ((4899u * (r) + 9617u * (g) + 1868u * (b) + 8192u) >> 14)

#if ATOMIC
#define PRIV_ADD(col, level, n) \
  atomic_add (&(col)[((level) >> 1) * 32], (uint) (n) << (((level) & 1) * 16))
#else
#define PRIV_ADD(col, level, n) \
  ((col)[((level) >> 1) * 32] += (uint) (n) << (((level) & 1) * 16))
#endif

inline void
priv_word (__local uint * col, uint w)
{
  const uint b0 = w & 0xff;
  if (w == b0 * 0x01010101u) {
    PRIV_ADD (col, b0, 4);
  } else {
    PRIV_ADD (col, b0, 1);
    PRIV_ADD (col, (w >> 8) & 0xff, 1);
    PRIV_ADD (col, (w >> 16) & 0xff, 1);
    PRIV_ADD (col, w >> 24, 1);
  }
}

__kernel void
hist_priv (__global const uchar * src, int stride, int width, int height,
    int step, __global uint * totals, __local uint * lh)
{
  const int lid = get_local_id (0), G = get_local_size (0);
  __local uint *col = lh + (lid >> 5) * 128 * 32 + (lid & 31);

  for (int i = lid; i < G * 128; i += G)
    lh[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int y = get_global_id (1); y < height; y += get_global_size (1)) {
    const __global uchar *row = src + (size_t) y * stride;
    if (step == 1) {
      for (int x = get_global_id (0) * 16; x < width;
          x += get_global_size (0) * 16) {
        if (x + 16 <= width) {
          const uint4 v = *(const __global uint4 *) (row + x);
          const uint b0 = v.x & 0xff;
          if (all (v == (uint4) (b0 * 0x01010101u))) {
            PRIV_ADD (col, b0, 16);
          } else {
            priv_word (col, v.x);
            priv_word (col, v.y);
            priv_word (col, v.z);
            priv_word (col, v.w);
          }
        } else {
          for (int i = x; i < width; i++)
            PRIV_ADD (col, row[i], 1);
        }
      }
    } else {
      for (int x = get_global_id (0); x < width; x += get_global_size (0)) {
        const uint p = *(const __global uint *) (row + 4 * x);
        PRIV_ADD (col, LUMA (p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff), 1);
      }
    }
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int p = lid; p < 128; p += G) {
    uint lo = 0, hi = 0;
    for (int w = 0; w < G / 32; w++)
      for (int s = 0; s < 32; s++) {
        const uint v = lh[(w * 128 + p) * 32 + ((s + p) & 31)];
        lo += v & 0xffff;
        hi += v >> 16;
      }
    if (lo)
      atomic_add (&totals[2 * p], lo);
    if (hi)
      atomic_add (&totals[2 * p + 1], hi);
  }
}

__kernel void
hist_read (__global const uchar * src, int stride, int width, int height,
    int step, __global uint * totals, __local uint * lh)
{
  uint acc = 0;
  for (int y = get_global_id (1); y < height; y += get_global_size (1)) {
    const __global uchar *row = src + (size_t) y * stride;
    if (step == 1) {
      for (int x = get_global_id (0) * 16; x + 16 <= width;
          x += get_global_size (0) * 16) {
        const uint4 v = *(const __global uint4 *) (row + x);
        acc += v.x + v.y + v.z + v.w;
      }
    } else {
      for (int x = get_global_id (0); x < width; x += get_global_size (0))
        acc += *(const __global uint *) (row + 4 * x);
    }
  }
  if (acc == 0x12345678u)
    totals[0] = acc;
}

/* the read-only reduction devbench measures the analyzers against */
__kernel void
reduce16 (__global const uint4 * s, uint n, __global uint * out,
    __local uint * l)
{
  uint4 acc = (uint4) (0);
  for (size_t i = get_global_id (0); i < n; i += get_global_size (0))
    acc += s[i];
  const uint lid = get_local_id (0);
  l[lid] = acc.x + acc.y + acc.z + acc.w;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint k = get_local_size (0) / 2; k > 0; k >>= 1) {
    if (lid < k)
      l[lid] += l[lid + k];
    barrier (CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    atomic_add (out, l[0]);
}
