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
 *
 * Formats of more than 8 bits (laplace_buffer16 and laplace_image16, their
 * helpers named *_w, and *_n for 16-bit lanes): a unit is a 16-bit
 * little-endian sample (strides stay in bytes) holding the value
 * v = (sample >> shift) & maxv, maxv = 2^D - 1; results are clamped to
 * 0..maxv and stored as v << shift, so the bits outside the value are
 * ignored on input and written as zero. The kept sample (alpha of
 * RGBA64_LE) is copied raw. Their strength is finer,
 * q = round (strength * 2^18), and strength * L is (q * L + 2^17) >> 18,
 * whose 42-bit product lap_scale* computes exactly in 32-bit ints. At
 * strength 1 the values (|10 * c - sum9| < 2^20) are plain 32-bit ints.
 */

#define LAP_MODE_SHARPEN GST_CL_LAPLACE_SHARPEN
#define LAP_MODE_EDGES GST_CL_LAPLACE_EDGES
#define LAP_ONE GST_CL_LAPLACE_Q14_ONE  /* strength 1 in Q14 */

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
/* (whole rows per work-item on CPUs, 16 bytes x 2 rows on GPUs; there    */
/* laplace_words8 below where rows are of whole 8-byte words).             */

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

/* shift and maxv are 0 and 255 here: the arguments of laplace_buffer16,
 * so that the host launches both kinds alike */
__kernel void
laplace_buffer (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, int mode, int q, int shift, int maxv)
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

/* GPUs, rows of 8-byte words (gst_cl_launch_words8 on the host): as
 * gaussian3_words8 in gaussian.cl, a work-item walks down 8 bytes of
 * `rows` rows keeping three rows of horizontal sums l + c + r, each row's
 * neighbours from gst_cl_load_aligned8 (common.cl). */
inline short8
lap_hsum8 (const __global uchar * row, int x, int units, int step,
    uint2 * centre)
{
  uint2 l, r;
  gst_cl_load_aligned8 (row, x, units, step, &l, centre, &r);
  return convert_short8 (as_uchar8 (l)) + convert_short8 (as_uchar8 (*centre))
      + convert_short8 (as_uchar8 (r));
}

/* Strength 1 (the default) in 16-bit lanes packed two to a 32-bit word,
 * even bytes and odd bytes apart, as gaussian3_words8 does: four samples
 * per operation instead of a conversion and a saturation per sample (which
 * made this kernel about twice gaussian3_words8's time on a GPU). Every lane
 * stays within 0..65535 so that none borrows from or carries into the
 * next: the horizontal sums (gst_cl_hsum8_packed, cshift 0) are at most
 * 765, the window's sum9 at most 2295, and t = k * c + 2295 - sum9
 * (k = 10 sharpening, 9 for edges) lies in 0..4845. */
#define LAP_BIAS 0x08f708f7u    /* 2295 = 9 * 255 in each lane */

/* clamp (t - 2295, 0, 255), or with edges min (|t - 2295|, 255), in each
 * 16-bit lane of t (0 <= t <= 4845). The lanes are clamped as ushorts:
 * min and max of 16-bit pairs are one instruction each on recent GPUs
 * (and a few on others), where clamping by bit tricks on the 32-bit words
 * took about 14 operations per word and left this kernel bound by its
 * integer instructions (bench/probes/laplace.c; figures in
 * bench/results/performance-history.md). */
inline uint2
lap_clamp_lanes (uint2 t, const int edges)
{
  const ushort4 u = as_ushort4 (t);
  if (edges)
    return as_uint2 (min (abs_diff (u, (ushort4) (2295)), (ushort4) (255)));
  /* each lane in 2295..2550 after the clamp: no borrow */
  return as_uint2 (clamp (u, (ushort4) (2295), (ushort4) (2550))) - LAP_BIAS;
}

inline __attribute__ ((always_inline)) void
lap_words8 (__global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int units, int height, int step, int alpha, int rows,
    int q, const int variant)
{
  const int x = (int) get_global_id (0) * 8;
  const int y0 = (int) get_global_id (1) * rows;
  if (x >= units || y0 >= height)
    return;
  const int y1 = min (y0 + rows, height);
  /* x is a multiple of 8, so of the pixel size wherever there is alpha */
  const uchar8 keep = gst_cl_alpha_mask16 (alpha, step).lo;
  const __global uchar *above = src + (size_t) max (y0 - 1, 0) * src_stride;
  const __global uchar *row = src + (size_t) y0 * src_stride;

  if (variant == LAP_S16_SHARPEN || variant == LAP_S16_EDGES) {
    const int edges = variant == LAP_S16_EDGES;
    const uint2 k = (uint2) (edges ? 9 : 10);
    uint2 e0, o0, c0, e1, o1, c1, e2, o2, c2;
    gst_cl_hsum8_packed (above, x, units, step, 0, &e0, &o0, &c0);
    gst_cl_hsum8_packed (row, x, units, step, 0, &e1, &o1, &c1);
    for (int y = y0; y < y1; y++) {
      gst_cl_hsum8_packed (src + (size_t) min (y + 1, height - 1) *
          src_stride, x, units, step, 0, &e2, &o2, &c2);
      const uint2 te = (c1 & GST_CL_EVEN_BYTES) * k + LAP_BIAS -
          (e0 + e1 + e2);
      const uint2 to = ((c1 >> 8) & GST_CL_EVEN_BYTES) * k + LAP_BIAS -
          (o0 + o1 + o2);
      const uint2 res = lap_clamp_lanes (te, edges) |
          (lap_clamp_lanes (to, edges) << 8);
      *(__global uint2 *) (dst + (size_t) y * dst_stride + x) =
          bitselect (res, c1, as_uint2 (keep));
      e0 = e1;
      o0 = o1;
      e1 = e2;
      o1 = o2;
      c1 = c2;
    }
    return;
  }

  /* other strengths: 8 lanes of 32 bits through lap_finish */
  uint2 c0, c1, c2;
  short8 h0 = lap_hsum8 (above, x, units, step, &c0);
  short8 h1 = lap_hsum8 (row, x, units, step, &c1);
  for (int y = y0; y < y1; y++) {
    const short8 h2 = lap_hsum8 (src + (size_t) min (y + 1, height - 1) *
        src_stride, x, units, step, &c2);
    const uchar8 m = as_uchar8 (c1);
    /* lap_finish's 16 lanes, the upper 8 unused (and dropped by the
     * compiler): one arithmetic for both vector widths */
    const uchar8 res = lap_finish ((short16) (h0 + h1 + h2, (short8) (0)),
        (short16) (convert_short8 (m), (short8) (0)), variant, q).lo;
    *(__global uint2 *) (dst + (size_t) y * dst_stride + x) =
        as_uint2 (bitselect (res, m, keep));
    h0 = h1;
    h1 = h2;
    c1 = c2;
  }
}

/* The arguments are laplace_buffer's (chunk is 8 here), so that the host
 * launches both alike. Strength 1 only (q == LAP_ONE; the host launches
 * laplace_words8_scaled for the others), pixels of 4 bytes or 1
 * (laplace_words8_any for the others): a kernel is compiled for its
 * largest path, and with the 32-bit lanes of the other strengths in the
 * same kernel the strength-1 walk ran measurably slower
 * (bench/probes/laplace.c). The pixel size is a constant in each copy. */
__kernel void
laplace_words8 (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, int mode, int q, int shift, int maxv)
{
  const int v = mode == LAP_MODE_SHARPEN ? LAP_S16_SHARPEN : LAP_S16_EDGES;
  if (step == 4 && v == LAP_S16_SHARPEN)
    lap_words8 (src, src_stride, dst, dst_stride, units, height, 4, alpha,
        rows, q, LAP_S16_SHARPEN);
  else if (step == 4)
    lap_words8 (src, src_stride, dst, dst_stride, units, height, 4, alpha,
        rows, q, LAP_S16_EDGES);
  else if (v == LAP_S16_SHARPEN)
    lap_words8 (src, src_stride, dst, dst_stride, units, height, 1, alpha,
        rows, q, LAP_S16_SHARPEN);
  else
    lap_words8 (src, src_stride, dst, dst_stride, units, height, 1, alpha,
        rows, q, LAP_S16_EDGES);
}

/* laplace_words8 for pixels of other sizes (2 and 3 bytes), the size
 * read at run time */
__kernel void
laplace_words8_any (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, int mode, int q, int shift, int maxv)
{
  if (mode == LAP_MODE_SHARPEN)
    lap_words8 (src, src_stride, dst, dst_stride, units, height, step,
        alpha, rows, q, LAP_S16_SHARPEN);
  else
    lap_words8 (src, src_stride, dst, dst_stride, units, height, step,
        alpha, rows, q, LAP_S16_EDGES);
}

/* laplace_words8 at strengths other than 1 (q != LAP_ONE): 32-bit lanes */
__kernel void
laplace_words8_scaled (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int units, int height, int step,
    int alpha, int chunk, int rows, int mode, int q, int shift, int maxv)
{
  if (mode == LAP_MODE_SHARPEN)
    lap_words8 (src, src_stride, dst, dst_stride, units, height, step,
        alpha, rows, q, LAP_I32_SHARPEN);
  else
    lap_words8 (src, src_stride, dst, dst_stride, units, height, step,
        alpha, rows, q, LAP_I32_EDGES);
}

/* The strength of the 16-bit kernels (laplace16.cl) and of the images is
 * q = round (strength * 2^18): Q14 would be off by up to 2^-15 * |L| = 16
 * levels for |L| up to 8 * 65535; with 2^-19 * |L| < 1 the result stays
 * within 1 of round (c + strength * L) (two roundings of numbers less than
 * 1 apart differ by at most 1). */
#define LAP_W_ONE GST_CL_LAPLACE_Q18_ONE  /* strength 1 in Q18 */

/* strength * l, i.e. (l * q + 2^17) >> 18, for |l| <= 8 * 65535 < 2^19 and
 * 0 <= q <= 16 * 2^18 = 2^22, whose product needs 42 bits, in 32-bit ints
 * and exactly: with q = 2^11 * qh + ql (qh <= 2^11, ql < 2^11) and
 * a = l * qh (|a| < 2^30), l * q + 2^17 = 2^18 * (a >> 7) + r where
 * r = 2^11 * (a & 127) + l * ql + 2^17 (|r| < 2^30 + 2^19; >> is a floor
 * and & 127 the matching remainder in two's complement), so the floor of
 * the whole divided by 2^18 is (a >> 7) + (r >> 18). For q = 2^18 it is l. */
#define LAP_DEFINE_SCALE(name, T)                                       \
inline T                                                                \
name (T l, int q)                                                       \
{                                                                       \
  const T a = l * (T) (q >> 11);                                        \
  return (a >> (T) (7)) + ((((a & (T) (127)) << (T) (11)) +             \
          l * (T) (q & 2047) + (T) (131072)) >> (T) (18));              \
}
LAP_DEFINE_SCALE (lap_scale, int)
LAP_DEFINE_SCALE (lap_scale4, int4)
LAP_DEFINE_SCALE (lap_scale8, int8)
LAP_DEFINE_SCALE (lap_scale16, int16)

/* ---------------------------------------------------------------------- */
/* Images. A work-item covers texels; coordinates are clamped by pixel so  */
/* that RGB stored as three texels per pixel replicates correctly. 16-bit  */
/* images (CL_UNSIGNED_INT16) read and write the stored words: the values  */
/* are taken out of them and put back as in the buffers.                   */

/* res with component `alpha` (if >= 0) taken from m */
inline uint4
lap_keep_component (uint4 res, uint4 m, int alpha)
{
  return select (res, m, (int4) (0, 1, 2, 3) == (int4) (alpha));
}

/* the stored texel (raw: words in 16-bit images) */
inline int4
lap_texel (read_only image2d_t im, int px, int comp, int step, int width,
    int y, int height)
{
  const int2 pos = (int2) (clamp (px, 0, width - 1) * step + comp,
      clamp (y, 0, height - 1));
  return as_int4 (read_imageui (im, GST_CL_SAMPLER, pos));
}

/* the values of a texel: the raw one in 8-bit images */
inline __attribute__ ((always_inline)) int4
lap_texel_values (int4 t, int shift, int maxv, const int wide)
{
  return wide ? (t >> (int4) (shift)) & (int4) (maxv) : t;
}

/* the sum of the values of pixel px's column of three rows around y; *m:
 * its centre, raw */
inline __attribute__ ((always_inline)) int4
lap_texel_column (read_only image2d_t im, int px, int comp, int step,
    int width, int y, int height, int4 * m, int shift, int maxv,
    const int wide)
{
  *m = lap_texel (im, px, comp, step, width, y, height);
  return lap_texel_values (lap_texel (im, px, comp, step, width, y - 1,
          height), shift, maxv, wide) + lap_texel_values (*m, shift, maxv,
      wide) + lap_texel_values (lap_texel (im, px, comp, step, width, y + 1,
          height), shift, maxv, wide);
}

/* Each work-item walks its texels component by component, pixel by pixel,
 * keeping the column sums of the 3x3 window: three reads per texel (nine
 * for a work-item of one texel, the GPU shape). `wide` (constant at each
 * call): 16-bit images, values at `shift`, clamped to maxv. */
inline __attribute__ ((always_inline)) void
lap_image (read_only image2d_t src, write_only image2d_t dst, int width,
    int height, int step, int alpha, int chunk, int rows, int mode, int q,
    int shift, int maxv, const int wide)
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
      int4 cl = lap_texel_column (src, p0 - 1, c, step, width, y, height, &ml,
          shift, maxv, wide);
      int4 cm = lap_texel_column (src, p0, c, step, width, y, height, &mm,
          shift, maxv, wide);
      for (int px = p0; px <= p1; px++) {
        const int4 cr = lap_texel_column (src, px + 1, c, step, width, y,
            height, &mr, shift, maxv, wide);
        const int4 mv = lap_texel_values (mm, shift, maxv, wide);
        const int4 l = mv * 9 - (cl + cm + cr);
        uint4 res;
        if (wide) {
          const int4 v = mode == LAP_MODE_SHARPEN ? mv + lap_scale4 (l, q) :
              lap_scale4 (max (l, -l), q);
          res = as_uint4 (clamp (v, 0, maxv) << (int4) (shift));
        } else {
          const int4 v = mode == LAP_MODE_SHARPEN ?
              mm + ((l * q + 8192) >> 14) : (max (l, -l) * q + 8192) >> 14;
          res = as_uint4 (clamp (v, 0, 255));
        }
        write_imageui (dst, (int2) (px * step + c, y),
            lap_keep_component (res, as_uint4 (mm), alpha));
        cl = cm;
        cm = cr;
        mm = mr;
      }
    }
  }
}

/* shift and maxv: 0 and 255, as for laplace_buffer */
__kernel void
laplace_image (read_only image2d_t src, write_only image2d_t dst,
    int width, int height, int step, int alpha, int chunk, int rows,
    int mode, int q, int shift, int maxv)
{
  lap_image (src, dst, width, height, step, alpha, chunk, rows, mode, q, 0,
      255, 0);
}

/* CL_UNSIGNED_INT16 images (formats of more than 8 bits) */
__kernel void
laplace_image16 (read_only image2d_t src, write_only image2d_t dst,
    int width, int height, int step, int alpha, int chunk, int rows,
    int mode, int q, int shift, int maxv)
{
  lap_image (src, dst, width, height, step, alpha, chunk, rows, mode, q,
      shift, maxv, 1);
}
