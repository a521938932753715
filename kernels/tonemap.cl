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
 *    the device, and from the source peak Lw the curve's parameters, in
 *    `params`; it clears `hist` for the next frame;
 * 3. tonemap_map: every pixel through the documented reference
 *    (docs/elements/cltonemap.md, interface.md "cltonemap"), one work-item
 *    per chroma block (2x2 pixels in 4:2:0 frames, one pixel otherwise),
 *    so that the block's output chroma is the mean of its pixels'.
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

/* PQ signal to nits (SMPTE ST 2084 EOTF) */
inline float
tm_pq_eotf (float e)
{
  const float p = pow (max (e, 0.0f), 1.0f / TM_M2);
  return 10000.0f * pow (max (p - TM_C1, 0.0f) / (TM_C2 - TM_C3 * p),
      1.0f / TM_M1);
}

/* nits to PQ signal (the inverse EOTF, black at 0 nits) */
inline float
tm_pq_inverse (float nits)
{
  const float y = pow (max (nits, 0.0f) / 10000.0f, TM_M1);
  return pow ((TM_C1 + TM_C2 * y) / (1.0f + TM_C3 * y), TM_M2);
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

/* the normalised chroma (Cb, Cr) of block (bx, by) */
inline float2
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
  return ((float2) (tm_read (src, ob, f), tm_read (src, ocr, f)) -
      cfg[GST_CL_TONEMAP_CFG_IN_COFF]) / cfg[GST_CL_TONEMAP_CFG_IN_CSCALE];
}

/* R'G'B' of pixel (x, y) in [0, 1], from its Y' and its block's chroma
 * (Y'CbCr), or read as full-range R'G'B' */
inline float3
tm_read_rgb (const __global uchar * src, int8 f, int8 g, int x, int y,
    float2 c, __constant float *cfg)
{
  float3 rgb;
  if (f.s0 == GST_CL_TONEMAP_KIND_RGBA) {
    const size_t o = (size_t) g.s0 + (size_t) y * g.s3 + (size_t) x * 4 *
        f.s3;
    const float maxv = (float) ((1u << f.s4) - 1u);
    rgb = (float3) (tm_read (src, o, f), tm_read (src, o + f.s3, f),
        tm_read (src, o + 2 * f.s3, f)) / maxv;
  } else {
    const float kr = cfg[GST_CL_TONEMAP_CFG_IN_KR];
    const float kb = cfg[GST_CL_TONEMAP_CFG_IN_KB];
    const size_t o = (size_t) g.s0 + (size_t) y * g.s3 + (size_t) x * f.s3;
    const float yy = ((float) tm_read (src, o, f) -
        cfg[GST_CL_TONEMAP_CFG_IN_YOFF]) / cfg[GST_CL_TONEMAP_CFG_IN_YSCALE];
    rgb.x = yy + 2.0f * (1.0f - kr) * c.y;
    rgb.z = yy + 2.0f * (1.0f - kb) * c.x;
    rgb.y = (yy - kr * rgb.x - kb * rgb.z) / (1.0f - kr - kb);
  }
  return clamp (rgb, 0.0f, 1.0f);
}

/* R'G'B' to linear light in nits: the PQ EOTF, or HLG's inverse OETF and
 * OOTF (system gamma 1.2 on BT.2020 luminance, nominal peak hlg_peak) */
inline float3
tm_linear (float3 e, __constant float *cfg, float hlg_peak)
{
  float3 l;
  float ys;
  if (cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f)
    return (float3) (tm_pq_eotf (e.x), tm_pq_eotf (e.y), tm_pq_eotf (e.z));
  l = (float3) (tm_hlg_inverse_oetf (e.x), tm_hlg_inverse_oetf (e.y),
      tm_hlg_inverse_oetf (e.z));
  ys = 0.2627f * l.x + 0.6780f * l.y + 0.0593f * l.z;
  return ys > 0.0f ? l * (hlg_peak * pow (ys, 0.2f)) : (float3) (0.0f);
}

/* ------------------------------------------------------------------------ */
/* 1. The histogram of PQ (max (R, G, B))                                    */

__kernel void
tonemap_hist (const __global uchar * src, int8 f, int8 g, int width,
    int height, __constant float *cfg, float hlg_peak, __global uint * hist)
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
    const float2 c = f.s0 == GST_CL_TONEMAP_KIND_RGBA ? (float2) (0.0f) :
        tm_read_chroma (src, f, g, bx, by, cfg);
    for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++) {
        const float3 l = tm_linear (tm_read_rgb (src, f, g, x, y, c, cfg),
            cfg, hlg_peak);
        const float pq = tm_pq_inverse (max (max (l.x, l.y), l.z));
        atomic_inc (&lh[min ((int) (pq * GST_CL_TONEMAP_BINS),
                    GST_CL_TONEMAP_BINS - 1)]);
      }
  }
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

/* state: p of the last frame (PQ) and whether it is valid (a frame of the
 * dynamic mode since the last reset). params: the curve's parameters for
 * the map, and the record the messages read. */
__kernel __attribute__ ((reqd_work_group_size (GST_CL_TONEMAP_GROUP, 1, 1)))
void
tonemap_curve (__global uint * hist, __global float *state,
    __global float *params, uint need, int dynamic, int reset,
    float lw_fixed, float lt, float threshold, float coef)
{
  __local uint sums[GST_CL_TONEMAP_GROUP];
  __local int found;
  float x, p, lw, pq_lw, maxlum;
  int b = 0, cut = 0;

  if (dynamic)
    b = tm_percentile_bin (hist, need, sums, &found);
  if (get_local_id (0) != 0)
    return;
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
  pq_lw = tm_pq_inverse (lw);
  maxlum = tm_pq_inverse (lt) / pq_lw;
  params[GST_CL_TONEMAP_PAR_LW] = lw;
  params[GST_CL_TONEMAP_PAR_PQ_LW] = pq_lw;
  params[GST_CL_TONEMAP_PAR_MAXLUM] = maxlum;
  params[GST_CL_TONEMAP_PAR_KS] = 1.5f * maxlum - 0.5f;
  params[GST_CL_TONEMAP_PAR_HW] = tm_hable (lw / lt);
  params[GST_CL_TONEMAP_PAR_RECORD + 0] = x;
  params[GST_CL_TONEMAP_PAR_RECORD + 1] = p;
  params[GST_CL_TONEMAP_PAR_RECORD + 2] = lw;
  params[GST_CL_TONEMAP_PAR_RECORD + 3] = cut;
}

/* ------------------------------------------------------------------------ */
/* 3. The mapping                                                            */

/* the curve on s = max (R, G, B), R, G and B scaled by s' / s */
inline float3
tm_tone (float3 l, __global const float *par, int curve, float lt)
{
  const float s = max (max (l.x, l.y), l.z);
  const float lw = par[GST_CL_TONEMAP_PAR_LW];
  float so;

  if (s <= 0.0f)
    return (float3) (0.0f);
  if (lw <= lt || curve == GST_CL_TONEMAP_CURVE_CLIP) {
    so = min (s, lt);
  } else if (curve == GST_CL_TONEMAP_CURVE_BT2390) {
    const float pq_lw = par[GST_CL_TONEMAP_PAR_PQ_LW];
    const float ks = par[GST_CL_TONEMAP_PAR_KS];
    const float maxlum = par[GST_CL_TONEMAP_PAR_MAXLUM];
    const float e1 = min (tm_pq_inverse (s) / pq_lw, 1.0f);
    float e2 = e1;
    if (e1 >= ks) {
      const float t = (e1 - ks) / (1.0f - ks), t2 = t * t, t3 = t2 * t;
      e2 = (2.0f * t3 - 3.0f * t2 + 1.0f) * ks + (t3 - 2.0f * t2 + t) *
          (1.0f - ks) + (-2.0f * t3 + 3.0f * t2) * maxlum;
    }
    so = tm_pq_eotf (e2 * pq_lw);
  } else if (curve == GST_CL_TONEMAP_CURVE_REINHARD) {
    const float x = s / lt, w = lw / lt;
    so = lt * x * (1.0f + x / (w * w)) / (1.0f + x);
  } else {
    so = lt * tm_hable (s / lt) / par[GST_CL_TONEMAP_PAR_HW];
  }
  return l * (so / s);
}

/* linear nits of the output's primaries, clamped, to BT.1886 R'G'B' */
inline float3
tm_display (float3 l, __constant float *cfg, float lt)
{
  if (cfg[GST_CL_TONEMAP_CFG_GAMUT] != 0.0f) {
    __constant const float *m = cfg + GST_CL_TONEMAP_CFG_MATRIX;
    l = (float3) (m[0] * l.x + m[1] * l.y + m[2] * l.z,
        m[3] * l.x + m[4] * l.y + m[5] * l.z,
        m[6] * l.x + m[7] * l.y + m[8] * l.z);
  }
  l = clamp (l, 0.0f, lt) / lt;
  return (float3) (pow (l.x, 1.0f / 2.4f), pow (l.y, 1.0f / 2.4f),
      pow (l.z, 1.0f / 2.4f));
}

inline uint
tm_level (float v, float maxv)
{
  return (uint) clamp (floor (v + 0.5f), 0.0f, maxv);
}

__kernel void
tonemap_map (const __global uchar * src, int8 f, int8 g,
    __global uchar * dst, int8 df, int8 dg, int width, int height,
    __constant float *cfg, __global const float *par, int curve, float lt,
    float hlg_peak)
{
  const int bx = get_global_id (0), by = get_global_id (1);
  const int x0 = bx << f.s1, y0 = by << f.s2;
  const float maxv = cfg[GST_CL_TONEMAP_CFG_OUT_MAX];
  const float kr = cfg[GST_CL_TONEMAP_CFG_OUT_KR];
  const float kb = cfg[GST_CL_TONEMAP_CFG_OUT_KB];
  float2 c = (float2) (0.0f), csum = (float2) (0.0f);
  int x1, y1, n = 0;

  if (x0 >= width || y0 >= height)
    return;
  x1 = min (x0 + (1 << f.s1), width);
  y1 = min (y0 + (1 << f.s2), height);
  if (f.s0 != GST_CL_TONEMAP_KIND_RGBA)
    c = tm_read_chroma (src, f, g, bx, by, cfg);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++) {
      const float3 v = tm_display (tm_tone (tm_linear (tm_read_rgb (src, f,
                      g, x, y, c, cfg), cfg, hlg_peak), par, curve, lt),
          cfg, lt);
      if (df.s0 == GST_CL_TONEMAP_KIND_RGBA) {
        const size_t o = (size_t) dg.s0 + (size_t) y * dg.s3 +
            (size_t) x * 4 * df.s3;
        const size_t oi = (size_t) g.s0 + (size_t) y * g.s3 +
            (size_t) x * 4 * f.s3;
        tm_write (dst, o, df, tm_level (v.x * maxv, maxv));
        tm_write (dst, o + df.s3, df, tm_level (v.y * maxv, maxv));
        tm_write (dst, o + 2 * df.s3, df, tm_level (v.z * maxv, maxv));
        tm_write (dst, o + 3 * df.s3, df, tm_level ((float) tm_read (src,
                    oi + 3 * f.s3, f) * cfg[GST_CL_TONEMAP_CFG_ALPHA],
                maxv));
      } else {
        const float yy = kr * v.x + (1.0f - kr - kb) * v.y + kb * v.z;
        const size_t o = (size_t) dg.s0 + (size_t) y * dg.s3 +
            (size_t) x * df.s3;
        tm_write (dst, o, df, tm_level (cfg[GST_CL_TONEMAP_CFG_OUT_YOFF] +
                cfg[GST_CL_TONEMAP_CFG_OUT_YSCALE] * yy, maxv));
        csum += (float2) ((v.z - yy) / (2.0f * (1.0f - kb)),
            (v.x - yy) / (2.0f * (1.0f - kr)));
        n++;
      }
    }
  if (df.s0 != GST_CL_TONEMAP_KIND_RGBA) {
    const float2 cv = cfg[GST_CL_TONEMAP_CFG_OUT_COFF] +
        cfg[GST_CL_TONEMAP_CFG_OUT_CSCALE] * (csum / (float) n);
    const uint cb = tm_level (cv.x, maxv), cr = tm_level (cv.y, maxv);
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
}
