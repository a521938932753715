/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gaussian_band_wide.cl: clgaussian's GPU kernel for a radius of 1 to
 * GST_CL_GAUSSIAN_BAND_MAX_RADIUS on planes of 16-bit samples, one sample
 * a pixel (luma and gray planes), built once per blur and work-group size
 * (the host passes -DGST_CL_RADIUS=r -DGST_CL_GROUP=work-items
 * -DGST_CL_BLOCK=rows -DGST_CL_FWEIGHTS=w0,...,wr, the float weights as
 * exact hexadecimal literals), so that every loop over the taps and rows
 * unrolls, the taps are constants of the build and the rows of a block
 * stay in registers.
 *
 * The arithmetic is gaussian16.cl's (the masked samples as floats, a
 * vertical pass then a horizontal one, each step an explicit fma in the
 * same order), so the output is identical to every other kernel of more
 * than 8 bits.
 *
 * A work-group is a band of GROUP work-items across, two samples (a 4-byte
 * word) of a row each, walking `rows` rows down in blocks of BLOCK rows. A
 * work-item holds the 2 R + BLOCK rows of its two columns that a block's
 * vertical sums read, as floats in registers: the 2 R rows below a block
 * are the top of the next one, so each row of the frame is loaded once a
 * band (and 2 R more rows at its start). The block's vertical sums go to
 * local memory; after one barrier the horizontal pass sums there each
 * sample's neighbours, 4 samples of a row a task (WIDE_QUADS, where the
 * halo is whole blocks of 4: fewer local loads a sample), else the two
 * samples of each work-item that is not the band's halo (HALO_ITEMS each
 * side, which only feed their neighbours). Registers bound the kernel:
 * two samples a work-item take 56 at radius 7, four took 96, and the
 * fewer a work-item takes the more work-items a SM runs to hide the loads
 * (docs/performance.md). Rows and planes are 4-byte aligned, and planes
 * under 2 GiB (the host checks: 32-bit offsets). */

#define R GST_CL_RADIUS
#define GROUP GST_CL_GROUP
#define BLOCK GST_CL_BLOCK
#define HALO_ITEMS ((R + 1) / 2)
/* the rows a block's vertical sums read */
#define WINDOW (2 * R + BLOCK)

__constant float wide_weights[R + 1] = { GST_CL_FWEIGHTS };

/* two masked samples of row y (clamped to the frame) from sample x, as
 * floats; columns past either edge are the edge's */
inline float2
wide_row (__global const ushort * src, int ss, int units, int height, int x,
    int y, uint wmask)
{
  const __global ushort *row = src + (uint) clamp (y, 0, height - 1) *
      (uint) ss;
  ushort2 s;

  if (x >= 0 && x + 1 < units)
    s = *(const __global ushort2 *) (row + x);
  else
    s = (ushort2) (row[clamp (x, 0, units - 1)],
        row[clamp (x + 1, 0, units - 1)]);
  return convert_float2 (s & (ushort2) ((ushort) wmask));
}

/* the horizontal sums of the two samples at v2 of a row of vertical sums,
 * each tap's neighbours from whole pairs: the operations of gaussian16.cl's
 * tile16_hsum (), in its order (acc = v w0, then fma (left + right, wj,
 * acc) for j = 1 .. R) */
inline float2
wide_hsum (const __local float2 * v2)
{
  float2 acc = v2[0] * wide_weights[0];

#pragma unroll
  for (int j = 1; j <= R; j++) {
    const int k = (j + 1) / 2;
    float2 l, r;
    if (j % 2 == 0) {
      l = v2[-k];
      r = v2[k];
    } else {
      l = (float2) (v2[-k].s1, v2[1 - k].s0);
      r = (float2) (v2[k - 1].s1, v2[k].s0);
    }
    acc = fma (l + r, (float2) (wide_weights[j]), acc);
  }
  return acc;
}

/* two results to sample x of a row (those before `units`) */
inline void
wide_store (__global ushort * d, float2 acc, int x, int units, float scale,
    int maxv, int shift)
{
  const ushort2 res = convert_ushort2 (min (convert_int2 (acc * scale +
              0.5f), (int2) (maxv)) << (int2) (shift));

  if (x + 1 < units)
    *(__global ushort2 *) d = res;
  else
    d[0] = res.s0;
}

#if HALO_ITEMS % 2 == 0 && GROUP % 2 == 0
/* Blocks of 4 samples of a row a task in the horizontal pass (where the
 * halo is whole blocks of 4 and the rows of sums start at 16-byte
 * boundaries): a task's window of 4 + 2 R sums is (R + 3) / 4 * 2 + 1
 * aligned float4 loads, where two samples a work-item load 2 R + 2 sums
 * for 2 results */
#define WIDE_QUADS 1
#define QUAD_HALO ((R + 3) / 4)
/* the blocks of a row of sums that are not halo */
#define QUADS (GROUP / 2 - HALO_ITEMS)

/* the 4 horizontal sums of block q of the row of sums @row, in
 * wide_hsum's operations and order */
inline float4
wide_hsum4 (const __local float4 * row, int q)
{
  float win[4 + 8 * QUAD_HALO], acc[4];
#pragma unroll
  for (int v = 0; v < 1 + 2 * QUAD_HALO; v++)
    vstore4 (row[q - QUAD_HALO + v], v, win);
#pragma unroll
  for (int s = 0; s < 4; s++) {
    const int c = 4 * QUAD_HALO + s;
    acc[s] = win[c] * wide_weights[0];
#pragma unroll
    for (int j = 1; j <= R; j++)
      acc[s] = fma (win[c - j] + win[c + j], wide_weights[j], acc[s]);
  }
  return vload4 (0, acc);
}

/* four results to sample x of a row (those before `units`), as two pairs */
inline void
wide_store4 (__global ushort * d, float4 acc, int x, int units, float scale,
    int maxv, int shift)
{
  wide_store (d, acc.lo, x, units, scale, maxv, shift);
  if (x + 2 < units)
    wide_store (d + 2, acc.hi, x + 2, units, scale, maxv, shift);
}
#endif

__kernel __attribute__ ((reqd_work_group_size (GROUP, 1, 1)))
void
gaussian_band_wide (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int units, int height, int rows,
    int shift, uint wmask)
{
  /* 16-byte aligned: wide_hsum4 loads float4s */
  __local float2 sums[BLOCK * GROUP] __attribute__ ((aligned (16)));
  const int lx = get_local_id (0);
  const int x = ((int) get_group_id (0) * (GROUP - 2 * HALO_ITEMS) -
      HALO_ITEMS + lx) * 2;
  const int y0 = (int) get_group_id (1) * rows;
  const int y1 = min (y0 + rows, height);
  const int ss = src_stride >> 1, ds = dst_stride >> 1;
#ifndef WIDE_QUADS
  const int writes = lx >= HALO_ITEMS && lx < GROUP - HALO_ITEMS
      && x < units;
#endif
  const float scale = 1.0f / (float) (1 << shift);
  const int maxv = wmask >> shift;
  float2 win[WINDOW];

  /* win[k]: row y - R + k of the block at y */
#pragma unroll
  for (int k = 0; k < 2 * R; k++)
    win[k] = wide_row (src, ss, units, height, x, y0 - R + k, wmask);
  for (int y = y0; y < y1; y += BLOCK) {
#pragma unroll
    for (int k = 0; k < BLOCK; k++)
      win[2 * R + k] = wide_row (src, ss, units, height, x, y + R + k,
          wmask);
    /* each output row's vertical sum in tile16_vertical's order */
#pragma unroll
    for (int r = 0; r < BLOCK; r++) {
      float2 acc = win[R + r] * wide_weights[0];
#pragma unroll
      for (int j = 1; j <= R; j++)
        acc = fma (win[R + r - j] + win[R + r + j],
            (float2) (wide_weights[j]), acc);
      sums[r * GROUP + lx] = acc;
    }
    barrier (CLK_LOCAL_MEM_FENCE);
#ifdef WIDE_QUADS
    /* task t: block HALO_ITEMS / 2 + t % QUADS of row t / QUADS */
#pragma unroll
    for (int t = lx; t < BLOCK * QUADS; t += GROUP) {
      const int r = t / QUADS, q = HALO_ITEMS / 2 + t % QUADS;
      const int xq = x - 2 * lx + 4 * q;
      if (y + r < y1 && xq < units)
        wide_store4 (dst + (uint) (y + r) * (uint) ds + xq,
            wide_hsum4 ((const __local float4 *) (sums + r * GROUP), q), xq,
            units, scale, maxv, shift);
    }
#else
    if (writes) {
#pragma unroll
      for (int r = 0; r < BLOCK; r++)
        if (y + r < y1)
          wide_store (dst + (uint) (y + r) * (uint) ds + x,
              wide_hsum (sums + r * GROUP + lx), x, units, scale, maxv,
              shift);
    }
#endif
    /* the next block overwrites the sums */
    barrier (CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < 2 * R; k++)
      win[k] = win[k + BLOCK];
  }
}
