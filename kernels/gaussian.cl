/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gaussian.cl: Gaussian blur kernels of clgaussian.
 *
 * Weights are Q8 fixed point (they sum to 256), given as wt[0] = centre,
 * wt[j] = weight at distance j. A pass in one direction gives an exact
 * 16-bit integer (at most 255 * 256); the second pass sums those with the
 * same weights in 32 bits and rounds: out = (sum + 32768) >> 16. The result
 * is exact integer arithmetic, so the order of the passes does not matter,
 * and for the binomial [64 128 64] it equals (sum3x3 + 8) >> 4.
 *
 * Borders replicate the edge pixel. In buffers a pixel is `step` bytes and
 * every byte is a sample; the byte `alpha` of each pixel (alpha or padding)
 * is copied unchanged. In images a pixel is `step` texels (RGB is stored as
 * a one-channel image three times as wide), `alpha` is a component index.
 */

/* ---------------------------------------------------------------------- */
/* 3x3 binomial on buffers: one kernel for both device kinds, shaped by    */
/* chunk and rows (whole rows per work-item on CPUs).                      */

inline uchar
g3_sample (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, int x, int step, int units)
{
  const int l = x >= step ? x - step : x;
  const int r = x + step < units ? x + step : x;
  const uint s = a[l] + 2 * a[x] + a[r] + 2 * (b[l] + 2 * b[x] + b[r])
      + c[l] + 2 * c[x] + c[r];
  return (uchar) ((s + 8) >> 4);
}

inline ushort16
g3_column (const __global uchar * a, const __global uchar * b,
    const __global uchar * c)
{
  return convert_ushort16 (LOAD_UC16 (a)) +
      (convert_ushort16 (LOAD_UC16 (b)) << (ushort16) (1)) +
      convert_ushort16 (LOAD_UC16 (c));
}

/* scalar bytes [a, b) of a row: the borders, outside the hot loop */
inline void
g3_scalar (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, __global uchar * o, int x, int end, int step,
    int alpha, int units)
{
  int comp = x % step;
  for (; x < end; x++) {
    o[x] = comp == alpha ? b[x] : g3_sample (a, b, c, x, step, units);
    if (++comp == step)
      comp = 0;
  }
}

inline void
g3_vector (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, __global uchar * o, int x, int step,
    uchar16 amask)
{
  const ushort16 l = g3_column (a + x - step, b + x - step, c + x - step);
  const ushort16 m = g3_column (a + x, b + x, c + x);
  const ushort16 r = g3_column (a + x + step, b + x + step, c + x + step);
  const uchar16 res = convert_uchar16 ((l + (m << (ushort16) (1)) + r +
          (ushort16) (8)) >> (ushort16) (4));
  STORE_UC16 (o + x, bitselect (res, LOAD_UC16 (b + x), amask));
}

#ifdef GST_CL_HAVE_SHIFTS
/* CPUs: each 16-byte block's vertical sums are computed once, and the
 * left and right neighbours (one pixel, `step` bytes, away) come from the
 * blocks around it by lane shifts across two registers (vpalignr and
 * vperm2i128 on AVX2), so 16 outputs cost 3 loads instead of 9. The
 * blocks below byte 16 (no block to their left) go through g3_vector; then
 * 32 outputs [x, x + 32) per iteration while x + 16 <= end (end: the last
 * vector start the generic loop would take) and the sums of
 * [x + 32, x + 48) lie in the row; returns where it stopped. x stays on a
 * pixel boundary, so amask keeps the alpha bytes as g3_vector does, with
 * the same integer arithmetic (shifts: common.cl). */
inline uchar16
g3_block (ushort16 left, ushort16 mid, ushort16 right)
{
  return convert_uchar16 ((left + (mid << (ushort16) (1)) + right +
          (ushort16) (8)) >> (ushort16) (4));
}

#define G3_RUN(s)                                                       \
  for (; x + 16 <= end && x + 48 <= units; x += 32) {                   \
    const ushort16 n1 = g3_column (a + x + 16, b + x + 16, c + x + 16); \
    const ushort16 n2 = g3_column (a + x + 32, b + x + 32, c + x + 32); \
    STORE_UC16 (o + x, bitselect (g3_block (GST_CL_RIGHT_BY (prev, cur, \
                    s), cur, GST_CL_LEFT_BY (cur, n1, s)),              \
            LOAD_UC16 (b + x), amask));                                 \
    STORE_UC16 (o + x + 16, bitselect (g3_block (GST_CL_RIGHT_BY (cur,  \
                    n1, s), n1, GST_CL_LEFT_BY (n1, n2, s)),            \
            LOAD_UC16 (b + x + 16), amask));                            \
    prev = n1;                                                          \
    cur = n2;                                                           \
  }

inline int
g3_run_shifted (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, __global uchar * o, int x, int end, int units,
    int step, uchar16 amask)
{
  for (; x < end && x < 16; x += 16)
    g3_vector (a, b, c, o, x, step, amask);
  if (x < 16 || x + 16 > end || x + 48 > units)
    return x;
  ushort16 prev = g3_column (a + x - 16, b + x - 16, c + x - 16);
  ushort16 cur = g3_column (a + x, b + x, c + x);
  if (step == 1) {
    G3_RUN (1);
  } else if (step == 3) {
    G3_RUN (3);
  } else if (step == 4) {
    G3_RUN (4);
  }
  return x;
}
#endif

/* Two output rows (b and c) from four source rows: the horizontal sums of
 * the two middle rows serve both outputs, so 12 loads give 32 bytes. */
inline void
g3_vector2 (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, const __global uchar * d, __global uchar * o1,
    __global uchar * o2, int x, int step, uchar16 amask)
{
  const ushort16 bm = convert_ushort16 (LOAD_UC16 (b + x));
  const ushort16 cm = convert_ushort16 (LOAD_UC16 (c + x));
  const ushort16 ha = convert_ushort16 (LOAD_UC16 (a + x - step)) +
      (convert_ushort16 (LOAD_UC16 (a + x)) << (ushort16) (1)) +
      convert_ushort16 (LOAD_UC16 (a + x + step));
  const ushort16 hb = convert_ushort16 (LOAD_UC16 (b + x - step)) +
      (bm << (ushort16) (1)) + convert_ushort16 (LOAD_UC16 (b + x + step));
  const ushort16 hc = convert_ushort16 (LOAD_UC16 (c + x - step)) +
      (cm << (ushort16) (1)) + convert_ushort16 (LOAD_UC16 (c + x + step));
  const ushort16 hd = convert_ushort16 (LOAD_UC16 (d + x - step)) +
      (convert_ushort16 (LOAD_UC16 (d + x)) << (ushort16) (1)) +
      convert_ushort16 (LOAD_UC16 (d + x + step));
  const ushort16 mid = hb + hc + (ushort16) (8);
  const uchar16 r1 = convert_uchar16 ((ha + hb + mid) >> (ushort16) (4));
  const uchar16 r2 = convert_uchar16 ((mid + hc + hd) >> (ushort16) (4));
  STORE_UC16 (o1 + x, bitselect (r1, convert_uchar16 (bm), amask));
  STORE_UC16 (o2 + x, bitselect (r2, convert_uchar16 (cm), amask));
}

__kernel void
gaussian3_buffer (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows)
{
  int x0, x1, y0, y1, x, y;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  const uchar16 amask = gst_cl_alpha_mask16 (alpha, step);
  /* vectors of 16 starting in [vlo, vhi] have all their neighbours inside
   * the row; the last one may overlap the one before (same values). vhi
   * keeps the alpha lanes aligned: units and x1 are multiples of the pixel
   * size whenever there is an alpha byte. */
  const int vlo = max (x0, step);
  const int vhi = min (x1, units - step) - 16;

  /* pairs of rows: a quarter fewer loads, which pays on GPUs. On CPUs one
   * row at a time is faster on frames that come from memory (six streams of
   * rows instead of four; measured in bench/results/performance-history.md) */
#ifdef GST_CL_CPU
  const int pairs = 0;
#else
  const int pairs = 1;
#endif
  for (y = y0; pairs && y + 1 < y1 && vhi >= vlo; y += 2) {
    const __global uchar *a = src + (size_t) max (y - 1, 0) * src_stride;
    const __global uchar *b = src + (size_t) y * src_stride;
    const __global uchar *c = b + src_stride;
    const __global uchar *d = src + (size_t) min (y + 2, height - 1) * src_stride;
    __global uchar *o1 = dst + (size_t) y * dst_stride;
    __global uchar *o2 = o1 + dst_stride;

    if (x0 < vlo) {
      g3_scalar (a, b, c, o1, x0, vlo, step, alpha, units);
      g3_scalar (b, c, d, o2, x0, vlo, step, alpha, units);
    }
    for (x = vlo; x < vhi; x += 16)
      g3_vector2 (a, b, c, d, o1, o2, x, step, amask);
    g3_vector2 (a, b, c, d, o1, o2, vhi, step, amask);
    if (vhi + 16 < x1) {
      g3_scalar (a, b, c, o1, vhi + 16, x1, step, alpha, units);
      g3_scalar (b, c, d, o2, vhi + 16, x1, step, alpha, units);
    }
  }
  /* the last row, or every row of narrow chunks, or all rows on CPUs */
  for (; y < y1; y++) {
    const __global uchar *a = src + (size_t) max (y - 1, 0) * src_stride;
    const __global uchar *b = src + (size_t) y * src_stride;
    const __global uchar *c = src + (size_t) min (y + 1, height - 1) * src_stride;
    __global uchar *o = dst + (size_t) y * dst_stride;

    if (vhi < vlo) {            /* narrow: no room for a vector */
      g3_scalar (a, b, c, o, x0, x1, step, alpha, units);
      continue;
    }
    if (x0 < vlo)
      g3_scalar (a, b, c, o, x0, vlo, step, alpha, units);
    x = vlo;
#ifdef GST_CL_HAVE_SHIFTS
    x = g3_run_shifted (a, b, c, o, x, vhi, units, step, amask);
#endif
    for (; x < vhi; x += 16)
      g3_vector (a, b, c, o, x, step, amask);
    g3_vector (a, b, c, o, vhi, step, amask);
    if (vhi + 16 < x1)
      g3_scalar (a, b, c, o, vhi + 16, x1, step, alpha, units);
  }
}

/* GPUs, 3x3 on rows whose stride and length are multiples of 8 (the host
 * checks, gst_cl_launch_words8; every common width of 4-byte pixels, GRAY8
 * and planes of widths that are multiples of 8): a work-item owns 8 bytes
 * of `rows` rows and walks down them, keeping the horizontal sums
 * l + 2c + r of three rows in packed 16-bit lanes (gst_cl_hsum8_packed in
 * common.cl: at most 1020 a lane, the vertical sum below at most 4088). The
 * arguments are gaussian3_buffer's (chunk is 8 here), so that the host
 * launches both alike. */
inline __attribute__ ((always_inline)) void
g3_words8 (__global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int units, int height, int step, int alpha, int rows)
{
  const int x = (int) get_global_id (0) * 8;
  const int y0 = (int) get_global_id (1) * rows;
  if (x >= units || y0 >= height)
    return;
  const int y1 = min (y0 + rows, height);
  /* x is a multiple of 8, so of the pixel size wherever there is alpha */
  const uint2 keep = as_uint2 (gst_cl_alpha_mask16 (alpha, step).lo);
  uint2 e0, o0, e1, o1, e2, o2, c0, c1, c2;
  gst_cl_hsum8_packed (src + (size_t) max (y0 - 1, 0) * src_stride, x,
      units, step, 1, &e0, &o0, &c0);
  gst_cl_hsum8_packed (src + (size_t) y0 * src_stride, x, units, step, 1,
      &e1, &o1, &c1);
  for (int y = y0; y < y1; y++) {
    gst_cl_hsum8_packed (src + (size_t) min (y + 1, height - 1) * src_stride,
        x, units, step, 1, &e2, &o2, &c2);
    /* (sum + 8) >> 4 in each 16-bit lane */
    const uint2 se = e0 + (e1 << 1) + e2 + (uint2) (0x00080008u);
    const uint2 so = o0 + (o1 << 1) + o2 + (uint2) (0x00080008u);
    const uint2 res = ((se >> 4) & GST_CL_EVEN_BYTES) |
        (((so >> 4) & GST_CL_EVEN_BYTES) << 8);
    *(__global uint2 *) (dst + (size_t) y * dst_stride + x) =
        bitselect (res, c1, keep);
    e0 = e1;
    o0 = o1;
    e1 = e2;
    o1 = o2;
    c1 = c2;
  }
}

/* The pixel size a constant in each copy of the walk: the neighbours'
 * shifts are then fixed (none at all for 4-byte pixels), which measured
 * faster on GPUs (docs/performance.md, "GPU: kernels"). Pixels of
 * 4 bytes or 1 only: the others run gaussian3_words8_any, so that the
 * copies of the common sizes are not compiled beside a walk of a run-time
 * size (as measured for laplace_words8). */
__kernel void
gaussian3_words8 (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows)
{
  if (step == 4)
    g3_words8 (src, src_stride, dst, dst_stride, units, height, 4, alpha,
        rows);
  else
    g3_words8 (src, src_stride, dst, dst_stride, units, height, 1, alpha,
        rows);
}

/* gaussian3_words8 for pixels of other sizes (2 and 3 bytes) */
__kernel void
gaussian3_words8_any (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows)
{
  g3_words8 (src, src_stride, dst, dst_stride, units, height, step, alpha,
      rows);
}

/* ---------------------------------------------------------------------- */
/* Any radius on buffers, CPU shape: per row, the vertical sums of the     */
/* work-item's columns (plus radius pixels each side, replicated at the    */
/* borders) go to a __local row, then the horizontal pass reads it. Source */
/* rows stay in cache, so each byte is read from memory once.              */

/* vertical sums of 16 columns at x into t */
inline void
gf_vsum16 (const __global uchar * src, const int *off, int radius,
    __constant ushort * wt, int x, __local ushort * t)
{
  ushort16 acc = convert_ushort16 (LOAD_UC16 (src + off[radius] + x)) *
      (ushort16) (wt[0]);
  for (int j = 1; j <= radius; j++)
    acc += (convert_ushort16 (LOAD_UC16 (src + off[radius - j] + x)) +
        convert_ushort16 (LOAD_UC16 (src + off[radius + j] + x))) *
        (ushort16) (wt[j]);
  STORE_F16_L (t, convert_float16 (acc));
}

/* the same for 64 columns: the row offsets and weights serve four vectors */
inline void
gf_vsum64 (const __global uchar * src, const int *off, int radius,
    __constant ushort * wt, int x, __local float * t)
{
  const __global uchar *m = src + off[radius] + x;
  const ushort16 w0 = (ushort16) (wt[0]);
  ushort16 acc0 = convert_ushort16 (LOAD_UC16 (m)) * w0;
  ushort16 acc1 = convert_ushort16 (LOAD_UC16 (m + 16)) * w0;
  ushort16 acc2 = convert_ushort16 (LOAD_UC16 (m + 32)) * w0;
  ushort16 acc3 = convert_ushort16 (LOAD_UC16 (m + 48)) * w0;
  for (int j = 1; j <= radius; j++) {
    const __global uchar *u = src + off[radius - j] + x;
    const __global uchar *d = src + off[radius + j] + x;
    const ushort16 w = (ushort16) (wt[j]);
    acc0 += (convert_ushort16 (LOAD_UC16 (u)) +
        convert_ushort16 (LOAD_UC16 (d))) * w;
    acc1 += (convert_ushort16 (LOAD_UC16 (u + 16)) +
        convert_ushort16 (LOAD_UC16 (d + 16))) * w;
    acc2 += (convert_ushort16 (LOAD_UC16 (u + 32)) +
        convert_ushort16 (LOAD_UC16 (d + 32))) * w;
    acc3 += (convert_ushort16 (LOAD_UC16 (u + 48)) +
        convert_ushort16 (LOAD_UC16 (d + 48))) * w;
  }
  STORE_F16_L (t, convert_float16 (acc0));
  STORE_F16_L (t + 16, convert_float16 (acc1));
  STORE_F16_L (t + 32, convert_float16 (acc2));
  STORE_F16_L (t + 48, convert_float16 (acc3));
}

/* (acc + 32768) >> 16 as bytes, acc holding the +32768 already: scaling
 * by 2^-16 is exact, truncation floors */
inline uchar16
gf_round16 (float16 acc)
{
  return convert_uchar16_sat (convert_int16 (acc * (float16) (1.0f / 65536.0f)));
}

/* horizontal pass of 16 bytes at x from the vertical sums tc[] */
inline void
gf_hsum16 (const __local float * tc, const __global uchar * mid,
    __global uchar * o, int radius, int step, const float *wf, int x,
    uchar16 amask)
{
  float16 acc = LOAD_F16_L (tc + x) * (float16) (wf[0]) + (float16) (32768.0f);
  for (int i = 1; i <= radius; i++)
    acc += (LOAD_F16_L (tc + x - i * step) + LOAD_F16_L (tc + x + i * step)) *
        (float16) (wf[i]);
  STORE_UC16 (o + x, bitselect (gf_round16 (acc), LOAD_UC16 (mid + x), amask));
}

/* the same for 32 bytes */
inline void
gf_hsum32 (const __local float * tc, const __global uchar * mid,
    __global uchar * o, int radius, int step, const float *wf, int x,
    uchar16 amask)
{
  float16 acc0 = LOAD_F16_L (tc + x) * (float16) (wf[0]) + (float16) (32768.0f);
  float16 acc1 = LOAD_F16_L (tc + x + 16) * (float16) (wf[0]) +
      (float16) (32768.0f);
  for (int i = 1; i <= radius; i++) {
    const __local float *l = tc + x - i * step, *r = tc + x + i * step;
    const float16 w = (float16) (wf[i]);
    acc0 += (LOAD_F16_L (l) + LOAD_F16_L (r)) * w;
    acc1 += (LOAD_F16_L (l + 16) + LOAD_F16_L (r + 16)) * w;
  }
  STORE_UC16 (o + x, bitselect (gf_round16 (acc0), LOAD_UC16 (mid + x), amask));
  x += 16;
  STORE_UC16 (o + x, bitselect (gf_round16 (acc1), LOAD_UC16 (mid + x), amask));
}

__kernel void
gaussian_buffer_fused (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, __constant ushort * wt, int radius,
    __local float * scratch)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  const int pad = radius * step;
  /* t[i] holds the vertical sum of column x0 - pad + i */
  __local float *t = scratch + get_local_id (0) * (size_t) (chunk + 2 * pad);
  const int t0 = x0 - pad;
  const int c_lo = max (t0, 0);
  const int c_hi = min (x1 + pad, units);
  const uchar16 amask = gst_cl_alpha_mask16 (alpha, step);
  const __local float *tc = t + pad - x0;       /* tc[x]: column x */
  int off[2 * GST_CL_GAUSSIAN_MAX_RADIUS + 1];
  float wf[GST_CL_GAUSSIAN_MAX_RADIUS + 1];

  for (int i = 0; i <= radius; i++)
    wf[i] = wt[i];

  for (int y = y0; y < y1; y++) {
    const __global uchar *mid = src + (size_t) y * src_stride;
    __global uchar *o = dst + (size_t) y * dst_stride;
    int x;

    for (int j = -radius; j <= radius; j++)
      off[j + radius] = clamp (y + j, 0, height - 1) * src_stride;

    /* vertical pass over the columns inside the plane; the last vector may
     * overlap the one before */
    if (c_hi - c_lo >= 16) {
      for (x = c_lo; x < c_hi - 64; x += 64)
        gf_vsum64 (src, off, radius, wt, x, t + (x - t0));
      for (; x < c_hi - 16; x += 16)
        gf_vsum16 (src, off, radius, wt, x, t + (x - t0));
      gf_vsum16 (src, off, radius, wt, c_hi - 16, t + (c_hi - 16 - t0));
    } else {
      for (x = c_lo; x < c_hi; x++) {
        uint acc = mid[x] * wt[0];
        for (int j = 1; j <= radius; j++)
          acc += (src[off[radius - j] + x] + src[off[radius + j] + x]) * wt[j];
        t[x - t0] = (float) acc;
      }
    }
    /* replicate the edge pixels' sums into the columns outside the plane */
    for (x = t0; x < 0; x++)
      t[x - t0] = t[(x % step + step) % step - t0];
    for (x = units; x < x1 + pad; x++)
      t[x - t0] = t[units - step + x % step - t0];

    /* horizontal pass */
    if (x1 - x0 >= 16) {
      for (x = x0; x < x1 - 32; x += 32)
        gf_hsum32 (tc, mid, o, radius, step, wf, x, amask);
      for (; x < x1 - 16; x += 16)
        gf_hsum16 (tc, mid, o, radius, step, wf, x, amask);
      gf_hsum16 (tc, mid, o, radius, step, wf, x1 - 16, amask);
    } else {
      for (x = x0; x < x1; x++) {
        if (x % step == alpha) {
          o[x] = mid[x];
          continue;
        }
        float acc = tc[x] * wf[0] + 32768.0f;
        for (int i = 1; i <= radius; i++)
          acc += (tc[x - i * step] + tc[x + i * step]) * wf[i];
        o[x] = (uchar) (convert_uint (acc) >> 16);
      }
    }
  }
}

/* ---------------------------------------------------------------------- */
/* Any radius on buffers, GPU shape, one pass: a work-group filters a tile  */
/* of 4 x get_local_size (0) bytes by `rows` rows through local memory,    */
/* each work-item four bytes (a 32-bit word) of a row:                     */
/* - the tile and its borders (radius rows above and below, `halo` bytes,  */
/*   radius pixels rounded up to a word, left and right, replicated by     */
/*   pixel at the frame's edges) are loaded a word at a time (aligned      */
/*   words inside the row; bytes at the edges or on unaligned rows);       */
/* - the vertical pass sums a word's four bytes at once, in 16-bit lanes   */
/*   packed two to a word (even and odd bytes: at most 255 x 256 a lane,   */
/*   no carry), and stores the four sums as a ushort4;                     */
/* - the horizontal pass reads the sums a ushort4 at a time (aligned       */
/*   vectors for four-byte pixels).                                        */
/* The same integer arithmetic as the two passes below, so the same        */
/* output, with about a quarter of the local loads of one byte per         */
/* work-item: NVIDIA's GPUs were bound by those.                           */

/* gaussian_buffer_tile's tile: rows + 2 radius rows of tw4 words from
 * x0 - halo, clamped by pixel, into in */
inline void
tile_load (__global const uchar * src, int src_stride, int units, int height,
    int step, int rows, int radius, int halo, int x0, int y0, int tw4,
    __local uint * in)
{
  const int lx = get_local_id (0), group = get_local_size (0);
  const int width = units / step;
  const int src_aligned = (src_stride & 3) == 0 &&
      ((size_t) src & 3) == 0;

  for (int ty = 0; ty < rows + 2 * radius; ty++) {
    const int y = clamp (y0 - radius + ty, 0, height - 1);
    const __global uchar *row = src + (size_t) y * src_stride;
    for (int t = lx; t < tw4; t += group) {
      const int u = x0 - halo + 4 * t;
      uint word = 0;
      if (src_aligned && u >= 0 && u + 3 < units) {
        word = *(const __global uint *) (row + u);
      } else {
        for (int b = 0; b < 4; b++) {
          int ub = u + b;
          if (ub < 0 || ub >= units) {
            const int comp = ((ub % step) + step) % step;
            ub = (ub < 0 ? 0 : (width - 1) * step) + comp;
          }
          word |= (uint) row[ub] << (8 * b);
        }
      }
      in[ty * tw4 + t] = word;
    }
  }
}

/* gaussian_buffer_tile's vertical pass over every word of the tile, four
 * bytes at once, into vs */
inline void
tile_vertical (__constant ushort * wt, int rows, int radius, int tw4,
    const __local uint * in, __local ushort * vs)
{
  const int lx = get_local_id (0), group = get_local_size (0);

  for (int ry = 0; ry < rows; ry++) {
    const __local uint *c = in + (ry + radius) * tw4;
    for (int t = lx; t < tw4; t += group) {
      const uint w0 = wt[0], m = c[t];
      uint even = (m & 0x00ff00ffu) * w0, odd = ((m >> 8) & 0x00ff00ffu) * w0;
      for (int j = 1; j <= radius; j++) {
        const uint a = c[t - j * tw4], b = c[t + j * tw4], wj = wt[j];
        even += ((a & 0x00ff00ffu) + (b & 0x00ff00ffu)) * wj;
        odd += (((a >> 8) & 0x00ff00ffu) + ((b >> 8) & 0x00ff00ffu)) * wj;
      }
      vstore4 ((ushort4) ((ushort) even, (ushort) odd, (ushort) (even >> 16),
              (ushort) (odd >> 16)), 0, vs + (ry * tw4 + t) * 4);
    }
  }
}

/* the horizontal sum of the four bytes at v of a row of vertical sums */
inline uint4
tile_hsum (const __local ushort * v, __constant ushort * wt, int radius,
    int step)
{
  uint4 acc;

  if (step == 4) {
    /* neighbours a whole vector away: aligned loads */
    const __local ushort4 *v4 = (const __local ushort4 *) v;
    acc = convert_uint4 (v4[0]) * (uint) wt[0];
    for (int i = 1; i <= radius; i++)
      acc += (convert_uint4 (v4[-i]) + convert_uint4 (v4[i])) * (uint) wt[i];
  } else {
    acc = convert_uint4 (vload4 (0, v)) * (uint) wt[0];
    for (int i = 1; i <= radius; i++)
      acc += (convert_uint4 (vload4 (0, v - i * step)) +
          convert_uint4 (vload4 (0, v + i * step))) * (uint) wt[i];
  }
  return (acc + 32768) >> 16;
}

__kernel void
gaussian_buffer_tile (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int rows, __constant ushort * wt, int radius, int halo,
    __local uint * in, __local ushort4 * vs4)
{
  /* vs4: typed so that the runtime aligns it for the vector loads (NVIDIA
   * faults on a misaligned local vector load) */
  __local ushort *vs = (__local ushort *) vs4;
  const int lx = get_local_id (0), group = get_local_size (0);
  const int x0 = get_group_id (0) * 4 * group, y0 = get_group_id (1) * rows;
  const int tw4 = group + 2 * halo / 4;         /* tile row, in words */
  const int dst_aligned = (dst_stride & 3) == 0 &&
      ((size_t) dst & 3) == 0;

  tile_load (src, src_stride, units, height, step, rows, radius, halo, x0,
      y0, tw4, in);
  barrier (CLK_LOCAL_MEM_FENCE);
  tile_vertical (wt, rows, radius, tw4, in, vs);
  barrier (CLK_LOCAL_MEM_FENCE);

  /* horizontal pass: this work-item's four bytes of each row */
  const int x = x0 + 4 * lx;
  if (x >= units)
    return;
  for (int ry = 0; ry < rows && y0 + ry < height; ry++) {
    uint4 res = tile_hsum (vs + ry * tw4 * 4 + halo + 4 * lx, wt, radius,
        step);
    if (alpha >= 0) {
      /* the kept component, from the source word */
      const uint m = in[(ry + radius) * tw4 + halo / 4 + lx];
      const uint4 sb = (uint4) (m, m >> 8, m >> 16, m >> 24) & 0xffu;
      const int4 comp = ((int4) (x) + (int4) (0, 1, 2, 3)) % step;
      res = select (res, sb, comp == (int4) (alpha));
    }
    const uchar4 o = convert_uchar4 (res);
    __global uchar *d = dst + (size_t) (y0 + ry) * dst_stride + x;
    if (dst_aligned && x + 3 < units) {
      *(__global uchar4 *) d = o;
    } else {
      d[0] = o.s0;
      if (x + 1 < units)
        d[1] = o.s1;
      if (x + 2 < units)
        d[2] = o.s2;
      if (x + 3 < units)
        d[3] = o.s3;
    }
  }
}

/* ---------------------------------------------------------------------- */
/* Any radius on buffers, GPU shape: a vertical pass to a 16-bit plane,    */
/* then a horizontal pass. Neighbouring work-items read neighbouring bytes */

__kernel void
gaussian_buffer_vpass (__global const uchar * src, int src_stride,
    __global ushort * tmp, int tmp_stride, int units, int height,
    int chunk, int rows, __constant ushort * wt, int radius)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (int y = y0; y < y1; y++) {
    for (int x = x0; x < x1; x++) {
      uint acc = src[(size_t) y * src_stride + x] * wt[0];
      for (int j = 1; j <= radius; j++)
        acc += (src[(size_t) max (y - j, 0) * src_stride + x] +
            src[(size_t) min (y + j, height - 1) * src_stride + x]) * wt[j];
      tmp[(size_t) y * tmp_stride + x] = (ushort) acc;
    }
  }
}

__kernel void
gaussian_buffer_hpass (__global const ushort * tmp, int tmp_stride,
    __global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int units, int height, int step, int alpha, int chunk,
    int rows, __constant ushort * wt, int radius)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  const int width = units / step;
  for (int y = y0; y < y1; y++) {
    const __global ushort *t = tmp + (size_t) y * tmp_stride;
    for (int x = x0; x < x1; x++) {
      const int px = x / step, comp = x - px * step;
      uchar out;
      if (comp == alpha) {
        out = src[(size_t) y * src_stride + x];
      } else {
        uint acc = t[x] * wt[0];
        for (int i = 1; i <= radius; i++)
          acc += (t[max (px - i, 0) * step + comp] +
              t[min (px + i, width - 1) * step + comp]) * wt[i];
        out = (uchar) ((acc + 32768) >> 16);
      }
      dst[(size_t) y * dst_stride + x] = out;
    }
  }
}

/* ---------------------------------------------------------------------- */
/* Images. A work-item covers texels; coordinates are clamped by pixel so  */
/* that RGB stored as three texels per pixel replicates correctly.         */

/* res with component `alpha` (if >= 0) taken from m */
inline uint4
keep_component (uint4 res, uint4 m, int alpha)
{
  return select (res, m, (int4) (0, 1, 2, 3) == (int4) (alpha));
}

inline uint4
g_texel (read_only image2d_t im, int px, int comp, int step, int width,
    int y, int height)
{
  const int2 pos = (int2) (clamp (px, 0, width - 1) * step + comp,
      clamp (y, 0, height - 1));
  return read_imageui (im, GST_CL_SAMPLER, pos);
}

/* l + 2c + r of the value bits (wmask) of row y around pixel px, whose
 * texel is c */
inline uint4
g3_texel_row (read_only image2d_t im, int px, int comp, int step, int width,
    int y, int height, uint4 c, uint wmask)
{
  return (g_texel (im, px - 1, comp, step, width, y, height) & wmask) +
      2 * (c & wmask) +
      (g_texel (im, px + 1, comp, step, width, y, height) & wmask);
}

/* Images of 8-bit and 16-bit channels: read_imageui gives the stored
 * sample, so the value's bits are selected with wmask (the value's bits in
 * place: 0xff for 8 bits, (2^D - 1) << shift for D bits) and the binomial
 * runs on the masked samples, whose rounding constant is 8 << shift: as
 * (sum + 8) >> 4 on the values, moved up by shift (see g16_3_round). */
__kernel void
gaussian3_image (read_only image2d_t src, write_only image2d_t dst,
    int width, int height, int step, int alpha, int chunk, int rows,
    int shift, uint wmask)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (width * step, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (int y = y0; y < y1; y++) {
    for (int x = x0; x < x1; x++) {
      const int px = x / step, c = x - px * step;
      const uint4 m = g_texel (src, px, c, step, width, y, height);
      const uint4 up = g_texel (src, px, c, step, width, y - 1, height);
      const uint4 down = g_texel (src, px, c, step, width, y + 1, height);
      const uint4 sum =
          g3_texel_row (src, px, c, step, width, y - 1, height, up, wmask) +
          2 * g3_texel_row (src, px, c, step, width, y, height, m, wmask) +
          g3_texel_row (src, px, c, step, width, y + 1, height, down, wmask);
      const uint4 res = ((sum + (8u << shift)) >> 4) & wmask;
      write_imageui (dst, (int2) (x, y), keep_component (res, m, alpha));
    }
  }
}

__kernel void
gaussian_image_vpass (read_only image2d_t src, __global ushort4 * tmp,
    int width, int height, int step, int chunk, int rows,
    __constant ushort * wt, int radius)
{
  int x0, x1, y0, y1;
  const int units = width * step;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (int y = y0; y < y1; y++) {
    for (int x = x0; x < x1; x++) {
      uint4 acc = read_imageui (src, GST_CL_SAMPLER, (int2) (x, y)) * wt[0];
      for (int j = 1; j <= radius; j++)
        acc += (read_imageui (src, GST_CL_SAMPLER, (int2) (x, max (y - j, 0))) +
            read_imageui (src, GST_CL_SAMPLER, (int2) (x, min (y + j,
                        height - 1)))) * wt[j];
      tmp[(size_t) y * units + x] = convert_ushort4 (acc);
    }
  }
}

__kernel void
gaussian_image_hpass (__global const ushort4 * tmp, read_only image2d_t src,
    write_only image2d_t dst, int width, int height, int step, int alpha,
    int chunk, int rows, __constant ushort * wt, int radius)
{
  int x0, x1, y0, y1;
  const int units = width * step;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (int y = y0; y < y1; y++) {
    const __global ushort4 *t = tmp + (size_t) y * units;
    for (int x = x0; x < x1; x++) {
      const int px = x / step, c = x - px * step;
      uint4 acc = convert_uint4 (t[x]) * wt[0];
      for (int i = 1; i <= radius; i++)
        acc += (convert_uint4 (t[max (px - i, 0) * step + c]) +
            convert_uint4 (t[min (px + i, width - 1) * step + c])) * wt[i];
      uint4 res = (acc + 32768) >> 16;
      if (alpha >= 0)
        res = keep_component (res, read_imageui (src, GST_CL_SAMPLER,
                (int2) (x, y)), alpha);
      write_imageui (dst, (int2) (x, y), res);
    }
  }
}
