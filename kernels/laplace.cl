/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* laplace.cl: Laplace sharpen and edge kernels of cllaplace.
 *
 * L = 8 * c - (sum of the 8 neighbours) = 9 * c - (sum of the 3x3 window).
 *   mode 0 (sharpen): out = clamp (c + strength * L, 0, 255)
 *   mode 1 (edges):   out = clamp (strength * |L|, 0, 255)
 * The strength comes as q = round (strength * 2^14) (at most 16 * 2^14):
 * strength * L is (q * L + 8192) >> 14, with an arithmetic shift, i.e.
 * floor (q * L / 2^14 + 1/2): rounded to nearest, halves upwards, also for
 * negative L. |q * L| < 2^29, so 32 bits hold it. For q = 2^14 (strength 1)
 * this is L itself: the 16-bit paths compute clamp (10 * c - sum9) and
 * clamp (|9 * c - sum9|) directly (|values| <= 2550) and give the same bytes.
 *
 * Borders replicate the edge pixel. In buffers a pixel is `step` bytes and
 * every byte is a sample; the byte `alpha` of each pixel (alpha or padding)
 * is copied unchanged. In images a pixel is `step` texels (RGB is stored as
 * a one-channel image three times as wide), `alpha` is a component index.
 */

#define LAP_MODE_SHARPEN 0
#define LAP_MODE_EDGES 1
#define LAP_ONE 16384           /* strength 1 in Q14 */

/* the result of one sample: c the centre, sum9 the 3x3 window's sum */
inline int
lap_apply (int c, int sum9, int mode, int q)
{
  const int l = 9 * c - sum9;
  const int v = mode == LAP_MODE_SHARPEN ? c + ((l * q + 8192) >> 14) :
      (max (l, -l) * q + 8192) >> 14;
  return clamp (v, 0, 255);
}

/* ---------------------------------------------------------------------- */
/* Buffers: one kernel for both device kinds, shaped by chunk and rows     */
/* (whole rows per work-item on CPUs, 16 bytes x 2 rows on GPUs).          */

inline uchar
lap_sample (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, int x, int step, int units, int mode, int q)
{
  const int l = x >= step ? x - step : x;
  const int r = x + step < units ? x + step : x;
  const int s = a[l] + a[x] + a[r] + b[l] + b[x] + b[r] + c[l] + c[x] + c[r];
  return (uchar) lap_apply (b[x], s, mode, q);
}

inline short16
lap_column (const __global uchar * a, const __global uchar * b,
    const __global uchar * c)
{
  return convert_short16 (LOAD_UC16 (a)) + convert_short16 (LOAD_UC16 (b)) +
      convert_short16 (LOAD_UC16 (c));
}

/* The four arithmetic variants of the hot loop; `variant` is a constant at
 * each call site, so that every loop is specialised after inlining. */
#define LAP_S16_SHARPEN 0       /* strength 1: 16-bit */
#define LAP_S16_EDGES 1
#define LAP_I32_SHARPEN 2       /* any strength: 32-bit */
#define LAP_I32_EDGES 3

/* 16 results from the 3x3 window sums s and the centres m */
inline __attribute__ ((always_inline)) uchar16
lap_finish (short16 s, short16 m, const int variant, int q)
{
  if (variant == LAP_S16_SHARPEN)
    return convert_uchar16_sat (m * (short16) (10) - s);
  if (variant == LAP_S16_EDGES) {
    /* max (l, -l) rather than abs (): POCL's abs is not vectorised */
    const short16 l = m * (short16) (9) - s;
    return convert_uchar16_sat (max (l, -l));
  }

  const int16 mi = convert_int16 (m);
  const int16 l = mi * (int16) (9) - convert_int16 (s);
  if (variant == LAP_I32_SHARPEN)
    return convert_uchar16_sat (mi + ((l * (int16) (q) + (int16) (8192)) >>
            (int16) (14)));
  return convert_uchar16_sat ((max (l, -l) * (int16) (q) + (int16) (8192)) >>
      (int16) (14));
}

inline __attribute__ ((always_inline)) uchar16
lap_vector (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, int x, int step, const int variant, int q)
{
  const short16 s = lap_column (a + x - step, b + x - step, c + x - step) +
      lap_column (a + x, b + x, c + x) +
      lap_column (a + x + step, b + x + step, c + x + step);
  return lap_finish (s, convert_short16 (LOAD_UC16 (b + x)), variant, q);
}

/* 16 output bytes at x, the alpha bytes (amask) copied from the source */
inline __attribute__ ((always_inline)) void
lap_store16 (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, __global uchar * o, int x, int step,
    uchar16 amask, const int variant, int q)
{
  STORE_UC16 (o + x, bitselect (lap_vector (a, b, c, x, step, variant, q),
          LOAD_UC16 (b + x), amask));
}

#ifdef GST_CL_HAVE_SHIFTS
/* CPUs: each block's column sums once, the neighbours by lane shifts
 * (common.cl), as g3_run_shifted in gaussian.cl: 3 loads per 16 bytes
 * instead of 9; blocks below byte 16 through lap_store16, then 32 outputs
 * [x, x + 32) per iteration while x + 16 <= end and x + 48 <= units;
 * returns where it stopped. */
#define LAP_RUN(sh)                                                     \
  for (; x + 16 <= end && x + 48 <= units; x += 32) {                   \
    const short16 n1 = lap_column (a + x + 16, b + x + 16, c + x + 16); \
    const short16 n2 = lap_column (a + x + 32, b + x + 32, c + x + 32); \
    const uchar16 m0 = LOAD_UC16 (b + x), m1 = LOAD_UC16 (b + x + 16);  \
    STORE_UC16 (o + x, bitselect (lap_finish (GST_CL_RIGHT_BY (prev,    \
                        cur, sh) + cur + GST_CL_LEFT_BY (cur, n1, sh),  \
                    convert_short16 (m0), variant, q), m0, amask));     \
    STORE_UC16 (o + x + 16, bitselect (lap_finish (GST_CL_RIGHT_BY (cur,\
                        n1, sh) + n1 + GST_CL_LEFT_BY (n1, n2, sh),     \
                    convert_short16 (m1), variant, q), m1, amask));     \
    prev = n1;                                                          \
    cur = n2;                                                           \
  }

inline __attribute__ ((always_inline)) int
lap_run_shifted (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, __global uchar * o, int x, int end, int units,
    int step, uchar16 amask, const int variant, int q)
{
  for (; x < end && x < 16; x += 16)
    lap_store16 (a, b, c, o, x, step, amask, variant, q);
  if (x < 16 || x + 16 > end || x + 48 > units)
    return x;
  short16 prev = lap_column (a + x - 16, b + x - 16, c + x - 16);
  short16 cur = lap_column (a + x, b + x, c + x);
  if (step == 1) {
    LAP_RUN (1);
  } else if (step == 3) {
    LAP_RUN (3);
  } else if (step == 4) {
    LAP_RUN (4);
  }
  return x;
}
#endif

/* scalar bytes [x, end) of a row: the borders, outside the hot loop */
inline void
lap_scalar (const __global uchar * a, const __global uchar * b,
    const __global uchar * c, __global uchar * o, int x, int end, int step,
    int alpha, int units, int mode, int q)
{
  int comp = x % step;
  for (; x < end; x++) {
    o[x] = comp == alpha ? b[x] : lap_sample (a, b, c, x, step, units, mode,
        q);
    if (++comp == step)
      comp = 0;
  }
}

#ifndef GST_CL_CPU
/* GPUs, rows 16-byte aligned: as g3_walk_aligned in gaussian.cl, a
 * work-item walks down one aligned 16-byte column keeping three rows of
 * horizontal sums, the neighbours from gst_cl_load_aligned16 (common.cl). */
inline short16
lap_hsum_aligned (const __global uchar * row, int x, int step,
    uchar16 * centre)
{
  uchar16 l, r;
  gst_cl_load_aligned16 (row, x, step, &l, centre, &r);
  return convert_short16 (l) + convert_short16 (*centre) +
      convert_short16 (r);
}

inline __attribute__ ((always_inline)) void
lap_walk_aligned (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int height, int step, int x,
    int y0, int y1, uchar16 amask, const int variant, int q)
{
  uchar16 c0, c1, c2;
  short16 h0 = lap_hsum_aligned (src + (size_t) max (y0 - 1, 0) *
      src_stride, x, step, &c0);
  short16 h1 = lap_hsum_aligned (src + (size_t) y0 * src_stride, x, step,
      &c1);
  for (int y = y0; y < y1; y++) {
    const short16 h2 = lap_hsum_aligned (src + (size_t) min (y + 1,
            height - 1) * src_stride, x, step, &c2);
    *(__global uchar16 *) (dst + (size_t) y * dst_stride + x) =
        bitselect (lap_finish (h0 + h1 + h2, convert_short16 (c1), variant,
            q), c1, amask);
    h0 = h1;
    h1 = h2;
    c1 = c2;
  }
}
#endif

inline __attribute__ ((always_inline)) void
lap_rows (__global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int units, int height, int step, int alpha, int x0,
    int x1, int y0, int y1, int mode, int q, const int variant)
{
  const uchar16 amask = gst_cl_alpha_mask16 (alpha, step);
  /* vectors of 16 starting in [vlo, vhi] have all their neighbours inside
   * the row; the last one may overlap the one before (same values). vhi
   * keeps the alpha lanes aligned: units and x1 are multiples of the pixel
   * size whenever there is an alpha byte. */
  const int vlo = max (x0, step);
  const int vhi = min (x1, units - step) - 16;

#ifndef GST_CL_CPU
  if (gst_cl_aligned16_ok (src, src_stride, dst, dst_stride, x0, x1 - x0,
          units) && x1 - x0 == 16) {
    lap_walk_aligned (src, src_stride, dst, dst_stride, height, step, x0,
        y0, y1, amask, variant, q);
    return;
  }
#endif
  for (int y = y0; y < y1; y++) {
    const __global uchar *a = src + (size_t) max (y - 1, 0) * src_stride;
    const __global uchar *b = src + (size_t) y * src_stride;
    const __global uchar *c = src + (size_t) min (y + 1, height - 1) * src_stride;
    __global uchar *o = dst + (size_t) y * dst_stride;

    if (vhi < vlo) {            /* narrow: no room for a vector */
      lap_scalar (a, b, c, o, x0, x1, step, alpha, units, mode, q);
      continue;
    }
    if (x0 < vlo)
      lap_scalar (a, b, c, o, x0, vlo, step, alpha, units, mode, q);
    int x = vlo;
#ifdef GST_CL_HAVE_SHIFTS
    x = lap_run_shifted (a, b, c, o, x, vhi, units, step, amask, variant, q);
#endif
    for (; x < vhi; x += 16)
      lap_store16 (a, b, c, o, x, step, amask, variant, q);
    lap_store16 (a, b, c, o, vhi, step, amask, variant, q);
    if (vhi + 16 < x1)
      lap_scalar (a, b, c, o, vhi + 16, x1, step, alpha, units, mode, q);
  }
}

__kernel void
laplace_buffer (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, int mode, int q)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  if (q == LAP_ONE) {
    if (mode == LAP_MODE_SHARPEN)
      lap_rows (src, src_stride, dst, dst_stride, units, height, step, alpha,
          x0, x1, y0, y1, mode, q, LAP_S16_SHARPEN);
    else
      lap_rows (src, src_stride, dst, dst_stride, units, height, step, alpha,
          x0, x1, y0, y1, mode, q, LAP_S16_EDGES);
  } else {
    if (mode == LAP_MODE_SHARPEN)
      lap_rows (src, src_stride, dst, dst_stride, units, height, step, alpha,
          x0, x1, y0, y1, mode, q, LAP_I32_SHARPEN);
    else
      lap_rows (src, src_stride, dst, dst_stride, units, height, step, alpha,
          x0, x1, y0, y1, mode, q, LAP_I32_EDGES);
  }
}

/* ---------------------------------------------------------------------- */
/* Images. A work-item covers texels; coordinates are clamped by pixel so  */
/* that RGB stored as three texels per pixel replicates correctly.         */

/* res with component `alpha` (if >= 0) taken from m */
inline uint4
lap_keep_component (uint4 res, uint4 m, int alpha)
{
  return select (res, m, (int4) (0, 1, 2, 3) == (int4) (alpha));
}

inline int4
lap_texel (read_only image2d_t im, int px, int comp, int step, int width,
    int y, int height)
{
  const int2 pos = (int2) (clamp (px, 0, width - 1) * step + comp,
      clamp (y, 0, height - 1));
  return as_int4 (read_imageui (im, GST_CL_SAMPLER, pos));
}

/* the sum of pixel px's column of three rows around y; *m: its centre */
inline int4
lap_texel_column (read_only image2d_t im, int px, int comp, int step,
    int width, int y, int height, int4 * m)
{
  *m = lap_texel (im, px, comp, step, width, y, height);
  return lap_texel (im, px, comp, step, width, y - 1, height) + *m +
      lap_texel (im, px, comp, step, width, y + 1, height);
}

/* Each work-item walks its texels component by component, pixel by pixel,
 * keeping the column sums of the 3x3 window: three reads per texel (nine
 * for a work-item of one texel, the GPU shape). */
__kernel void
laplace_image (read_only image2d_t src, write_only image2d_t dst,
    int width, int height, int step, int alpha, int chunk, int rows,
    int mode, int q)
{
  int x0, x1, y0, y1;
  if (!gst_cl_work_rect (width * step, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (int y = y0; y < y1; y++) {
    for (int c = 0; c < step; c++) {
      /* the pixels whose component c lies in [x0, x1) */
      const int p0 = (x0 - c + step - 1) / step;
      const int p1 = x1 - 1 - c >= 0 ? (x1 - 1 - c) / step : -1;
      int4 ml, mm, mr;
      int4 cl = lap_texel_column (src, p0 - 1, c, step, width, y, height, &ml);
      int4 cm = lap_texel_column (src, p0, c, step, width, y, height, &mm);
      for (int px = p0; px <= p1; px++) {
        const int4 cr = lap_texel_column (src, px + 1, c, step, width, y,
            height, &mr);
        const int4 l = mm * 9 - (cl + cm + cr);
        const int4 v = mode == LAP_MODE_SHARPEN ?
            mm + ((l * q + 8192) >> 14) : (max (l, -l) * q + 8192) >> 14;
        const uint4 res = as_uint4 (clamp (v, 0, 255));
        write_imageui (dst, (int2) (px * step + c, y),
            lap_keep_component (res, as_uint4 (mm), alpha));
        cl = cm;
        cm = cr;
        mm = mr;
      }
    }
  }
}
