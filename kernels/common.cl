/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* common.cl: helpers shared by every clfilters program.
 *
 * The core prepends this file to each program. It defines GST_CL_CPU when the
 * device is a CPU: there, 16-byte accesses go through byte-aligned vector
 * types (POCL compiles vload16/vstore16 element by element, while a plain
 * dereference of an aligned(1) vector becomes one unaligned SIMD load).
 * Elsewhere the standard vloadn/vstoren are used.
 *
 * Geometry shared by all kernels: work-item (gx, gy) covers the units
 * [gx * chunk, gx * chunk + chunk) of the rows [gy * rows, gy * rows + rows)
 * of a plane, where a unit is a byte (buffers) or a texel (images). On CPUs a
 * work-item takes whole rows (a strip); on GPUs a small rectangle. Global
 * sizes are rounded up to the fixed local size: kernels check bounds.
 */

#ifdef GST_CL_CPU
typedef uchar16 __attribute__ ((aligned (1))) gst_cl_uchar16_u;
#define LOAD_UC16(p) (*(const __global gst_cl_uchar16_u *) (p))
#define STORE_UC16(p, v) (*(__global gst_cl_uchar16_u *) (p) = (v))
typedef float16 __attribute__ ((aligned (4))) gst_cl_float16_u;
#define LOAD_F16_L(p) (*(const __local gst_cl_float16_u *) (p))
#define STORE_F16_L(p, v) (*(__local gst_cl_float16_u *) (p) = (v))
/* 16-bit samples (formats of more than 8 bits), from 2-byte aligned rows */
typedef ushort8 __attribute__ ((aligned (2))) gst_cl_ushort8_u;
typedef ushort16 __attribute__ ((aligned (2))) gst_cl_ushort16_u;
#define LOAD_US8(p) (*(const __global gst_cl_ushort8_u *) (p))
#define STORE_US8(p, v) (*(__global gst_cl_ushort8_u *) (p) = (v))
#define LOAD_US16(p) (*(const __global gst_cl_ushort16_u *) (p))
#define STORE_US16(p, v) (*(__global gst_cl_ushort16_u *) (p) = (v))
#else
#define LOAD_US8(p) vload8 (0, (p))
#define STORE_US8(p, v) vstore8 ((v), 0, (p))
#define LOAD_US16(p) vload16 (0, (p))
#define STORE_US16(p, v) vstore16 ((v), 0, (p))
#define LOAD_UC16(p) vload16 (0, (p))
#define STORE_UC16(p, v) vstore16 ((v), 0, (p))
#define LOAD_F16_L(p) vload16 (0, (p))
#define STORE_F16_L(p, v) vstore16 ((v), 0, (p))
#endif

/* Image reads: integer coordinates, nearest texel, clamped to the edge. A
 * program-scope sampler: NVIDIA's compiler mishandles a sampler literal
 * passed straight to read_imageui (every read returned texel 0,0). */
__constant sampler_t gst_cl_sampler = CLK_NORMALIZED_COORDS_FALSE |
    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
#define GST_CL_SAMPLER gst_cl_sampler

/* The rectangle of a plane covered by this work-item. Returns 0 when the
 * work-item lies outside the plane (global sizes are rounded up). */
inline int
gst_cl_work_rect (int units, int height, int chunk, int rows,
    int *x0, int *x1, int *y0, int *y1)
{
  *x0 = (int) get_global_id (0) * chunk;
  *y0 = (int) get_global_id (1) * rows;
  if (*x0 >= units || *y0 >= height)
    return 0;
  *x1 = min (*x0 + chunk, units);
  *y1 = min (*y0 + rows, height);
  return 1;
}

/* 0xff in the lanes of a 16-byte vector that hold the alpha (or padding)
 * byte of a packed pixel of `step` bytes, for a vector that starts on a
 * pixel boundary; all zero when alpha < 0. The host only passes alpha >= 0
 * when step divides 16. */
inline uchar16
gst_cl_alpha_mask16 (int alpha, int step)
{
  const uchar16 iota = (uchar16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
      13, 14, 15);
  if (alpha < 0)
    return (uchar16) (0);
  return as_uchar16 (iota % (uchar16) (step) == (uchar16) (alpha));
}

#if defined (GST_CL_CPU) && defined (__clang__)
/* Lanes of two 16-lane vectors p, c (neighbouring blocks of a row) shifted
 * by s lanes: GST_CL_RIGHT_BY gives the 16 lanes ending s before the end
 * of c (each lane's left neighbour s lanes away), GST_CL_LEFT_BY those
 * starting s into c (the right neighbours). Clang's builtin, which becomes
 * vpalignr/vperm2i128 on AVX2: POCL compiles shuffle2 element by element.
 * Only where GST_CL_HAVE_SHIFTS is defined. */
#define GST_CL_HAVE_SHIFTS 1
#define GST_CL_RIGHT_BY(p, c, s) __builtin_shufflevector (p, c, 16 - s, \
    17 - s, 18 - s, 19 - s, 20 - s, 21 - s, 22 - s, 23 - s, 24 - s, \
    25 - s, 26 - s, 27 - s, 28 - s, 29 - s, 30 - s, 31 - s)
#define GST_CL_LEFT_BY(c, n, s) __builtin_shufflevector (c, n, s, 1 + s, \
    2 + s, 3 + s, 4 + s, 5 + s, 6 + s, 7 + s, 8 + s, 9 + s, 10 + s, \
    11 + s, 12 + s, 13 + s, 14 + s, 15 + s)
#endif

/* GPUs: the 8 bytes at x of a row (x, the row and `units` multiples of 8)
 * as two words *centre, and the 8 bytes `step` (1 to 4) before and after
 * them, *left and *right, from one aligned 8-byte load and the aligned
 * words beside it (cache hits: the neighbouring work-items load them as
 * their own), the shifted bytes by 64-bit shifts of word pairs. At the
 * ends of the row the edge pixel is replicated: the word before the row is
 * the first word moved up by 4 - step bytes (its top `step` bytes are the
 * first pixel), the word after it the last word moved down (its low `step`
 * bytes are the last pixel, which ends the row since units is a multiple
 * of 4).
 * Why 8 bytes: unaligned vector loads become byte loads on NVIDIA's
 * compiler, shuffle2 with a computed mask is slower still, and a work-item
 * of 8 bytes walking down 4 rows came closest to the device's copy, ahead
 * of items of 16 and of 4 bytes (bench/probes/words8.c; figures in
 * bench/results/performance-history.md). */
inline uint
gst_cl_from_before (uint before, uint word, int step)
{
  return (uint) (upsample (word, before) >> (8 * (4 - step)));
}

inline uint
gst_cl_from_after (uint word, uint after, int step)
{
  return (uint) (upsample (after, word) >> (8 * step));
}

inline void
gst_cl_load_aligned8 (const __global uchar * row, int x, int units,
    int step, uint2 * left, uint2 * centre, uint2 * right)
{
  const uint2 c = *(const __global uint2 *) (row + x);
  const uint before = x > 0 ? *(const __global uint *) (row + x - 4) :
      c.x << (8 * (4 - step));
  const uint after = x + 8 < units ? *(const __global uint *) (row + x + 8) :
      c.y >> (8 * (4 - step));
  *left = (uint2) (gst_cl_from_before (before, c.x, step),
      gst_cl_from_before (c.x, c.y, step));
  *centre = c;
  *right = (uint2) (gst_cl_from_after (c.x, c.y, step),
      gst_cl_from_after (c.y, after, step));
}

/* GPUs: the 8 16-bit samples at x of a row (16-byte aligned rows, x a
 * multiple of 8) as one aligned 16-byte load, with the aligned words
 * before and after it that hold the neighbours `step` (1 or 4) samples
 * away: cache hits, since the neighbouring work-items load them as their
 * own. Unaligned vector loads of 16-bit samples become one load per sample
 * on NVIDIA's compiler. The caller keeps the 4 samples (step 4) or 2
 * (step 1) on each side inside the row. A walk down the rows may load
 * the next row's words one row ahead, so that a work-item has two rows'
 * loads in flight (where that measured faster: docs/performance.md). */
typedef struct
{
  uint2 before;                 /* step 1: only .y, the word before x */
  uint4 centre;
  uint2 after;                  /* step 1: only .x, the word after */
} GstClWords8;

inline GstClWords8
gst_cl_words8_load (const __global ushort * row, int x, int step)
{
  GstClWords8 w;
  w.centre = *(const __global uint4 *) (row + x);
  if (step == 1) {
    w.before = (uint2) (0, *(const __global uint *) (row + x - 2));
    w.after = (uint2) (*(const __global uint *) (row + x + 8), 0);
  } else {
    w.before = *(const __global uint2 *) (row + x - 4);
    w.after = *(const __global uint2 *) (row + x + 8);
  }
  return w;
}

/* GPUs: the 8 16-bit samples of the 16-byte word x of a row of n such
 * words (16-byte aligned, pixels of one sample) in *c, their left
 * neighbours in *l and right ones in *r, two samples to a 32-bit word; at
 * the row's ends a sample is its own neighbour (gaussian3_words16,
 * laplace_words16) */
inline void
gst_cl_words16_neighbours (const __global uint4 * row, int x, int n,
    uint4 * l, uint4 * c, uint4 * r)
{
  const __global uint *w = (const __global uint *) row;
  const uint4 v = row[x];
  const uint before = x > 0 ? w[4 * x - 1] : v.x << 16;
  const uint after = x + 1 < n ? w[4 * x + 4] : v.w >> 16;

  *l = (v << 16) | ((uint4) (before, v.xyz) >> 16);
  *c = v;
  *r = (v >> 16) | ((uint4) (v.yzw, after) << 16);
}

/* the 8 samples' left (*l) and right (*r) neighbours, by shifts of word
 * pairs */
inline void
gst_cl_words8_neighbours (GstClWords8 w, int step, uint4 * l, uint4 * r)
{
  const uint4 c = w.centre;
  if (step == 1) {
    *l = (c << 16) | ((uint4) (w.before.y, c.xyz) >> 16);
    *r = (c >> 16) | ((uint4) (c.yzw, w.after.x) << 16);
  } else {
    *l = (uint4) (w.before, c.xy);
    *r = (uint4) (c.zw, w.after);
  }
}

/* The sums l + (c << cshift) + r of the 8 bytes at x and their neighbours
 * (gst_cl_load_aligned8) in 16-bit lanes packed two to a 32-bit word, even
 * bytes in *even, odd bytes in *odd: four bytes per 32-bit operation where
 * byte vectors would cost a conversion per lane. A lane holds at most
 * (2 + 2^cshift) * 255, so the 3x3 sums built from three of these stay far
 * below 2^16 and no lane carries into the next. *centre: the 8 bytes. */
#define GST_CL_EVEN_BYTES 0x00ff00ffu
inline void
gst_cl_hsum8_packed (const __global uchar * row, int x, int units, int step,
    int cshift, uint2 * even, uint2 * odd, uint2 * centre)
{
  uint2 l, c, r;
  gst_cl_load_aligned8 (row, x, units, step, &l, &c, &r);
  *even = (l & GST_CL_EVEN_BYTES) + ((c & GST_CL_EVEN_BYTES) << cshift) +
      (r & GST_CL_EVEN_BYTES);
  *odd = ((l >> 8) & GST_CL_EVEN_BYTES) +
      (((c >> 8) & GST_CL_EVEN_BYTES) << cshift) +
      ((r >> 8) & GST_CL_EVEN_BYTES);
  *centre = c;
}
