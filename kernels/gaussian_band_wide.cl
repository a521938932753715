/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gaussian_band_wide.cl: clgaussian's GPU kernel for a radius of 2 to
 * GST_CL_BAND_MAX_RADIUS on planes of 16-bit samples, one sample a pixel
 * (luma and gray planes), built once per blur and work-group size (the
 * host passes -DGST_CL_RADIUS=r -DGST_CL_GROUP=work-items
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
 * A work-group is a band of GROUP work-items across, four samples (8
 * bytes) of a row each, walking `rows` rows down in blocks of BLOCK rows.
 * A work-item holds the 2 R + BLOCK rows of its four columns that a
 * block's vertical sums read, as floats in registers: the 2 R rows below
 * a block are the top of the next one, so each row of the frame is loaded
 * once a band (and 2 R more rows at its start). The registers bound the
 * block (4 rows: 18 rows of 4 floats at radius 7); loading the next
 * block's rows before summing this one's took more registers and more
 * time (docs/performance.md). The block's vertical sums go to local
 * memory; after one barrier each work-item that is not the band's halo
 * (HALO_ITEMS each side, which only feed their neighbours) sums its four
 * samples' horizontal neighbours there (gst_cl_hsum_float4 of common.cl,
 * as gaussian16.cl's kernels do). Rows and planes are 8-byte aligned, and
 * planes under 2 GiB (the host checks: 32-bit offsets). */

#define R GST_CL_RADIUS
#define GROUP GST_CL_GROUP
#define BLOCK GST_CL_BLOCK
#define HALO_ITEMS ((R + 3) / 4)
/* the rows a block's vertical sums read */
#define WINDOW (2 * R + BLOCK)

__constant float wide_weights[R + 1] = { GST_CL_FWEIGHTS };

/* four masked samples of row y (clamped to the frame) from sample x, as
 * floats; columns past either edge are the edge's */
inline float4
wide_row (__global const ushort * src, int ss, int units, int height, int x,
    int y, uint wmask)
{
  const __global ushort *row = src + (uint) clamp (y, 0, height - 1) *
      (uint) ss;
  ushort4 s;

  if (x >= 0 && x + 3 < units)
    s = *(const __global ushort4 *) (row + x);
  else
    s = (ushort4) (row[clamp (x, 0, units - 1)],
        row[clamp (x + 1, 0, units - 1)], row[clamp (x + 2, 0, units - 1)],
        row[clamp (x + 3, 0, units - 1)]);
  return convert_float4 (s & (ushort4) ((ushort) wmask));
}

/* four results to sample x of a row (those before `units`) */
inline void
wide_store (__global ushort * d, float4 acc, int x, int units, float scale,
    int maxv, int shift)
{
  const ushort4 res = convert_ushort4 (min (convert_int4 (acc * scale +
              0.5f), (int4) (maxv)) << (int4) (shift));

  if (x + 3 < units) {
    *(__global ushort4 *) d = res;
  } else {
    d[0] = res.s0;
    if (x + 1 < units)
      d[1] = res.s1;
    if (x + 2 < units)
      d[2] = res.s2;
  }
}

__kernel __attribute__ ((reqd_work_group_size (GROUP, 1, 1)))
void
gaussian_band_wide (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int units, int height, int rows,
    int shift, uint wmask)
{
  __local float4 sums[BLOCK * GROUP];
  const int lx = get_local_id (0);
  const int x = ((int) get_group_id (0) * (GROUP - 2 * HALO_ITEMS) -
      HALO_ITEMS + lx) * 4;
  const int y0 = (int) get_group_id (1) * rows;
  const int y1 = min (y0 + rows, height);
  const int ss = src_stride >> 1, ds = dst_stride >> 1;
  const int writes = lx >= HALO_ITEMS && lx < GROUP - HALO_ITEMS
      && x < units;
  const float scale = 1.0f / (float) (1 << shift);
  const int maxv = wmask >> shift;
  float4 win[WINDOW];

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
      float4 acc = win[R + r] * wide_weights[0];
#pragma unroll
      for (int j = 1; j <= R; j++)
        acc = fma (win[R + r - j] + win[R + r + j],
            (float4) (wide_weights[j]), acc);
      sums[r * GROUP + lx] = acc;
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    if (writes) {
#pragma unroll
      for (int r = 0; r < BLOCK; r++)
        if (y + r < y1)
          wide_store (dst + (uint) (y + r) * (uint) ds + x,
              gst_cl_hsum_float4 (sums + r * GROUP + lx, wide_weights, R),
              x, units, scale, maxv, shift);
    }
    /* the next block overwrites the sums */
    barrier (CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < 2 * R; k++)
      win[k] = win[k + BLOCK];
  }
}
