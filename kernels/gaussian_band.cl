/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gaussian_band.cl: clgaussian's GPU kernel for a radius of 2 to
 * GST_CL_BAND_MAX_RADIUS on 8-bit buffers, built once per blur, pixel
 * format and work-group size (the host passes -DGST_CL_RADIUS=r
 * -DGST_CL_STEP=bytes a pixel -DGST_CL_ALPHA=copied byte or -1
 * -DGST_CL_WEIGHTS=w0,...,wr -DGST_CL_GROUP=work-items), so that every
 * loop over the taps unrolls, the taps are immediates and every array
 * below stays in registers. The arithmetic is that of gaussian.cl
 * (Q8 weights, a vertical sum of at most 255 x 256, out = (sum + 32768) >>
 * 16), so the output is identical to every other clgaussian kernel.
 *
 * A work-group is a band of get_local_size (0) work-items across, one
 * 32-bit word (4 bytes) of a row each, walking `rows` rows down in blocks
 * of BAND_ROWS:
 * - every source row of a block and its borders (BAND_ROWS + 2r rows) is
 *   loaded once and added into the vertical sums of each of the block's
 *   output rows it reaches (the sums stay in registers: the row loop is
 *   unrolled), four bytes per operation in 16-bit lanes packed two to a
 *   word (even and odd bytes: at most 255 x 256 a lane, no carry);
 * - the block's sums go to local memory as floats, then after one barrier
 *   each work-item sums its four bytes' horizontal neighbours there, in
 *   float with the weights scaled by 2^-16: every partial sum is an integer
 *   below 2^24 times 2^-16, so exact, and the truncating conversion of
 *   (sum + 32768) 2^-16 is the rounded byte (4-byte pixels: a plane per
 *   byte, and a task of 4 pixels of a row per work-item, band_hpass_px4);
 * - the HALO bytes at each end of the band only feed the horizontal pass
 *   of their neighbours, so bands overlap by 2 HALO bytes;
 * - with GST_CL_DOT (NVIDIA GPUs), both passes in integer dot products
 *   instead, with 16-bit sums in local memory: band_block_dot.
 * Rows must start at 4-byte aligned addresses (the host checks). Several
 * times faster than the tile of gaussian.cl on GPUs (bench/probes/radius.c,
 * bench/probes/band.c; docs/performance.md). */

#define R GST_CL_RADIUS
#define STEP GST_CL_STEP
/* GST_CL_DOT: the sums in integer dot products (see band_block_dot) */
#if defined (GST_CL_DOT) && (STEP == 1 || STEP == 4)
#define BAND_DOT GST_CL_DOT
#if !defined (GST_CL_WEIGHTS) || !defined (GST_CL_ALPHA)
#error "GST_CL_DOT needs GST_CL_WEIGHTS and GST_CL_ALPHA"
#endif
#endif
/* rows a block: keep in step with band_block_rows () in gstclgaussian.c */
#ifdef PROBE_BAND_ROWS          /* bench/probes/band.c only */
#define BAND_ROWS PROBE_BAND_ROWS
#elif STEP == 4 && defined (BAND_DOT)
#define BAND_ROWS 12
#elif STEP == 4
#define BAND_ROWS 16
#else
#define BAND_ROWS 8
#endif
#if STEP == 4
/* whole blocks of 4 pixels each side: see band_hpass_px4 */
#define HALO_ITEMS ((R + 3) / 4 * 4)
#else
#define HALO_ITEMS ((R * STEP + 3) / 4)
#endif
#define HALO (HALO_ITEMS * 4)   /* bytes each side, whole words; keep in
                                 * step with band_halo_items () in
                                 * gstclgaussian.c */
#define EVEN_BYTES 0x00ff00ffu

/* GST_CL_ALPHA: the byte of the pixel that is copied, not filtered (-1:
 * none), as a constant of the build (the element always defines it and
 * GST_CL_WEIGHTS; without them, bench/probes/band.c measures the `alpha`
 * and `wt` arguments) */
#ifdef GST_CL_ALPHA
#define ALPHA GST_CL_ALPHA
#else
#define ALPHA alpha
#endif

/* GST_CL_WEIGHTS (w0,w1,...,wR): the Q8 weights as constants of the
 * build, so that the taps are immediates and take no registers.
 * GST_CL_GROUP: the work-group size the kernel is launched with, so that
 * the sums in local memory are addressed by immediate offsets (without it,
 * get_local_size (0)). */
#ifdef GST_CL_WEIGHTS
__constant ushort band_weights[R + 1] = { GST_CL_WEIGHTS };
#define BAND_WEIGHT(i) band_weights[i]
#else
#define BAND_WEIGHT(i) wt[i]
#endif

/* GST_CL_DOT (1-byte and 4-byte pixels, weights below 256): the sums in
 * integer dot products instead of multiply-adds and floats. The vertical
 * pass transposes each 4 source rows' words into 4 words of a column each
 * (a byte a row) and takes a column's sum for an output row in 4 or 5
 * four-way byte dot products, the weights of the rows a word covers packed
 * in a constant word; the vertical sums (at most 255 x 256) go to local
 * memory as 16-bit values, half the bytes of floats, and the horizontal
 * pass takes an output in 2-way products of two neighbouring 16-bit sums
 * with two 8-bit weights, from a 32768 start: the sum shifted right by 16
 * is the rounded byte, the same integer every other kernel computes.
 * GST_CL_DOT=2: NVIDIA's dp4a, dp2a and prmt in inline PTX (sm_61 and
 * later); 1: the same operations written out (any device: the tests run
 * it on POCL). */

#ifdef BAND_DOT
/* the Q8 weight of a tap at distance d either side (0 beyond R): with d
 * a constant after unrolling, a constant of the build */
#define BAND_TAP(d) (((d) < -R || (d) > R) ? 0u                            \
    : (uint) band_weights[(d) < 0 ? -(d) : (d)])

#if BAND_DOT == 2
inline uint
band_dot4 (uint a, uint b, uint c)
{
  uint d;
  asm ("dp4a.u32.u32 %0, %1, %2, %3;" : "=r" (d) : "r" (a), "r" (b),
      "r" (c));
  return d;
}

inline uint
band_dot2 (uint a, uint b, uint c)
{
  uint d;
  asm ("dp2a.lo.u32.u32 %0, %1, %2, %3;" : "=r" (d) : "r" (a), "r" (b),
      "r" (c));
  return d;
}

inline uint
band_prmt (uint a, uint b, uint sel)
{
  uint d;
  asm ("prmt.b32 %0, %1, %2, %3;" : "=r" (d) : "r" (a), "r" (b), "r" (sel));
  return d;
}
#define BAND_PRMT(a, b, sel) band_prmt (a, b, sel)
#else
/* c + the products of a's and b's bytes */
inline uint
band_dot4 (uint a, uint b, uint c)
{
  return c + (a & 0xffu) * (b & 0xffu) + (a >> 8 & 0xffu) * (b >> 8 & 0xffu)
      + (a >> 16 & 0xffu) * (b >> 16 & 0xffu) + (a >> 24) * (b >> 24);
}

/* c + the products of a's two 16-bit halves and b's low two bytes */
inline uint
band_dot2 (uint a, uint b, uint c)
{
  return c + (a & 0xffffu) * (b & 0xffu) + (a >> 16) * (b >> 8 & 0xffu);
}

/* PTX's prmt: byte k of the result is byte (sel >> 4 k) & 7 of b:a */
inline uint
band_prmt_any (uint a, uint b, uint sel)
{
  const ulong ba = (ulong) b << 32 | a;
  uint d = 0;
  for (int k = 0; k < 4; k++)
    d |= (uint) (ba >> (8 * (sel >> (4 * k) & 7)) & 0xffu) << (8 * k);
  return d;
}
#define BAND_PRMT(a, b, sel) band_prmt_any (a, b, sel)
#endif

/* the 4 x 4 bytes of words a, b, c, d (rows) transposed: col[k] holds byte
 * k of a, b, c and d, in that order */
#define BAND_TRANSPOSE(a, b, c, d, col)                                    \
  {                                                                       \
    const uint t0 = BAND_PRMT (a, b, 0x5140), t1 = BAND_PRMT (a, b, 0x7362); \
    const uint t2 = BAND_PRMT (c, d, 0x5140), t3 = BAND_PRMT (c, d, 0x7362); \
    col[0] = BAND_PRMT (t0, t2, 0x5410);                                  \
    col[1] = BAND_PRMT (t0, t2, 0x7632);                                  \
    col[2] = BAND_PRMT (t1, t3, 0x5410);                                  \
    col[3] = BAND_PRMT (t1, t3, 0x7632);                                  \
  }

/* The horizontal sums of 4 neighbouring values q .. q + 3 of a plane of
 * 16-bit vertical sums, pairs pointing at the pair of values q - H, q - H +
 * 1 (H: the halo in values, a multiple of 4 and at least R): the 4 output
 * bytes, packed. Output s takes pair j (values q - H + 2 j, + 1) with the
 * weights of those distances, shifted with s instead of the data. */
#if STEP == 4
#define BAND_H HALO_ITEMS
#else
#define BAND_H HALO
#endif
inline uint
band_hdot (const __local uint * pairs)
{
  uint pr[BAND_H + 2];
  const __local uint2 *p2 = (const __local uint2 *) pairs;
#pragma unroll
  for (int v = 0; v < (BAND_H + 2) / 2; v++)
    vstore2 (p2[v], v, pr);
  uint out = 0;
#pragma unroll
  for (int s = 0; s < 4; s++) {
    uint acc = 32768;
#pragma unroll
    for (int j = 0; j < BAND_H + 2; j++) {
      const int d0 = 2 * j - BAND_H - s;
      const uint w = BAND_TAP (d0) | BAND_TAP (d0 + 1) << 8;
      if (w)
        acc = band_dot2 (pr[j], w, acc);
    }
    out |= (acc >> 16) << (8 * s);
  }
  return out;
}
#endif

/* the word of bytes [u, u + 4) of a row, pixels outside the row replicated
 * from its first or last pixel */
inline uint
band_load_word (const __global uchar * row, int u, int units)
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

/* the horizontal pass of this work-item's four bytes of one row (pixels of
 * 1 to 3 bytes): lf points at their vertical sums in local memory;
 * src_word holds the source bytes (for the kept alpha or padding byte) */
inline void
band_hpass (const __local float *lf, __global uchar * d, int x, int units,
    int alpha, uint src_word, const float *wf)
{
  uint res[4];
  /* the window [-HALO, 4 + HALO) in registers, loaded a float4 at a time */
  float win[4 + 2 * HALO];
  const __local float4 *l4 = (const __local float4 *) (lf - HALO);
#pragma unroll
  for (int v = 0; v < (4 + 2 * HALO) / 4; v++)
    vstore4 (l4[v], v, win);
#pragma unroll
  for (int s = 0; s < 4; s++) {
    float acc = win[HALO + s] * wf[0] + 0.5f;
#pragma unroll
    for (int i = 1; i <= R; i++)
      acc += (win[HALO + s - i * STEP] + win[HALO + s + i * STEP]) * wf[i];
    res[s] = convert_uint (acc);
  }
  uint word = res[0] | (res[1] << 8) | (res[2] << 16) | (res[3] << 24);
  if (alpha >= 0) {
    /* x is a multiple of 4 and so of STEP when alpha exists (STEP 2 or 4) */
    uint keep = 0;
    for (int b = alpha; b < 4; b += STEP)
      keep |= 0xffu << (8 * b);
    word = bitselect (word, src_word, keep);
  }
  if (x + 3 < units) {
    *(__global uint *) d = word;
  } else {
    for (int b = 0; b < 4 && x + b < units; b++)
      d[b] = (uchar) (word >> (8 * b));
  }
}

#if STEP == 4
/* 4-byte pixels: the block's vertical sums are kept a plane per byte of
 * the pixel (plane c of row r at vs + (4 r + c) * group, one float a
 * work-item), and the horizontal pass takes 4 neighbouring pixels of a row
 * a task: each plane's window of 4 + 2 HALO_ITEMS sums is 2 HALO_ITEMS / 4
 * + 1 aligned float4 loads, where one pixel a work-item read 2R + 1 float4
 * for its 4 samples (a work-item's float4 a row), and 8K RGBA at radius 7
 * was bound by those local loads (bench/results/performance-history.md). The byte `alpha`
 * is copied from the source, not filtered. Tasks: row r, block of pixels
 * [4 b, 4 b + 4) of the band; those in the halo write nothing. The window
 * loop is band_hpass's, written out again: one helper for both, with the
 * halo and stride as its arguments, ran slower on a GPU. */
inline uint4
band_hpass_px4 (const __local float *vs, int group, int r, int b,
    int alpha, const float *wf)
{
  uint4 word = (uint4) (0);
#pragma unroll
  for (int c = 0; c < 4; c++) {
    if (c == alpha)
      continue;
    float win[4 + 2 * HALO_ITEMS];
    const __local float4 *l4 = (const __local float4 *) (vs + (4 * r + c) *
        group) + b - HALO_ITEMS / 4;
#pragma unroll
    for (int v = 0; v < (4 + 2 * HALO_ITEMS) / 4; v++)
      vstore4 (l4[v], v, win);
#pragma unroll
    for (int p = 0; p < 4; p++) {
      float acc = win[HALO_ITEMS + p] * wf[0] + 0.5f;
#pragma unroll
      for (int i = 1; i <= R; i++)
        acc += (win[HALO_ITEMS + p - i] + win[HALO_ITEMS + p + i]) * wf[i];
      const uint v8 = convert_uint (acc) << (8 * c);
      if (p == 0)
        word.s0 |= v8;
      else if (p == 1)
        word.s1 |= v8;
      else if (p == 2)
        word.s2 |= v8;
      else
        word.s3 |= v8;
    }
  }
  return word;
}

/* stores the 4 pixels @word at x of a row (d), their byte @alpha (0 in
 * @word) copied from the source row s */
inline void
band_store_px4 (uint4 word, const __global uchar * s, __global uchar * d,
    int x, int units, int alpha)
{
  const int whole = x + 15 < units, aligned = ((size_t) d & 15) == 0
      && ((size_t) s & 15) == 0;
  if (alpha >= 0) {
    /* units is a multiple of 4 here, so a word is in the row or not */
    const __global uint *s4 = (const __global uint *) s;
    uint4 src4;
    if (whole && aligned)
      src4 = *(const __global uint4 *) s;
    else
      src4 = (uint4) (s4[0], x + 4 < units ? s4[1] : 0u,
          x + 8 < units ? s4[2] : 0u, x + 12 < units ? s4[3] : 0u);
    word |= src4 & (uint4) (0xffu << (8 * alpha));
  }
  __global uint *d4 = (__global uint *) d;
  if (whole && aligned) {
    *(__global uint4 *) d = word;
  } else if (whole) {
    vstore4 (word, 0, d4);
  } else {
    d4[0] = word.s0;
    if (x + 4 < units)
      d4[1] = word.s1;
    if (x + 8 < units)
      d4[2] = word.s2;
  }
}
#endif

/* The vertical pass of one source row, i of the block (row y_top + i),
 * whose word is WORD: added into the sums of every output row of the block
 * it reaches. A macro, so that gaussian_band can unroll it twice, once for
 * blocks inside the plane (a word load a row) and once for the edges
 * (rows clamped, bytes replicated): one branch a block, where a test in
 * the unrolled loop cost a branch and a 64-bit address a row; with the
 * 32-bit offsets below and one division a work-item instead of one a
 * task, measured faster on GPUs (bench/results/performance-history.md). */
#if STEP != 4
#define BAND_KEEP_CENTRE(i, word)                                         \
  if ((i) >= R && (i) < R + BAND_ROWS)                                    \
    centre[(i) - R] = (word);
#else
#define BAND_KEEP_CENTRE(i, word)
#endif
#define BAND_VPASS_ROW(i, WORD)                                           \
  {                                                                       \
    const uint word = (WORD);                                             \
    const uint e = word & EVEN_BYTES, o = (word >> 8) & EVEN_BYTES;       \
    BAND_KEEP_CENTRE (i, word)                                            \
    _Pragma ("unroll")                                                    \
    for (int r = 0; r < BAND_ROWS; r++) {                                 \
      const int d = (i) - R - r;                                          \
      if (d >= -R && d <= R) {                                            \
        even[r] += e * wi[d < 0 ? -d : d];                                \
        odd[r] += o * wi[d < 0 ? -d : d];                                 \
      }                                                                   \
    }                                                                     \
  }

#ifdef BAND_DOT
/* source rows of a block, in whole words of 4 rows for the transposition */
#define BAND_NSRC (BAND_ROWS + 2 * R)
#define BAND_NGRP ((BAND_NSRC + 3) / 4)
/* the weights of source rows 4 g .. 4 g + 3 of a block for its output row
 * r (source row R + r), a byte each */
#define BAND_VW(r, g) (BAND_TAP (4 * (g) - R - (r))                        \
    | BAND_TAP (4 * (g) + 1 - R - (r)) << 8                               \
    | BAND_TAP (4 * (g) + 2 - R - (r)) << 16                              \
    | BAND_TAP (4 * (g) + 3 - R - (r)) << 24)

/* One block of gaussian_band in dot products (GST_CL_DOT above): the
 * vertical sums of the block's rows as 16-bit values in local memory
 * (1-byte pixels: a row of 4 group values; 4-byte pixels: a plane per byte
 * of the pixel, as the float path), then the horizontal pass. */
/* band_block_dot's vertical pass: the block's source rows from y_top, as
 * 16-bit sums in local memory */
inline void
band_dot_vertical (__global const uchar * src, int src_stride, int units,
    int height, int y_top, int x, int inside_x, int lx, int group,
    __local uint * vp, __local ushort * vh)
{
  uint w[BAND_NGRP * 4], col[BAND_NGRP][4];

  if (inside_x && y_top >= 0 && y_top + BAND_NSRC <= height) {
    const __global uchar *p = src + (uint) (y_top * src_stride + x);
#pragma unroll
    for (int i = 0; i < BAND_NSRC; i++) {
      w[i] = *(const __global uint *) p;
      p += src_stride;
    }
  } else {
#pragma unroll
    for (int i = 0; i < BAND_NSRC; i++)
      w[i] = band_load_word (src + (uint) (clamp (y_top + i, 0, height - 1) *
              src_stride), x, units);
  }
#pragma unroll
  for (int i = BAND_NSRC; i < BAND_NGRP * 4; i++)
    w[i] = 0;
#pragma unroll
  for (int g = 0; g < BAND_NGRP; g++)
    BAND_TRANSPOSE (w[4 * g], w[4 * g + 1], w[4 * g + 2], w[4 * g + 3],
        col[g]);
#pragma unroll
  for (int r = 0; r < BAND_ROWS; r++) {
    uint sum[4] = { 0, 0, 0, 0 };
#pragma unroll
    for (int g = 0; g < BAND_NGRP; g++) {
      if (4 * g + 3 >= r && 4 * g <= r + 2 * R) {
#pragma unroll
        for (int k = 0; k < 4; k++)
          if (STEP != 4 || k != ALPHA)
            sum[k] = band_dot4 (col[g][k], BAND_VW (r, g), sum[k]);
      }
    }
#if STEP == 4
#pragma unroll
    for (int k = 0; k < 4; k++)
      if (k != ALPHA)
        vh[(4 * r + k) * group + lx] = (ushort) sum[k];
#else
    vstore2 ((uint2) (sum[0] | sum[1] << 16, sum[2] | sum[3] << 16),
        r * group + lx, vp);
#endif
  }
}

/* band_block_dot's horizontal pass, from the sums to the block's rows */
inline void
band_dot_horizontal (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int y0, int yb, int n,
    int x, int lx, int group, __local uint * vp,
#if STEP == 4
    int r0, int b0, int xb, int task
#else
    int writes
#endif
    )
{
#if STEP == 4
  if (task) {
#pragma unroll
    for (int r = r0; r < BAND_ROWS; r += 4) {
      if (yb + r < n) {
        uint h[4], px[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
          h[k] = k == ALPHA ? 0u : band_hdot (vp + ((4 * r + k) * group +
                  4 * b0 - BAND_H) / 2);
        BAND_TRANSPOSE (h[0], h[1], h[2], h[3], px);
        const uint s_off = (uint) ((y0 + yb + r) * src_stride + xb);
        const uint d_off = (uint) ((y0 + yb + r) * dst_stride + xb);
        band_store_px4 ((uint4) (px[0], px[1], px[2], px[3]), src + s_off,
            dst + d_off, xb, units, ALPHA);
      }
    }
  }
#else
  if (writes) {
#pragma unroll
    for (int r = 0; r < BAND_ROWS; r++) {
      if (yb + r < n) {
        const uint word = band_hdot (vp + (r * group + lx) * 2 - BAND_H / 2);
        __global uchar *d = dst + (uint) ((y0 + yb + r) * dst_stride + x);
        if (x + 3 < units) {
          *(__global uint *) d = word;
        } else {
          for (int b = 0; b < 4 && x + b < units; b++)
            d[b] = (uchar) (word >> (8 * b));
        }
      }
    }
  }
#endif
}

inline void
band_block_dot (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int y0,
    int yb, int n, int x, int inside_x, int lx, int group,
    __local float4 * sums,
#if STEP == 4
    int r0, int b0, int xb, int task
#else
    int writes
#endif
    )
{
  __local uint *vp = (__local uint *) sums;
  __local ushort *vh = (__local ushort *) sums;

  band_dot_vertical (src, src_stride, units, height, y0 + yb - R, x,
      inside_x, lx, group, vp, vh);
  barrier (CLK_LOCAL_MEM_FENCE);
  band_dot_horizontal (src, src_stride, dst, dst_stride, units, y0, yb, n, x,
      lx, group, vp,
#if STEP == 4
      r0, b0, xb, task
#else
      writes
#endif
      );
  /* the next block overwrites the sums */
  barrier (CLK_LOCAL_MEM_FENCE);
}
#endif

/* One block of gaussian_band in floats (no GST_CL_DOT): the vertical sums
 * of the block's rows in registers, then through local memory the
 * horizontal pass. */
inline void
band_block_float (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int y0,
    int yb, int n, int x, int inside_x, int lx, int group, __local float *vs,
    const uint *wi, const float *wf,
#if STEP == 4
    int r0, int b0, int xb, int task
#else
    int writes
#endif
    )
{
  uint even[BAND_ROWS], odd[BAND_ROWS], centre[BAND_ROWS];
  /* source row i of the block is y_top + i */
  const int y_top = y0 + yb - R;
#pragma unroll
  for (int r = 0; r < BAND_ROWS; r++)
    even[r] = odd[r] = 0;
  if (inside_x && y_top >= 0 && y_top + BAND_ROWS + 2 * R <= height) {
    const __global uchar *p = src + (uint) (y_top * src_stride + x);
#pragma unroll
    for (int i = 0; i < BAND_ROWS + 2 * R; i++) {
      BAND_VPASS_ROW (i, *(const __global uint *) p);
      p += src_stride;
    }
  } else {
#pragma unroll
    for (int i = 0; i < BAND_ROWS + 2 * R; i++)
      BAND_VPASS_ROW (i, band_load_word (src +
              (uint) (clamp (y_top + i, 0, height - 1) * src_stride), x,
              units));
  }
#if STEP == 4
#pragma unroll
  for (int r = 0; r < BAND_ROWS; r++) {
    /* the alpha plane is copied, not filtered: no sums */
    if (ALPHA != 0)
      vs[(4 * r) * group + lx] = (float) (even[r] & 0xffffu);
    if (ALPHA != 1)
      vs[(4 * r + 1) * group + lx] = (float) (odd[r] & 0xffffu);
    if (ALPHA != 2)
      vs[(4 * r + 2) * group + lx] = (float) (even[r] >> 16);
    if (ALPHA != 3)
      vs[(4 * r + 3) * group + lx] = (float) (odd[r] >> 16);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (task) {
#pragma unroll
    for (int r = r0; r < BAND_ROWS; r += 4) {
      if (yb + r < n) {
        const uint s_off = (uint) ((y0 + yb + r) * src_stride + xb);
        const uint d_off = (uint) ((y0 + yb + r) * dst_stride + xb);
        band_store_px4 (band_hpass_px4 (vs, group, r, b0, ALPHA, wf),
            src + s_off, dst + d_off, xb, units, ALPHA);
      }
    }
  }
#else
#pragma unroll
  for (int r = 0; r < BAND_ROWS; r++)
    vstore4 ((float4) ((float) (even[r] & 0xffffu),
            (float) (odd[r] & 0xffffu), (float) (even[r] >> 16),
            (float) (odd[r] >> 16)), 0, vs + (r * group + lx) * 4);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (writes) {
#pragma unroll
    for (int r = 0; r < BAND_ROWS; r++) {
      if (yb + r < n)
        band_hpass (vs + (r * group + lx) * 4, dst +
            (uint) ((y0 + yb + r) * dst_stride + x), x, units, ALPHA,
            centre[r], wf);
    }
  }
#endif
  /* the next block overwrites the sums */
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* sums: BAND_ROWS x 4 floats a work-item (get_local_size (0) x BAND_ROWS x
 * 16 bytes). Byte offsets in the planes are 32-bit: the host runs this
 * kernel on planes of less than 2 GiB only. */
__kernel void
gaussian_band (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int alpha,
    int rows, __constant ushort * wt, __local float4 * sums)
{
  __local float *vs = (__local float *) sums;
#ifdef GST_CL_GROUP
  const int lx = get_local_id (0), group = GST_CL_GROUP;
#else
  const int lx = get_local_id (0), group = get_local_size (0);
#endif
  const int x = get_group_id (0) * (group * 4 - 2 * HALO) - HALO + lx * 4;
  const int y0 = get_group_id (1) * rows;
  const int n = min (rows, height - y0);
  /* this work-item's word lies inside its rows */
  const int inside_x = x >= 0 && x + 3 < units;
#if STEP == 4
  /* group and HALO_ITEMS are multiples of 4 (the host rounds group): the
   * horizontal tasks of a work-item are rows r0, r0 + 4, ... of block b0
   * of 4 pixels (one division here rather than one a task) */
  const int blocks = group / 4;
  const int r0 = lx / blocks, b0 = lx - r0 * blocks;
  const int xb = x - lx * 4 + b0 * 16;
  const int task = b0 >= HALO_ITEMS / 4 && b0 < blocks - HALO_ITEMS / 4
      && xb < units;
#else
  const int writes = lx >= HALO_ITEMS && lx < group - HALO_ITEMS
      && x < units;
#endif
  uint wi[R + 1];
  float wf[R + 1];

#pragma unroll
  for (int i = 0; i <= R; i++) {
    wi[i] = BAND_WEIGHT (i);
    wf[i] = (float) BAND_WEIGHT (i) * 0x1.0p-16f;
  }
  for (int yb = 0; yb < n; yb += BAND_ROWS) {
#ifdef BAND_DOT
    band_block_dot (src, src_stride, dst, dst_stride, units, height, y0, yb,
        n, x, inside_x, lx, group, sums,
#if STEP == 4
        r0, b0, xb, task
#else
        writes
#endif
        );
#else
    band_block_float (src, src_stride, dst, dst_stride, units, height, y0,
        yb, n, x, inside_x, lx, group, vs, wi, wf,
#if STEP == 4
        r0, b0, xb, task
#else
        writes
#endif
        );
#endif /* BAND_DOT */
  }
}
