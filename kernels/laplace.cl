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

/* The strength of the 16-bit kernels is q = round (strength * 2^18): Q14
 * would be off by up to 2^-15 * |L| = 16 levels for |L| up to 8 * 65535;
 * with 2^-19 * |L| < 1 the result stays within 1 of round (c + strength
 * * L) (two roundings of numbers less than 1 apart differ by at most 1). */
#define LAP_W_ONE 262144        /* strength 1 in Q18 */

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
LAP_DEFINE_SCALE (lap_scale16, int16)

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

/* 16 stored words from the window sums s and the centres m (in place) */
inline __attribute__ ((always_inline)) int16
lap_finish_w (int16 s, int16 m, const int variant, int q, int shift,
    int wmask)
{
  const int16 l = m * (int16) (9) - s;
  const int16 sh = (int16) (shift);
  if (variant == LAP_W_SHARPEN)
    return clamp (m + l, (int16) (0), (int16) (wmask));
  if (variant == LAP_W_EDGES)   /* max (l, -l): POCL's abs is scalar */
    return min (max (l, -l), (int16) (wmask));
  if (variant == LAP_W_SHARPEN_Q)
    return clamp ((m >> sh) + lap_scale16 (l >> sh, q), (int16) (0),
        (int16) (wmask) >> sh) << sh;
  return min (lap_scale16 (max (l, -l) >> sh, q), (int16) (wmask) >> sh) <<
      sh;
}

/* the stored words of 16 results, the kept samples (amask) raw */
inline ushort16
lap_pack_w (int16 words, ushort16 raw, ushort16 amask)
{
  return bitselect (convert_ushort16 (words), raw, amask);
}

inline int16
lap_column_w (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, int wmask)
{
  return lap_inplace16_w (LOAD_US16 (a), wmask) +
      lap_inplace16_w (LOAD_US16 (b), wmask) +
      lap_inplace16_w (LOAD_US16 (c), wmask);
}

/* 16 output samples at x, all nine neighbours loaded */
inline __attribute__ ((always_inline)) void
lap_store16_w (const __global ushort * a, const __global ushort * b,
    const __global ushort * c, __global ushort * o, int x, int step,
    ushort16 amask, const int variant, int q, int shift, int wmask)
{
  const int16 s = lap_column_w (a + x - step, b + x - step, c + x - step,
      wmask) + lap_column_w (a + x, b + x, c + x, wmask) +
      lap_column_w (a + x + step, b + x + step, c + x + step, wmask);
  const ushort16 raw = LOAD_US16 (b + x);
  STORE_US16 (o + x, lap_pack_w (lap_finish_w (s, lap_inplace16_w (raw,
                  wmask), variant, q, shift, wmask), raw, amask));
}

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
    const int16 n1 = lap_column_w (a + x + 16, b + x + 16, c + x + 16,  \
        wmask);                                                         \
    const int16 n2 = lap_column_w (a + x + 32, b + x + 32, c + x + 32,  \
        wmask);                                                         \
    const ushort16 r0 = LOAD_US16 (b + x), r1 = LOAD_US16 (b + x + 16); \
    STORE_US16 (o + x, lap_pack_w (lap_finish_w (GST_CL_RIGHT_BY (prev, \
                    cur, sh) + cur + GST_CL_LEFT_BY (cur, n1, sh),      \
                lap_inplace16_w (r0, wmask), variant, q, shift, wmask), \
            r0, amask));                                                \
    STORE_US16 (o + x + 16, lap_pack_w (lap_finish_w (GST_CL_RIGHT_BY   \
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
  int16 prev = lap_column_w (a + x - 16, b + x - 16, c + x - 16, wmask);
  int16 cur = lap_column_w (a + x, b + x, c + x, wmask);
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
 * max (9 * c, s) - min (9 * c, s). The results equal lap_finish_w's. */
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
/* GPUs, rows 32-byte aligned: a work-item walks down one aligned column of
 * 16 samples keeping three rows of horizontal sums. The neighbours come
 * from one aligned 32-byte load and the aligned 8 bytes on each side
 * (which the neighbouring work-items load as their own: cache hits),
 * put together with constant swizzles for the two pixel sizes. */
inline int16
lap_hsum_aligned_w (const __global ushort * row, int x, int step, int wmask,
    ushort16 * raw)
{
  const ushort16 w = *(const __global ushort16 *) (row + x);
  const ushort16 c = w & (ushort16) (wmask);
  const ushort4 before = *(const __global ushort4 *) (row + x - 4) &
      (ushort4) (wmask);
  const ushort4 after = *(const __global ushort4 *) (row + x + 16) &
      (ushort4) (wmask);
  ushort16 l, r;
  if (step == 1) {
    l = (ushort16) (before.s3, c.s0123, c.s4567, c.s89ab, c.scde);
    r = (ushort16) (c.s1234, c.s5678, c.s9abc, c.sdef, after.s0);
  } else {
    l = (ushort16) (before, c.s0123, c.s4567, c.s89ab);
    r = (ushort16) (c.s4567, c.s89ab, c.scdef, after);
  }
  *raw = w;
  return convert_int16 (l) + convert_int16 (c) + convert_int16 (r);
}

inline __attribute__ ((always_inline)) void
lap_walk_aligned_w (__global const ushort * src, int src_stride,
    __global ushort * dst, int dst_stride, int height, int step, int x,
    int y0, int y1, ushort16 amask, const int variant, int q, int shift,
    int wmask)
{
  ushort16 r0, r1, r2;
  int16 h0 = lap_hsum_aligned_w ((const __global ushort *) ((const __global
              uchar *) src + (size_t) max (y0 - 1, 0) * src_stride), x,
      step, wmask, &r0);
  int16 h1 = lap_hsum_aligned_w ((const __global ushort *) ((const __global
              uchar *) src + (size_t) y0 * src_stride), x, step, wmask, &r1);
  for (int y = y0; y < y1; y++) {
    const int16 h2 = lap_hsum_aligned_w ((const __global ushort *) ((const
                __global uchar *) src + (size_t) min (y + 1,
                height - 1) * src_stride), x, step, wmask, &r2);
    *(__global ushort16 *) ((__global uchar *) dst + (size_t) y * dst_stride +
        2 * (size_t) x) = lap_pack_w (lap_finish_w (h0 + h1 + h2,
            lap_inplace16_w (r1, wmask), variant, q, shift, wmask), r1,
        amask);
    h0 = h1;
    h1 = h2;
    r1 = r2;
  }
}

/* Whether a work-item's columns [x0, x0 + chunk) can take it: 16 samples
 * with 4 on each side, rows 32-byte aligned, pixels of 1 or 4 samples. */
inline int
lap_aligned_ok_w (const __global ushort * src, int src_stride,
    const __global ushort * dst, int dst_stride, int x0, int chunk,
    int units, int step)
{
  return chunk == 16 && x0 >= 4 && x0 + 20 <= units &&
      (step == 1 || step == 4) && ((src_stride | dst_stride) & 31) == 0 &&
      (((size_t) src | (size_t) dst) & 31) == 0;
}
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
  const int vhi = min (x1, units - step) - 16;

#ifndef GST_CL_CPU
  if (lap_aligned_ok_w (src, src_stride, dst, dst_stride, x0, x1 - x0,
          units, step)) {
    lap_walk_aligned_w (src, src_stride, dst, dst_stride, height, step, x0,
        y0, y1, amask, variant, q, shift, wmask);
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
    for (; x < vhi; x += 16)
      lap_store16_w (a, b, c, o, x, step, amask, variant, q, shift, wmask);
    lap_store16_w (a, b, c, o, vhi, step, amask, variant, q, shift, wmask);
    if (vhi + 16 < x1)
      lap_scalar_w (a, b, c, o, vhi + 16, x1, step, alpha, units, mode, q,
          shift, maxv);
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
