/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* tonemap.cl: cltonemap, HDR (PQ or HLG) to SDR BT.709 on the device.
 *
 * One frame is three kernels on one in-order queue, with no host wait
 * between them, so that the frame measured is the frame mapped:
 *
 * 1. tonemap_hist: the histogram of PQ (max (R, G, B)) over every pixel,
 *    GST_CL_TONEMAP_BINS bins, into `hist` (dynamic peak only);
 * 2. tonemap_curve: one work-group: the frame peak x from the histogram
 *    (a percentile), smoothed with the state the previous frame left on
 *    the device, and from the source peak Lw the curve, as a table of
 *    gains s'/s over PQ (s) in `gain`, and the record the messages read
 *    in `params`; it clears `hist` for the next frame;
 * 3. tonemap_map: every pixel through the documented reference
 *    (docs/elements/cltonemap.md, interface.md "cltonemap"), a chroma
 *    block (2x2 pixels in 4:2:0 frames, one pixel otherwise) at a time,
 *    so that the block's output chroma is the mean of its pixels'; `chunk`
 *    blocks of a row per work-item (a whole row on CPUs).
 *
 * The transfer functions are tables (`lut`, made at caps time in double
 * precision, and `gain`) interpolated linearly over GST_CL_TONEMAP_LUT
 * intervals, each entry the value at its knot and the step to the next (a
 * lookup is one load of a pair): a pixel costs no pow () in PQ, where
 * PQ (max (R, G, B)) is max (R', G', B') itself. Against the exact
 * formulas this is off by at most 0.03 of an 8-bit level (0.11 of a
 * 10-bit one).
 *
 * Frames are described by two int8 vectors: the format (kind, chroma shift
 * x, chroma shift y, bytes per sample, depth, shift of the value in the
 * sample) and the geometry (offsets of planes 0..2, then their strides, in
 * bytes). Samples are read and written byte by byte: padded strides may
 * be odd.
 */

#define TM_M1 (2610.0f / 16384.0f)
#define TM_M2 (2523.0f / 32.0f)
#define TM_C1 (3424.0f / 4096.0f)
#define TM_C2 (2413.0f / 128.0f)
#define TM_C3 (2392.0f / 128.0f)
#define TM_HLG_A 0.17883277f
#define TM_HLG_B 0.28466892f
#define TM_HLG_C 0.55991073f

/* x^y for x >= 0: POCL's pow () costs about 280 ns on the CI machine,
 * exp2 and log2 a fraction of it, within the tables' accuracy */
inline float
tm_pow (float x, float y)
{
  return x > 0.0f ? exp2 (y * log2 (x)) : 0.0f;
}

/* PQ signal to nits (SMPTE ST 2084 EOTF) */
inline float
tm_pq_eotf (float e)
{
  const float p = tm_pow (max (e, 0.0f), 1.0f / TM_M2);
  return 10000.0f * tm_pow (max (p - TM_C1, 0.0f) / (TM_C2 - TM_C3 * p),
      1.0f / TM_M1);
}

/* nits to PQ signal (the inverse EOTF, black at 0 nits) */
inline float
tm_pq_inverse (float nits)
{
  const float y = tm_pow (max (nits, 0.0f) / 10000.0f, TM_M1);
  return tm_pow ((TM_C1 + TM_C2 * y) / (1.0f + TM_C3 * y), TM_M2);
}

inline float
tm_hlg_inverse_oetf (float e)
{
  return e <= 0.5f ? e * e / 3.0f : (exp ((e - TM_HLG_C) / TM_HLG_A) +
      TM_HLG_B) / 12.0f;
}

/* Hable's filmic curve, as the note writes it */
inline float
tm_hable (float x)
{
  return (x * (0.15f * x + 0.05f) + 0.004f) / (x * (0.15f * x + 0.5f) +
      0.06f) - 1.0f / 15.0f;
}

/* table @t (GST_CL_TONEMAP_LUT pairs over [0, 1]) at @x */
inline float
tm_lut (const __global float2 * t, float x)
{
  const float f = clamp (x, 0.0f, 1.0f) * GST_CL_TONEMAP_LUT;
  const int i = min ((int) f, GST_CL_TONEMAP_LUT - 1);
  const float2 p = t[i];
  return p.x + (f - (float) i) * p.y;
}

inline uint
tm_read (const __global uchar * b, size_t off, int8 f)
{
  uint w = b[off];
  if (f.s3 == 2)
    w |= (uint) b[off + 1] << 8;
  return (w >> f.s5) & ((1u << f.s4) - 1u);
}

inline void
tm_write (__global uchar * b, size_t off, int8 f, uint v)
{
  const uint w = v << f.s5;
  b[off] = (uchar) (w & 0xff);
  if (f.s3 == 2)
    b[off + 1] = (uchar) (w >> 8);
}

/* What the chroma levels @v (Cb, Cr) of a block add to each pixel's
 * normalised Y' to make its R', G' and B' (the same for the block's
 * pixels; multiplications by the caps' reciprocals: a GPU's division is a
 * dozen instructions) */
inline float3
tm_chroma (uint2 v, __constant float *cfg)
{
  const float kr = cfg[GST_CL_TONEMAP_CFG_IN_KR];
  const float kb = cfg[GST_CL_TONEMAP_CFG_IN_KB];
  const float2 c = (convert_float2 (v) - cfg[GST_CL_TONEMAP_CFG_IN_COFF]) *
      cfg[GST_CL_TONEMAP_CFG_IN_CINV];
  float3 d;

  d.x = 2.0f * (1.0f - kr) * c.y;
  d.z = 2.0f * (1.0f - kb) * c.x;
  d.y = -(kr * d.x + kb * d.z) * cfg[GST_CL_TONEMAP_CFG_IN_GINV];
  return d;
}

/* R'G'B' in [0, 1] from the luma level @yv and its block's chroma @d */
inline float3
tm_ycc_rgb (uint yv, float3 d, __constant float *cfg)
{
  const float yy = ((float) yv - cfg[GST_CL_TONEMAP_CFG_IN_YOFF]) *
      cfg[GST_CL_TONEMAP_CFG_IN_YINV];

  return clamp (yy + d, 0.0f, 1.0f);
}

/* the chroma of block (bx, by), as tm_chroma gives it */
inline float3
tm_read_chroma (const __global uchar * src, int8 f, int8 g, int bx, int by,
    __constant float *cfg)
{
  size_t ob, ocr;
  if (f.s0 == GST_CL_TONEMAP_KIND_SEMI) {
    ob = (size_t) g.s1 + (size_t) by * g.s4 + (size_t) bx * 2 * f.s3;
    ocr = ob + f.s3;
  } else {
    ob = (size_t) g.s1 + (size_t) by * g.s4 + (size_t) bx * f.s3;
    ocr = (size_t) g.s2 + (size_t) by * g.s5 + (size_t) bx * f.s3;
  }
  return tm_chroma ((uint2) (tm_read (src, ob, f), tm_read (src, ocr, f)),
      cfg);
}

/* R'G'B' of pixel (x, y) in [0, 1], from its Y' and its block's chroma
 * (Y'CbCr), or read as full-range R'G'B' */
inline float3
tm_read_rgb (const __global uchar * src, int8 f, int8 g, int x, int y,
    float3 c, __constant float *cfg)
{
  if (f.s0 == GST_CL_TONEMAP_KIND_RGBA) {
    const size_t o = (size_t) g.s0 + (size_t) y * g.s3 + (size_t) x * 4 *
        f.s3;
    const float maxv = (float) ((1u << f.s4) - 1u);
    return clamp ((float3) (tm_read (src, o, f), tm_read (src, o + f.s3, f),
            tm_read (src, o + 2 * f.s3, f)) / maxv, 0.0f, 1.0f);
  }
  return tm_ycc_rgb (tm_read (src, (size_t) g.s0 + (size_t) y * g.s3 +
          (size_t) x * f.s3, f), c, cfg);
}

/* R'G'B' to linear light in nits: the PQ EOTF, or HLG's inverse OETF and
 * OOTF (system gamma 1.2 on BT.2020 luminance, nominal peak hlg_peak),
 * through the table of the input's transfer */
inline float3
tm_linear (float3 e, __constant float *cfg, const __global float2 * lut,
    float hlg_peak)
{
  float3 l = (float3) (tm_lut (lut, e.x), tm_lut (lut, e.y),
      tm_lut (lut, e.z));
  float ys;
  if (cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f)
    return l;
  ys = 0.2627f * l.x + 0.6780f * l.y + 0.0593f * l.z;
  return ys > 0.0f ? l * (hlg_peak * tm_pow (ys, 0.2f)) : (float3) (0.0f);
}

/* PQ (max (R, G, B)) of a pixel: max (R', G', B') itself for PQ input */
inline float
tm_signal_pq (float3 e, float3 l, __constant float *cfg)
{
  if (cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f)
    return max (max (e.x, e.y), e.z);
  return tm_pq_inverse (max (max (l.x, l.y), l.z));
}

/* ------------------------------------------------------------------------ */
/* 1. The histogram of PQ (max (R, G, B))                                    */

__kernel void
tonemap_hist (const __global uchar * src, int8 f, int8 g, int width,
    int height, __constant float *cfg, const __global float2 * lut,
    float hlg_peak, __global uint * hist)
{
  __local uint lh[GST_CL_TONEMAP_BINS];
  const int lid = get_local_id (0), lsize = get_local_size (0);
  const int nbx = (width + (1 << f.s1) - 1) >> f.s1;
  const int nby = (height + (1 << f.s2) - 1) >> f.s2;
  const int nblocks = nbx * nby;

  for (int i = lid; i < GST_CL_TONEMAP_BINS; i += lsize)
    lh[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int b = get_global_id (0); b < nblocks; b += get_global_size (0)) {
    const int bx = b % nbx, by = b / nbx;
    const int x0 = bx << f.s1, y0 = by << f.s2;
    const int x1 = min (x0 + (1 << f.s1), width);
    const int y1 = min (y0 + (1 << f.s2), height);
    const float3 c = f.s0 == GST_CL_TONEMAP_KIND_RGBA ? (float3) (0.0f) :
        tm_read_chroma (src, f, g, bx, by, cfg);
    for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++) {
        const float3 e = tm_read_rgb (src, f, g, x, y, c, cfg);
        const float3 l = cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f ? e :
            tm_linear (e, cfg, lut, hlg_peak);
        const float pq = tm_signal_pq (e, l, cfg);
        atomic_inc (&lh[min ((int) (pq * GST_CL_TONEMAP_BINS),
                    GST_CL_TONEMAP_BINS - 1)]);
      }
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < GST_CL_TONEMAP_BINS; i += lsize)
    if (lh[i])
      atomic_add (&hist[i], lh[i]);
}

/* The GPU kernels of 16-bit 4:2:0 semi-planar input (P010_10LE, P016_LE),
 * every plane at an even offset and stride, offsets in 32 bits (the frame
 * under 2 GB: the host checks). The histogram takes a quad a work-item,
 * TM_QUAD blocks side by side (8x2 pixels), read in three 16-byte loads
 * where @vec says that the planes allow them (offsets and strides
 * multiples of 16), else, and at the frame's right and bottom edges, a
 * block at a time in pairs of words: a block a work-item, a warp reading
 * 128 bytes a row where a copy reads 512, took 38.8 us against 29.4 on an
 * H200 at 4K. The mapping, with far more arithmetic a pixel, takes two
 * blocks a work-item (below). */
#define TM_QUAD 4

/* the levels of the two words of @w (a pair of samples) */
inline uint2
tm_words (uint w, int8 f, uint mask)
{
  return ((uint2) (w & 0xffffu, w >> 16) >> f.s5) & mask;
}

/* the 16 bytes at @p (a multiple of 16) */
inline uint4
tm_load16 (const __global ushort * p)
{
  return *(const __global uint4 *) p;
}

/* the chroma of block (bx, by) (tm_chroma), one word pair ... */
inline float3
tm_semi16_chroma (const __global ushort * src, int8 f, int8 g, int bx,
    int by, uint mask, __constant float *cfg)
{
  return tm_chroma ((convert_uint2 (vload2 (0, src + (g.s1 >> 1) + by *
                  (g.s4 >> 1) + 2 * bx)) >> f.s5) & mask, cfg);
}

/* ... and the luma levels of row y of the block's columns, the second 0
 * where the block has one column (@pair FALSE) */
inline uint2
tm_semi16_luma (const __global ushort * src, int8 f, int8 g, int bx, int y,
    int pair, uint mask)
{
  const __global ushort *row = src + (g.s0 >> 1) + y * (g.s3 >> 1);
  return pair ? (convert_uint2 (vload2 (bx, row)) >> f.s5) & mask :
      (uint2) ((row[2 * bx] >> f.s5) & mask, 0);
}

/* the rows y and y + 1 and the chroma of quad (qx, y / 2), whole */
inline void
tm_quad_load (const __global ushort * src, int8 g, int qx, int y,
    uint4 * r0, uint4 * r1, uint4 * cv)
{
  const __global ushort *row = src + (g.s0 >> 1) + y * (g.s3 >> 1) +
      2 * TM_QUAD * qx;
  *r0 = tm_load16 (row);
  *r1 = tm_load16 (row + (g.s3 >> 1));
  *cv = tm_load16 (src + (g.s1 >> 1) + (y >> 1) * (g.s4 >> 1) +
      2 * TM_QUAD * qx);
}

/* 1b. The histogram on GPUs of such input, as tonemap_hist counts, a run
 * of pixels in the same bin counted with one atomic add (neighbouring
 * pixels often share a bin, and local atomics on one address are
 * serialised; 1 to 8 copies of the group's table, spreading a warp's adds,
 * changed nothing on an H200). */

/* counts @bin, a run of equal bins in one add */
inline void
tm_count (__local uint * lh, int bin, int *run_bin, uint * run)
{
  if (bin != *run_bin) {
    if (*run)
      atomic_add (&lh[*run_bin], *run);
    *run_bin = bin;
    *run = 0;
  }
  (*run)++;
}

/* the bin of R'G'B' @e */
inline int
tm_bin (float3 e, __constant float *cfg, const __global float2 * lut,
    float hlg_peak)
{
  const float3 l = cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f ? e :
      tm_linear (e, cfg, lut, hlg_peak);
  return min ((int) (tm_signal_pq (e, l, cfg) * GST_CL_TONEMAP_BINS),
      GST_CL_TONEMAP_BINS - 1);
}

#define TM_COUNT(yv, c) tm_count (lh, tm_bin (tm_ycc_rgb ((yv), (c), cfg), \
      cfg, lut, hlg_peak), run_bin, run)

/* block (bx, by) counted, a row at a time */
inline void
tm_count_block (const __global ushort * src, int8 f, int8 g, int bx,
    int by, int width, int height, __constant float *cfg,
    const __global float2 * lut, float hlg_peak, __local uint * lh,
    int *run_bin, uint * run)
{
  const uint mask = (1u << f.s4) - 1u;
  const int pair = 2 * bx + 1 < width;
  const float3 c = tm_semi16_chroma (src, f, g, bx, by, mask, cfg);

  for (int y = 2 * by; y < min (2 * by + 2, height); y++) {
    const uint2 yv = tm_semi16_luma (src, f, g, bx, y, pair, mask);
    TM_COUNT (yv.x, c);
    if (pair)
      TM_COUNT (yv.y, c);
  }
}

/* quad (qx, qy), whole, counted in the blocks' order */
inline void
tm_count_quad (const __global ushort * src, int8 f, int8 g, int qx, int qy,
    __constant float *cfg, const __global float2 * lut, float hlg_peak,
    __local uint * lh, int *run_bin, uint * run)
{
  const uint mask = (1u << f.s4) - 1u;
  uint4 r0, r1, cv;

  tm_quad_load (src, g, qx, 2 * qy, &r0, &r1, &cv);
  {
    const uint w0[TM_QUAD] = { r0.x, r0.y, r0.z, r0.w };
    const uint w1[TM_QUAD] = { r1.x, r1.y, r1.z, r1.w };
    const uint wc[TM_QUAD] = { cv.x, cv.y, cv.z, cv.w };
    for (int j = 0; j < TM_QUAD; j++) {
      const float3 c = tm_chroma (tm_words (wc[j], f, mask), cfg);
      const uint2 a = tm_words (w0[j], f, mask), b = tm_words (w1[j], f,
          mask);
      TM_COUNT (a.x, c);
      TM_COUNT (a.y, c);
      TM_COUNT (b.x, c);
      TM_COUNT (b.y, c);
    }
  }
}

__kernel void
tonemap_hist_semi16 (const __global ushort * restrict src, int8 f, int8 g,
    int width, int height, int vec, __constant float *cfg,
    const __global float2 * restrict lut, float hlg_peak,
    __global uint * restrict hist)
{
  __local uint lh[GST_CL_TONEMAP_BINS];
  const int lid = get_local_id (0), lsize = get_local_size (0);
  const int nbx = (width + 1) >> 1, nby = (height + 1) >> 1;
  const int nq = (nbx + TM_QUAD - 1) / TM_QUAD, nquads = nq * nby;
  /* the quads of a work-item in steps of the global size, their
   * coordinates followed without a division a quad */
  const int step = get_global_size (0);
  const int sx = step % nq, sy = step / nq;
  int qx = get_global_id (0) % nq, qy = get_global_id (0) / nq;
  int run_bin = -1;
  uint run = 0;

  for (int i = lid; i < GST_CL_TONEMAP_BINS; i += lsize)
    lh[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int q = get_global_id (0); q < nquads; q += step) {
    const int wrap = qx + sx >= nq;
    if (vec && 2 * TM_QUAD * (qx + 1) <= width && 2 * qy + 2 <= height)
      tm_count_quad (src, f, g, qx, qy, cfg, lut, hlg_peak, lh, &run_bin,
          &run);
    else
      for (int bx = TM_QUAD * qx; bx < min (TM_QUAD * (qx + 1), nbx); bx++)
        tm_count_block (src, f, g, bx, qy, width, height, cfg, lut,
            hlg_peak, lh, &run_bin, &run);
    qx += wrap ? sx - nq : sx;
    qy += wrap ? sy + 1 : sy;
  }
  if (run)
    atomic_add (&lh[run_bin], run);
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < GST_CL_TONEMAP_BINS; i += lsize)
    if (lh[i])
      atomic_add (&hist[i], lh[i]);
}

/* ------------------------------------------------------------------------ */
/* 2. The frame's curve                                                      */

/* The smallest bin whose cumulative count reaches `need`, by the whole
 * work-group (4 bins an item, a scan of the items' sums); clears hist. */
inline int
tm_percentile_bin (__global uint * hist, uint need, __local uint * sums,
    __local int *found)
{
  const int i = get_local_id (0);
  uint c[4], s = 0, before, cum;

  for (int k = 0; k < 4; k++) {
    c[k] = hist[4 * i + k];
    hist[4 * i + k] = 0;
    s += c[k];
  }
  sums[i] = s;
  if (i == 0)
    *found = GST_CL_TONEMAP_BINS - 1;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < GST_CL_TONEMAP_GROUP; off <<= 1) {
    const uint v = i >= off ? sums[i - off] : 0;
    barrier (CLK_LOCAL_MEM_FENCE);
    sums[i] += v;
    barrier (CLK_LOCAL_MEM_FENCE);
  }
  before = sums[i] - s;
  if (before < need && sums[i] >= need) {
    cum = before;
    for (int k = 0; k < 4; k++) {
      cum += c[k];
      if (cum >= need) {
        *found = 4 * i + k;
        break;
      }
    }
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  return *found;
}

/* s' of the curve for the signal s (nits) of PQ e: the note's formulas,
 * with pq_lw = PQ (Lw), maxlum = PQ (Lt) / PQ (Lw). bt2390 below KS is
 * s' = PQ^-1 (E1 PQ (Lw)) = s itself: no powers there. */
inline float
tm_curve (int curve, float s, float e, float lw, float lt, float pq_lw,
    float maxlum)
{
  if (s <= 0.0f)
    return 0.0f;
  if (lw <= lt || curve == GST_CL_TONEMAP_CURVE_CLIP)
    return min (s, lt);
  if (curve == GST_CL_TONEMAP_CURVE_BT2390) {
    const float ks = 1.5f * maxlum - 0.5f;
    const float e1 = e / pq_lw;
    float e2;
    if (e1 < ks && e1 < 1.0f)
      return s;
    if (e1 >= 1.0f)
      e2 = maxlum;
    else {
      const float t = (e1 - ks) / (1.0f - ks), t2 = t * t, t3 = t2 * t;
      e2 = (2.0f * t3 - 3.0f * t2 + 1.0f) * ks + (t3 - 2.0f * t2 + t) *
          (1.0f - ks) + (-2.0f * t3 + 3.0f * t2) * maxlum;
    }
    return tm_pq_eotf (e2 * pq_lw);
  }
  if (curve == GST_CL_TONEMAP_CURVE_REINHARD) {
    const float x = s / lt, w = lw / lt;
    return lt * x * (1.0f + x / (w * w)) / (1.0f + x);
  }
  return lt * tm_hable (s / lt) / tm_hable (lw / lt);
}

/* Item 0: the source peak Lw of the frame (smoothing the dynamic peak
 * with `state`) and the record of params. */
inline float
tm_frame_peak (int b, __global float *state, __global float *params,
    int dynamic, int reset, float lw_fixed, float lt, float threshold,
    float coef)
{
  float x, p, lw;
  int cut = 0;

  if (dynamic) {
    x = (float) (b + 1) / GST_CL_TONEMAP_BINS;
    if (reset || state[1] == 0.0f || fabs (x - state[0]) > threshold) {
      p = x;
      cut = 1;
    } else {
      p = state[0] + (x - state[0]) * coef;
    }
    state[0] = p;
    state[1] = 1.0f;
    lw = max (tm_pq_eotf (p), lt);
  } else {
    /* the next dynamic frame starts afresh */
    state[1] = 0.0f;
    lw = lw_fixed;
    x = p = tm_pq_inverse (lw);
  }
  params[GST_CL_TONEMAP_PAR_LW] = lw;
  params[GST_CL_TONEMAP_PAR_RECORD + 0] = x;
  params[GST_CL_TONEMAP_PAR_RECORD + 1] = p;
  params[GST_CL_TONEMAP_PAR_RECORD + 2] = lw;
  params[GST_CL_TONEMAP_PAR_RECORD + 3] = cut;
  return lw;
}

/* state: p of the last frame (PQ) and whether it is valid (a frame of the
 * dynamic mode since the last reset). params: the record the messages
 * read. gain: s'/s over PQ (s), for the map. */
__kernel __attribute__ ((reqd_work_group_size (GST_CL_TONEMAP_GROUP, 1, 1)))
void
tonemap_curve (__global uint * hist, __global float *state,
    __global float *params, __global float2 * gain, uint need, int dynamic,
    int reset, float lw_fixed, float lt, float threshold, float coef,
    int curve, const __global float * tables)
{
  /* s at each knot, made at caps time in double precision: the powers of
   * PQ's EOTF, and for bt2390 those of its inverse, a knot spared */
  const __global float *knot_nits = tables + GST_CL_TONEMAP_PQ_KNOTS;
  __local uint sums[GST_CL_TONEMAP_GROUP];
  __local float knots[GST_CL_TONEMAP_LUT + 1];
  __local int found;
  __local float lw_shared;
  __local int same;
  const int i = get_local_id (0);
  float lw, pq_lw, maxlum;
  int b = 0;

  if (dynamic)
    b = tm_percentile_bin (hist, need, sums, &found);
  if (i == 0) {
    lw = lw_shared = tm_frame_peak (b, state, params, dynamic, reset,
        lw_fixed, lt, threshold, coef);
    /* the gain table of the last frame still holds (a fixed peak, a
     * settled dynamic one): 4097 curve evaluations spared */
    same = state[7] != 0.0f && state[4] == lw && state[5] == lt &&
        state[6] == (float) curve;
    state[4] = lw;
    state[5] = lt;
    state[6] = curve;
    state[7] = 1.0f;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (same)
    return;
  lw = lw_shared;
  pq_lw = tm_pq_inverse (lw);
  maxlum = tm_pq_inverse (lt) / pq_lw;
  for (int k = i; k <= GST_CL_TONEMAP_LUT; k += GST_CL_TONEMAP_GROUP) {
    const float s = knot_nits[k];
    knots[k] = s > 0.0f ? tm_curve (curve, s, (float) k / GST_CL_TONEMAP_LUT,
        lw, lt, pq_lw, maxlum) / s : 1.0f;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int k = i; k < GST_CL_TONEMAP_LUT; k += GST_CL_TONEMAP_GROUP)
    gain[k] = (float2) (knots[k], knots[k + 1] - knots[k]);
}

/* ------------------------------------------------------------------------ */
/* 3. The mapping                                                            */

/* linear light relative to Lt (L / Lt) in the input's primaries to
 * BT.1886 R'G'B' of the output's, clamped to [0, 1]. CPUs look BT.1886's
 * inverse EOTF up (the table is over sqrt (L / Lt), where it is
 * gentler; the CPU kernels of tonemap_x8.cl compute it with polynomials);
 * GPUs compute it, exp2 (log2 (v) / 2.4) on the special-function unit
 * (two instructions, relative error about 1e-6, log2 (0) = -inf giving
 * 0): the table's correctly rounded square root, its three lookups at
 * addresses that differ from lane to lane and the clamps around them
 * were most of the GPU map's time. */
inline float3
tm_display (float3 v, __constant float *cfg, const __global float2 * lut)
{
  if (cfg[GST_CL_TONEMAP_CFG_GAMUT] != 0.0f) {
    __constant const float *m = cfg + GST_CL_TONEMAP_CFG_MATRIX;
    v = (float3) (m[0] * v.x + m[1] * v.y + m[2] * v.z,
        m[3] * v.x + m[4] * v.y + m[5] * v.z,
        m[6] * v.x + m[7] * v.y + m[8] * v.z);
  }
  v = clamp (v, 0.0f, 1.0f);
#ifdef GST_CL_CPU
  {
    const __global float2 *oetf = lut + GST_CL_TONEMAP_LUT;
    v = sqrt (v);
    return (float3) (tm_lut (oetf, v.x), tm_lut (oetf, v.y),
        tm_lut (oetf, v.z));
  }
#else
  return native_exp2 (native_log2 (v) * (1.0f / 2.4f));
#endif
}

inline uint
tm_level (float v, float maxv)
{
  return (uint) clamp (floor (v + 0.5f), 0.0f, maxv);
}

/* display R'G'B' of the input R'G'B' @e */
inline float3
tm_map_rgb (float3 e, __constant float *cfg, const __global float2 * lut,
    const __global float2 * gain, float lt, float hlg_peak)
{
  const float3 l = tm_linear (e, cfg, lut, hlg_peak);
  /* the gain and the division by Lt in one factor */
  return tm_display (l * (tm_lut (gain, tm_signal_pq (e, l, cfg)) *
          (1.0f / lt)), cfg, lut);
}

/* the output luma level of display R'G'B' @v, its chroma added to
 * @csum */
inline uint
tm_luma_level (float3 v, __constant float *cfg, float2 * csum)
{
  const float kr = cfg[GST_CL_TONEMAP_CFG_OUT_KR];
  const float kb = cfg[GST_CL_TONEMAP_CFG_OUT_KB];
  const float yy = kr * v.x + (1.0f - kr - kb) * v.y + kb * v.z;

  *csum += (float2) ((v.z - yy) * cfg[GST_CL_TONEMAP_CFG_OUT_CBINV],
      (v.x - yy) * cfg[GST_CL_TONEMAP_CFG_OUT_CRINV]);
  return tm_level (cfg[GST_CL_TONEMAP_CFG_OUT_YOFF] +
      cfg[GST_CL_TONEMAP_CFG_OUT_YSCALE] * yy,
      cfg[GST_CL_TONEMAP_CFG_OUT_MAX]);
}

/* the output chroma levels (Cb, Cr) of the mean chroma @cm of a block */
inline uint2
tm_chroma_levels (float2 cm, __constant float *cfg)
{
  const float maxv = cfg[GST_CL_TONEMAP_CFG_OUT_MAX];
  const float2 cv = cfg[GST_CL_TONEMAP_CFG_OUT_COFF] +
      cfg[GST_CL_TONEMAP_CFG_OUT_CSCALE] * cm;
  return (uint2) (tm_level (cv.x, maxv), tm_level (cv.y, maxv));
}

/* display R'G'B' of pixel (x, y) */
inline float3
tm_pixel (const __global uchar * src, int8 f, int8 g, int x, int y,
    float3 c, __constant float *cfg, const __global float2 * lut,
    const __global float2 * gain, float lt, float hlg_peak)
{
  return tm_map_rgb (tm_read_rgb (src, f, g, x, y, c, cfg), cfg, lut, gain,
      lt, hlg_peak);
}

/* pixel (x, y) of RGBA output, its alpha from the input */
inline void
tm_write_rgba (const __global uchar * src, int8 f, int8 g,
    __global uchar * dst, int8 df, int8 dg, int x, int y, float3 v,
    __constant float *cfg)
{
  const float maxv = cfg[GST_CL_TONEMAP_CFG_OUT_MAX];
  const size_t o = (size_t) dg.s0 + (size_t) y * dg.s3 +
      (size_t) x * 4 * df.s3;
  const size_t oi = (size_t) g.s0 + (size_t) y * g.s3 + (size_t) x * 4 * f.s3;

  tm_write (dst, o, df, tm_level (v.x * maxv, maxv));
  tm_write (dst, o + df.s3, df, tm_level (v.y * maxv, maxv));
  tm_write (dst, o + 2 * df.s3, df, tm_level (v.z * maxv, maxv));
  tm_write (dst, o + 3 * df.s3, df, tm_level ((float) tm_read (src,
              oi + 3 * f.s3, f) * cfg[GST_CL_TONEMAP_CFG_ALPHA], maxv));
}

/* the chroma of block (bx, by), the mean @cm of its pixels' */
inline void
tm_write_chroma (__global uchar * dst, int8 df, int8 dg, int bx, int by,
    float2 cm, __constant float *cfg)
{
  const uint2 lv = tm_chroma_levels (cm, cfg);
  const uint cb = lv.x, cr = lv.y;

  if (df.s0 == GST_CL_TONEMAP_KIND_SEMI) {
    const size_t o = (size_t) dg.s1 + (size_t) by * dg.s4 +
        (size_t) bx * 2 * df.s3;
    tm_write (dst, o, df, cb);
    tm_write (dst, o + df.s3, df, cr);
  } else {
    tm_write (dst, (size_t) dg.s1 + (size_t) by * dg.s4 +
        (size_t) bx * df.s3, df, cb);
    tm_write (dst, (size_t) dg.s2 + (size_t) by * dg.s5 +
        (size_t) bx * df.s3, df, cr);
  }
}

/* one chroma block: its pixels' Y' (or RGBA) and its chroma */
inline void
tm_block (const __global uchar * src, int8 f, int8 g, __global uchar * dst,
    int8 df, int8 dg, int bx, int by, int width, int height,
    __constant float *cfg, const __global float2 * lut,
    const __global float2 * gain, float lt, float hlg_peak)
{
  const int x0 = bx << f.s1, y0 = by << f.s2;
  const int x1 = min (x0 + (1 << f.s1), width);
  const int y1 = min (y0 + (1 << f.s2), height);
  const int rgba = f.s0 == GST_CL_TONEMAP_KIND_RGBA;
  const float3 c = rgba ? (float3) (0.0f) : tm_read_chroma (src, f, g, bx,
      by, cfg);
  float2 csum = (float2) (0.0f);
  int n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++) {
      const float3 v = tm_pixel (src, f, g, x, y, c, cfg, lut, gain, lt,
          hlg_peak);
      if (rgba) {
        tm_write_rgba (src, f, g, dst, df, dg, x, y, v, cfg);
        continue;
      }
      tm_write (dst, (size_t) dg.s0 + (size_t) y * dg.s3 +
          (size_t) x * df.s3, df, tm_luma_level (v, cfg, &csum));
      n++;
    }
  if (!rgba)
    tm_write_chroma (dst, df, dg, bx, by, csum / (float) n, cfg);
}

__kernel void
tonemap_map (const __global uchar * src, int8 f, int8 g,
    __global uchar * dst, int8 df, int8 dg, int width, int height,
    int chunk, __constant float *cfg, const __global float2 * lut,
    const __global float2 * gain, float lt, float hlg_peak)
{
  const int nbx = (width + (1 << f.s1) - 1) >> f.s1;
  const int nby = (height + (1 << f.s2) - 1) >> f.s2;
  const int by = get_global_id (1);
  const int bx0 = get_global_id (0) * chunk;

  if (by >= nby)
    return;
  for (int bx = bx0; bx < min (bx0 + chunk, nbx); bx++)
    tm_block (src, f, g, dst, df, dg, bx, by, width, height, cfg, lut, gain,
        lt, hlg_peak);
}

/* The mapping on GPUs of 16-bit 4:2:0 semi-planar input (P010_10LE,
 * P016_LE) into 8-bit semi-planar output (NV12), every plane at an even
 * offset and stride: two 2x2 blocks of a row a work-item, each as
 * tm_block maps it, with 32-bit offsets (the frame under 2 GB: the host
 * checks), and no test of the format per sample. */

/* the output luma level of the pixel of level @yv in a block of chroma
 * @c, its output chroma added to @csum */
inline uint
tm_semi16_level (uint yv, float3 c, __constant float *cfg,
    const __global float2 * lut, const __global float2 * gain, float lt,
    float hlg_peak, float2 * csum)
{
  return tm_luma_level (tm_map_rgb (tm_ycc_rgb (yv, c, cfg), cfg, lut,
          gain, lt, hlg_peak), cfg, csum);
}

/* block (bx, by), read and written a word pair at a time */
inline void
tm_semi16_block (const __global ushort * src, int8 f, int8 g,
    __global uchar * dst, int8 dg, int bx, int by, int width, int height,
    __constant float *cfg, const __global float2 * lut,
    const __global float2 * gain, float lt, float hlg_peak)
{
  const uint mask = (1u << f.s4) - 1u;
  const int pair = 2 * bx + 1 < width;
  const float3 c = tm_semi16_chroma (src, f, g, bx, by, mask, cfg);
  float2 csum = (float2) (0.0f);
  int n = 0;

  for (int y = 2 * by; y < min (2 * by + 2, height); y++) {
    __global uchar *out = dst + dg.s0 + y * dg.s3 + 2 * bx;
    const uint2 yv = tm_semi16_luma (src, f, g, bx, y, pair, mask);
    const uint l0 = tm_semi16_level (yv.x, c, cfg, lut, gain, lt,
        hlg_peak, &csum);
    if (pair) {
      const uint l1 = tm_semi16_level (yv.y, c, cfg, lut, gain, lt,
          hlg_peak, &csum);
      vstore2 ((uchar2) (l0, l1), 0, out);
      n += 2;
    } else {
      out[0] = (uchar) l0;
      n++;
    }
  }
  vstore2 (convert_uchar2 (tm_chroma_levels (csum / (float) n, cfg)), 0,
      dst + dg.s1 + by * dg.s4 + 2 * bx);
}

/* the two luma levels of the pixels of word @w, their chroma @c, @csum
 * taking their output chroma */
inline uchar2
tm_semi16_two (uint w, float3 c, int8 f, uint mask, __constant float *cfg,
    const __global float2 * lut, const __global float2 * gain, float lt,
    float hlg_peak, float2 * csum)
{
  const uint2 yv = tm_words (w, f, mask);
  const uint l0 = tm_semi16_level (yv.x, c, cfg, lut, gain, lt,
      hlg_peak, csum);
  const uint l1 = tm_semi16_level (yv.y, c, cfg, lut, gain, lt,
      hlg_peak, csum);
  return (uchar2) (l0, l1);
}

/* blocks bx and bx + 1 (bx even) of row by, whole, read in 8-byte and
 * written in 4-byte words */
inline void
tm_semi16_pair (const __global ushort * src, int8 f, int8 g,
    __global uchar * dst, int8 dg, int bx, int by, __constant float *cfg,
    const __global float2 * lut, const __global float2 * gain, float lt,
    float hlg_peak)
{
  const uint mask = (1u << f.s4) - 1u;
  const uint2 cw = *(const __global uint2 *) (src + (g.s1 >> 1) +
      by * (g.s4 >> 1) + 2 * bx);
  const float3 c0 = tm_chroma (tm_words (cw.x, f, mask), cfg);
  const float3 c1 = tm_chroma (tm_words (cw.y, f, mask), cfg);
  float2 s0 = (float2) (0.0f), s1 = (float2) (0.0f);

  for (int y = 2 * by; y < 2 * by + 2; y++) {
    const uint2 lw = *(const __global uint2 *) (src + (g.s0 >> 1) +
        y * (g.s3 >> 1) + 2 * bx);
    *(__global uchar4 *) (dst + dg.s0 + y * dg.s3 + 2 * bx) =
        (uchar4) (tm_semi16_two (lw.x, c0, f, mask, cfg, lut, gain, lt,
            hlg_peak, &s0), tm_semi16_two (lw.y, c1, f, mask, cfg, lut, gain,
            lt, hlg_peak, &s1));
  }
  *(__global uchar4 *) (dst + dg.s1 + by * dg.s4 + 2 * bx) =
      (uchar4) (convert_uchar2 (tm_chroma_levels (s0 * 0.25f, cfg)),
      convert_uchar2 (tm_chroma_levels (s1 * 0.25f, cfg)));
}

/* two blocks of a row a work-item: a pair in wide words where @vec says
 * that the planes allow them (input offsets and strides multiples of 8,
 * output ones of 4) and the pair is whole, else block by block: a pair
 * halves the loads and stores a pixel and gives each work-item two
 * independent blocks to overlap */
__kernel void
tonemap_map_semi16 (const __global ushort * restrict src, int8 f, int8 g,
    __global uchar * restrict dst, int8 dg, int width, int height, int vec,
    __constant float *cfg, const __global float2 * restrict lut,
    const __global float2 * restrict gain, float lt, float hlg_peak)
{
  const int bx = 2 * get_global_id (0), by = get_global_id (1);
  const int nbx = (width + 1) >> 1, nby = (height + 1) >> 1;

  if (bx >= nbx || by >= nby)
    return;
  if (vec && 2 * bx + 4 <= width && 2 * by + 2 <= height) {
    tm_semi16_pair (src, f, g, dst, dg, bx, by, cfg, lut, gain, lt,
        hlg_peak);
    return;
  }
  tm_semi16_block (src, f, g, dst, dg, bx, by, width, height, cfg, lut,
      gain, lt, hlg_peak);
  if (bx + 1 < nbx)
    tm_semi16_block (src, f, g, dst, dg, bx + 1, by, width, height, cfg,
        lut, gain, lt, hlg_peak);
}
