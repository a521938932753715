/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* radius.cl: a candidate GPU kernel for clgaussian's radius > 1 on 8-bit
 * buffers, for bench/probes/radius.c. Built with -DR=radius -DSTEP=pixel
 * bytes (1 or 4) -DW=bytes per work-item (4 or 8).
 *
 * A work-group is a band of G work-items across (G x W bytes of columns,
 * HALO of them each side only feeding the horizontal pass) walking `rows`
 * rows down. Each work-item keeps the last 2R + 1 rows of its W bytes in
 * registers (a ring whose slots are static because the row loop is
 * unrolled by the ring's length), as even and odd bytes in 16-bit lanes
 * packed two to a word, and sums them vertically four bytes per operation
 * (at most 255 x 256 a lane: no carry). The vertical sums go to local
 * memory as floats (two buffers, one barrier a row); the horizontal pass
 * reads its neighbours there and sums in float, which is exact here (every
 * partial sum is an integer below 2^24). The next row's words are loaded
 * before the barrier, so their latency hides behind it. */
#ifndef SHIFT
#define SHIFT 0
#endif
#define RING (2 * R + 1)
#define NW (W / 4)
#define HALO (((R * STEP) + W - 1) / W * W)     /* bytes each side */
#define HALO_ITEMS (HALO / W)
#define LO 0x00ff00ffu

/* the word of bytes [u, u + 4) of a row, pixels outside it replicated */
inline uint
load_word (const __global uchar * row, int u, int units)
{
  if (u >= 0 && u + 3 < units)
    return *(const __global uint *) (row + u);
  uint word = 0;
  for (int b = 0; b < 4; b++) {
    int ub = u + b;
    if (ub < 0)
      ub = ((ub % STEP) + STEP) % STEP;
    else if (ub >= units)
      ub = units - STEP + ub % STEP;
    word |= (uint) row[ub] << (8 * b);
  }
  return word;
}

/* the horizontal pass of an item's W bytes of one row from their vertical
 * sums in local memory (lf), and the store */
inline void
hpass_store (const __local float *lf, __global uchar * d, int x, int units,
    int alpha, const uint * srcw, const float *wfl)
{
  uint res[W];
#if STEP == 4
  const __local float4 *l4 = (const __local float4 *) lf;
#pragma unroll
  for (int p = 0; p < W / 4; p++) {
    float4 acc = l4[p] * wfl[0] + 32768.0f;
#pragma unroll
    for (int i = 1; i <= R; i++)
      acc += (l4[p - i] + l4[p + i]) * wfl[i];
    const uint4 r4 = convert_uint4 (acc) >> 16;
    res[4 * p] = r4.s0;
    res[4 * p + 1] = r4.s1;
    res[4 * p + 2] = r4.s2;
    res[4 * p + 3] = r4.s3;
  }
#else
  float win[W + 2 * HALO];
  const __local float4 *l4 = (const __local float4 *) (lf - HALO);
#pragma unroll
  for (int v = 0; v < (W + 2 * HALO) / 4; v++)
    vstore4 (l4[v], v, win);
#pragma unroll
  for (int s = 0; s < W; s++) {
    float acc = win[HALO + s] * wfl[0] + 32768.0f;
#pragma unroll
    for (int i = 1; i <= R; i++)
      acc += (win[HALO + s - i] + win[HALO + s + i]) * wfl[i];
    res[s] = convert_uint (acc) >> 16;
  }
#endif
#pragma unroll
  for (int w = 0; w < NW; w++) {
    uint word = res[4 * w] | (res[4 * w + 1] << 8) |
        (res[4 * w + 2] << 16) | (res[4 * w + 3] << 24);
    if (alpha >= 0)
      word = bitselect (word, srcw[w], 0xffu << (8 * alpha));
    if (x + 4 * w + 3 < units) {
      *(__global uint *) (d + 4 * w) = word;
    } else {
      for (int b = 0; b < 4 && x + 4 * w + b < units; b++)
        d[4 * w + b] = (uchar) (word >> (8 * b));
    }
  }
}

__kernel void
ring (__global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int units, int height, int alpha, int rows,
    __constant ushort * wt, __constant float *wf, __local float4 * vs4)
{
  __local float *vs = (__local float *) vs4;
  const int lx = get_local_id (0), G = get_local_size (0);
  const int out_bytes = G * W - 2 * HALO;
  const int x = get_group_id (0) * out_bytes - HALO + lx * W;
  const int y0 = get_group_id (1) * rows;
  const int n = min (rows, height - y0);
  const int out_item = lx >= HALO_ITEMS && lx < G - HALO_ITEMS && x < units;
  uint re[NW][RING], ro[NW][RING], pend[NW];
  uint wi[R + 1];
  float wfl[R + 1];

  for (int i = 0; i <= R; i++) {
    wi[i] = wt[i];
    wfl[i] = wf[i];
  }
  /* rows y0 - R .. y0 + R - 1 in slots 0 .. 2R - 1 (SHIFT: 1 .. 2R, the
   * first row shifts them down), y0 + R pending */
#pragma unroll
  for (int s = SHIFT; s < 2 * R + SHIFT; s++) {
    const __global uchar *row = src +
        (size_t) clamp (y0 - R + s - SHIFT, 0, height - 1) * src_stride;
#pragma unroll
    for (int w = 0; w < NW; w++) {
      const uint word = load_word (row, x + 4 * w, units);
      re[w][s] = word & LO;
      ro[w][s] = (word >> 8) & LO;
    }
  }
  {
    const __global uchar *row = src +
        (size_t) min (y0 + R, height - 1) * src_stride;
#pragma unroll
    for (int w = 0; w < NW; w++)
      pend[w] = load_word (row, x + 4 * w, units);
  }

#if SHIFT
  /* the ring shifted down a slot per row: slot s holds row y - R + s */
  for (int yb = 0, k = 0; yb < n; yb++) {
    {
      const int y = y0 + yb;
      const int c = R;
      __local float *buf = vs + (yb & 1) * G * W;
#pragma unroll
      for (int s = 0; s < 2 * R; s++)
#pragma unroll
        for (int w = 0; w < NW; w++) {
          re[w][s] = re[w][s + 1];
          ro[w][s] = ro[w][s + 1];
        }
#else
  for (int yb = 0; yb < n; yb += RING) {
#pragma unroll
    for (int k = 0; k < RING; k++) {
      if (yb + k >= n)
        break;
      const int y = y0 + yb + k;
      const int c = (k + R) % RING;
      __local float *buf = vs + ((yb + k) & 1) * G * W;
#endif
      /* the pending row y + R into slot (k + 2R) % RING */
#pragma unroll
      for (int w = 0; w < NW; w++) {
        re[w][(k + 2 * R) % RING] = pend[w] & LO;
        ro[w][(k + 2 * R) % RING] = (pend[w] >> 8) & LO;
      }
      /* vertical sums of this item's bytes */
#pragma unroll
      for (int w = 0; w < NW; w++) {
        uint e = re[w][c] * wi[0], o = ro[w][c] * wi[0];
#pragma unroll
        for (int j = 1; j <= R; j++) {
          e += (re[w][(c + j) % RING] + re[w][(c + RING - j) % RING]) * wi[j];
          o += (ro[w][(c + j) % RING] + ro[w][(c + RING - j) % RING]) * wi[j];
        }
        vstore4 ((float4) ((float) (e & 0xffffu), (float) (o & 0xffffu),
                (float) (e >> 16), (float) (o >> 16)), 0,
            buf + lx * W + 4 * w);
      }
      /* the row after next: its slot (k % RING, row y - R) is spent */
      {
        const __global uchar *row = src +
            (size_t) min (y + R + 1, height - 1) * src_stride;
#pragma unroll
        for (int w = 0; w < NW; w++)
          pend[w] = load_word (row, x + 4 * w, units);
      }
      barrier (CLK_LOCAL_MEM_FENCE);
      if (out_item) {
        uint srcw[NW];
#pragma unroll
        for (int w = 0; w < NW; w++)
          srcw[w] = re[w][c] | (ro[w][c] << 8);
        hpass_store (buf + lx * W, dst + (size_t) y * dst_stride + x, x,
            units, alpha, srcw, wfl);
      }
    }
  }
}

#ifdef BR
/* A band of BR rows at a time, without a ring: each input row (BR + 2R of
 * them) is added into the vertical sums of every output row it reaches,
 * kept in registers (push form: the row loop is unrolled, so every index
 * is static); then the band's vertical sums go to local memory as floats,
 * one barrier, and the horizontal pass as in `ring`. */

__kernel void
block (__global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int units, int height, int alpha, int rows,
    __constant ushort * wt, __constant float *wf, __local float4 * vs4)
{
  __local float *vs = (__local float *) vs4;
  const int lx = get_local_id (0), G = get_local_size (0);
  const int out_bytes = G * W - 2 * HALO;
  const int x = get_group_id (0) * out_bytes - HALO + lx * W;
  const int y0 = get_group_id (1) * rows;
  const int n = min (rows, height - y0);
  const int out_item = lx >= HALO_ITEMS && lx < G - HALO_ITEMS && x < units;
  uint wi[R + 1];
  float wfl[R + 1];

  for (int i = 0; i <= R; i++) {
    wi[i] = wt[i];
    wfl[i] = wf[i];
  }
  for (int yb = 0; yb < n; yb += BR) {
    uint ae[NW][BR], ao[NW][BR], cw[BR][NW];
#pragma unroll
    for (int r = 0; r < BR; r++)
#pragma unroll
      for (int w = 0; w < NW; w++)
        ae[w][r] = ao[w][r] = 0;
#pragma unroll
    for (int i = 0; i < BR + 2 * R; i++) {
      const __global uchar *row = src +
          (size_t) clamp (y0 + yb - R + i, 0, height - 1) * src_stride;
#pragma unroll
      for (int w = 0; w < NW; w++) {
        const uint word = load_word (row, x + 4 * w, units);
        const uint e = word & LO, o = (word >> 8) & LO;
        if (i >= R && i < R + BR)
          cw[i - R][w] = word;
#pragma unroll
        for (int r = 0; r < BR; r++) {
          const int d = i - R - r;
          if (d >= -R && d <= R) {
            ae[w][r] += e * wi[d < 0 ? -d : d];
            ao[w][r] += o * wi[d < 0 ? -d : d];
          }
        }
      }
    }
#pragma unroll
    for (int r = 0; r < BR; r++)
#pragma unroll
      for (int w = 0; w < NW; w++) {
        const uint e = ae[w][r], o = ao[w][r];
        vstore4 ((float4) ((float) (e & 0xffffu), (float) (o & 0xffffu),
                (float) (e >> 16), (float) (o >> 16)), 0,
            vs + (r * G + lx) * W + 4 * w);
      }
    barrier (CLK_LOCAL_MEM_FENCE);
    if (out_item) {
#pragma unroll
      for (int r = 0; r < BR; r++) {
        if (yb + r < n)
          hpass_store (vs + (r * G + lx) * W,
              dst + (size_t) (y0 + yb + r) * dst_stride + x, x, units, alpha,
              cw[r], wfl);
      }
    }
    barrier (CLK_LOCAL_MEM_FENCE);
  }
}
#endif

__kernel void
copy16 (__global const uint4 * s, __global uint4 * d)
{
  const size_t i = get_global_id (0);
  d[i] = s[i];
}
