/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* laplace16.cl: cllaplace's buffer kernels for formats of more than 8
 * bits per sample. Built in one program after laplace.cl (kernels/embed.py),
 * whose helpers they use; the images of both depths are in laplace.cl. */

/* ---------------------------------------------------------------------- */
/* Buffers of 16-bit samples (formats of more than 8 bits): the same       */
/* shapes as laplace_buffer, 16 samples per vector: int16 lanes (one       */
/* AVX-512 register), or at strength 1 with at most 12 bits ushort16 ones  */
/* (lap_run_shifted_n: the instructions per sample of the 8-bit path).     */

/* The arithmetic variants of the 16-bit hot loops, constant at each call */
#define LAP_W_SHARPEN 0         /* strength 1: exact, no multiply */
#define LAP_W_EDGES 1
#define LAP_W_SHARPEN_Q 2       /* any strength: Q18, split in two */
#define LAP_W_EDGES_Q 3

/* the value of a stored sample (the bits outside it dropped) */
inline int
lap_value_w (ushort word, int shift, int maxv)
{
  return (word >> shift) & maxv;
}

/* the result of one sample from its value c and the window's sum, any
 * strength (the scalar borders and narrow rows) */
inline int
lap_apply_w (int c, int sum9, int mode, int q, int maxv)
{
  const int l = 9 * c - sum9;
  const int v = mode == LAP_MODE_SHARPEN ? c + lap_scale (l, q) :
      lap_scale (max (l, -l), q);
  return clamp (v, 0, maxv);
}

inline ushort
lap_sample_w (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, int x, int step, int units, int mode, int q,
    int shift, int maxv)
{
  const int l = x >= step ? x - step : x;
  const int r = x + step < units ? x + step : x;
  const int s = lap_value_w (a[l], shift, maxv) +
      lap_value_w (a[x], shift, maxv) + lap_value_w (a[r], shift, maxv) +
      lap_value_w (b[l], shift, maxv) + lap_value_w (b[x], shift, maxv) +
      lap_value_w (b[r], shift, maxv) + lap_value_w (c[l], shift, maxv) +
      lap_value_w (c[x], shift, maxv) + lap_value_w (c[r], shift, maxv);
  return (ushort) (lap_apply_w (lap_value_w (b[x], shift, maxv), s, mode, q,
          maxv) << shift);
}

/* scalar samples [x, end) of a row: the borders, outside the hot loop */
inline void
lap_scalar_w (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, __global ushort * o, int x, int end, int step,
    int alpha, int units, int mode, int q, int shift, int maxv)
{
  int comp = x % step;
  for (; x < end; x++) {
    o[x] = comp == alpha ? b[x] : lap_sample_w (a, b, c, x, step, units,
        mode, q, shift, maxv);
    if (++comp == step)
      comp = 0;
  }
}

/* The vector paths work on values in place, V = v << shift = word & wmask
 * (wmask = maxv << shift): one operation per load instead of two. At
 * strength 1 the results, sums of such multiples of 2^shift, are the
 * stored words themselves (clamped to wmask, the top value in place);
 * other strengths shift L down to levels first, for the rounding. */

/* the values in place of 16 stored words */
inline int16
lap_inplace16_w (ushort16 words, int wmask)
{
  return convert_int16 (words & (ushort16) (wmask));
}

/* N stored words from the window sums s and the centres m (in place):
 * lap_finish16_w () of 16, lap_finish8_w () of 8 (the GPUs' walk) */
#define LAP_DEFINE_FINISH(name, N)                                      \
inline __attribute__ ((always_inline)) int##N                          \
name (int##N s, int##N m, const int variant, int q, int shift,          \
    int wmask)                                                          \
{                                                                       \
  const int##N l = m * (int##N) (9) - s;                                \
  const int##N sh = (int##N) (shift);                                   \
  if (variant == LAP_W_SHARPEN)                                         \
    return clamp (m + l, (int##N) (0), (int##N) (wmask));               \
  if (variant == LAP_W_EDGES)   /* max (l, -l): POCL's abs is scalar */ \
    return min (max (l, -l), (int##N) (wmask));                         \
  if (variant == LAP_W_SHARPEN_Q)                                       \
    return clamp ((m >> sh) + lap_scale##N (l >> sh, q), (int##N) (0),  \
        (int##N) (wmask) >> sh) << sh;                                  \
  return min (lap_scale##N (max (l, -l) >> sh, q), (int##N) (wmask) >>  \
      sh) << sh;                                                        \
}
LAP_DEFINE_FINISH (lap_finish16_w, 16)
LAP_DEFINE_FINISH (lap_finish8_w, 8)

/* the stored words of 16 results, the kept samples (amask) raw */
inline ushort16
lap_pack_w (int16 words, ushort16 raw, ushort16 amask)
{
  return bitselect (convert_ushort16 (words), raw, amask);
}

/* N output samples at x, all nine neighbours loaded: lap_store16_w () on
 * CPUs, lap_store8_w () on GPUs, where 8 lanes keep the kernel's registers
 * few (its vectors of 16 took 168 registers a work-item on an H200) */
#define LAP_DEFINE_STORE(N, LOAD, STORE)                                \
inline int##N                                                           \
lap_column##N##_w (const __global ushort * a, const __global ushort * b,\
    const __global ushort * c, int wmask)                               \
{                                                                       \
  const ushort##N m = (ushort##N) ((ushort) wmask);                     \
  return convert_int##N (LOAD (a) & m) + convert_int##N (LOAD (b) & m) +\
      convert_int##N (LOAD (c) & m);                                    \
}                                                                       \
inline __attribute__ ((always_inline)) void                             \
lap_store##N##_w (const __global ushort * a, const __global ushort * b, \
    const __global ushort * c, __global ushort * o, int x, int step,    \
    ushort##N amask, const int variant, int q, int shift, int wmask)    \
{                                                                       \
  const int##N s = lap_column##N##_w (a + x - step, b + x - step,       \
      c + x - step, wmask) + lap_column##N##_w (a + x, b + x, c + x,     \
      wmask) + lap_column##N##_w (a + x + step, b + x + step,           \
      c + x + step, wmask);                                             \
  const ushort##N raw = LOAD (b + x);                                   \
  STORE (o + x, bitselect (convert_ushort##N (lap_finish##N##_w (s,     \
              convert_int##N (raw & (ushort##N) ((ushort) wmask)),      \
              variant, q, shift, wmask)), raw, amask));                 \
}
LAP_DEFINE_STORE (16, LOAD_US16, STORE_US16)
LAP_DEFINE_STORE (8, LOAD_US8, STORE_US8)

/* 0xffff in the lanes of the sample kept in each pixel of `step` samples
 * (step 4 with alpha, RGBA64_LE), for a vector starting on a pixel */
inline ushort16
lap_alpha_mask16_w (int alpha, int step)
{
  const ushort16 iota = (ushort16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
      12, 13, 14, 15);
  if (alpha < 0)
    return (ushort16) (0);
  return as_ushort16 (iota % (ushort16) (step) == (ushort16) (alpha));
}

#ifdef GST_CL_HAVE_SHIFTS
/* CPUs: as lap_run_shifted, each block's column sums once and the
 * neighbours by lane shifts: 3 loads per 16 samples instead of 9 (the
 * centres are loaded again, from the cache). */
#define LAP_RUN_W(sh)                                                   \
  for (; x + 16 <= end && x + 48 <= units; x += 32) {                   \
    const int16 n1 = lap_column16_w (a + x + 16, b + x + 16, c + x + 16,  \
        wmask);                                                         \
    const int16 n2 = lap_column16_w (a + x + 32, b + x + 32, c + x + 32,  \
        wmask);                                                         \
    const ushort16 r0 = LOAD_US16 (b + x), r1 = LOAD_US16 (b + x + 16); \
    STORE_US16 (o + x, lap_pack_w (lap_finish16_w (GST_CL_RIGHT_BY (prev, \
                    cur, sh) + cur + GST_CL_LEFT_BY (cur, n1, sh),      \
                lap_inplace16_w (r0, wmask), variant, q, shift, wmask), \
            r0, amask));                                                \
    STORE_US16 (o + x + 16, lap_pack_w (lap_finish16_w (GST_CL_RIGHT_BY   \
                (cur, n1, sh) + n1 + GST_CL_LEFT_BY (n1, n2, sh),       \
                lap_inplace16_w (r1, wmask), variant, q, shift, wmask), \
            r1, amask));                                                \
    prev = n1;                                                          \
    cur = n2;                                                           \
  }

inline __attribute__ ((always_inline)) int
lap_run_shifted_w (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, __global ushort * o, int x, int end,
    int units, int step, ushort16 amask, const int variant, int q, int shift,
    int wmask)
{
  for (; x < end && x < 16; x += 16)
    lap_store16_w (a, b, c, o, x, step, amask, variant, q, shift, wmask);
  if (x < 16 || x + 16 > end || x + 48 > units)
    return x;
  int16 prev = lap_column16_w (a + x - 16, b + x - 16, c + x - 16, wmask);
  int16 cur = lap_column16_w (a + x, b + x, c + x, wmask);
  /* the formats of more than 8 bits have pixels of 1 or 4 samples */
  if (step == 1) {
    LAP_RUN_W (1);
  } else if (step == 4) {
    LAP_RUN_W (4);
  }
  return x;
}

/* At strength 1 with depths up to 12 bits the window's sum of values
 * (at most 9 * 4095) and 10 * c (at most 40950) fit 16-bit unsigned
 * lanes: the hot loop then works on ushort16, vectors half as wide as the
 * int16 ones (half the instructions on AVX-512, as the 8-bit path's
 * short16). Without a sign, clamp (10 * c - s, 0, maxv) is
 * min (10 * c - min (10 * c, s), maxv) and |9 * c - s| is
 * max (9 * c, s) - min (9 * c, s). The results equal lap_finish16_w's. */
inline ushort16
lap_values_n (ushort16 words, int shift, int maxv)
{
  return (words >> (ushort16) (shift)) & (ushort16) (maxv);
}

inline ushort16
lap_column_n (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, int shift, int maxv)
{
  return lap_values_n (LOAD_US16 (a), shift, maxv) +
      lap_values_n (LOAD_US16 (b), shift, maxv) +
      lap_values_n (LOAD_US16 (c), shift, maxv);
}

/* the stored words of 16 results from the window sums s and the stored
 * centres; variant: LAP_W_SHARPEN or LAP_W_EDGES */
inline __attribute__ ((always_inline)) ushort16
lap_finish_n (ushort16 s, ushort16 raw, ushort16 amask, const int variant,
    int shift, int maxv)
{
  const ushort16 t = lap_values_n (raw, shift, maxv) *
      (ushort16) (variant == LAP_W_SHARPEN ? 10 : 9);
  const ushort16 lo = min (t, s);
  const ushort16 v = variant == LAP_W_SHARPEN ? t - lo : max (t, s) - lo;
  return bitselect (min (v, (ushort16) (maxv)) << (ushort16) (shift), raw,
      amask);
}

#define LAP_RUN_N(sh)                                                   \
  for (; x + 16 <= end && x + 48 <= units; x += 32) {                   \
    const ushort16 n1 = lap_column_n (a + x + 16, b + x + 16,           \
        c + x + 16, shift, maxv);                                       \
    const ushort16 n2 = lap_column_n (a + x + 32, b + x + 32,           \
        c + x + 32, shift, maxv);                                       \
    STORE_US16 (o + x, lap_finish_n (GST_CL_RIGHT_BY (prev, cur, sh) +  \
            cur + GST_CL_LEFT_BY (cur, n1, sh), LOAD_US16 (b + x),      \
            amask, variant, shift, maxv));                              \
    STORE_US16 (o + x + 16, lap_finish_n (GST_CL_RIGHT_BY (cur, n1, sh) \
            + n1 + GST_CL_LEFT_BY (n1, n2, sh), LOAD_US16 (b + x + 16), \
            amask, variant, shift, maxv));                              \
    prev = n1;                                                          \
    cur = n2;                                                           \
  }

/* lap_run_shifted_w in 16-bit lanes (strength 1, depth <= 12) */
inline __attribute__ ((always_inline)) int
lap_run_shifted_n (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, __global ushort * o, int x, int end,
    int units, int step, ushort16 amask, const int variant, int q, int shift,
    int maxv)
{
  const int wmask = maxv << shift;
  for (; x < end && x < 16; x += 16)
    lap_store16_w (a, b, c, o, x, step, amask, variant, q, shift, wmask);
  if (x < 16 || x + 16 > end || x + 48 > units)
    return x;
  ushort16 prev = lap_column_n (a + x - 16, b + x - 16, c + x - 16, shift,
      maxv);
  ushort16 cur = lap_column_n (a + x, b + x, c + x, shift, maxv);
  if (step == 1) {
    LAP_RUN_N (1);
  } else if (step == 4) {
    LAP_RUN_N (4);
  }
  return x;
}
#endif

#ifndef GST_CL_CPU
/* GPUs, rows 16-byte aligned: a work-item walks down its columns 8 samples
 * at a time (a vector's sums take half the registers of 16, so twice the
 * work-items fit a SM), keeping three rows of horizontal sums, the
 * neighbours from gst_cl_words8_load (), the next row loaded one row
 * ahead. */
inline int8
lap_hsum_words_w (GstClWords8 w, int step, int wmask)
{
  const ushort8 m = (ushort8) ((ushort) wmask);
  uint4 l, r;
  gst_cl_words8_neighbours (w, step, &l, &r);
  return convert_int8 (as_ushort8 (l) & m) +
      convert_int8 (as_ushort8 (w.centre) & m) +
      convert_int8 (as_ushort8 (r) & m);
}

/* rows [y0, y1) of the 8 samples at x */
inline __attribute__ ((always_inline)) void
lap_walk_aligned_w (__global const ushort * src, int ss,
    __global ushort * dst, int ds, int height, int step, int x, int y0,
    int y1, ushort8 amask, const int variant, int q, int shift, int wmask)
{
  int8 h0 = lap_hsum_words_w (gst_cl_words8_load (src + (size_t) max (y0 -
              1, 0) * ss, x, step), step, wmask);
  GstClWords8 w1 = gst_cl_words8_load (src + (size_t) y0 * ss, x, step);
  GstClWords8 next = gst_cl_words8_load (src + (size_t) min (y0 + 1,
          height - 1) * ss, x, step);
  int8 h1 = lap_hsum_words_w (w1, step, wmask);
  for (int y = y0; y < y1; y++) {
    const GstClWords8 w2 = next;
    next = gst_cl_words8_load (src + (size_t) min (y + 2, height - 1) * ss,
        x, step);
    const int8 h2 = lap_hsum_words_w (w2, step, wmask);
    const ushort8 raw = as_ushort8 (w1.centre);
    *(__global ushort8 *) (dst + (size_t) y * ds + x) =
        bitselect (convert_ushort8 (lap_finish8_w (h0 + h1 + h2,
                convert_int8 (raw & (ushort8) ((ushort) wmask)), variant, q,
                shift, wmask)), raw, amask);
    h0 = h1;
    h1 = h2;
    w1 = w2;
  }
}

/* Whether a work-item's columns [x0, x0 + chunk) can take it: whole
 * vectors of 8 samples with 4 on each side, rows 16-byte aligned, pixels
 * of 1 or 4 samples. */
inline int
lap_aligned_ok_w (const __global ushort * src, int src_stride,
    const __global ushort * dst, int dst_stride, int x0, int chunk,
    int units, int step)
{
  return chunk % 8 == 0 && x0 >= 4 && x0 + chunk + 4 <= units &&
      (step == 1 || step == 4) && ((src_stride | dst_stride) & 15) == 0 &&
      (((size_t) src | (size_t) dst) & 15) == 0;
}
#endif

/* the vectors of lap_rows_w's rows: 16 lanes on CPUs, 8 on GPUs
 * (LAP_DEFINE_STORE) */
#ifdef GST_CL_CPU
#define LAP_VW 16
#define LAP_STORE_VW lap_store16_w
#define LAP_AMASK_VW(m) (m)
#else
#define LAP_VW 8
#define LAP_STORE_VW lap_store8_w
#define LAP_AMASK_VW(m) ((m).lo)
#endif

inline __attribute__ ((always_inline)) void
lap_rows_w (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int units, int height, int step,
    int alpha, int x0, int x1, int y0, int y1, int mode, int q, int shift,
    int maxv, const int variant, const int narrow)
{
  const ushort16 amask = lap_alpha_mask16_w (alpha, step);
  const int wmask = maxv << shift;
  /* as in lap_rows: vectors starting in [vlo, vhi] have their neighbours
   * inside the row, and start on a pixel when there is a kept sample */
  const int vlo = max (x0, step);
  const int vhi = min (x1, units - step) - LAP_VW;

#ifndef GST_CL_CPU
  if (lap_aligned_ok_w (src, src_stride, dst, dst_stride, x0, x1 - x0,
          units, step)) {
    for (int x = x0; x < x1; x += 8)
      lap_walk_aligned_w (src, src_stride >> 1, dst, dst_stride >> 1,
          height, step, x, y0, y1, amask.lo, variant, q, shift, wmask);
    return;
  }
#endif
  for (int y = y0; y < y1; y++) {
    const __global ushort *a = (const __global ushort *) ((const __global
            uchar *) src + (size_t) max (y - 1, 0) * src_stride);
    const __global ushort *b = (const __global ushort *) ((const __global
            uchar *) src + (size_t) y * src_stride);
    const __global ushort *c = (const __global ushort *) ((const __global
            uchar *) src + (size_t) min (y + 1, height - 1) * src_stride);
    __global ushort *o = (__global ushort *) ((__global uchar *) dst +
        (size_t) y * dst_stride);

    if (vhi < vlo) {            /* narrow: no room for a vector */
      lap_scalar_w (a, b, c, o, x0, x1, step, alpha, units, mode, q, shift,
          maxv);
      continue;
    }
    if (x0 < vlo)
      lap_scalar_w (a, b, c, o, x0, vlo, step, alpha, units, mode, q, shift,
          maxv);
    int x = vlo;
#ifdef GST_CL_HAVE_SHIFTS
    if (narrow)
      x = lap_run_shifted_n (a, b, c, o, x, vhi, units, step, amask, variant,
          q, shift, maxv);
    else
      x = lap_run_shifted_w (a, b, c, o, x, vhi, units, step, amask, variant,
          q, shift, wmask);
#endif
    for (; x < vhi; x += LAP_VW)
      LAP_STORE_VW (a, b, c, o, x, step, LAP_AMASK_VW (amask), variant, q,
          shift, wmask);
    LAP_STORE_VW (a, b, c, o, vhi, step, LAP_AMASK_VW (amask), variant, q,
        shift, wmask);
    if (vhi + LAP_VW < x1)
      lap_scalar_w (a, b, c, o, vhi + LAP_VW, x1, step, alpha, units, mode,
          q, shift, maxv);
  }
}

/* GPUs, strength 1, planes of one sample of at most 12 bits a pixel (gray
 * and luma planes: cllaplace copies chroma planes), rows of whole 16-byte
 * words at 16-byte aligned addresses (the host checks:
 * gst_cl_launch_words16): work-item (gx, gy) takes the 8 samples of word
 * gx of `rows` rows from gy * rows, four rows at a time, each time loading
 * the six rows' words and the 32-bit words beside them at once, as
 * gaussian3_words16 does (the walk of laplace_buffer16 waits for each
 * row's loads in turn). A row's sums l + c + r are packed two to a 32-bit
 * word (at most 3 * 4095 a lane, the window's 9 * 4095); the results,
 * lap_finish_n's, lane by lane in 32 bits. */
#define LAP_WORD_ROWS 4

/* the sums l + c + r of the 8 samples of the word x of @row (n words),
 * their values in *cv */
inline uint4
lap12_word_sums (const __global uint4 * row, int x, int n, int shift,
    uint pmask, uint4 * cv)
{
  uint4 l, c, r;
  gst_cl_words16_neighbours (row, x, n, &l, &c, &r);
  *cv = (c >> shift) & pmask;
  return ((l >> shift) & pmask) + *cv + ((r >> shift) & pmask);
}

/* the stored samples of the values c (in lanes of 32 bits) and the
 * window's sums s: min (10 c - min (10 c, s), maxv) (sharpen) or
 * min (|9 c - s|, maxv) (edges), at bit shift */
inline uint4
lap12_finish (uint4 c, uint4 s, int sharpen, int shift, uint maxv)
{
  const uint4 t = c * (uint4) (sharpen ? 10u : 9u);
  const uint4 v = sharpen ? t - min (t, s) : abs_diff (t, s);
  return min (v, (uint4) (maxv)) << shift;
}

__kernel void
laplace_words16 (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int rows,
    int mode, int shift, int maxv)
{
  const int x = get_global_id (0), n = units / 8;
  const int y0 = get_global_id (1) * rows, y1 = min (y0 + rows, height);
  const uint pmask = (uint) maxv * 0x10001u;
  const int sharpen = mode == LAP_MODE_SHARPEN;

  if (x >= n)
    return;
  for (int y = y0; y < y1; y += LAP_WORD_ROWS) {
    uint4 s[LAP_WORD_ROWS + 2], c[LAP_WORD_ROWS + 2];
#pragma unroll
    for (int r = 0; r < LAP_WORD_ROWS + 2; r++)
      s[r] = lap12_word_sums ((const __global uint4 *) (src + (size_t)
              clamp (y + r - 1, 0, height - 1) * src_stride), x, n, shift,
          pmask, &c[r]);
#pragma unroll
    for (int r = 0; r < LAP_WORD_ROWS; r++) {
      const uint4 sum = s[r] + s[r + 1] + s[r + 2];
      if (y + r < y1)
        ((__global uint4 *) (dst + (size_t) (y + r) * dst_stride))[x] =
            lap12_finish (c[r + 1] & 0xffffu, sum & 0xffffu, sharpen, shift,
            maxv) | (lap12_finish (c[r + 1] >> 16, sum >> 16, sharpen, shift,
                maxv) << 16);
    }
  }
}

/* laplace_buffer for 16-bit samples: units are samples, strides bytes */
__kernel void
laplace_buffer16 (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, int mode, int q, int shift, int maxv)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
#ifdef GST_CL_HAVE_SHIFTS
  if (q == LAP_W_ONE && maxv <= 4095) {
    if (mode == LAP_MODE_SHARPEN)
      lap_rows_w (src, src_stride, dst, dst_stride, units, height, step,
          alpha, x0, x1, y0, y1, mode, q, shift, maxv, LAP_W_SHARPEN, 1);
    else
      lap_rows_w (src, src_stride, dst, dst_stride, units, height, step,
          alpha, x0, x1, y0, y1, mode, q, shift, maxv, LAP_W_EDGES, 1);
    return;
  }
#endif
  if (q == LAP_W_ONE) {
    if (mode == LAP_MODE_SHARPEN)
      lap_rows_w (src, src_stride, dst, dst_stride, units, height, step,
          alpha, x0, x1, y0, y1, mode, q, shift, maxv, LAP_W_SHARPEN, 0);
    else
      lap_rows_w (src, src_stride, dst, dst_stride, units, height, step,
          alpha, x0, x1, y0, y1, mode, q, shift, maxv, LAP_W_EDGES, 0);
  } else {
    if (mode == LAP_MODE_SHARPEN)
      lap_rows_w (src, src_stride, dst, dst_stride, units, height, step,
          alpha, x0, x1, y0, y1, mode, q, shift, maxv, LAP_W_SHARPEN_Q, 0);
    else
      lap_rows_w (src, src_stride, dst, dst_stride, units, height, step,
          alpha, x0, x1, y0, y1, mode, q, shift, maxv, LAP_W_EDGES_Q, 0);
  }
}
