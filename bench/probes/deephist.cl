/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* deephist.cl: candidates for clhistogram's GPU count of one-sample planes
 * of more than 8 bits (the luma of P010_10LE, GRAY16_LE), timed by
 * deephist.c against the plugin's histogram_deep_tiles. Each walks the
 * plane as the plugin's does (8 samples, 16 bytes, a work-item, down its
 * column, TILE_BATCH rows' loads in flight) and differs in how it counts.
 * Build options:
 *   COPIES  tables in local memory, work-item i counting into table
 *           i % COPIES (interleaved: level v of copy c at v * COPIES + c)
 *   PACKED  1: 16-bit counters, two levels a 32-bit word (level v in the
 *           half v & 1 of word v / 2 of its copy): twice the copies in the
 *           same local memory. The host launches it only where no counter
 *           can reach 2^16 (a group's samples / COPIES below it).
 *   COUNT   0: the loads and level extraction only, counted nowhere (a
 *           level that cannot occur, ~units, guards one atomic: a
 *           constant the compiler could see would let it drop the loads):
 *           what the walk costs without its atomics
 * The plane's rows are whole 16-byte vectors at 16-byte aligned addresses
 * (the host's frames are). */

#ifndef TILE_BATCH
#define TILE_BATCH 4
#endif

inline void
dh_add (__local uint * my, __global uint * totals, uint v, uint n,
    uint never)
{
#if !COUNT
  if (v == never)
    atomic_add (&totals[0], n);
#elif PACKED
  atomic_add (&my[(v >> 1) * COPIES], n << (16 * (v & 1)));
#else
  atomic_add (&my[v * COPIES], n);
#endif
}

inline void
dh_vector (__local uint * my, __global uint * totals, int shift, uint mask,
    uint never, uint4 w)
{
  const ushort8 s = as_ushort8 (w);
  const ushort8 v = (s >> (ushort8) (shift)) & (ushort8) (mask);
  if (all (v == (ushort8) (v.s0))) {
    dh_add (my, totals, v.s0, 8, never);
  } else {
    dh_add (my, totals, v.s0, 1, never);
    dh_add (my, totals, v.s1, 1, never);
    dh_add (my, totals, v.s2, 1, never);
    dh_add (my, totals, v.s3, 1, never);
    dh_add (my, totals, v.s4, 1, never);
    dh_add (my, totals, v.s5, 1, never);
    dh_add (my, totals, v.s6, 1, never);
    dh_add (my, totals, v.s7, 1, never);
  }
}

__kernel void
deep_walk (__global const uchar * src, int stride, int units, int height,
    int depth, int shift, __global uint * totals, __local uint * lh)
{
  const uint mask = (1u << depth) - 1u;
  const int levels = 1 << depth;
  /* words of local tables: COPIES tables of `levels` counters */
  const int words = (PACKED ? levels / 2 : levels) * COPIES;
  const int ys = get_global_size (1);
  __local uint *my = lh + get_local_id (0) % COPIES;

  for (int i = get_local_id (0); i < words; i += get_local_size (0))
    lh[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int x = get_global_id (0) * 8; x + 8 <= units;
      x += get_global_size (0) * 8) {
    uint4 v[TILE_BATCH], n[TILE_BATCH];
    int y = get_global_id (1);
#define DH_LOAD(b, y0) \
    for (int k = 0; k < TILE_BATCH; k++) \
      b[k] = *(const __global uint4 *) (src + (size_t) min ((y0) + k * ys, \
              height - 1) * stride + 2 * x)
    if (y < height) {
#pragma unroll
      DH_LOAD (v, y);
    }
    for (; y < height; y += ys * TILE_BATCH) {
      const int yn = y + ys * TILE_BATCH;
      if (yn < height) {
#pragma unroll
        DH_LOAD (n, yn);
      }
#pragma unroll
      for (int k = 0; k < TILE_BATCH; k++)
        if (y + k * ys < height)
          dh_vector (my, totals, shift, mask, ~(uint) units, v[k]);
#pragma unroll
      for (int k = 0; k < TILE_BATCH; k++)
        v[k] = n[k];
    }
#undef DH_LOAD
  }
  barrier (CLK_LOCAL_MEM_FENCE);
#if COUNT
  for (int i = get_local_id (0); i < levels; i += get_local_size (0)) {
    uint s = 0;
    for (int c = 0; c < COPIES; c++)
#if PACKED
      s += (lh[(i >> 1) * COPIES + c] >> (16 * (i & 1))) & 0xffffu;
#else
      s += lh[i * COPIES + c];
#endif
    if (s)
      atomic_add (&totals[i], s);
  }
#endif
}
