/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* tonemap_x8.cl: cltonemap's kernels for CPUs, the second part of the
 * program of tonemap.cl (gstcltonemapframe.c builds them as one). */

/* ------------------------------------------------------------------------ */
/* CPUs: 8 pixels of a row (both rows of 4:2:0 blocks) at a time,          */
/* tm_block's arithmetic in float8 so that POCL runs it in SIMD registers   */
/* (the scalar kernels cost about 40 ns of CPU time a pixel on the CI       */
/* machine), into the 8-bit sibling or the input's own format. A work-item  */
/* takes rows of blocks; the blocks right of the last 8 pixels, and an odd  */
/* height's last row, go scalar.                                            */

#ifdef GST_CL_CPU
/* the vectors of clang's x86 builtins (the AVX-512 paths below) */
typedef float tm_v16sf __attribute__ ((vector_size (64)));
typedef int tm_v16si __attribute__ ((vector_size (64)));
typedef ushort8 __attribute__ ((aligned (2))) tm_ushort8_u;
typedef uchar8 __attribute__ ((aligned (1))) tm_uchar8_u;
typedef ushort4 __attribute__ ((aligned (2))) tm_ushort4_u;
typedef ushort16 __attribute__ ((aligned (2))) tm_ushort16_u;
typedef uchar16 __attribute__ ((aligned (1))) tm_uchar16_u;
typedef uchar4 __attribute__ ((aligned (1))) tm_uchar4_u;
#define TM_LOAD_US8(p) (*(const __global tm_ushort8_u *) (p))
#define TM_LOAD_US4(p) (*(const __global tm_ushort4_u *) (p))
#define TM_LOAD_US16(p) (*(const __global tm_ushort16_u *) (p))
#define TM_STORE_UC16(p, v) (*(__global tm_uchar16_u *) (p) = (v))
#define TM_STORE_UC8(p, v) (*(__global tm_uchar8_u *) (p) = (v))
#define TM_STORE_UC4(p, v) (*(__global tm_uchar4_u *) (p) = (v))
#define TM_STORE_US16(p, v) (*(__global tm_ushort16_u *) (p) = (v))
#define TM_STORE_US8(p, v) (*(__global tm_ushort8_u *) (p) = (v))
#define TM_STORE_US4(p, v) (*(__global tm_ushort4_u *) (p) = (v))
#else
#define TM_LOAD_US8(p) vload8 (0, (p))
#define TM_LOAD_US4(p) vload4 (0, (p))
#define TM_LOAD_US16(p) vload16 (0, (p))
#define TM_STORE_UC16(p, v) vstore16 ((v), 0, (p))
#define TM_STORE_UC8(p, v) vstore8 ((v), 0, (p))
#define TM_STORE_UC4(p, v) vstore4 ((v), 0, (p))
#define TM_STORE_US16(p, v) vstore16 ((v), 0, (__global ushort *) (p))
#define TM_STORE_US8(p, v) vstore8 ((v), 0, (__global ushort *) (p))
#define TM_STORE_US4(p, v) vstore4 ((v), 0, (__global ushort *) (p))
#endif

/* tm_clamp8 (x, lo, hi), tm_clamp16: x clamped to [lo, hi] as two
 * selects, which LLVM makes a max and a min instruction each; OpenCL's
 * clamp () took five on POCL (its NaN handling), for values that are
 * never NaN here */
#define TM_CLAMP(N) \
inline __attribute__ ((always_inline)) float##N \
tm_clamp##N (float##N x, float lo, float hi) \
{ \
  x = select ((float##N) (lo), x, x > lo); \
  return select ((float##N) (hi), x, x < hi); \
}

TM_CLAMP (4);
TM_CLAMP (8);
TM_CLAMP (16);

/* tm_x8_store (p, df, lv, cfg), tm_x8_store4: the 8 (4) output levels @lv
 * at @p, clamped to the output's range and rounded down (the conversions'
 * truncation: @lv is never negative, a rounded value v + 0.5; floor ()
 * took a dozen instructions on POCL, the saturating conversion to bytes
 * eleven): bytes, or for outputs of more than 8 bits words, the value at
 * its place in the word (P010_10LE's top 10 bits) */
#define TM_X8_STORE(name, N) \
inline __attribute__ ((always_inline)) void \
name (__global uchar * p, int8 df, float##N lv, __constant float *cfg) \
{ \
  if (df.s3 == 1) \
    TM_STORE_UC##N (p, convert_uchar##N (tm_clamp##N (lv, 0.0f, \
                255.0f))); \
  else \
    TM_STORE_US##N (p, convert_ushort##N (tm_clamp##N (lv, 0.0f, \
                cfg[GST_CL_TONEMAP_CFG_OUT_MAX])) << (ushort##N) (df.s5)); \
}

TM_X8_STORE (tm_x8_store, 8);
TM_X8_STORE (tm_x8_store4, 4);
TM_X8_STORE (tm_x16_store, 16);

/* tm_lut8 (t, x), tm_lut16: table @t at the N values @x. Each pair is
 * gathered as one 64-bit word (the value in its low half) and split by
 * conversions: half the gathered elements of one float gather for the
 * values and one for the steps. */
#define TM_IDX8(t, i) t[(i).s0], t[(i).s1], t[(i).s2], t[(i).s3], t[(i).s4], \
    t[(i).s5], t[(i).s6], t[(i).s7]
#define TM_IDX16(t, i) TM_IDX8 (t, (i).lo), TM_IDX8 (t, (i).hi)
#define TM_LUT(N) \
inline __attribute__ ((always_inline)) float##N \
tm_lut##N (const __global float2 * pairs, float##N x) \
{ \
  const __global ulong *t = (const __global ulong *) pairs; \
  const float##N f = tm_clamp##N (x, 0.0f, 1.0f) * GST_CL_TONEMAP_LUT; \
  const int##N i = min (convert_int##N (f), GST_CL_TONEMAP_LUT - 1); \
  const ulong##N p = (ulong##N) (TM_IDX##N (t, i)); \
  const float##N a = as_float##N (convert_uint##N (p)); \
  const float##N d = as_float##N (convert_uint##N (p >> (ulong##N) (32))); \
  return a + (f - convert_float##N (i)) * d; \
}

TM_LUT (8);
TM_LUT (16);

/* row @y of the plane of 16-bit samples at byte @offset, @stride bytes a
 * row */
inline const __global ushort *
tm_row16 (const __global uchar * src, int offset, int stride, int y)
{
  return (const __global ushort *) (src + (size_t) offset + (size_t) y *
      stride);
}

/* tm_ycc8 (cfg, yv, cb, cr, r, g, b), tm_ycc16: R'G'B' in [0, 1] of N
 * pixels of luma samples @yv and centred, scaled chroma @cb, @cr */
#define TM_YCC(N) \
inline __attribute__ ((always_inline)) void \
tm_ycc##N (__constant float *cfg, uint##N yv, float##N cb, float##N cr, \
    float##N * r, float##N * g, float##N * b) \
{ \
  const float kr = cfg[GST_CL_TONEMAP_CFG_IN_KR]; \
  const float kb = cfg[GST_CL_TONEMAP_CFG_IN_KB]; \
  const float##N yy = (convert_float##N (yv) - \
      cfg[GST_CL_TONEMAP_CFG_IN_YOFF]) * \
      (1.0f / cfg[GST_CL_TONEMAP_CFG_IN_YSCALE]); \
  const float##N rr = yy + 2.0f * (1.0f - kr) * cr; \
  const float##N bb = yy + 2.0f * (1.0f - kb) * cb; \
\
  *g = tm_clamp##N ((yy - kr * rr - kb * bb) * (1.0f / (1.0f - kr - kb)), \
      0.0f, 1.0f); \
  *r = tm_clamp##N (rr, 0.0f, 1.0f); \
  *b = tm_clamp##N (bb, 0.0f, 1.0f); \
}

TM_YCC (8);
TM_YCC (16);

/* R'G'B' of the 8 pixels from x of pixel row @y: 4:2:0 (chroma of 4
 * blocks, in CbCr pairs or two planes) or 4:4:4 (two planes) */
inline __attribute__ ((always_inline)) void
tm_x8_rgb (const __global uchar * src, int8 f, int8 g, int y, int x,
    __constant float *cfg, float8 * r, float8 * gg, float8 * b)
{
  const int shift = f.s5;
  const uint mask = (1u << f.s4) - 1u;
  const int cy = y >> f.s2;
  const __global ushort *yp = tm_row16 (src, g.s0, g.s3, y) + x;
  const __global ushort *cp = tm_row16 (src, g.s1, g.s4, cy);
  const __global ushort *vp = tm_row16 (src, g.s2, g.s5, cy);
  const float coff = cfg[GST_CL_TONEMAP_CFG_IN_COFF];
  /* reciprocals: a vector division costs several multiplications */
  const float cs = 1.0f / cfg[GST_CL_TONEMAP_CFG_IN_CSCALE];
  float8 cb, cr;

  if (f.s0 == GST_CL_TONEMAP_KIND_RGBA) {
    /* 8 packed pixels: R'G'B' of full range, alpha aside */
    const __global ushort *p = tm_row16 (src, g.s0, g.s3, y) + 4 * x;
    const ushort16 a = TM_LOAD_US16 (p), c = TM_LOAD_US16 (p + 16);
    const float m = 1.0f / (float) mask;
    *r = convert_float8 ((convert_uint8 ((ushort8) (a.s048c, c.s048c)) >>
            shift) & mask) * m;
    *gg = convert_float8 ((convert_uint8 ((ushort8) (a.s159d, c.s159d)) >>
            shift) & mask) * m;
    *b = convert_float8 ((convert_uint8 ((ushort8) (a.s26ae, c.s26ae)) >>
            shift) & mask) * m;
    return;
  }
  if (f.s1 == 0) {
    cb = (convert_float8 ((convert_uint8 (TM_LOAD_US8 (cp + x)) >> shift) &
            mask) - coff) * cs;
    cr = (convert_float8 ((convert_uint8 (TM_LOAD_US8 (vp + x)) >> shift) &
            mask) - coff) * cs;
  } else {
    const uint8 cv = f.s0 == GST_CL_TONEMAP_KIND_SEMI ?
        (convert_uint8 (TM_LOAD_US8 (cp + x)) >> shift) & mask :
        (convert_uint8 ((ushort8) (TM_LOAD_US4 (cp + x / 2),
                    TM_LOAD_US4 (vp + x / 2))).s04152637 >> shift) & mask;
    const float4 cb4 = (convert_float4 (cv.even) - coff) * cs;
    const float4 cr4 = (convert_float4 (cv.odd) - coff) * cs;
    cb = (float8) (cb4.s0, cb4.s0, cb4.s1, cb4.s1, cb4.s2, cb4.s2, cb4.s3,
        cb4.s3);
    cr = (float8) (cr4.s0, cr4.s0, cr4.s1, cr4.s1, cr4.s2, cr4.s2, cr4.s3,
        cr4.s3);
  }
  tm_ycc8 (cfg, (convert_uint8 (TM_LOAD_US8 (yp)) >> shift) & mask, cb, cr,
      r, gg, b);
}

/* tm_pow8 (x, y), tm_pow16: x^y of N values x >= 0 */
#define TM_POW(N) \
inline float##N \
tm_pow##N (float##N x, float y) \
{ \
  return select ((float##N) (0.0f), exp2 (y * log2 (x)), x > 0.0f); \
}

TM_POW (8);
TM_POW (16);

/* tm_pq_eotf8 (lut, e), tm_pq_eotf16: PQ's EOTF in nits of N signals @e
 * in [0, 1]: the table `lut` (tm_lut8), and where the CPU has AVX-512
 * (16 lanes) polynomials: 32 pieces of degree 6, two an octave of
 * [2^-16, 1), their coefficients looked up by one two-register permute
 * each (vpermi2ps) where the table's interpolation gathered two 64-bit
 * words (kernels/pqfit.py fits them and checks them: relative error below
 * 4.6e-5, where the table's interpolation is off by up to 0.03 of an
 * 8-bit level). Below 2^-16 (under 2e-8 nits) they give 0. */
#if defined(GST_CL_CPU16) && defined(__AVX512F__)
#define TM_PQ_C0_LO (float16) ( \
    0x1.8f74eep-27f, 0x1.114704p-25f, 0x1.09a23ap-24f, 0x1.40d018p-23f, \
    0x1.227578p-22f, 0x1.436f04p-21f, 0x1.177382p-20f, 0x1.26f48p-19f, \
    0x1.ee5c76p-19f, 0x1.f84becp-18f, 0x1.9ed70ap-17f, 0x1.9f2f98p-16f, \
    0x1.52874ep-15f, 0x1.50b4a6p-14f, 0x1.12821ep-13f, 0x1.12a6a8p-12f)
#define TM_PQ_C0_HI (float16) ( \
    0x1.c3b536p-12f, 0x1.cc7b28p-11f, 0x1.81a9p-10f, 0x1.969cf4p-9f, \
    0x1.5efb7cp-8f, 0x1.862d3cp-7f, 0x1.60bf2ap-6f, 0x1.a8f214p-5f, \
    0x1.9c2438p-4f, 0x1.18d7d4p-2f, 0x1.30125ap-1f, 0x1.f9f0a8p+0f, \
    0x1.49de0ap+2f, 0x1.89131ep+4f, 0x1.70fdcp+6f, 0x1.ebb5c6p+9f)
#define TM_PQ_C1_LO (float16) ( \
    0x1.03a744p-25f, 0x1.b0d7c8p-25f, 0x1.2acaa2p-23f, 0x1.c27b6p-23f, \
    0x1.25ee2ap-21f, 0x1.a0022ap-21f, 0x1.05f9bap-19f, 0x1.6486c2p-19f, \
    0x1.b79804p-18f, 0x1.24a1a4p-17f, 0x1.650e9ep-16f, 0x1.d78344p-16f, \
    0x1.1f4474p-14f, 0x1.7ce928p-14f, 0x1.d379e6p-13f, 0x1.3b021ep-12f)
#define TM_PQ_C1_HI (float16) ( \
    0x1.88dd6cp-11f, 0x1.10af4p-10f, 0x1.5d2c0ep-9f, 0x1.fb6b8ap-9f, \
    0x1.51f19p-7f, 0x1.069fd4p-6f, 0x1.7285bep-5f, 0x1.3da94ap-4f, \
    0x1.e7d86p-3f, 0x1.e4b68ap-2f, 0x1.a81cecp+0f, 0x1.0a9954p+2f, \
    0x1.222732p+4f, 0x1.159d22p+6f, 0x1.cdd1a6p+8f, 0x1.1990bcp+12f)
#define TM_PQ_C2_LO (float16) ( \
    0x1.601738p-26f, 0x1.52a1b4p-26f, 0x1.404cfap-24f, 0x1.1fcb2ap-24f, \
    0x1.06d53ep-22f, 0x1.c8395p-23f, 0x1.9a16a2p-21f, 0x1.5fa30cp-21f, \
    0x1.3b5e04p-19f, 0x1.0fa9b6p-19f, 0x1.eb4a3cp-18f, 0x1.aecc2ep-18f, \
    0x1.8c1a58p-16f, 0x1.658b44p-16f, 0x1.50d7a8p-14f, 0x1.3c5736p-14f)
#define TM_PQ_C2_HI (float16) ( \
    0x1.33bdfap-12f, 0x1.303d72p-12f, 0x1.3474bp-10f, 0x1.45d92p-10f, \
    0x1.5c9f24p-8f, 0x1.91f506p-8f, 0x1.ce42fep-6f, 0x1.2c7a9ap-5f, \
    0x1.7e7d34p-3f, 0x1.27d39ap-2f, 0x1.b6754ep+0f, 0x1.bd1c36p+1f, \
    0x1.a7f06ap+4f, 0x1.5c0742p+6f, 0x1.0f9032p+10f, 0x1.47110cp+13f)
#define TM_PQ_C3_LO (float16) ( \
    -0x1.a03392p-33f, -0x1.7c2cf4p-31f, -0x1.8342fap-28f, -0x1.2fdea2p-28f, \
    -0x1.d12e36p-26f, -0x1.2709f4p-26f, -0x1.9ab62ap-24f, -0x1.db4c42p-25f, \
    -0x1.3b4448p-22f, -0x1.5a419ep-23f, -0x1.bd1cfcp-21f, -0x1.d4eb82p-22f, \
    -0x1.2396dcp-19f, -0x1.209b5ep-20f, -0x1.4e82p-18f, -0x1.111e4p-19f)
#define TM_PQ_C3_HI (float16) ( \
    -0x1.c37e54p-18f, 0x1.fecba6p-21f, 0x1.0f5434p-15f, 0x1.bb2fcp-15f, \
    0x1.04a696p-11f, 0x1.30b5eep-11f, 0x1.51f3d2p-8f, 0x1.926b32p-8f, \
    0x1.d9e5a6p-5f, 0x1.44e832p-4f, 0x1.b916dap-1f, 0x1.8dcbd2p+0f, \
    0x1.5ebe94p+4f, 0x1.09b028p+6f, 0x1.71899cp+10f, 0x1.a3abb4p+13f)
#define TM_PQ_C4_LO (float16) ( \
    -0x1.39909ap-31f, -0x1.0551cep-34f, 0x1.086e54p-31f, 0x1.4deb3ap-31f, \
    0x1.d9f364p-28f, 0x1.d92d6p-29f, 0x1.066c7ep-25f, 0x1.b6af6cp-27f, \
    0x1.be50d2p-24f, 0x1.595f84p-25f, 0x1.50b934p-22f, 0x1.f4398ap-24f, \
    0x1.dc013ap-21f, 0x1.58b74cp-22f, 0x1.42918cp-19f, 0x1.c9e63ep-21f)
#define TM_PQ_C4_HI (float16) ( \
    0x1.a6686ap-18f, 0x1.281646p-19f, 0x1.12c5b4p-16f, 0x1.a11ddcp-18f, \
    0x1.cdc13ap-15f, 0x1.1d24acp-15f, 0x1.fa9726p-12f, 0x1.0c553ep-11f, \
    0x1.312b02p-7f, 0x1.93698ap-7f, 0x1.0ae14ep-2f, 0x1.cd57fap-2f, \
    0x1.96112ap+3f, 0x1.2e0efp+5f, 0x1.3c547ep+11f, 0x1.046e4ep+15f)
#define TM_PQ_C5_LO (float16) ( \
    0x1.9ea01ep-32f, 0x1.0f731ep-34f, 0x1.f106d4p-33f, -0x1.410614p-34f, \
    -0x1.0b72dep-29f, -0x1.c4fda2p-31f, -0x1.7e2866p-27f, -0x1.e30008p-29f, \
    -0x1.6170bcp-25f, -0x1.9382fp-27f, -0x1.1585fcp-23f, -0x1.2d8286p-25f, \
    -0x1.916a3p-22f, -0x1.a81346p-24f, -0x1.14b0a4p-20f, -0x1.1e7a1ep-22f)
#define TM_PQ_C5_HI (float16) ( \
    -0x1.6f3b1cp-19f, -0x1.7323aep-21f, -0x1.ce825p-18f, -0x1.bbd5c4p-20f, \
    -0x1.fc477ap-17f, -0x1.704828p-19f, -0x1.d645fp-19f, 0x1.937da4p-16f, \
    0x1.0c591ap-10f, 0x1.65936ap-10f, 0x1.c51546p-5f, 0x1.810f7ep-4f, \
    0x1.181244p+2f, 0x1.979062p+3f, -0x1.34ea0ep+9f, -0x1.5e2484p+14f)
#define TM_PQ_C6_LO (float16) ( \
    -0x1.100128p-33f, -0x1.513a44p-36f, -0x1.1a79ap-33f, 0x1.b303f4p-40f, \
    0x1.aea3aap-32f, 0x1.539638p-33f, 0x1.84feaap-29f, 0x1.962102p-31f, \
    0x1.7d50eep-27f, 0x1.61e2dap-29f, 0x1.331ec8p-25f, 0x1.0df392p-27f, \
    0x1.c24e3cp-24f, 0x1.80584ep-26f, 0x1.394f12p-22f, 0x1.0653d2p-24f)
#define TM_PQ_C6_HI (float16) ( \
    0x1.a43a96p-21f, 0x1.591256p-23f, 0x1.0e132ap-19f, 0x1.ad77bp-22f, \
    0x1.41d668p-18f, 0x1.e3874p-21f, 0x1.64ab56p-17f, 0x1.75fc32p-19f, \
    0x1.e5e45ep-14f, 0x1.228448p-13f, 0x1.af066p-7f, 0x1.747d0cp-6f, \
    0x1.a6bf0ap+1f, 0x1.50c26cp+3f, 0x1.0407d4p+12f, 0x1.0f4e1ep+16f)
#define TM_PQ_PIECE(k, i) as_float16 ((tm_v16sf) \
    __builtin_ia32_vpermi2varps512 ((tm_v16sf) TM_PQ_C##k##_LO, \
        (tm_v16si) (i), (tm_v16sf) TM_PQ_C##k##_HI))

inline __attribute__ ((always_inline)) float16
tm_pq_eotf16 (const __global float2 * lut, float16 e)
{
  const float16 x = min (e, 0x1.fffffep-1f);
  const int16 bits = as_int16 (x);
  const int16 i = (bits >> 22) - (int16) (2 * (127 - 16));
  const float16 t = as_float16 ((bits & (int16) (0x3fffff)) |
      (int16) (0x3f800000)) - 1.0f;
  float16 p = TM_PQ_PIECE (6, i);

  p = p * t + TM_PQ_PIECE (5, i);
  p = p * t + TM_PQ_PIECE (4, i);
  p = p * t + TM_PQ_PIECE (3, i);
  p = p * t + TM_PQ_PIECE (2, i);
  p = p * t + TM_PQ_PIECE (1, i);
  p = p * t + TM_PQ_PIECE (0, i);
  return select (p, (float16) (0.0f), x < 0x1p-16f);
}
#else
#define tm_pq_eotf16 tm_lut16
#endif
#define tm_pq_eotf8 tm_lut8

/* tm_x8_linear (cfg, lut, hlg_peak, r, g, b), tm_x16_linear: linear light
 * of N pixels of R'G'B' @r, @g, @b, in place (through the table of the
 * input's transfer, and for HLG the OOTF); returns PQ (max (R, G, B)):
 * max (R', G', B') itself for PQ. */
#define TM_LINEAR(N) \
inline __attribute__ ((always_inline)) float##N \
tm_x##N##_linear (__constant float *cfg, const __global float2 * lut, \
    float hlg_peak, float##N * r, float##N * g, float##N * b) \
{ \
  const float##N sig = max (max (*r, *g), *b); \
  float##N k, s, y; \
\
  if (cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f) { \
    *r = tm_pq_eotf##N (lut, *r); \
    *g = tm_pq_eotf##N (lut, *g); \
    *b = tm_pq_eotf##N (lut, *b); \
    return sig; \
  } \
  *r = tm_lut##N (lut, *r); \
  *g = tm_lut##N (lut, *g); \
  *b = tm_lut##N (lut, *b); \
  k = hlg_peak * tm_pow##N (0.2627f * *r + 0.6780f * *g + 0.0593f * *b, \
      0.2f); \
  *r *= k; \
  *g *= k; \
  *b *= k; \
  /* PQ's inverse EOTF of max (R, G, B) */ \
  y = tm_pow##N (max (max (*r, *g), *b) / 10000.0f, TM_M1); \
  s = tm_pow##N ((TM_C1 + TM_C2 * y) / (1.0f + TM_C3 * y), TM_M2); \
  return s; \
}

TM_LINEAR (8);
TM_LINEAR (16);

/* tm_encode8 (x), tm_encode16: BT.1886's inverse EOTF x^(1/2.4) of N
 * values x in [0, 1], computed rather than looked up (three 64-bit
 * gathers a pixel fewer, and no square root): with x = m 2^e (m in
 * [1, 2)) and 5e = 12q + r (r in 0..11), x^(1/2.4) = 2^q 2^(r/12)
 * m^(1/2.4), the last two by polynomials fitted at Chebyshev nodes
 * (relative errors below 1.2e-5 and 3.6e-6: a level at 16 bits at most,
 * where the interface note allows 128, 0.004 at 8 bits). Values below
 * 2^-126 give 0. */
#define TM_ENCODE(N) \
inline __attribute__ ((always_inline)) float##N \
tm_encode##N (float##N x) \
{ \
  const int##N bits = as_int##N (x); \
  const int##N k = ((bits >> 23) - (int##N) (127)) * (int##N) (5); \
  const float##N qf = (convert_float##N (k) + 0.5f) * (1.0f / 12.0f); \
  /* floor (qf): qf is never an integer, and the comparison's -1 takes \
   * the truncation of a negative one down */ \
  const int##N q = convert_int##N (qf) + (qf < 0.0f); \
  const float##N t = convert_float##N (k - q * (int##N) (12)) * \
      (1.0f / 12.0f); \
  const float##N u = as_float##N ((bits & (int##N) (0x7fffff)) | \
      (int##N) (0x3f800000)) - 1.0f; \
  const float##N pm = 1.0000118f + u * (0.4160367f + u * (-0.11593258f + \
          u * (0.04536964f + u * -0.01065474f))); \
  const float##N pt = 1.0000036f + t * (0.69296956f + t * (0.24162132f + \
          t * (0.05171774f + t * 0.01368398f))); \
  const float##N v = as_float##N (as_int##N (pm * pt) + (q << 23)); \
  return select (v, (float##N) (0.0f), x < 0x1p-126f); \
}

TM_ENCODE (8);
#if defined(GST_CL_CPU16) && defined(__AVX512F__)
/* tm_encode16 where the CPU has AVX-512: x = m 2^e with x^(1/2.4) =
 * 2^(5e/12) m^(1/2.4), the first from a table of the 32 exponents e of
 * [2^-31, 1] looked up by one two-register permute (vpermi2ps), the
 * second by tm_encode8's polynomial: a third of the instructions of the
 * split 5e = 12q + r, and no second polynomial. Values below 2^-31 (whose
 * powers are below 1.3e-4, 0.03 of an 8-bit level) give 0. */
#define TM_EXP2_LO (float16) (\
    0x1.0f38fap-13f, 0x1.6a09e6p-13f, 0x1.e3437ep-13f, 0x1.428a30p-12f, \
    0x1.ae89fap-12f, 0x1.1f59acp-11f, 0x1.7f910ep-11f, 0x1.000000p-10f, \
    0x1.55b810p-10f, 0x1.c823e0p-10f, 0x1.306fe0p-9f, 0x1.965feap-9f, \
    0x1.0f38fap-8f, 0x1.6a09e6p-8f, 0x1.e3437ep-8f, 0x1.428a30p-7f)
#define TM_EXP2_HI (float16) (\
    0x1.ae89fap-7f, 0x1.1f59acp-6f, 0x1.7f910ep-6f, 0x1.000000p-5f, \
    0x1.55b810p-5f, 0x1.c823e0p-5f, 0x1.306fe0p-4f, 0x1.965feap-4f, \
    0x1.0f38fap-3f, 0x1.6a09e6p-3f, 0x1.e3437ep-3f, 0x1.428a30p-2f, \
    0x1.ae89fap-2f, 0x1.1f59acp-1f, 0x1.7f910ep-1f, 0x1.000000p+0f)

inline __attribute__ ((always_inline)) float16
tm_encode16 (float16 x)
{
  const int16 bits = as_int16 (x);
  const int16 e = (bits >> 23) - (int16) (127 - 31);
  const float16 u = as_float16 ((bits & (int16) (0x7fffff)) |
      (int16) (0x3f800000)) - 1.0f;
  const float16 pm = 1.0000118f + u * (0.4160367f + u * (-0.11593258f +
          u * (0.04536964f + u * -0.01065474f)));
  const float16 p2 = as_float16 ((tm_v16sf)
      __builtin_ia32_vpermi2varps512 ((tm_v16sf) TM_EXP2_LO, (tm_v16si) e,
          (tm_v16sf) TM_EXP2_HI));
  return select (pm * p2, (float16) (0.0f), x < 0x1p-31f);
}
#else
TM_ENCODE (16);
#endif

/* tm_x8_display (cfg, lut, gain, lt, hlg_peak, r, g, b), tm_x16_display:
 * display R'G'B' of N pixels (tm_pixel in floatN), in place */
#define TM_DISPLAY(N) \
inline __attribute__ ((always_inline)) void \
tm_x##N##_display (__constant float *cfg, const __global float2 * lut, \
    const __global float2 * gain, float lt, float hlg_peak, float##N * r, \
    float##N * g, float##N * b) \
{ \
  /* a multiplication, not a division a pixel */ \
  const float inv_lt = 1.0f / lt; \
  const float##N k = tm_lut##N (gain, tm_x##N##_linear (cfg, lut, hlg_peak, \
          r, g, b)); \
  float##N lr = *r * k, lg = *g * k, lb = *b * k; \
\
  if (cfg[GST_CL_TONEMAP_CFG_GAMUT] != 0.0f) { \
    __constant const float *m = cfg + GST_CL_TONEMAP_CFG_MATRIX; \
    const float##N r2 = m[0] * lr + m[1] * lg + m[2] * lb; \
    const float##N g2 = m[3] * lr + m[4] * lg + m[5] * lb; \
    lb = m[6] * lr + m[7] * lg + m[8] * lb; \
    lr = r2; \
    lg = g2; \
  } \
  *r = tm_encode##N (tm_clamp##N (lr, 0.0f, lt) * inv_lt); \
  *g = tm_encode##N (tm_clamp##N (lg, 0.0f, lt) * inv_lt); \
  *b = tm_encode##N (tm_clamp##N (lb, 0.0f, lt) * inv_lt); \
}

TM_DISPLAY (8);
TM_DISPLAY (16);

/* tm_x8_write_y (dst, df, dg, y, x, cfg, r, g, b, u, v), tm_x16_write_y:
 * output Y' of the N pixels from x of pixel row @y; their Cb', Cr' in @u,
 * @v */
#define TM_WRITE_Y(N) \
inline __attribute__ ((always_inline)) void \
tm_x##N##_write_y (__global uchar * dst, int8 df, int8 dg, int y, int x, \
    __constant float *cfg, float##N r, float##N g, float##N b, float##N * u, \
    float##N * v) \
{ \
  const float kr = cfg[GST_CL_TONEMAP_CFG_OUT_KR]; \
  const float kb = cfg[GST_CL_TONEMAP_CFG_OUT_KB]; \
  const float##N yy = kr * r + (1.0f - kr - kb) * g + kb * b; \
  const float##N lv = cfg[GST_CL_TONEMAP_CFG_OUT_YOFF] + \
      cfg[GST_CL_TONEMAP_CFG_OUT_YSCALE] * yy + 0.5f; \
\
  *u = (b - yy) * (0.5f / (1.0f - kb)); \
  *v = (r - yy) * (0.5f / (1.0f - kr)); \
  tm_x##N##_store (dst + (size_t) dg.s0 + (size_t) y * dg.s3 + x * df.s3, \
      df, lv, cfg); \
}

TM_WRITE_Y (8);
TM_WRITE_Y (16);

/* 8 pixels from x of row @y of RGBA64_LE into RGBA or RGBA64_LE, alpha
 * scaled */
inline void
tm_x8_rgba (const __global uchar * src, int8 f, int8 g, __global uchar * dst,
    int8 df, int8 dg, int y, int x, __constant float *cfg,
    const __global float2 * lut, const __global float2 * gain, float lt,
    float hlg_peak)
{
  const float maxv = cfg[GST_CL_TONEMAP_CFG_OUT_MAX];
  const __global ushort *p = (const __global ushort *) (src + (size_t) g.s0 +
      (size_t) y * g.s3) + 4 * x;
  const float8 al = convert_float8 ((ushort8) (TM_LOAD_US16 (p).s37bf,
          TM_LOAD_US16 (p + 16).s37bf)) * cfg[GST_CL_TONEMAP_CFG_ALPHA];
  __global uchar *o = dst + (size_t) dg.s0 + (size_t) y * dg.s3 +
      4 * x * df.s3;
  float8 r, gg, b;
  uchar8 r8, g8, b8, a8;

  tm_x8_rgb (src, f, g, y, x, cfg, &r, &gg, &b);
  tm_x8_display (cfg, lut, gain, lt, hlg_peak, &r, &gg, &b);
  if (df.s3 == 2) {
    const ushort8 r16 = convert_ushort8 (tm_clamp8 (r * maxv + 0.5f, 0.0f,
            maxv));
    const ushort8 g16 = convert_ushort8 (tm_clamp8 (gg * maxv + 0.5f, 0.0f,
            maxv));
    const ushort8 b16 = convert_ushort8 (tm_clamp8 (b * maxv + 0.5f, 0.0f,
            maxv));
    const ushort8 a16 = convert_ushort8 (tm_clamp8 (al + 0.5f, 0.0f, maxv));
    TM_STORE_US16 (o, ((ushort16) (r16.s0, g16.s0, b16.s0, a16.s0, r16.s1,
                g16.s1, b16.s1, a16.s1, r16.s2, g16.s2, b16.s2, a16.s2,
                r16.s3, g16.s3, b16.s3, a16.s3)) << (ushort16) (df.s5));
    TM_STORE_US16 (o + 32, ((ushort16) (r16.s4, g16.s4, b16.s4, a16.s4,
                r16.s5, g16.s5, b16.s5, a16.s5, r16.s6, g16.s6, b16.s6,
                a16.s6, r16.s7, g16.s7, b16.s7, a16.s7)) << (ushort16) (df.s5));
    return;
  }
  r8 = convert_uchar8_sat (r * maxv + 0.5f);
  g8 = convert_uchar8_sat (gg * maxv + 0.5f);
  b8 = convert_uchar8_sat (b * maxv + 0.5f);
  a8 = convert_uchar8_sat (al + 0.5f);
  TM_STORE_UC16 (o, ((uchar16) (r8.s0, g8.s0, b8.s0, a8.s0, r8.s1, g8.s1,
              b8.s1, a8.s1, r8.s2, g8.s2, b8.s2, a8.s2, r8.s3, g8.s3, b8.s3,
              a8.s3)));
  TM_STORE_UC16 (o + 16, ((uchar16) (r8.s4, g8.s4, b8.s4, a8.s4, r8.s5,
              g8.s5, b8.s5, a8.s5, r8.s6, g8.s6, b8.s6, a8.s6, r8.s7, g8.s7,
              b8.s7, a8.s7)));
}

/* 8 pixels from x of row @y of a 4:4:4 frame */
inline void
tm_x8_444 (const __global uchar * src, int8 f, int8 g, __global uchar * dst,
    int8 df, int8 dg, int y, int x, __constant float *cfg,
    const __global float2 * lut, const __global float2 * gain, float lt,
    float hlg_peak)
{
  const float co = cfg[GST_CL_TONEMAP_CFG_OUT_COFF];
  const float cs = cfg[GST_CL_TONEMAP_CFG_OUT_CSCALE];
  float8 r, gg, b, u, v;

  tm_x8_rgb (src, f, g, y, x, cfg, &r, &gg, &b);
  tm_x8_display (cfg, lut, gain, lt, hlg_peak, &r, &gg, &b);
  tm_x8_write_y (dst, df, dg, y, x, cfg, r, gg, b, &u, &v);
  tm_x8_store (dst + (size_t) dg.s1 + (size_t) y * dg.s4 + x * df.s3, df,
      co + cs * u + 0.5f, cfg);
  tm_x8_store (dst + (size_t) dg.s2 + (size_t) y * dg.s5 + x * df.s3, df,
      co + cs * v + 0.5f, cfg);
}

/* tm_x8_420 (src, f, g, dst, df, dg, by, x, cfg, lut, gain, lt, hlg_peak),
 * tm_x16_420: N pixels from x of the two rows of block row @by of a 4:2:0
 * frame, their R'G'B' from RGB (N/2 = H chroma blocks), the blocks' Cb'
 * and Cr' interleaved by ZIP for semi-planar output */
#define TM_420(N, H, RGB, ZIP, STORE_H) \
inline __attribute__ ((always_inline)) void \
tm_x##N##_420 (const __global uchar * src, int8 f, int8 g, \
    __global uchar * dst, int8 df, int8 dg, int by, int x, \
    __constant float *cfg, const __global float2 * lut, \
    const __global float2 * gain, float lt, float hlg_peak) \
{ \
  float##H cb = (float##H) (0.0f), cr = (float##H) (0.0f), cbl, crl; \
\
  for (int row = 0; row < 2; row++) { \
    float##N r, gg, b, u, v; \
    RGB (src, f, g, 2 * by + row, x, cfg, &r, &gg, &b); \
    tm_x##N##_display (cfg, lut, gain, lt, hlg_peak, &r, &gg, &b); \
    tm_x##N##_write_y (dst, df, dg, 2 * by + row, x, cfg, r, gg, b, &u, \
        &v); \
    cb += u.even + u.odd; \
    cr += v.even + v.odd; \
  } \
  cbl = cfg[GST_CL_TONEMAP_CFG_OUT_COFF] + \
      cfg[GST_CL_TONEMAP_CFG_OUT_CSCALE] * cb * 0.25f + 0.5f; \
  crl = cfg[GST_CL_TONEMAP_CFG_OUT_COFF] + \
      cfg[GST_CL_TONEMAP_CFG_OUT_CSCALE] * cr * 0.25f + 0.5f; \
  if (df.s0 == GST_CL_TONEMAP_KIND_SEMI) { \
    tm_x##N##_store (dst + (size_t) dg.s1 + (size_t) by * dg.s4 + \
        x * df.s3, df, ZIP (cbl, crl), cfg); \
  } else { \
    STORE_H (dst + (size_t) dg.s1 + (size_t) by * dg.s4 + x / 2 * df.s3, \
        df, cbl, cfg); \
    STORE_H (dst + (size_t) dg.s2 + (size_t) by * dg.s5 + x / 2 * df.s3, \
        df, crl, cfg); \
  } \
}

#define TM_ZIP8(a, b) (float8) (a.s0, b.s0, a.s1, b.s1, a.s2, b.s2, a.s3, \
    b.s3)
#define TM_ZIP16(a, b) (float16) (TM_ZIP8 (a.lo, b.lo), TM_ZIP8 (a.hi, b.hi))

TM_420 (8, 4, tm_x8_rgb, TM_ZIP8, tm_x8_store4);

/* ------------------------------------------------------------------------ */
/* 16 pixels of a row at a time (4:2:0), where a CPU's vector registers     */
/* hold 16 floats (GST_CL_CPU16): the helpers above in float16, the same    */
/* operations lane by lane; the rest of a row goes 8 at a time, then scalar */

#ifdef GST_CL_CPU16
#define TM_X16 1
#else
#define TM_X16 0
#endif

/* whether the rows of format @f go 16 pixels at a time (4:2:0) */
#define TM_ROWS16(f) (TM_X16 && (f).s0 != GST_CL_TONEMAP_KIND_RGBA && \
    (f).s1 == 1)

/* each of 8 values twice */
#define TM_TWICE16(c) (float16) (c.s0, c.s0, c.s1, c.s1, c.s2, c.s2, c.s3, \
    c.s3, c.s4, c.s4, c.s5, c.s5, c.s6, c.s6, c.s7, c.s7)

/* the centred, scaled chroma of the 8 blocks from x (a pixel column) of
 * pixel row @y of a 4:2:0 frame, in CbCr pairs or two planes */
inline __attribute__ ((always_inline)) void
tm_x16_chroma420 (const __global uchar * src, int8 f, int8 g, int y, int x,
    __constant float *cfg, float8 * cb8, float8 * cr8)
{
  const int shift = f.s5;
  const uint mask = (1u << f.s4) - 1u;
  const __global ushort *cp = tm_row16 (src, g.s1, g.s4, y >> 1);
  const __global ushort *vp = tm_row16 (src, g.s2, g.s5, y >> 1);
  const float coff = cfg[GST_CL_TONEMAP_CFG_IN_COFF];
  const float cs = 1.0f / cfg[GST_CL_TONEMAP_CFG_IN_CSCALE];
  uint8 cbv, crv;

  if (f.s0 == GST_CL_TONEMAP_KIND_SEMI) {
    const uint16 cv = (convert_uint16 (TM_LOAD_US16 (cp + x)) >> shift) &
        mask;
    cbv = cv.even;
    crv = cv.odd;
  } else {
    cbv = (convert_uint8 (TM_LOAD_US8 (cp + x / 2)) >> shift) & mask;
    crv = (convert_uint8 (TM_LOAD_US8 (vp + x / 2)) >> shift) & mask;
  }
  *cb8 = (convert_float8 (cbv) - coff) * cs;
  *cr8 = (convert_float8 (crv) - coff) * cs;
}

/* the 16 luma levels from x of pixel row @y */
inline __attribute__ ((always_inline)) uint16
tm_x16_luma (const __global uchar * src, int8 f, int8 g, int y, int x)
{
  return (convert_uint16 (TM_LOAD_US16 (tm_row16 (src, g.s0, g.s3, y) +
              x)) >> f.s5) & ((1u << f.s4) - 1u);
}

/* R'G'B' of the 16 pixels from x of pixel row @y of a 4:2:0 frame */
inline __attribute__ ((always_inline)) void
tm_x16_rgb420 (const __global uchar * src, int8 f, int8 g, int y, int x,
    __constant float *cfg, float16 * r, float16 * gg, float16 * b)
{
  float8 cb8, cr8;

  tm_x16_chroma420 (src, f, g, y, x, cfg, &cb8, &cr8);
  tm_ycc16 (cfg, tm_x16_luma (src, f, g, y, x), TM_TWICE16 (cb8),
      TM_TWICE16 (cr8), r, gg, b);
}

/* max (R', G', B') of the 16 pixels from x of both rows (@s0, @s1) of
 * block row @by of a 4:2:0 frame: Y' plus the largest of the three
 * amounts that the block's chroma adds to it (tm_chroma's), clamped to
 * [0, 1], which is the largest of the three clamped sums (rounding a sum
 * and clamping it keep its order): one add and a clamp a pixel instead of
 * three channels */
inline __attribute__ ((always_inline)) void
tm_x16_signal420 (const __global uchar * src, int8 f, int8 g, int by, int x,
    __constant float *cfg, float16 * s0, float16 * s1)
{
  const float kr = cfg[GST_CL_TONEMAP_CFG_IN_KR];
  const float kb = cfg[GST_CL_TONEMAP_CFG_IN_KB];
  const float yoff = cfg[GST_CL_TONEMAP_CFG_IN_YOFF];
  const float ys = 1.0f / cfg[GST_CL_TONEMAP_CFG_IN_YSCALE];
  float8 cb8, cr8, dr, db, dg;
  float16 d;

  tm_x16_chroma420 (src, f, g, 2 * by, x, cfg, &cb8, &cr8);
  dr = 2.0f * (1.0f - kr) * cr8;
  db = 2.0f * (1.0f - kb) * cb8;
  dg = -(kr * dr + kb * db) * cfg[GST_CL_TONEMAP_CFG_IN_GINV];
  d = TM_TWICE16 (max (max (dr, dg), db));
  *s0 = tm_clamp16 ((convert_float16 (tm_x16_luma (src, f, g, 2 * by,
                  x)) - yoff) * ys + d, 0.0f, 1.0f);
  *s1 = tm_clamp16 ((convert_float16 (tm_x16_luma (src, f, g, 2 * by + 1,
                  x)) - yoff) * ys + d, 0.0f, 1.0f);
}
#undef TM_TWICE16

TM_420 (16, 8, tm_x16_rgb420, TM_ZIP16, tm_x8_store);

__kernel void
tonemap_map_x8 (const __global uchar * src, int8 f, int8 g,
    __global uchar * dst, int8 df, int8 dg, int width, int height,
    __constant float *cfg, const __global float2 * lut,
    const __global float2 * gain, float lt, float hlg_peak)
{
  const int nbx = (width + (1 << f.s1) - 1) >> f.s1, by = get_global_id (1);
  const int bh = 1 << f.s2;
  const int full = (by + 1) * bh <= height ? width & ~7 : 0;
  int x = 0;

  if (by * bh >= height)
    return;
  if (TM_ROWS16 (f))
    for (; x + 16 <= full; x += 16)
      tm_x16_420 (src, f, g, dst, df, dg, by, x, cfg, lut, gain, lt,
          hlg_peak);
  for (; x < full; x += 8) {
    if (f.s0 == GST_CL_TONEMAP_KIND_RGBA)
      tm_x8_rgba (src, f, g, dst, df, dg, by, x, cfg, lut, gain, lt,
          hlg_peak);
    else if (f.s1 == 0)
      tm_x8_444 (src, f, g, dst, df, dg, by, x, cfg, lut, gain, lt,
          hlg_peak);
    else
      tm_x8_420 (src, f, g, dst, df, dg, by, x, cfg, lut, gain, lt,
          hlg_peak);
  }
  for (int bx = x >> f.s1; bx < nbx; bx++)
    tm_block (src, f, g, dst, df, dg, bx, by, width, height, cfg, lut, gain,
        lt, hlg_peak);
}

/* tm_bins8 (cfg, lut, hlg_peak, r, g, b), tm_bins16: the histogram bins of
 * N pixels of R'G'B'. PQ (max (R, G, B)) is max (R', G', B') for PQ
 * input: no light, no table (the lookups were a third of the kernel's
 * time). */
#define TM_BINS(N) \
inline __attribute__ ((always_inline)) int##N \
tm_bins##N (__constant float *cfg, const __global float2 * lut, \
    float hlg_peak, float##N r, float##N g, float##N b) \
{ \
  const float##N s = cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f ? \
      max (max (r, g), b) : tm_x##N##_linear (cfg, lut, hlg_peak, &r, &g, \
      &b); \
  return min (convert_int##N (s * GST_CL_TONEMAP_BINS), \
      GST_CL_TONEMAP_BINS - 1); \
}

TM_BINS (8);
TM_BINS (16);

/* TM_UNIFORM16 (bin): whether the 16 bins are one (a flat area: counted
 * with one add, where 16 increments of one counter wait each for the
 * last); one comparison into a mask register on AVX-512, never elsewhere
 * (OpenCL's all () reduces the lanes in a dozen instructions, which cost
 * more than they spare on photographs) */
#if defined(GST_CL_CPU16) && defined(__AVX512F__)
#define TM_UNIFORM16(bin) (__builtin_ia32_cmpd512_mask ((tm_v16si) (bin), \
        (tm_v16si) (int16) ((bin).s0), 0, 0xffff) == 0xffff)
#else
#define TM_UNIFORM16(bin) 0
#endif

/* The histogram of the same frames: rows of blocks per work-item into
 * private tables, added to hist once per work-item. The 16-pixel rows
 * count lane k into table k % 4: neighbouring pixels of a photograph
 * often share a bin, and each increment of one counter waits for the
 * last. */
__kernel void
tonemap_hist_x8 (const __global uchar * src, int8 f, int8 g, int width,
    int height, int rows, __constant float *cfg, const __global float2 * lut,
    float hlg_peak, __global uint * hist)
{
  uint tables[4][GST_CL_TONEMAP_BINS];
  uint *h = tables[0], *h1 = tables[1], *h2 = tables[2], *h3 = tables[3];
  const int bw = 1 << f.s1, bh = 1 << f.s2;
  const int nby = (height + bh - 1) / bh, nbx = (width + bw - 1) / bw;
  const int by0 = get_global_id (0) * rows;

  if (by0 >= nby)
    return;
  for (int i = 0; i < GST_CL_TONEMAP_BINS; i++)
    h[i] = h1[i] = h2[i] = h3[i] = 0;
  for (int by = by0; by < min (by0 + rows, nby); by++) {
    const int full = (by + 1) * bh <= height ? width & ~7 : 0;
    int x = 0;
    if (TM_ROWS16 (f))
      for (; x + 16 <= full; x += 16) {
        float16 s0, s1;
        if (cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f)
          tm_x16_signal420 (src, f, g, by, x, cfg, &s0, &s1);
        for (int row = 0; row < 2; row++) {
          int16 bin;
          if (cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f) {
            bin = min (convert_int16 ((row ? s1 : s0) * GST_CL_TONEMAP_BINS),
                GST_CL_TONEMAP_BINS - 1);
          } else {
            float16 r, gg, b;
            tm_x16_rgb420 (src, f, g, 2 * by + row, x, cfg, &r, &gg, &b);
            bin = tm_bins16 (cfg, lut, hlg_peak, r, gg, b);
          }
          if (TM_UNIFORM16 (bin)) {
            h[bin.s0] += 16;
            continue;
          }
          h[bin.s0]++; h1[bin.s1]++; h2[bin.s2]++; h3[bin.s3]++;
          h[bin.s4]++; h1[bin.s5]++; h2[bin.s6]++; h3[bin.s7]++;
          h[bin.s8]++; h1[bin.s9]++; h2[bin.sa]++; h3[bin.sb]++;
          h[bin.sc]++; h1[bin.sd]++; h2[bin.se]++; h3[bin.sf]++;
        }
      }
    for (; x < full; x += 8)
      for (int row = 0; row < bh; row++) {
        float8 r, gg, b;
        int8 bin;
        tm_x8_rgb (src, f, g, by * bh + row, x, cfg, &r, &gg, &b);
        bin = tm_bins8 (cfg, lut, hlg_peak, r, gg, b);
        h[bin.s0]++; h[bin.s1]++; h[bin.s2]++; h[bin.s3]++;
        h[bin.s4]++; h[bin.s5]++; h[bin.s6]++; h[bin.s7]++;
      }
    for (int bx = x / bw; bx < nbx; bx++) {
      const float3 c = f.s0 == GST_CL_TONEMAP_KIND_RGBA ? (float3) (0.0f) :
          tm_read_chroma (src, f, g, bx, by, cfg);
      for (int y = by * bh; y < min ((by + 1) * bh, height); y++)
        for (int xx = bx * bw; xx < min ((bx + 1) * bw, width); xx++) {
          const float3 e = tm_read_rgb (src, f, g, xx, y, c, cfg);
          const float3 l = cfg[GST_CL_TONEMAP_CFG_HLG] == 0.0f ? e :
              tm_linear (e, cfg, lut, hlg_peak);
          h[min ((int) (tm_signal_pq (e, l, cfg) * GST_CL_TONEMAP_BINS),
                  GST_CL_TONEMAP_BINS - 1)]++;
        }
    }
  }
  for (int i = 0; i < GST_CL_TONEMAP_BINS; i++) {
    const uint c = h[i] + h1[i] + h2[i] + h3[i];
    if (c)
      atomic_add (&hist[i], c);
  }
}
