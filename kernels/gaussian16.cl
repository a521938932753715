/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gaussian16.cl: clgaussian's kernels for formats of more than 8 bits per
 * sample. Built in one program after gaussian.cl (kernels/embed.py), whose
 * helpers they use. */

/* ====================================================================== */
/* More than 8 bits per sample                                            */
/*                                                                        */
/* Rows of 16-bit little-endian samples (units are samples, strides are   */
/* bytes, always even). A sample holds its value v of D bits at bit       */
/* `shift`; `wmask` = (2^D - 1) << shift selects those bits. The kernels  */
/* compute on the masked samples (v << shift), which are exact in 32-bit  */
/* integers and in floats, and saves a shift per load: bits outside the   */
/* value are ignored on input, and written as zero.                       */
/*                                                                        */
/* - 3x3 binomial: exact, ((sum + (8 << shift)) >> 4) & wmask, which is   */
/*   ((sum_v + 8) >> 4) << shift (the bits the shift brings below the     */
/*   value are masked off); on CPUs, depths up to 12 bits sum the values  */
/*   themselves in 16-bit lanes (g12_3_run), to the same result.          */
/* - other kernels: float weights (OpenCV's double kernel rounded to      */
/*   float; Q8 weights, as the 8-bit kernels use, are up to hundreds of   */
/*   levels off on 16-bit samples), a vertical pass then a horizontal     */
/*   pass, every step an explicit fma or a plain product or sum (never    */
/*   left to the compiler's contraction, which may differ between scalar  */
/*   and vector code and between devices), in the same order in every     */
/*   kernel: CPU strips, GPU tiles, the two-pass fallback and images give */
/*   identical output. The result rounds half up: the integer part of     */
/*   acc * 2^-shift + 0.5 (the product by a power of two is exact, so     */
/*   contracting this one is harmless), at most 2^D - 1, moved back up.   */

/* all ones in the lanes of 8 samples (starting on a pixel boundary) that
 * hold the sample kept unchanged; all zero when alpha < 0 */
inline ushort8
g16_alpha_mask8 (int alpha, int step)
{
  const ushort8 iota = (ushort8) (0, 1, 2, 3, 4, 5, 6, 7);
  if (alpha < 0)
    return (ushort8) (0);
  return as_ushort8 (iota % (ushort8) (step) == (ushort8) (alpha));
}

/* 8 masked samples at p, as 32-bit lanes */
inline int8
g16_load8 (const __global ushort * p, ushort8 m)
{
  return convert_int8 (LOAD_US8 (p) & m);
}

/* ---------------------------------------------------------------------- */
/* 3x3 binomial on 16-bit buffers                                          */

inline ushort8
g16_3_round (int8 sum, int rnd, int wmask)
{
  return convert_ushort8 (((sum + (int8) (rnd)) >> 4) & (int8) (wmask));
}

/* one sample, scalar: borders and narrow rows */
inline ushort
g16_3_sample (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, int x, int step, int units, uint m, uint rnd)
{
  const int l = x >= step ? x - step : x;
  const int r = x + step < units ? x + step : x;
  const uint s = (a[l] & m) + 2 * (a[x] & m) + (a[r] & m) +
      2 * ((b[l] & m) + 2 * (b[x] & m) + (b[r] & m)) +
      (c[l] & m) + 2 * (c[x] & m) + (c[r] & m);
  return (ushort) (((s + rnd) >> 4) & m);
}

inline void
g16_3_scalar (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, __global ushort * o, int x, int end, int step,
    int alpha, int units, uint m, uint rnd)
{
  int comp = x % step;
  for (; x < end; x++) {
    o[x] = comp == alpha ? b[x] : g16_3_sample (a, b, c, x, step, units, m,
        rnd);
    if (++comp == step)
      comp = 0;
  }
}

/* the vertical sums a + 2b + c of the 8 samples at x */
inline int8
g16_3_column (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, int x, ushort8 m)
{
  return g16_load8 (a + x, m) + (g16_load8 (b + x, m) << 1) +
      g16_load8 (c + x, m);
}

/* 8 outputs at x from nine loads (neighbours inside the row) */
inline void
g16_3_vector (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, __global ushort * o, int x, int step,
    ushort8 m, int rnd, ushort8 amask)
{
  const int8 sum = g16_3_column (a, b, c, x - step, m) +
      (g16_3_column (a, b, c, x, m) << 1) +
      g16_3_column (a, b, c, x + step, m);
  STORE_US8 (o + x, bitselect (g16_3_round (sum, rnd, m.s0), LOAD_US8 (b + x),
          amask));
}

#ifdef GST_CL_HAVE_SHIFTS
/* CPUs: as g3_run_shifted, on blocks of 16 samples in 32-bit lanes (POCL
 * gives them one AVX-512 register where there is one, two AVX2 ones
 * elsewhere): each block's vertical sums once, the neighbours `s` samples
 * away by lane shifts across two blocks (GST_CL_RIGHT_BY, common.cl), so
 * 16 outputs cost 3 loads instead of 9. Blocks go [x, x + 16) while
 * x + 8 <= end (end: the last 8-sample vector start of the generic loop)
 * and the block after lies in the row; the first needs the block before:
 * x >= 16. */
inline int16
g16_3_column16 (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, int x, ushort16 m)
{
  return convert_int16 (LOAD_US16 (a + x) & m) +
      (convert_int16 (LOAD_US16 (b + x) & m) << 1) +
      convert_int16 (LOAD_US16 (c + x) & m);
}

/* The first sample index from x on whose address in row is a multiple of
 * n samples (n a power of two): blocks loaded from there never straddle
 * cache lines (measurably slower on POCL when every load does). */
inline int
g16_align (const __global ushort * row, int x, int n)
{
  return x + ((n - (int) ((((size_t) row >> 1) + x) & (n - 1))) & (n - 1));
}

/* keep: pixels have a kept sample (only RGBA64_LE: s = 4) */
#define G16_3_RUN(s, keep)                                              \
  for (; x + 8 <= end && x + 32 <= units; x += 16) {                    \
    const int16 next = g16_3_column16 (a, b, c, x + 16, m);             \
    const int16 sum = GST_CL_RIGHT_BY (prev, cur, s) + (cur << 1) +     \
        GST_CL_LEFT_BY (cur, next, s) + (int16) (rnd);                  \
    ushort16 res = convert_ushort16 ((sum >> 4) & (int16) (wmask));     \
    if (keep)                                                           \
      res = bitselect (res, LOAD_US16 (b + x), amask);                  \
    STORE_US16 (o + x, res);                                            \
    prev = cur;                                                         \
    cur = next;                                                         \
  }

inline int
g16_3_run_shifted (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, __global ushort * o, int x, int end,
    int units, int step, int alpha, uint wmask, int rnd, ushort8 amask8)
{
  const ushort16 m = (ushort16) ((ushort) wmask);
  const ushort16 amask = (ushort16) (amask8, amask8);
  /* on a pixel too: the alignment in samples is a multiple of step */
  const int xa = g16_align (b, max (x + 8, 16), 16);
  if (xa + 8 > end || xa + 32 > units || xa % step)
    return x;
  for (; x < xa - 8; x += 8)
    g16_3_vector (a, b, c, o, x, step, m.lo, rnd, amask8);
  g16_3_vector (a, b, c, o, xa - 8, step, m.lo, rnd, amask8);
  x = xa;
  int16 prev = g16_3_column16 (a, b, c, x - 16, m);
  int16 cur = g16_3_column16 (a, b, c, x, m);
  if (step == 1) {
    G16_3_RUN (1, 0);
  } else if (step == 4 && alpha >= 0) {
    G16_3_RUN (4, 1);
  } else if (step == 4) {
    G16_3_RUN (4, 0);
  }
  return x;
}

/* Depths up to 12 bits (P010_10LE, I420_10LE, I420_12LE): the 3x3 sum of
 * values (16 x 4095 at most) fits 16 bits, so the values (shifted down
 * and masked) go in lanes of 16 bits, 32 of them (clang's vector
 * extension: one AVX-512 register, two AVX2 ones): 32 outputs per 3 loads
 * and half the operations of 32-bit lanes. One sample per pixel (the
 * formats' luma). Blocks [x, x + 32) while x + 24 <= end and the block
 * after lies in the row; the first needs the block before: x >= 32. */
typedef ushort g12_ushort32 __attribute__ ((ext_vector_type (32)));
typedef g12_ushort32 __attribute__ ((aligned (2))) g12_ushort32_u;
#define G12_LOAD(p) (*(const __global g12_ushort32_u *) (p))
#define G12_STORE(p, v) (*(__global g12_ushort32_u *) (p) = (v))
#define G12_RIGHT_BY1(p, c) __builtin_shufflevector (p, c, 31, 32, 33, 34, \
    35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, \
    53, 54, 55, 56, 57, 58, 59, 60, 61, 62)
#define G12_LEFT_BY1(c, n) __builtin_shufflevector (c, n, 1, 2, 3, 4, 5, 6, \
    7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, \
    25, 26, 27, 28, 29, 30, 31, 32)

inline g12_ushort32
g12_column (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, int x, g12_ushort32 shift, g12_ushort32 maxv)
{
  return ((G12_LOAD (a + x) >> shift) & maxv) +
      (((G12_LOAD (b + x) >> shift) & maxv) << (g12_ushort32) (1)) +
      ((G12_LOAD (c + x) >> shift) & maxv);
}

inline int
g12_3_run (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, __global ushort * o, int x, int end,
    int units, int shift, int maxv, ushort8 m, int rnd)
{
  const g12_ushort32 sh = (g12_ushort32) ((ushort) shift);
  const g12_ushort32 mv = (g12_ushort32) ((ushort) maxv);
  const int xa = g16_align (b, max (x + 8, 32), 32);
  if (xa + 24 > end || xa + 64 > units)
    return x;
  for (; x < xa - 8; x += 8)
    g16_3_vector (a, b, c, o, x, 1, m, rnd, (ushort8) (0));
  g16_3_vector (a, b, c, o, xa - 8, 1, m, rnd, (ushort8) (0));
  x = xa;
  g12_ushort32 prev = g12_column (a, b, c, x - 32, sh, mv);
  g12_ushort32 cur = g12_column (a, b, c, x, sh, mv);
  for (; x + 24 <= end && x + 64 <= units; x += 32) {
    const g12_ushort32 next = g12_column (a, b, c, x + 32, sh, mv);
    const g12_ushort32 sum = G12_RIGHT_BY1 (prev, cur) +
        (cur << (g12_ushort32) (1)) + G12_LEFT_BY1 (cur, next) +
        (g12_ushort32) (8);
    G12_STORE (o + x, (sum >> (g12_ushort32) (4)) << sh);
    prev = cur;
    cur = next;
  }
  return x;
}
#endif

#ifndef GST_CL_CPU
/* GPUs: a work-item walks down its rows over 8 samples at x, keeping the
 * horizontal sums l + 2c + r of three rows: 3 loads per row instead of 9 */
inline int8
g16_3_hsum (const __global ushort * row, int x, int step, ushort8 m)
{
  return g16_load8 (row + x - step, m) + (g16_load8 (row + x, m) << 1) +
      g16_load8 (row + x + step, m);
}

/* The same from gst_cl_words8_load's aligned words (x a multiple of 8,
 * step 1 or 4, the words beside the 8 samples inside the row) */
inline int8
g16_3_hsum_words (GstClWords8 w, int step, ushort8 m)
{
  uint4 l, r;
  gst_cl_words8_neighbours (w, step, &l, &r);
  return convert_int8 (as_ushort8 (l) & m) +
      (convert_int8 (as_ushort8 (w.centre) & m) << 1) +
      convert_int8 (as_ushort8 (r) & m);
}

/* At most 12 bits (P010, P012): the sums of two samples packed in each
 * 32-bit word, the values (word >> shift) & maxv in 16-bit lanes: a lane
 * holds at most 16 * 4095 + 8 < 2^16, so none carries into the next, and
 * the three rows' sums take half the registers. The results equal
 * g16_3_round's: ((s << shift) + (8 << shift)) >> 4 masked to the value's
 * bits is ((s + 8) >> 4) << shift. pmask: maxv in both lanes. */
inline uint4
g12_3_hsum_words (GstClWords8 w, int step, int shift, uint pmask)
{
  uint4 l, r;
  gst_cl_words8_neighbours (w, step, &l, &r);
  return ((l >> shift) & pmask) + (((w.centre >> shift) & pmask) << 1) +
      ((r >> shift) & pmask);
}

inline void
g12_3_walk_words (const __global ushort * src, int ss, __global ushort * dst,
    int ds, int height, int step, int x, int y0, int y1, int shift,
    uint pmask, ushort8 amask)
{
  uint4 hp = g12_3_hsum_words (gst_cl_words8_load (src + (size_t) max (y0 -
              1, 0) * ss, x, step), step, shift, pmask);
  GstClWords8 w1 = gst_cl_words8_load (src + (size_t) y0 * ss, x, step);
  GstClWords8 next = gst_cl_words8_load (src + (size_t) min (y0 + 1,
          height - 1) * ss, x, step);
  uint4 h1 = g12_3_hsum_words (w1, step, shift, pmask);
  for (int y = y0; y < y1; y++) {
    const GstClWords8 w2 = next;
    next = gst_cl_words8_load (src + (size_t) min (y + 2, height - 1) * ss,
        x, step);
    const uint4 h2 = g12_3_hsum_words (w2, step, shift, pmask);
    const uint4 res = (((hp + (h1 << 1) + h2 + 0x00080008u) >> 4) & pmask)
        << shift;
    *(__global ushort8 *) (dst + (size_t) y * ds + x) =
        bitselect (as_ushort8 (res), as_ushort8 (w1.centre), amask);
    hp = h1;
    h1 = h2;
    w1 = w2;
  }
}

inline void
g16_3_walk (const __global ushort * src, int ss, __global ushort * dst,
    int ds, int height, int step, int x, int y0, int y1, ushort8 m, int rnd,
    ushort8 amask, int aligned)
{
  const __global ushort *above = src + (size_t) max (y0 - 1, 0) * ss;
  const __global ushort *row = src + (size_t) y0 * ss;
  if (aligned) {
    int8 h0 = g16_3_hsum_words (gst_cl_words8_load (above, x, step), step,
        m);
    GstClWords8 w1 = gst_cl_words8_load (row, x, step);
    int8 h1 = g16_3_hsum_words (w1, step, m);
    for (int y = y0; y < y1; y++) {
      const GstClWords8 w2 = gst_cl_words8_load (src + (size_t) min (y + 1,
              height - 1) * ss, x, step);
      const int8 h2 = g16_3_hsum_words (w2, step, m);
      const ushort8 res = g16_3_round (h0 + (h1 << 1) + h2, rnd, m.s0);
      *(__global ushort8 *) (dst + (size_t) y * ds + x) =
          bitselect (res, as_ushort8 (w1.centre), amask);
      h0 = h1;
      h1 = h2;
      w1 = w2;
    }
    return;
  }
  int8 h0 = g16_3_hsum (above, x, step, m);
  int8 h1 = g16_3_hsum (row, x, step, m);
  for (int y = y0; y < y1; y++) {
    const int8 h2 = g16_3_hsum (src + (size_t) min (y + 1, height - 1) * ss,
        x, step, m);
    const ushort8 res = g16_3_round (h0 + (h1 << 1) + h2, rnd, m.s0);
    STORE_US8 (dst + (size_t) y * ds + x, bitselect (res,
            LOAD_US8 (src + (size_t) y * ss + x), amask));
    h0 = h1;
    h1 = h2;
  }
}
#endif

/* GPUs, planes of one sample of at most 12 bits a pixel (gray and luma
 * planes: clgaussian copies chroma planes), rows of whole 16-byte words
 * at 16-byte aligned addresses (the host checks: gst_cl_launch_words16):
 * work-item (gx, gy) takes the 8 samples of word gx of `rows` rows from
 * gy * rows, four rows at a time, each time loading the six rows' words
 * and the 32-bit words beside them at once. A walk down the column
 * (gaussian3_buffer16) waits for each row's loads in turn; here every
 * load of the four rows is in flight together, and the rows that the
 * items above and below load again come from the cache (the shapes:
 * bench/probes/wide3.c). Two samples summed in each 32-bit word, as
 * g12_3_hsum_words. */
#define G16_WORD_ROWS 4

/* the sums l + 2c + r of the 8 samples of the word x of @row (n words) */
inline uint4
g12_3_word_sums (const __global uint4 * row, int x, int n, int shift,
    uint pmask)
{
  uint4 l, c, r;
  gst_cl_words16_neighbours (row, x, n, &l, &c, &r);
  return ((l >> shift) & pmask) + (((c >> shift) & pmask) << 1) +
      ((r >> shift) & pmask);
}

__kernel void
gaussian3_words16 (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int rows,
    int shift, uint wmask)
{
  const int x = get_global_id (0), n = units / 8;
  const int y0 = get_global_id (1) * rows, y1 = min (y0 + rows, height);
  const uint pmask = (wmask >> shift) * 0x10001u;

  if (x >= n)
    return;
  for (int y = y0; y < y1; y += G16_WORD_ROWS) {
    uint4 s[G16_WORD_ROWS + 2];
#pragma unroll
    for (int r = 0; r < G16_WORD_ROWS + 2; r++)
      s[r] = g12_3_word_sums ((const __global uint4 *) (src + (size_t)
              clamp (y + r - 1, 0, height - 1) * src_stride), x, n, shift,
          pmask);
#pragma unroll
    for (int r = 0; r < G16_WORD_ROWS; r++)
      if (y + r < y1)
        ((__global uint4 *) (dst + (size_t) (y + r) * dst_stride))[x] =
            (((s[r] + (s[r + 1] << 1) + s[r + 2] + 0x00080008u) >> 4) &
            pmask) << shift;
  }
}

__kernel void
gaussian3_buffer16 (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, int shift, uint wmask)
{
  int x0, x1, y0, y1, x, y;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  const int ss = src_stride >> 1, ds = dst_stride >> 1;
  const ushort8 m = (ushort8) ((ushort) wmask);
  const int rnd = 8 << shift;
  const ushort8 amask = g16_alpha_mask8 (alpha, step);
  /* vectors of 8 starting in [vlo, vhi] have their neighbours in the row;
   * the last may overlap the one before. Where there is a kept sample,
   * units and x1 are multiples of the pixel, so vectors start on pixels. */
  const int vlo = max (x0, step);
  const int vhi = min (x1, units - step) - 8;

#ifndef GST_CL_CPU
  if (vhi >= vlo) {
    const int rows_aligned = (step == 1 || step == 4) &&
        (((size_t) src | (size_t) dst | src_stride | dst_stride) & 15) == 0;
    /* after the first, vectors start on multiples of 8 (overlapping it) */
    for (x = vlo;; x = (x + 8) & ~7) {
      const int xv = min (x, vhi);
      const int aligned = rows_aligned && (xv & 7) == 0 &&
          xv + 8 + max (step, 2) <= units;
      if (aligned && (wmask >> shift) < 4096)
        g12_3_walk_words (src, ss, dst, ds, height, step, xv, y0, y1, shift,
            (wmask >> shift) * 0x10001u, amask);
      else
        g16_3_walk (src, ss, dst, ds, height, step, xv, y0, y1, m, rnd,
            amask, aligned);
      if (xv == vhi)
        break;
    }
    for (y = y0; y < y1 && (x0 < vlo || vhi + 8 < x1); y++) {
      const __global ushort *a = src + (size_t) max (y - 1, 0) * ss;
      const __global ushort *b = src + (size_t) y * ss;
      const __global ushort *c = src + (size_t) min (y + 1, height - 1) * ss;
      __global ushort *o = dst + (size_t) y * ds;
      g16_3_scalar (a, b, c, o, x0, vlo, step, alpha, units, wmask, rnd);
      g16_3_scalar (a, b, c, o, vhi + 8, x1, step, alpha, units, wmask, rnd);
    }
    return;
  }
#endif

  for (y = y0; y < y1; y++) {
    const __global ushort *a = src + (size_t) max (y - 1, 0) * ss;
    const __global ushort *b = src + (size_t) y * ss;
    const __global ushort *c = src + (size_t) min (y + 1, height - 1) * ss;
    __global ushort *o = dst + (size_t) y * ds;

    if (vhi < vlo) {            /* narrow: no room for a vector */
      g16_3_scalar (a, b, c, o, x0, x1, step, alpha, units, wmask, rnd);
      continue;
    }
    g16_3_scalar (a, b, c, o, x0, vlo, step, alpha, units, wmask, rnd);
    x = vlo;
#ifdef GST_CL_HAVE_SHIFTS
    if (step == 1 && (wmask >> shift) < 4096)
      x = g12_3_run (a, b, c, o, x, vhi, units, shift, wmask >> shift, m,
          rnd);
    else
      x = g16_3_run_shifted (a, b, c, o, x, vhi, units, step, alpha, wmask,
          rnd, amask);
#endif
    for (; x < vhi; x += 8)
      g16_3_vector (a, b, c, o, x, step, m, rnd, amask);
    g16_3_vector (a, b, c, o, vhi, step, m, rnd, amask);
    g16_3_scalar (a, b, c, o, vhi + 8, x1, step, alpha, units, wmask, rnd);
  }
}

/* ---------------------------------------------------------------------- */
/* Any radius on 16-bit buffers. The arithmetic, in every kernel below:   */
/*   vertical:   t = v[y] * w0, then t = fma (v[y-j] + v[y+j], wj, t)     */
/*               (the sum of two masked samples exact in int, then float) */
/*   horizontal: a = t[x] * w0, then a = fma (t[x-i] + t[x+i], wi, a)     */
/*   result:     min ((int) (a * 2^-shift + 0.5), 2^D - 1) << shift       */

inline float
g16_scale (int shift)
{
  return 1.0f / (float) (1 << shift);
}

inline ushort
g16_result (float acc, float scale, int maxv, int shift)
{
  return (ushort) (min (convert_int (acc * scale + 0.5f), maxv) << shift);
}

/* g16_result () of four sums */
inline ushort4
g16_result4 (float4 acc, float scale, int maxv, int shift)
{
  return convert_ushort4 (min (convert_int4 (acc * scale + 0.5f),
          (int4) (maxv)) << (int4) (shift));
}

/* four output samples at d, sample x of a row of `units` (those inside);
 * aligned: the row and its start are 8-byte aligned */
inline void
g16_store4 (__global ushort * d, ushort4 res, int x, int units, int aligned)
{
  if (x + 3 < units && aligned) {
    *(__global ushort4 *) d = res;
  } else if (x + 3 < units) {
    vstore4 (res, 0, d);
  } else {
    d[0] = res.s0;
    if (x + 1 < units)
      d[1] = res.s1;
    if (x + 2 < units)
      d[2] = res.s2;
  }
}

/* CPU shape: as gaussian_buffer_fused, per row the vertical sums of the
 * work-item's columns (plus radius pixels each side) in a float row of
 * local memory, then the horizontal pass from it. */

/* 16 lanes per operation (one AVX-512 register on POCL where there is
 * one): the 8-bit path's work per byte. */
inline float16
g16_vcol16 (const __global ushort * u, const __global ushort * d, ushort16 m)
{
  return convert_float16 (convert_int16 (LOAD_US16 (u) & m) +
      convert_int16 (LOAD_US16 (d) & m));
}

/* vertical sums of 16 columns at x into t */
inline void
g16_vsum16 (const __global ushort * src, const int *off, int radius,
    const float *wf, int x, ushort16 m, __local float * t)
{
  float16 acc = convert_float16 (LOAD_US16 (src + off[radius] + x) & m) *
      (float16) (wf[0]);
  for (int j = 1; j <= radius; j++)
    acc = fma (g16_vcol16 (src + off[radius - j] + x,
            src + off[radius + j] + x, m), (float16) (wf[j]), acc);
  STORE_F16_L (t, acc);
}

/* the same for 64 columns: the row offsets and weights serve four vectors */
inline void
g16_vsum64 (const __global ushort * src, const int *off, int radius,
    const float *wf, int x, ushort16 m, __local float * t)
{
  const __global ushort *c = src + off[radius] + x;
  const float16 w0 = (float16) (wf[0]);
  float16 acc0 = convert_float16 (LOAD_US16 (c) & m) * w0;
  float16 acc1 = convert_float16 (LOAD_US16 (c + 16) & m) * w0;
  float16 acc2 = convert_float16 (LOAD_US16 (c + 32) & m) * w0;
  float16 acc3 = convert_float16 (LOAD_US16 (c + 48) & m) * w0;
  for (int j = 1; j <= radius; j++) {
    const __global ushort *u = src + off[radius - j] + x;
    const __global ushort *d = src + off[radius + j] + x;
    const float16 w = (float16) (wf[j]);
    acc0 = fma (g16_vcol16 (u, d, m), w, acc0);
    acc1 = fma (g16_vcol16 (u + 16, d + 16, m), w, acc1);
    acc2 = fma (g16_vcol16 (u + 32, d + 32, m), w, acc2);
    acc3 = fma (g16_vcol16 (u + 48, d + 48, m), w, acc3);
  }
  STORE_F16_L (t, acc0);
  STORE_F16_L (t + 16, acc1);
  STORE_F16_L (t + 32, acc2);
  STORE_F16_L (t + 48, acc3);
}

inline ushort16
g16_result16 (float16 acc, float scale, int maxv, int shift)
{
  return convert_ushort16 (min (convert_int16 (acc * (float16) (scale) +
              (float16) (0.5f)), (int16) (maxv)) << (int16) (shift));
}

/* horizontal pass of 16 samples at x from the vertical sums tc[] */
inline void
g16_hsum16 (const __local float * tc, const __global ushort * mid,
    __global ushort * o, int radius, int step, const float *wf, int x,
    float scale, int maxv, int shift, int keep, ushort16 amask)
{
  float16 acc = LOAD_F16_L (tc + x) * (float16) (wf[0]);
  for (int i = 1; i <= radius; i++)
    acc = fma (LOAD_F16_L (tc + x - i * step) + LOAD_F16_L (tc + x + i * step),
        (float16) (wf[i]), acc);
  ushort16 res = g16_result16 (acc, scale, maxv, shift);
  if (keep)
    res = bitselect (res, LOAD_US16 (mid + x), amask);
  STORE_US16 (o + x, res);
}

/* the same for 32 samples */
inline void
g16_hsum32 (const __local float * tc, const __global ushort * mid,
    __global ushort * o, int radius, int step, const float *wf, int x,
    float scale, int maxv, int shift, int keep, ushort16 amask)
{
  const float16 w0 = (float16) (wf[0]);
  float16 acc0 = LOAD_F16_L (tc + x) * w0;
  float16 acc1 = LOAD_F16_L (tc + x + 16) * w0;
  for (int i = 1; i <= radius; i++) {
    const __local float *l = tc + x - i * step, *r = tc + x + i * step;
    const float16 w = (float16) (wf[i]);
    acc0 = fma (LOAD_F16_L (l) + LOAD_F16_L (r), w, acc0);
    acc1 = fma (LOAD_F16_L (l + 16) + LOAD_F16_L (r + 16), w, acc1);
  }
  ushort16 res0 = g16_result16 (acc0, scale, maxv, shift);
  ushort16 res1 = g16_result16 (acc1, scale, maxv, shift);
  if (keep) {
    res0 = bitselect (res0, LOAD_US16 (mid + x), amask);
    res1 = bitselect (res1, LOAD_US16 (mid + x + 16), amask);
  }
  STORE_US16 (o + x, res0);
  STORE_US16 (o + x + 16, res1);
}

/* gaussian16_buffer_fused's vertical pass of a row: t[i] the vertical sum
 * of column x0 - pad + i, the columns outside the plane replicating the
 * edge pixels' sums */
inline void
g16_fused_vertical (__global const ushort * src, __global const ushort * mid,
    const int *off, int radius, const float *wf, int units, int step, int x0,
    int x1, int pad, ushort16 m, uint wmask, __local float *t)
{
  const int t0 = x0 - pad;
  const int c_lo = max (t0, 0);
  const int c_hi = min (x1 + pad, units);
  int x;

  /* vertical pass over the columns inside the plane; the last vector may
   * overlap the one before */
  if (c_hi - c_lo >= 16) {
    for (x = c_lo; x < c_hi - 64; x += 64)
      g16_vsum64 (src, off, radius, wf, x, m, t + (x - t0));
    for (; x < c_hi - 16; x += 16)
      g16_vsum16 (src, off, radius, wf, x, m, t + (x - t0));
    g16_vsum16 (src, off, radius, wf, c_hi - 16, m, t + (c_hi - 16 - t0));
  } else {
    for (x = c_lo; x < c_hi; x++) {
      float acc = (float) (mid[x] & wmask) * wf[0];
      for (int j = 1; j <= radius; j++)
        acc = fma ((float) ((int) (src[off[radius - j] + x] & wmask) +
                (int) (src[off[radius + j] + x] & wmask)), wf[j], acc);
      t[x - t0] = acc;
    }
  }
  /* replicate the edge pixels' sums into the columns outside the plane */
  for (x = t0; x < 0; x++)
    t[x - t0] = t[(x % step + step) % step - t0];
  for (x = units; x < x1 + pad; x++)
    t[x - t0] = t[units - step + x % step - t0];
}

/* gaussian16_buffer_fused's horizontal pass of a row (keep a constant in
 * each loop) */
inline void
g16_fused_horizontal (const __local float *tc, __global const ushort * mid,
    __global ushort * o, int radius, int step, const float *wf, int x0,
    int x1, int alpha, float scale, int maxv, int shift, ushort16 amask)
{
  int x;

  if (x1 - x0 >= 16) {
    if (alpha >= 0) {
      for (x = x0; x < x1 - 32; x += 32)
        g16_hsum32 (tc, mid, o, radius, step, wf, x, scale, maxv, shift, 1,
            amask);
      for (; x < x1 - 16; x += 16)
        g16_hsum16 (tc, mid, o, radius, step, wf, x, scale, maxv, shift, 1,
            amask);
      g16_hsum16 (tc, mid, o, radius, step, wf, x1 - 16, scale, maxv,
          shift, 1, amask);
    } else {
      for (x = x0; x < x1 - 32; x += 32)
        g16_hsum32 (tc, mid, o, radius, step, wf, x, scale, maxv, shift, 0,
            amask);
      for (; x < x1 - 16; x += 16)
        g16_hsum16 (tc, mid, o, radius, step, wf, x, scale, maxv, shift, 0,
            amask);
      g16_hsum16 (tc, mid, o, radius, step, wf, x1 - 16, scale, maxv,
          shift, 0, amask);
    }
  } else {
    for (x = x0; x < x1; x++) {
      if (x % step == alpha) {
        o[x] = mid[x];
        continue;
      }
      float acc = tc[x] * wf[0];
      for (int i = 1; i <= radius; i++)
        acc = fma (tc[x - i * step] + tc[x + i * step], wf[i], acc);
      o[x] = g16_result (acc, scale, maxv, shift);
    }
  }
}

__kernel void
gaussian16_buffer_fused (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, __constant float * wt, int radius,
    int shift, uint wmask, __local float * scratch)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  const int ss = src_stride >> 1, ds = dst_stride >> 1;
  const int pad = radius * step;
  /* t[i] holds the vertical sum of column x0 - pad + i */
  __local float *t = scratch + get_local_id (0) * (size_t) (chunk + 2 * pad);
  const __local float *tc = t + pad - x0;       /* tc[x]: column x */
  const ushort16 m = (ushort16) ((ushort) wmask);
  const ushort16 amask = (ushort16) (g16_alpha_mask8 (alpha, step),
      g16_alpha_mask8 (alpha, step));
  const float scale = g16_scale (shift);
  const int maxv = wmask >> shift;
  int off[2 * GST_CL_GAUSSIAN_MAX_RADIUS + 1];
  float wf[GST_CL_GAUSSIAN_MAX_RADIUS + 1];

  for (int i = 0; i <= radius; i++)
    wf[i] = wt[i];

  for (int y = y0; y < y1; y++) {
    const __global ushort *mid = src + (size_t) y * ss;
    __global ushort *o = dst + (size_t) y * ds;

    for (int j = -radius; j <= radius; j++)
      off[j + radius] = clamp (y + j, 0, height - 1) * ss;

    g16_fused_vertical (src, mid, off, radius, wf, units, step, x0, x1, pad,
        m, wmask, t);
    g16_fused_horizontal (tc, mid, o, radius, step, wf, x0, x1, alpha, scale,
        maxv, shift, amask);
  }
}

/* GPU shape, one pass: as gaussian_buffer_tile, a work-group filters a tile
 * of 4 x get_local_size (0) samples by `rows` rows through local memory,
 * each work-item four samples (8 bytes) of a row: the masked samples of
 * the tile and its borders (`halo` samples, radius pixels rounded up to 4,
 * replicated by pixel at the frame's edges) as ushort4, the vertical sums
 * as float4, the horizontal pass from those (aligned float4 neighbours for
 * four-sample pixels). */
/* one group of four samples of the tile: row ty, group t (from x0 - halo),
 * clamped by pixel at the frame's edges */
inline ushort4
tile16_fetch (__global const ushort * src, int ss, int src_aligned,
    int units, int height, int step, int radius, int halo, int x0, int y0,
    int ty, int t)
{
  const int y = clamp (y0 - radius + ty, 0, height - 1);
  const __global ushort *row = src + (size_t) y * ss;
  const int u = x0 - halo + 4 * t;
  const int width = units / step;
  ushort s[4];

  if (u >= 0 && u + 3 < units)
    return src_aligned ? *(const __global ushort4 *) (row + u) :
        vload4 (0, row + u);
  for (int b = 0; b < 4; b++) {
    int ub = u + b;
    if (ub < 0 || ub >= units) {
      const int comp = ((ub % step) + step) % step;
      ub = (ub < 0 ? 0 : (width - 1) * step) + comp;
    }
    s[b] = row[ub];
  }
  return (ushort4) (s[0], s[1], s[2], s[3]);
}

/* gaussian16_buffer_tile's tile: rows + 2 radius rows of tw4 groups of
 * four samples from x0 - halo, clamped by pixel and masked, into in; each
 * work-item's loads four at a time, so that they are in flight together */
inline void
tile16_load (__global const ushort * src, int src_stride, int units,
    int height, int step, int rows, int radius, int halo, int x0, int y0,
    int tw4, ushort4 m, __local ushort4 * in)
{
  const int lx = get_local_id (0), group = get_local_size (0);
  const int ss = src_stride >> 1;
  const int total = (rows + 2 * radius) * tw4;
  /* groups of four start on multiples of 4 samples: aligned 8-byte
   * accesses in 8-byte aligned rows (typed, not vload4, which NVIDIA's
   * compiler splits by the pointer's 2-byte alignment) */
  const int src_aligned = ((src_stride | (int) (size_t) src) & 7) == 0;

  for (int i0 = lx; i0 < total; i0 += 4 * group) {
    ushort4 q[4];
#pragma unroll
    for (int b = 0; b < 4; b++) {
      const int i = i0 + b * group;
      if (i < total)
        q[b] = tile16_fetch (src, ss, src_aligned, units, height, step,
            radius, halo, x0, y0, i / tw4, i % tw4);
    }
#pragma unroll
    for (int b = 0; b < 4; b++)
      if (i0 + b * group < total)
        in[i0 + b * group] = q[b] & m;
  }
}

/* gaussian16_buffer_tile's vertical pass over every group of four of the
 * tile, into vs4, four independent sums at a time */
inline void
tile16_vertical (__constant float * wt, int rows, int radius, int tw4,
    const __local ushort4 * in, __local float4 * vs4)
{
  const int lx = get_local_id (0), group = get_local_size (0);
  const int total = rows * tw4;
  const float w0 = wt[0];

  for (int i0 = lx; i0 < total; i0 += 4 * group) {
    float4 acc[4];
#pragma unroll
    for (int b = 0; b < 4; b++) {
      const __local ushort4 *c = in + radius * tw4 + min (i0 + b * group,
          total - 1);
      acc[b] = convert_float4 (c[0]) * w0;
    }
    for (int j = 1; j <= radius; j++) {
#pragma unroll
      for (int b = 0; b < 4; b++) {
        const __local ushort4 *c = in + radius * tw4 + min (i0 + b * group,
            total - 1);
        acc[b] = fma (convert_float4 (convert_int4 (c[-j * tw4]) +
                convert_int4 (c[j * tw4])), (float4) (wt[j]), acc[b]);
      }
    }
#pragma unroll
    for (int b = 0; b < 4; b++)
      if (i0 + b * group < total)
        vs4[i0 + b * group] = acc[b];
  }
}

/* tile16_hsum for one-sample pixels (planes of luma or gray): the taps'
 * neighbours from aligned float4 loads, four taps a load each side (v is on
 * a multiple of four samples, and the halo holds whole groups of four),
 * in the same order of operations as the general case */
inline float4
tile16_hsum1 (const __local float4 * v4, __constant float * wt, int radius)
{
  float4 acc = v4[0] * wt[0];
  float4 lo_prev = v4[0], hi_prev = v4[0];

  for (int k = 1; 4 * k - 3 <= radius; k++) {
    const float4 lo = v4[-k], hi = v4[k];
    /* taps 4k-3 .. 4k: left windows start 3, 2, 1, 0 samples into lo,
     * right windows 1, 2, 3, 4 samples past hi_prev's start */
    const float4 l1 = (float4) (lo.s3, lo_prev.s012);
    const float4 r1 = (float4) (hi_prev.s123, hi.s0);
    acc = fma (l1 + r1, (float4) (wt[4 * k - 3]), acc);
    if (4 * k - 2 <= radius) {
      const float4 l2 = (float4) (lo.s23, lo_prev.s01);
      const float4 r2 = (float4) (hi_prev.s23, hi.s01);
      acc = fma (l2 + r2, (float4) (wt[4 * k - 2]), acc);
    }
    if (4 * k - 1 <= radius) {
      const float4 l3 = (float4) (lo.s123, lo_prev.s0);
      const float4 r3 = (float4) (hi_prev.s3, hi.s012);
      acc = fma (l3 + r3, (float4) (wt[4 * k - 1]), acc);
    }
    if (4 * k <= radius)
      acc = fma (lo + hi, (float4) (wt[4 * k]), acc);
    lo_prev = lo;
    hi_prev = hi;
  }
  return acc;
}

/* the horizontal sum of the four samples at v of a row of vertical sums */
inline float4
tile16_hsum (const __local float * v, __constant float * wt, int radius,
    int step)
{
  float4 acc;

  if (step == 1)
    return tile16_hsum1 ((const __local float4 *) v, wt, radius);
  if (step == 4) {
    const __local float4 *v4 = (const __local float4 *) v;
    acc = v4[0] * wt[0];
    for (int i = 1; i <= radius; i++)
      acc = fma (v4[-i] + v4[i], (float4) (wt[i]), acc);
  } else {
    acc = vload4 (0, v) * wt[0];
    for (int i = 1; i <= radius; i++)
      acc = fma (vload4 (0, v - i * step) + vload4 (0, v + i * step),
          (float4) (wt[i]), acc);
  }
  return acc;
}

__kernel void
gaussian16_buffer_tile (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int units, int height, int step,
    int alpha, int rows, __constant float * wt, int radius, int halo,
    int shift, uint wmask, __local ushort4 * in, __local float4 * vs4)
{
  const int lx = get_local_id (0), group = get_local_size (0);
  const int x0 = get_group_id (0) * 4 * group, y0 = get_group_id (1) * rows;
  const int tw4 = group + halo / 2;     /* tile row, in groups of 4 */
  const int ss = src_stride >> 1, ds = dst_stride >> 1;
  const float scale = g16_scale (shift);
  const int maxv = wmask >> shift;
  const int dst_aligned = ((dst_stride | (int) (size_t) dst) & 7) == 0;

  tile16_load (src, src_stride, units, height, step, rows, radius, halo, x0,
      y0, tw4, (ushort4) ((ushort) wmask), in);
  barrier (CLK_LOCAL_MEM_FENCE);
  tile16_vertical (wt, rows, radius, tw4, in, vs4);
  barrier (CLK_LOCAL_MEM_FENCE);

  /* horizontal pass: this work-item's four samples of each row */
  const int x = x0 + 4 * lx;
  if (x >= units)
    return;
  const __local float *vs = (const __local float *) vs4;
#pragma unroll 4
  for (int ry = 0; ry < rows && y0 + ry < height; ry++) {
    const float4 acc = tile16_hsum (vs + ry * tw4 * 4 + halo + 4 * lx, wt,
        radius, step);
    ushort4 res = g16_result4 (acc, scale, maxv, shift);
    const __global ushort *s = src + (size_t) (y0 + ry) * ss + x;
    if (alpha >= 0)             /* step 4: x is on a pixel */
      res = select (res, vload4 (0, s), (short4) (0, 1, 2, 3) ==
          (short4) (alpha));
    g16_store4 (dst + (size_t) (y0 + ry) * ds + x, res, x, units,
        dst_aligned);
  }
}

/* GPU shape, one pass, one-sample pixels (planes of luma or gray): a
 * work-group is a band of get_local_size (0) work-items across, four
 * samples each, walking `rows` rows down two at a time. Each row of the
 * frame is loaded once (the next two while the current two are summed)
 * into the work-item's ring of the 2 radius + 2 rows the two rows'
 * vertical sums need, in local memory as floats (the sum of two masked
 * samples, below 2^17, is the same in float as in int); the vertical sums
 * of both rows go to local memory, and the work-items that are not the
 * band's halo (halo_items each side, which only feed their neighbours'
 * horizontal pass) sum them horizontally. Two rows a step halve the
 * barriers and give each work-item two independent chains of taps. The
 * same operations in the same order as gaussian16_buffer_tile: identical
 * output. Little local memory and no rows loaded twice but at a band's
 * start, where the tile loads its 2 radius border rows again for every 16
 * rows. */
__kernel void
gaussian16_buffer_band (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int units, int height, int rows,
    __constant float * wt, int radius, int halo_items, int shift,
    uint wmask, __local float4 * ring, __local float4 * vs4)
{
  const int lx = get_local_id (0), group = get_local_size (0);
  const int x0 = (get_group_id (0) * (group - 2 * halo_items) - halo_items)
      * 4;
  const int y0 = get_group_id (1) * rows, y1 = min (y0 + rows, height);
  const int slots = 2 * radius + 2;
  const int ss = src_stride >> 1, ds = dst_stride >> 1;
  const ushort4 m = (ushort4) ((ushort) wmask);
  const float scale = g16_scale (shift);
  const int maxv = wmask >> shift;
  const int src_aligned = ((src_stride | (int) (size_t) src) & 7) == 0;
  const int dst_aligned = ((dst_stride | (int) (size_t) dst) & 7) == 0;
  const int x = x0 + 4 * lx;
  const int writes = lx >= halo_items && lx < group - halo_items && x < units;
  const float w0 = wt[0];
  float4 next0, next1;

  /* row y0 - radius + k in slot k (rows past the frame: its edge) */
#define BAND16_ROW(k) convert_float4 (tile16_fetch (src, ss, src_aligned, \
        units, height, 1, 0, 0, x, y0 - radius + (k), 0, 0) & m)
  for (int k = 0; k < 2 * radius; k++)
    ring[k * group + lx] = BAND16_ROW (k);
  next0 = BAND16_ROW (2 * radius);
  next1 = BAND16_ROW (2 * radius + 1);
  for (int y = y0; y < y1; y += 2) {
    const int t = y - y0, c0 = (t + radius) % slots;
    const int c1 = c0 + 1 == slots ? 0 : c0 + 1;
    float4 acc0, acc1, up_prev, below;

    /* rows y + radius and y + radius + 1 into the slots of rows
     * y - radius - 2 and y - radius - 1, which the previous step was the
     * last to read (each work-item reads only its own ring) */
    ring[((t + 2 * radius) % slots) * group + lx] = next0;
    ring[((t + 2 * radius + 1) % slots) * group + lx] = next1;
    if (y + 2 < y1) {
      next0 = BAND16_ROW (t + 2 * radius + 2);
      next1 = BAND16_ROW (t + 2 * radius + 3);
    }
    /* row y + 1's taps j are row y's taps j - 1 above and j + 1 below:
     * each slot is read once for both rows (2 radius + 2 reads, not
     * 4 radius + 2), the sums in the same order */
    up_prev = ring[c0 * group + lx];
    below = ring[c1 * group + lx];
    acc0 = up_prev * w0;
    acc1 = below * w0;
    for (int j = 1; j <= radius; j++) {
      const int up = c0 - j < 0 ? c0 - j + slots : c0 - j;
      const int dn1 = c0 + j + 1 >= slots ? c0 + j + 1 - slots : c0 + j + 1;
      const float4 above = ring[up * group + lx], at = below;
      below = ring[dn1 * group + lx];
      acc0 = fma (above + at, (float4) (wt[j]), acc0);
      acc1 = fma (up_prev + below, (float4) (wt[j]), acc1);
      up_prev = above;
    }
    /* the neighbours' horizontal pass of the previous step is done */
    barrier (CLK_LOCAL_MEM_FENCE);
    vs4[lx] = acc0;
    vs4[group + lx] = acc1;
    barrier (CLK_LOCAL_MEM_FENCE);
    if (writes) {
      g16_store4 (dst + (size_t) y * ds + x, g16_result4 (tile16_hsum1 (vs4 +
                  lx, wt, radius), scale, maxv, shift), x, units,
          dst_aligned);
      if (y + 1 < y1)
        g16_store4 (dst + (size_t) (y + 1) * ds + x, g16_result4
            (tile16_hsum1 (vs4 + group + lx, wt, radius), scale, maxv,
                shift), x, units, dst_aligned);
    }
  }
#undef BAND16_ROW
}

/* GPU shape, two passes through a float plane: where the tile does not fit
 * local memory, or pixels-per-item is set */
__kernel void
gaussian16_buffer_vpass (__global const ushort * src, int src_stride,
    __global float * tmp, int tmp_stride, int units, int height,
    int chunk, int rows, __constant float * wt, int radius, uint wmask)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  const int ss = src_stride >> 1;
  for (int y = y0; y < y1; y++) {
    for (int x = x0; x < x1; x++) {
      float acc = (float) (src[(size_t) y * ss + x] & wmask) * wt[0];
      for (int j = 1; j <= radius; j++)
        acc = fma ((float) ((int) (src[(size_t) max (y - j, 0) * ss + x] &
                    wmask) + (int) (src[(size_t) min (y + j, height - 1) * ss +
                        x] & wmask)), wt[j], acc);
      tmp[(size_t) y * tmp_stride + x] = acc;
    }
  }
}

__kernel void
gaussian16_buffer_hpass (__global const float * tmp, int tmp_stride,
    __global const ushort * src, int src_stride, __global ushort * dst,
    int dst_stride, int units, int height, int step, int alpha, int chunk,
    int rows, __constant float * wt, int radius, int shift, uint wmask)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  const int width = units / step;
  const int ss = src_stride >> 1, ds = dst_stride >> 1;
  const float scale = g16_scale (shift);
  const int maxv = wmask >> shift;
  for (int y = y0; y < y1; y++) {
    const __global float *t = tmp + (size_t) y * tmp_stride;
    for (int x = x0; x < x1; x++) {
      const int px = x / step, comp = x - px * step;
      ushort out;
      if (comp == alpha) {
        out = src[(size_t) y * ss + x];
      } else {
        float acc = t[x] * wt[0];
        for (int i = 1; i <= radius; i++)
          acc = fma (t[max (px - i, 0) * step + comp] +
              t[min (px + i, width - 1) * step + comp], wt[i], acc);
        out = g16_result (acc, scale, maxv, shift);
      }
      dst[(size_t) y * ds + x] = out;
    }
  }
}

/* Images of 16-bit channels (one texel a pixel: CL_R, or CL_RGBA for
 * RGBA64_LE), two passes through a float4 plane; the 3x3 binomial is
 * gaussian3_image with the format's wmask and shift. */
__kernel void
gaussian16_image_vpass (read_only image2d_t src, __global float4 * tmp,
    int width, int height, int chunk, int rows, __constant float * wt,
    int radius, uint wmask)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (width, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (int y = y0; y < y1; y++) {
    for (int x = x0; x < x1; x++) {
      float4 acc = convert_float4 (read_imageui (src, GST_CL_SAMPLER,
              (int2) (x, y)) & wmask) * wt[0];
      for (int j = 1; j <= radius; j++)
        acc = fma (convert_float4 ((read_imageui (src, GST_CL_SAMPLER,
                        (int2) (x, max (y - j, 0))) & wmask) +
                (read_imageui (src, GST_CL_SAMPLER, (int2) (x, min (y + j,
                                height - 1))) & wmask)), (float4) (wt[j]), acc);
      tmp[(size_t) y * width + x] = acc;
    }
  }
}

__kernel void
gaussian16_image_hpass (__global const float4 * tmp, read_only image2d_t src,
    write_only image2d_t dst, int width, int height, int alpha, int chunk,
    int rows, __constant float * wt, int radius, int shift, uint wmask)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (width, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  const float scale = g16_scale (shift);
  const int maxv = wmask >> shift;
  for (int y = y0; y < y1; y++) {
    const __global float4 *t = tmp + (size_t) y * width;
    for (int x = x0; x < x1; x++) {
      float4 acc = t[x] * wt[0];
      for (int i = 1; i <= radius; i++)
        acc = fma (t[max (x - i, 0)] + t[min (x + i, width - 1)],
            (float4) (wt[i]), acc);
      uint4 res = convert_uint4 (min (convert_int4 (acc * scale + 0.5f),
              (int4) (maxv)) << (int4) (shift));
      if (alpha >= 0)
        res = keep_component (res, read_imageui (src, GST_CL_SAMPLER,
                (int2) (x, y)), alpha);
      write_imageui (dst, (int2) (x, y), res);
    }
  }
}
