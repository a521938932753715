/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* clahe.cl: contrast-limited adaptive histogram equalization (clclahe),
 * OpenCV's createCLAHE().apply() operation for operation.
 *
 * Two kernels a frame (docs/elements/clclahe.md):
 * 1. clahe_lut*: one work-group per tile. The tile's histogram (of the
 *    frame padded on the right and bottom with BORDER_REFLECT_101, as
 *    OpenCV pads frames the grid does not divide), clipped at `clip` with
 *    the excess redistributed (an equal share to every bin, then one more
 *    to every residual_step-th bin), and its running sum scaled to the
 *    tile's LUT (16-bit entries): lut[b] = round (sum (hist[0..b]) *
 *    lut_scale). Up to 4096 bins (8, 10 and 12 bits) the histogram is in
 *    local memory; 16-bit histograms (65536 bins, 256 KB) are counted in a
 *    device buffer, in the tile's own region (it belongs to the work-group
 *    alone, so a barrier orders it).
 *    The same kernel writes the column table of the blend (xtab: each
 *    column's two tiles and weights, which every row shares).
 * 2. clahe_blend*: each pixel is the bilinear blend of the LUTs of its four
 *    nearest tiles, in float32, in OpenCV's order, rounded half to even.
 *
 * On CPUs (GST_CL_CPU builds, groups of one work-item) a group walks its
 * tile alone and counts with plain increments, as OpenCV's loop does; on
 * GPUs the group's work-items count with local atomics.
 *
 * Exactness: OpenCV computes in float32 with separate multiplies and adds
 * (its x86 baseline has no FMA), so contraction into fused multiply-adds,
 * which OpenCL C allows by default, is turned off; the host computes the
 * quotients (1 / tile width, (levels - 1) / area), as OpenCL's division
 * need not be correctly rounded.
 */
#pragma OPENCL FP_CONTRACT OFF

/* OpenCV's borderInterpolate () for BORDER_REFLECT_101, repeated for pads
 * longer than the frame (frames smaller than a tile) */
inline int
clahe_reflect101 (int p, int len)
{
  if (len == 1)
    return 0;
  while (p < 0 || p >= len)
    p = p < 0 ? -p : 2 * len - 2 - p;
  return p;
}

/* the value of a sample of a buffer plane: a byte, or a 16-bit word
 * holding `mask` at bit `shift` */
inline uint
clahe_load (const __global uchar * src, int stride, int wide, int x, int y,
    int shift, uint mask)
{
  const __global uchar *row = src + (size_t) y * stride;
  if (wide)
    return ((uint) ((const __global ushort *) row)[x] >> shift) & mask;
  return row[x];
}

inline uint
clahe_load_image (__read_only image2d_t src, int x, int y, int shift,
    uint mask)
{
  return (read_imageui (src, GST_CL_SAMPLER, (int2) (x, y)).x >> shift) &
      mask;
}

/* cvRound () of a float in [0, 2^23): adding 2^23 leaves no fraction
 * bits, so the sum is rounded to an integer half to even (the default
 * rounding of every OpenCL device): two adds on any device, whatever its
 * library makes of rint () */
inline uint
clahe_round (float v)
{
  return (uint) ((v + 8388608.0f) - 8388608.0f);
}

/* The cell table of the GPU blend (clahe_blend_cells): the pixels of a
 * cell (clahe_cell ()) blend the LUTs of tiles (x1, t1), (x2, t1),
 * (x1, t2), (x2, t2); entry v of cell (cx, cy) holds their entries v in
 * that order (exact: entries are below 2^16), so that a pixel loads one
 * 8-byte entry, not four. The group that makes a tile's LUT writes its
 * entry e of bin b into the lanes of the up to four cells that read it.
 * `tile`: the tile's index of `tiles`. */
inline void
clahe_put_cells (__global ushort * cells, ushort e, int b, int tile,
    int tiles, int tiles_x, int bins)
{
  const int tiles_y = tiles / tiles_x;
  const int tx = tile % tiles_x, ty = tile / tiles_x;
  for (int cy = ty; cy <= ty + 1; cy++) {
    const int t1 = max (cy - 1, 0), t2 = min (cy, tiles_y - 1);
    for (int cx = tx; cx <= tx + 1; cx++) {
      const int x1 = max (cx - 1, 0), x2 = min (cx, tiles_x - 1);
      __global ushort *c = cells + ((size_t) (cy * (tiles_x + 1) + cx) *
          bins + b) * 4;
      if (t1 == ty && x1 == tx)
        c[0] = e;
      if (t1 == ty && x2 == tx)
        c[1] = e;
      if (t2 == ty && x1 == tx)
        c[2] = e;
      if (t2 == ty && x2 == tx)
        c[3] = e;
    }
  }
}

/* The LUT of the tile of this work-group from its histogram `hist` (local
 * or global memory: a macro, OpenCL C 1.2 has no generic pointers), bins a
 * multiple of the group size. `scratch`: 2 + group size uints of local
 * memory. Writes lut[b] for the tile's bins, and into `cells` unless 0
 * (clahe_put_cells () of tile `tile` of `tiles`). */
#define CLAHE_HIST_TO_LUT(hist, lut, bins, clip, lut_scale, maxv, scratch, \
    cells, tile, tiles, tiles_x) \
  do { \
    const int lid_ = (int) get_local_id (0), n_ = (int) get_local_size (0); \
    const int per_ = (bins) / n_, b0_ = lid_ * per_; \
    int b_, batch_, residual_, rstep_ = 1; \
    uint sum_ = 0, over_ = 0; \
    if ((clip) > 0) { \
      for (b_ = lid_; b_ < (bins); b_ += n_) { \
        uint h_ = hist[b_]; \
        if (h_ > (uint) (clip)) { \
          over_ += h_ - (uint) (clip); \
          hist[b_] = (uint) (clip); \
        } \
      } \
    } \
    /* the excess of all items: a reduction in log2 (n) steps (an atomic \
     * add of each item's on one word waited for the others) */ \
    scratch[2 + lid_] = over_; \
    barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); \
    for (b_ = n_ >> 1; b_ > 0; b_ >>= 1) { \
      if (lid_ < b_) \
        scratch[2 + lid_] += scratch[2 + lid_ + b_]; \
      barrier (CLK_LOCAL_MEM_FENCE); \
    } \
    over_ = scratch[2]; \
    barrier (CLK_LOCAL_MEM_FENCE); \
    /* OpenCV: batch to every bin, then +1 to bins 0, step, 2 step... \
     * while residual lasts */ \
    batch_ = (int) over_ / (bins); \
    residual_ = (int) over_ - batch_ * (bins); \
    if (residual_ > 0) \
      rstep_ = max ((bins) / residual_, 1); \
    for (b_ = b0_; b_ < b0_ + per_; b_++) { \
      uint h_ = hist[b_] + (uint) batch_; \
      if (residual_ > 0 && b_ % rstep_ == 0 && b_ / rstep_ < residual_) \
        h_++; \
      hist[b_] = h_; \
      sum_ += h_; \
    } \
    scratch[2 + lid_] = sum_; \
    barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); \
    /* the items' sums before this one's: a scan in log2 (n) steps (a \
     * loop over the items before it took 255 loads in the last one) */ \
    for (b_ = 1; b_ < n_; b_ <<= 1) { \
      const uint v_ = lid_ >= b_ ? scratch[2 + lid_ - b_] : 0; \
      barrier (CLK_LOCAL_MEM_FENCE); \
      scratch[2 + lid_] += v_; \
      barrier (CLK_LOCAL_MEM_FENCE); \
    } \
    sum_ = scratch[2 + lid_] - sum_; \
    for (b_ = b0_; b_ < b0_ + per_; b_++) { \
      ushort e_; \
      sum_ += hist[b_]; \
      e_ = (ushort) min (clahe_round ((float) sum_ * (lut_scale)), \
          (uint) (maxv)); \
      lut[b_] = e_; \
      if (cells) \
        clahe_put_cells ((cells), e_, b_, (tile), (tiles), (tiles_x), \
            (bins)); \
    } \
  } while (0)

/* Counts the pixels of the tile of this work-group (of tw x th pixels of
 * the padded frame, each read at its place in the frame: LOAD (x, y)) in
 * `hist`. Tiles at least as wide as the group: a work-item takes every
 * n-th column of each row; narrower ones (fine grids on GPUs, where most
 * items of a row would idle): every n-th pixel of the tile. */
#define CLAHE_COUNT_PIXEL(hist, LOAD, xp, yp) \
  do { \
    const int x_ = (xp) < width ? (xp) : clahe_reflect101 ((xp), width); \
    const uint v_ = LOAD (x_, (yp)); \
    if (n_ == 1) \
      hist[v_]++; \
    else \
      atomic_inc (&hist[v_]); \
  } while (0)

#define CLAHE_COUNT_TILE(hist, LOAD) \
  do { \
    const int tile_ = (int) get_group_id (0); \
    const int n_ = (int) get_local_size (0), lid_ = (int) get_local_id (0); \
    const int tx0_ = (tile_ % tiles_x) * tw, ty0_ = (tile_ / tiles_x) * th; \
    int r_, c_; \
    if (tw >= n_) { \
      for (r_ = 0; r_ < th; r_++) { \
        const int y_ = clahe_reflect101 (ty0_ + r_, height); \
        for (c_ = lid_; c_ < tw; c_ += n_) \
          CLAHE_COUNT_PIXEL (hist, LOAD, tx0_ + c_, y_); \
      } \
    } else { \
      for (c_ = lid_; c_ < tw * th; c_ += n_) \
        CLAHE_COUNT_PIXEL (hist, LOAD, tx0_ + c_ % tw, \
            clahe_reflect101 (ty0_ + c_ / tw, height)); \
    } \
  } while (0)

/* Where a column (row) p lies between tile centres, as OpenCV computes it:
 * t = p * inv - 0.5 in float32, the tiles floor (t) and floor (t) + 1
 * clamped to the grid, the weight of the second t - floor (t).
 * clahe_cell () returns floor (t) + 1, the cell of p: the pixels between
 * the same tile centres (tiles + 1 cells a side, the outer ones half a
 * tile) blend the same four LUTs. */
inline int
clahe_cell (int p, float inv, int tiles, float *a)
{
  const float tf = (float) p * inv - 0.5f;
  int f = (int) tf;             /* cvFloor () */
  f -= tf < (float) f;
  *a = tf - (float) f;
  /* f is -1 .. tiles - 1 for p in the padded frame: cells 0 .. tiles */
  return clamp (f + 1, 0, tiles);
}

inline void
clahe_between (int p, float inv, int tiles, int *t1, int *t2, float *a)
{
  const int c = clahe_cell (p, inv, tiles, a);
  *t1 = max (c - 1, 0);
  *t2 = min (c, tiles - 1);
}

/* The blend's column table, written by the LUT kernels' work-items: four
 * arrays of `width` entries, for column x the offsets of its two tiles'
 * LUTs in a row of tiles (xtab[x], xtab[width + x]) and the weights xa and
 * 1 - xa as float bits (xtab[2 width + x], xtab[3 width + x]): arrays, so
 * that the blend loads 8 columns of each at once; on CPUs a fifth array,
 * the offset of the column's entries in the quad table (xtab[4 width + x]) */
inline void
clahe_fill_xtab (__global uint * xtab, int width, float inv_tw,
    int tiles_x, int bins)
{
  const int n = (int) get_global_size (0);
  int x, xe = width, step = n;
#ifdef GST_CL_CPU
  /* CPUs: a contiguous run of columns a work-item (the GPU's interleaved
   * columns would put neighbouring columns, which share cache lines, on
   * different cores) */
  const int chunk = (width + n - 1) / n;
  x = (int) get_global_id (0) * chunk;
  xe = min (x + chunk, width);
  step = 1;
#else
  x = (int) get_global_id (0);
#endif
  for (; x < xe; x += step) {
    int x1, x2;
    float xa;
    clahe_between (x, inv_tw, tiles_x, &x1, &x2, &xa);
    xtab[x] = (uint) (x1 * bins);
    xtab[width + x] = (uint) (x2 * bins);
    xtab[2 * width + x] = as_uint (xa);
    xtab[3 * width + x] = as_uint (1.0f - xa);
#ifdef GST_CL_CPU
    /* the column's pair of tiles in the quad table (clahe_fill_quads) */
    xtab[4 * width + x] = (uint) ((x1 == x2 ? (x1 == 0 ? 0 : tiles_x) :
            x2) * bins);
#endif
  }
}

#ifdef GST_CL_CPU
/* CPU groups of one work-item (the LUT kernels' shape on CPUs) take the
 * serial path below: counts in `copies` histograms (16 of 8-bit samples,
 * else 4, where local memory holds them), pixel k of a row in histogram
 * k % copies (the image kernel: k % 4), so that runs of
 * equal values (flat areas) do not chain each increment of a bin to the
 * store of the previous one; then the bins 8 at a time, with no division */

/* the histograms' pointers: k % copies of them distinct */
#define CLAHE_COPIES(hist, bins, copies) \
  __local uint *h0 = (hist); \
  __local uint *h1 = (hist) + ((copies) > 1 ? (bins) : 0); \
  __local uint *h2 = (hist) + ((copies) > 2 ? 2 * (bins) : 0); \
  __local uint *h3 = (hist) + ((copies) > 2 ? 3 * (bins) : \
      (copies) > 1 ? (bins) : 0)

/* The row counts below: CLAHE_ROW_START sets p_ walking the samples of
 * type T of the tile's columns in the frame (a walking pointer: int
 * indices cost a sign extension each) up to e_; CLAHE_ROW_TAIL counts
 * into h those a block loop left, then the padding (mirrored columns),
 * one by one. INC (h, v) counts v in h. */
#define CLAHE_ROW_START(T, row) \
    const int xe_ = max (min (tx0 + tw, width), tx0); \
    const __global T *p_ = (const __global T *) (row) + tx0; \
    const __global T *const e_ = (const __global T *) (row) + xe_
#define CLAHE_ROW_TAIL(T, row, h, VALUE, INC) \
    for (; p_ < e_; p_++) \
      INC (h, VALUE (*p_)); \
    for (int x_ = xe_; x_ < tx0 + tw; x_++) \
      INC (h, VALUE (((const __global T *) (row))[clahe_reflect101 (x_, \
                  width)]))

/* Counts the row y of the tile from column tx0 (tw columns of the padded
 * frame) 4 at a time, pixel k in histogram k % 4 (CLAHE_COPIES) */
#define CLAHE_COUNT_ROW(T, row, VALUE, INC) \
  do { \
    CLAHE_ROW_START (T, row); \
    for (; e_ - p_ >= 4; p_ += 4) { \
      const uint v0_ = VALUE (p_[0]), v1_ = VALUE (p_[1]); \
      const uint v2_ = VALUE (p_[2]), v3_ = VALUE (p_[3]); \
      INC (h0, v0_); \
      INC (h1, v1_); \
      INC (h2, v2_); \
      INC (h3, v3_); \
    } \
    CLAHE_ROW_TAIL (T, row, h0, VALUE, INC); \
  } while (0)

/* CLAHE_COUNT_ROW of bytes into N copies of 256 bins (hist), pixel k in
 * copy k % N: on flat areas an increment waits for the store N pixels
 * back, not the previous pixel's; the copies' offsets are constants (one
 * base register) */
#define CLAHE_COUNT_ROW_BYTES(row, N) \
  do { \
    CLAHE_ROW_START (uchar, row); \
    for (; e_ - p_ >= N; p_ += N) { \
      _Pragma ("unroll") \
      for (int k_ = 0; k_ < N; k_++) \
        hist[256 * k_ + p_[k_]]++; \
    } \
    CLAHE_ROW_TAIL (uchar, row, hist, CLAHE_WHOLE, CLAHE_INC); \
  } while (0)

#define CLAHE_INC(h, v) h[v]++

/* CLAHE_COUNT_ROW of whole 16-bit words (GRAY16_LE) into one histogram,
 * four at a time from one 8-byte load: four equal words are one add. On
 * flat areas (black borders, graphics, clipped highlights) each increment
 * of one bin waits for the last, which copies of the histogram avoided for
 * the price of zeroing and summing them (16 bits: 256 KB each). */
typedef ulong __attribute__ ((aligned (2))) clahe_ulong_u;
#define CLAHE_COUNT_ROW_WORDS(row) \
  do { \
    CLAHE_ROW_START (ushort, row); \
    for (; e_ - p_ >= 4; p_ += 4) { \
      const ulong w_ = *(const __global clahe_ulong_u *) p_; \
      const uint v0_ = (uint) w_ & 0xffff; \
      if (w_ == v0_ * 0x0001000100010001ul) { \
        hist[v0_] += 4; \
      } else { \
        hist[v0_]++; \
        hist[(uint) (w_ >> 16) & 0xffff]++; \
        hist[(uint) (w_ >> 32) & 0xffff]++; \
        hist[(uint) (w_ >> 48)]++; \
      } \
    } \
    CLAHE_ROW_TAIL (ushort, row, hist, CLAHE_WHOLE, CLAHE_INC); \
  } while (0)

/* a whole sample (a byte, or a 16-bit word holding 16 bits), or `mask`
 * at bit `shift` of a word */
#define CLAHE_WHOLE(v) ((uint) (v))
#define CLAHE_WORD(v) (((uint) (v) >> shift) & mask)

/* The tile's rows are short (a tile's width: 240 bytes at 1080p, 8 bits)
 * and the frame is new to the caches: the hardware's prefetchers, which
 * follow long runs of lines, leave each row's loads waiting for memory,
 * so the count asks for the row CLAHE_ROWS_AHEAD below the one it
 * counts. */
#define CLAHE_ROWS_AHEAD 4
inline void
clahe_prefetch_row (const __global uchar * p, int bytes)
{
#ifdef __clang__
  for (int o = 0; o < bytes; o += 64)
    __builtin_prefetch ((const void *) (size_t) (p + o), 0, 3);
#endif
}

/* Counts the tile's samples in `copies` histograms. The excess over the
 * clip limit is summed afterwards over the bins (clahe_lut_serial8 ()),
 * in vectors, which costs less than a comparison with each increment. */
inline void
clahe_count_buffer (const __global uchar * src, int stride, int wide,
    int width, int height, int shift, uint mask, int tx0, int ty0, int tw,
    int th, __local uint * hist, int bins, int copies)
{
  CLAHE_COPIES (hist, bins, copies);
  const int whole = shift == 0 && mask == 0xffff;
  int r;
  for (r = 0; r < th; r++) {
    const __global uchar *row =
        src + (size_t) clahe_reflect101 (ty0 + r, height) * stride;
    if (r + CLAHE_ROWS_AHEAD < th)
      clahe_prefetch_row (src + (size_t) clahe_reflect101 (ty0 + r +
              CLAHE_ROWS_AHEAD, height) * stride + (tx0 << wide), tw << wide);
    if (copies == 16 && !wide)
      CLAHE_COUNT_ROW_BYTES (row, 16);
    else if (copies == 8 && !wide)
      CLAHE_COUNT_ROW_BYTES (row, 8);
    else if (copies == 1 && wide && whole)
      CLAHE_COUNT_ROW_WORDS (row);
    else if (wide)
      CLAHE_COUNT_ROW (ushort, row, CLAHE_WORD, CLAHE_INC);
    else
      CLAHE_COUNT_ROW (uchar, row, CLAHE_WHOLE, CLAHE_INC);
  }
}

inline void
clahe_count_image (__read_only image2d_t src, int width, int height,
    int shift, uint mask, int tx0, int ty0, int tw, int th,
    __local uint * hist, int bins, int copies)
{
  CLAHE_COPIES (hist, bins, copies);
  int r, c;
  for (r = 0; r < th; r++) {
    const int y = clahe_reflect101 (ty0 + r, height);
    for (c = 0; c + 4 <= tw; c += 4) {
      h0[clahe_load_image (src, clahe_reflect101 (tx0 + c, width), y,
              shift, mask)]++;
      h1[clahe_load_image (src, clahe_reflect101 (tx0 + c + 1, width), y,
              shift, mask)]++;
      h2[clahe_load_image (src, clahe_reflect101 (tx0 + c + 2, width), y,
              shift, mask)]++;
      h3[clahe_load_image (src, clahe_reflect101 (tx0 + c + 3, width), y,
              shift, mask)]++;
    }
    for (; c < tw; c++)
      h0[clahe_load_image (src, clahe_reflect101 (tx0 + c, width), y,
              shift, mask)]++;
  }
}

/* CPUs whose vector registers hold 16 floats (GST_CL_CPU16) take 16
 * lanes: the serial LUT's bins, and the blend's columns of one cell */
#ifdef GST_CL_CPU16
#define CLAHE_X16 1
#else
#define CLAHE_X16 0
#endif

/* N uints of local memory at any 4-byte boundary in one store (POCL
 * makes vstore8/vstore16 to local memory 16-byte stores) */
typedef uint8 __attribute__ ((aligned (4))) clahe_local_uint8;
typedef uint16 __attribute__ ((aligned (4))) clahe_local_uint16;
#define CLAHE_LSTORE(N, p, v) (*(__local clahe_local_uint##N *) (p) = (v))

/* the inclusive running sum of 8 lanes, and of 16 */
inline uint8
clahe_scan8 (uint8 s)
{
  s += (uint8) (0, s.s0, s.s1, s.s2, s.s3, s.s4, s.s5, s.s6);
  s += (uint8) (0, 0, s.s0, s.s1, s.s2, s.s3, s.s4, s.s5);
  return s + (uint8) (0, 0, 0, 0, s.s0, s.s1, s.s2, s.s3);
}

inline uint16
clahe_scan16 (uint16 s)
{
  s += (uint16) (0, s.s0, s.s1, s.s2, s.s3, s.s4, s.s5, s.s6, s.s7, s.s8,
      s.s9, s.sa, s.sb, s.sc, s.sd, s.se);
  s += (uint16) (0, 0, s.s0, s.s1, s.s2, s.s3, s.s4, s.s5, s.s6, s.s7,
      s.s8, s.s9, s.sa, s.sb, s.sc, s.sd);
  s += (uint16) (0, 0, 0, 0, s.s0, s.s1, s.s2, s.s3, s.s4, s.s5, s.s6,
      s.s7, s.s8, s.s9, s.sa, s.sb);
  return s + (uint16) (0, 0, 0, 0, 0, 0, 0, 0, s.s0, s.s1, s.s2, s.s3,
      s.s4, s.s5, s.s6, s.s7);
}

#define CLAHE_IOTA8 (uint8) (0, 1, 2, 3, 4, 5, 6, 7)
#define CLAHE_IOTA16 (uint16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, \
    13, 14, 15)
#define CLAHE_SUM8(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3 + (v).s4 + (v).s5 + \
    (v).s6 + (v).s7)
#define CLAHE_SUM16(v) CLAHE_SUM8 ((v).lo + (v).hi)
#define CLAHE_LAST8(v) ((v).s7)
#define CLAHE_LAST16(v) ((v).sf)

/* The tile's LUT from its `copies` histograms (summed into the first),
 * CLAHE_HIST_TO_LUT's operations N bins at a time (clahe_lut_serial8,
 * clahe_lut_serial16 where a vector register holds 16 lanes): the excess
 * over the clip limit, then each bin clipped, its share of the excess
 * added (bin b gets one more where b % rstep == 0 and b < residual *
 * rstep: a counter of b % rstep), the running sum and the scaled, rounded
 * entries. The conversions are the signed ones, a single
 * instruction each on x86 (sums and entries are below 2^31: the same
 * values). */
#define CLAHE_DEFINE_LUT_SERIAL(N) \
inline void \
clahe_lut_serial##N (__local uint * hist, int bins, int copies, uint cl, \
    float lut_scale, int maxv, __global ushort * lut) \
{ \
  const uint##N iota = CLAHE_IOTA##N; \
  uint##N overn = (uint##N) (0), m, carry = (uint##N) (0); \
  uint over, batch, residual, rstep = 1, rlimit, mstep; \
  int b, k; \
  for (b = 0; b < bins; b += N) { \
    uint##N h = vload##N (0, hist + b); \
    if (copies > 1) { \
      for (k = 1; k < copies; k++) \
        h += vload##N (0, hist + k * bins + b); \
      CLAHE_LSTORE (N, hist + b, h); \
    } \
    overn += max (h, (uint##N) (cl)) - (uint##N) (cl); \
  } \
  over = CLAHE_SUM##N (overn); \
  batch = over / (uint) bins; \
  residual = over - batch * (uint) bins; \
  if (residual > 0) \
    rstep = max ((uint) bins / residual, 1u); \
  rlimit = residual * rstep; \
  m = iota % rstep; \
  mstep = N % rstep; \
  for (b = 0; b < bins; b += N) { \
    const int##N extra = (m == (uint##N) (0)) & ((uint##N) (b) + iota < \
        (uint##N) (rlimit)); \
    uint##N s = min (vload##N (0, hist + b), (uint##N) (cl)) + \
        (uint##N) (batch) - as_uint##N (extra); \
    float##N f; \
    s = clahe_scan##N (s) + carry; \
    carry = (uint##N) (CLAHE_LAST##N (s)); \
    m += (uint##N) (mstep); \
    m -= as_uint##N (m >= (uint##N) (rstep)) & (uint##N) (rstep); \
    f = convert_float##N (as_int##N (s)) * lut_scale; \
    STORE_US##N (lut + b, convert_ushort##N (min (as_uint##N \
                (convert_int##N ((f + 8388608.0f) - 8388608.0f)), \
                (uint##N) (maxv)))); \
  } \
}
CLAHE_DEFINE_LUT_SERIAL (8)
CLAHE_DEFINE_LUT_SERIAL (16)

/* The serial path of a local-histogram kernel: zero, count (COUNT), LUT;
 * cl: the clip limit, none: all ones */
#define CLAHE_LUT_SERIAL(COUNT) \
  do { \
    const int tile_ = (int) get_group_id (0); \
    const int tx0 = (tile_ % tiles_x) * tw, ty0 = (tile_ / tiles_x) * th; \
    const uint cl = clip > 0 ? (uint) clip : 0xffffffffu; \
    for (b = 0; b < bins * copies; b += 16) \
      CLAHE_LSTORE (16, hist + b, (uint16) (0)); \
    clahe_fill_xtab (xtab, width, inv_tw, tiles_x, bins); \
    COUNT; \
    if (CLAHE_X16) \
      clahe_lut_serial16 (hist, bins, copies, cl, lut_scale, maxv, tlut); \
    else \
      clahe_lut_serial8 (hist, bins, copies, cl, lut_scale, maxv, tlut); \
  } while (0)

#define CLAHE_IS_SERIAL() (get_local_size (0) == 1)
#else
#define CLAHE_LUT_SERIAL(COUNT)
#define CLAHE_IS_SERIAL() 0
#endif

#define CLAHE_LOAD_BUFFER(x, y) clahe_load (src, stride, wide, x, y, shift, mask)
#define CLAHE_LOAD_IMAGE(x, y) clahe_load_image (src, x, y, shift, mask)

/* The histogram in local memory (`hist`: bins uints, `copies` of them on
 * the serial path): up to 12 bits, and 16 bits on CPUs (local memory
 * there is the core's cache, which a tile's histogram in a buffer, cold
 * each frame, is not). COUNT: the serial path's count; CELLS: the cell
 * table to fill, or 0. */
#define CLAHE_LUT_LOCAL(LOAD, COUNT, CELLS) \
  __global ushort *tlut = lut + (size_t) get_group_id (0) * bins; \
  int b; \
  if (CLAHE_IS_SERIAL ()) { \
    CLAHE_LUT_SERIAL (COUNT); \
    return; \
  } \
  for (b = (int) get_local_id (0); b < bins; b += (int) get_local_size (0)) \
    hist[b] = 0; \
  if (!(CELLS))                 /* the cell blend reads no column table */ \
    clahe_fill_xtab (xtab, width, inv_tw, tiles_x, bins); \
  barrier (CLK_LOCAL_MEM_FENCE); \
  CLAHE_COUNT_TILE (hist, LOAD); \
  barrier (CLK_LOCAL_MEM_FENCE); \
  CLAHE_HIST_TO_LUT (hist, tlut, bins, clip, lut_scale, maxv, scratch, \
      CELLS, (int) get_group_id (0), (int) get_num_groups (0), tiles_x)

/* 16 bits: the tile's 65536 counts in its own region of a buffer,
 * zeroed first by the same group (no command of its own) */
#define CLAHE_LUT_GLOBAL(LOAD) \
  __global ushort *tlut = lut + (size_t) get_group_id (0) * bins; \
  volatile __global uint *thist = ghist + (size_t) get_group_id (0) * bins; \
  int b; \
  for (b = (int) get_local_id (0); b < bins; b += (int) get_local_size (0)) \
    thist[b] = 0; \
  clahe_fill_xtab (xtab, width, inv_tw, tiles_x, bins); \
  barrier (CLK_GLOBAL_MEM_FENCE); \
  CLAHE_COUNT_TILE (thist, LOAD); \
  barrier (CLK_GLOBAL_MEM_FENCE); \
  CLAHE_HIST_TO_LUT (thist, tlut, bins, clip, lut_scale, maxv, scratch, 0, \
      0, 0, tiles_x)

#define CLAHE_LUT_BUFFER_ARGS const __global uchar * src, int stride, \
    int wide, int width, int height, int shift, uint mask, int tw, int th, \
    int tiles_x, int bins, int clip, float lut_scale, int maxv, \
    float inv_tw, __global ushort * lut, __global uint * xtab
#define CLAHE_LUT_IMAGE_ARGS __read_only image2d_t src, int width, \
    int height, int shift, uint mask, int tw, int th, int tiles_x, \
    int bins, int clip, float lut_scale, int maxv, float inv_tw, \
    __global ushort * lut, __global uint * xtab

/* cells: the GPU blend's cell table to fill, or none (0) */
__kernel void
clahe_lut (CLAHE_LUT_BUFFER_ARGS, __local uint * hist, int copies,
    __local uint * scratch, __global ushort * cells)
{
  CLAHE_LUT_LOCAL (CLAHE_LOAD_BUFFER, clahe_count_buffer (src, stride, wide,
          width, height, shift, mask, tx0, ty0, tw, th, hist, bins, copies),
      cells);
}

__kernel void
clahe_lut_image (CLAHE_LUT_IMAGE_ARGS, __local uint * hist, int copies,
    __local uint * scratch)
{
  CLAHE_LUT_LOCAL (CLAHE_LOAD_IMAGE, clahe_count_image (src, width, height,
          shift, mask, tx0, ty0, tw, th, hist, bins, copies), 0);
}

__kernel void
clahe_lut_wide (CLAHE_LUT_BUFFER_ARGS, __global uint * ghist,
    __local uint * scratch)
{
  CLAHE_LUT_GLOBAL (CLAHE_LOAD_BUFFER);
}

__kernel void
clahe_lut_wide_image (CLAHE_LUT_IMAGE_ARGS, __global uint * ghist,
    __local uint * scratch)
{
  CLAHE_LUT_GLOBAL (CLAHE_LOAD_IMAGE);
}

/* OpenCV's blend of a pixel's four LUT entries e (its rows of tiles' first
 * and second tile, in the first row then the second), in its order */
inline uint
clahe_blend_entries (float4 e, float xa, float xa1, float ya, float ya1,
    int maxv)
{
  const float res = (e.s0 * xa1 + e.s1 * xa) * ya1 + (e.s2 * xa1 +
      e.s3 * xa) * ya;
  return min (clahe_round (res), (uint) maxv);
}

/* clahe_blend_entries () of the four LUT entries of value v of column x:
 * l1, l2 the LUTs of the row's two rows of tiles */
inline uint
clahe_blend_value (const __global ushort * l1, const __global ushort * l2,
    const __global uint * xtab, int width, int x, float ya, float ya1,
    uint v, int maxv)
{
  const uint i1 = xtab[x] + v, i2 = xtab[width + x] + v;
  const float xa = as_float (xtab[2 * width + x]);
  const float xa1 = as_float (xtab[3 * width + x]);
  return clahe_blend_entries (convert_float4 ((ushort4) (l1[i1], l1[i2],
              l2[i1], l2[i2])), xa, xa1, ya, ya1, maxv);
}

/* N LUT entries (clahe_gather8, clahe_gather16) */
inline float8
clahe_gather8 (const __global ushort * l, uint8 i)
{
  return convert_float8 ((ushort8) (l[i.s0], l[i.s1], l[i.s2], l[i.s3],
          l[i.s4], l[i.s5], l[i.s6], l[i.s7]));
}

#if defined(GST_CL_GATHER16) && defined(__AVX512F__)
/* one 16-lane 32-bit gather at the entries' 2-byte addresses (the LUT
 * buffer has room past its last entry), the high halves dropped: CPUs
 * whose gathers beat 16 scalar loads (GST_CL_GATHER16, gstcldevice.c) */
typedef int clahe_v16si __attribute__ ((vector_size (64)));
inline float16
clahe_gather16 (const __global ushort * l, uint16 i)
{
  const clahe_v16si none = (clahe_v16si) (int16) (0);
  const clahe_v16si w = __builtin_ia32_gathersiv16si (none,
      (const void *) (size_t) l, (clahe_v16si) i, (short) -1, 2);
  return convert_float16 (as_uint16 (w) & (uint16) (0xffff));
}
#else
inline float16
clahe_gather16 (const __global ushort * l, uint16 i)
{
  return (float16) (clahe_gather8 (l, i.lo), clahe_gather8 (l, i.hi));
}
#endif

/* clahe_blend_value () of the N columns from x, in N lanes (the same
 * operations lane by lane): the strips of CPUs take rows 8 columns at a
 * time in SIMD (clahe_blend_value8), 16 where a vector register holds 16
 * floats (clahe_blend_value16, more than 10 bits) */
#define CLAHE_DEFINE_BLEND_VALUE(N) \
inline __attribute__ ((always_inline)) uint##N \
clahe_blend_value##N (const __global ushort * l1, \
    const __global ushort * l2, const __global uint * xtab, int width, \
    int x, float ya, float ya1, uint##N v, int maxv) \
{ \
  const uint##N i1 = vload##N (0, xtab + x) + v; \
  const uint##N i2 = vload##N (0, xtab + width + x) + v; \
  const float##N xa = as_float##N (vload##N (0, xtab + 2 * width + x)); \
  const float##N xa1 = as_float##N (vload##N (0, xtab + 3 * width + x)); \
  const float##N res = (clahe_gather##N (l1, i1) * xa1 + \
      clahe_gather##N (l1, i2) * xa) * ya1 + (clahe_gather##N (l2, i1) * \
      xa1 + clahe_gather##N (l2, i2) * xa) * ya; \
  return min (as_uint##N (convert_int##N ((res + 8388608.0f) - \
              8388608.0f)), (uint##N) (maxv)); \
}
CLAHE_DEFINE_BLEND_VALUE (8)
CLAHE_DEFINE_BLEND_VALUE (16)

/* the row's rows of tiles and weights */
#define CLAHE_BLEND_ROW(y) \
  int t1_, t2_; \
  float ya, ya1; \
  clahe_between ((y), inv_th, tiles_y, &t1_, &t2_, &ya); \
  ya1 = 1.0f - ya; \
  const __global ushort *l1 = lut + (size_t) t1_ * tiles_x * bins; \
  const __global ushort *l2 = lut + (size_t) t2_ * tiles_x * bins;

#define CLAHE_BLEND_ARGS int width, int height, int shift, uint mask, \
    float inv_th, int tiles_x, int tiles_y, int bins, int maxv, \
    const __global ushort * lut, const __global uint * xtab, int chunk, \
    int rows

/* 8-bit samples */
__kernel void
clahe_blend (const __global uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, CLAHE_BLEND_ARGS)
{
  int x0, x1, y0, y1, x, y;
  if (!gst_cl_work_rect (width, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (y = y0; y < y1; y++) {
    const __global uchar *srow = src + (size_t) y * src_stride;
    __global uchar *drow = dst + (size_t) y * dst_stride;
    CLAHE_BLEND_ROW (y);
    for (x = x0; x + 8 <= x1; x += 8)
      vstore8 (convert_uchar8 (clahe_blend_value8 (l1, l2, xtab, width, x,
                  ya, ya1, convert_uint8 (vload8 (0, srow + x)), maxv)), 0,
          drow + x);
    for (; x < x1; x++)
      drow[x] = (uchar) clahe_blend_value (l1, l2, xtab, width, x, ya, ya1,
          srow[x], maxv);
  }
}

/* samples of more than 8 bits: values of `mask` at bit `shift` of 16-bit
 * words, written back there with the other bits zero */
__kernel void
clahe_blend16 (const __global uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, CLAHE_BLEND_ARGS)
{
  int x0, x1, y0, y1, x, y;
  if (!gst_cl_work_rect (width, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (y = y0; y < y1; y++) {
    const __global ushort *srow =
        (const __global ushort *) (src + (size_t) y * src_stride);
    __global ushort *drow = (__global ushort *) (dst + (size_t) y * dst_stride);
    CLAHE_BLEND_ROW (y);
    x = x0;
#ifdef GST_CL_CPU16
    for (; x + 16 <= x1; x += 16) {
      const uint16 v = (convert_uint16 (LOAD_US16 (srow + x)) >> shift) &
          mask;
      STORE_US16 (drow + x, convert_ushort16 (clahe_blend_value16 (l1, l2,
                  xtab, width, x, ya, ya1, v, maxv) << shift));
    }
#endif
    for (; x + 8 <= x1; x += 8) {
      const uint8 v = (convert_uint8 (LOAD_US8 (srow + x)) >> shift) & mask;
      STORE_US8 (drow + x, convert_ushort8 (clahe_blend_value8 (l1, l2,
                  xtab, width, x, ya, ya1, v, maxv) << shift));
    }
    for (; x < x1; x++)
      drow[x] = (ushort) (clahe_blend_value (l1, l2, xtab, width, x, ya, ya1,
              ((uint) srow[x] >> shift) & mask, maxv) << shift);
  }
}

#ifdef GST_CL_CPU
/* The quad blends (CPUs, up to 10 bits): a work-item first gathers the
 * four LUT entries a pixel of value v reads, for each pair of neighbouring
 * tiles of its row of tiles, into one float4 of a table in local memory
 * (its own part), q[cx * bins + v] = (l1[x1][v], l1[x2][v], l2[x1][v],
 * l2[x2][v]) (exact: entries are below 2^16), where cx = 0 .. tiles_x is
 * the pair (x1, x2) = (max (cx - 1, 0), min (cx, tiles_x - 1)); the pixels
 * then load one float4 each instead of four entries (which POCL loads one
 * by one) and convert nothing. 8-bit samples, whose entries are bytes,
 * pack the four into one uint instead (clahe_fill_quads8). A table serves
 * the rows of a pair of rows of tiles (t1, t2): the ~33 rows of a strip
 * rebuild it once or twice (9 x 256 entries for 8x8 tiles at 8 bits,
 * against 63,000 pixels). */
typedef uchar8 __attribute__ ((aligned (1))) clahe_uchar8_u;
typedef uchar16 __attribute__ ((aligned (1))) clahe_uchar16_u;

/* A function `name` that fills the quad table q (entries of type T) of
 * the pair of rows of tiles (t1, t2): entry cx * bins + v is PACK of the
 * four entries */
#define CLAHE_FILL_QUADS(name, T, PACK) \
inline void \
name (__local T * q, const __global ushort * lut, int t1, int t2, \
    int tiles_x, int bins) \
{ \
  const __global ushort *l1 = lut + (size_t) t1 * tiles_x * bins; \
  const __global ushort *l2 = lut + (size_t) t2 * tiles_x * bins; \
  int cx, v; \
  for (cx = 0; cx <= tiles_x; cx++) { \
    const int x1 = max (cx - 1, 0) * bins; \
    const int x2 = min (cx, tiles_x - 1) * bins; \
    for (v = 0; v < bins; v++) \
      q[cx * bins + v] = PACK (l1[x1 + v], l1[x2 + v], l2[x1 + v], \
          l2[x2 + v]); \
  } \
}

#define CLAHE_PACK_FLOAT4(a, b, c, d) convert_float4 ((ushort4) (a, b, c, d))
CLAHE_FILL_QUADS (clahe_fill_quads, float4, CLAHE_PACK_FLOAT4);

/* clahe_blend_value () from the quad table */
inline uint
clahe_blend_quad (const __local float4 * q, const __global uint * xtab,
    int width, int x, float ya, float ya1, uint v, int maxv)
{
  return clahe_blend_entries (q[xtab[4 * width + x] + v],
      as_float (xtab[2 * width + x]), as_float (xtab[3 * width + x]), ya,
      ya1, maxv);
}

/* The quad table of 8-bit entries (8-bit samples): the four entries of a
 * pixel as the bytes of one uint, l1[x1] lowest (a quarter of the float4
 * table: 9 KB for 8x8 tiles, in the core's L1 cache) */
#define CLAHE_PACK_BYTES(a, b, c, d) ((uint) (a) | (uint) (b) << 8 | \
    (uint) (c) << 16 | (uint) (d) << 24)
CLAHE_FILL_QUADS (clahe_fill_quads8, uint, CLAHE_PACK_BYTES);

/* an entry of clahe_fill_quads8 ()'s table as the four entries */
inline float4
clahe_unpack_quad (uint e)
{
  return convert_float4 (as_int4 ((uint4) (e, e >> 8, e >> 16, e >> 24) &
          (uint4) (0xff)));
}

/* clahe_blend_bytes8 (e, xa, xa1, ya, ya1), clahe_blend_bytes16: the
 * blend of N packed quads @e (clahe_fill_quads8) with the columns' weights
 * at @xa and @xa1: the entries' bytes are the four operands (no
 * transposition). No clamp to maxv (255): entries of at most 255 blended
 * with weights whose rounded sums exceed 1 by a few ulps stay far below
 * 255.5. */
/* clahe_blend_lanes8 (a, b, c, d, xa_, xa1_, ya, ya1), clahe_blend_lanes16:
 * OpenCV's blend of N columns' entries @a, @b, @c, @d (as in
 * clahe_blend_entries ()) with their weights at @xa_ and @xa1_, rounded
 * (not clamped) */
#define CLAHE_BLEND_LANES(N) \
inline __attribute__ ((always_inline)) uint##N \
clahe_blend_lanes##N (float##N a, float##N b, float##N c, float##N d, \
    const __global uint * xa_, const __global uint * xa1_, float ya, \
    float ya1) \
{ \
  const float##N xa = as_float##N (vload##N (0, xa_)); \
  const float##N xa1 = as_float##N (vload##N (0, xa1_)); \
  const float##N res = (a * xa1 + b * xa) * ya1 + (c * xa1 + d * xa) * ya; \
  return as_uint##N (convert_int##N ((res + 8388608.0f) - 8388608.0f)); \
}

CLAHE_BLEND_LANES (8);
CLAHE_BLEND_LANES (16);

#define CLAHE_BLEND_BYTES(N) \
inline __attribute__ ((always_inline)) uint##N \
clahe_blend_bytes##N (uint##N e, const __global uint * xa_, \
    const __global uint * xa1_, float ya, float ya1) \
{ \
  const uint##N byte = (uint##N) (0xff); \
  return clahe_blend_lanes##N (convert_float##N (as_int##N (e & byte)), \
      convert_float##N (as_int##N ((e >> 8) & byte)), \
      convert_float##N (as_int##N ((e >> 16) & byte)), \
      convert_float##N (as_int##N (e >> 24)), xa_, xa1_, ya, ya1); \
}

CLAHE_BLEND_BYTES (8);
CLAHE_BLEND_BYTES (16);

/* clahe_blend_quad8 () of the 8 columns from x, in 8 lanes. Where the
 * 8 columns share a cell (all but a group a cell boundary crosses) their
 * entries are at the cell's table plus the samples. */
inline __attribute__ ((always_inline)) uint8
clahe_blend_packed8 (const __local uint * q, const __global uint * xtab,
    int width, int x, float ya, float ya1, const __global uchar * s)
{
  const __global uint *xq = xtab + 4 * width + x;
  uint8 e;
  s += x;
  if (xq[0] == xq[7]) {
    const __local uint *c = q + xq[0];
    e = (uint8) (c[s[0]], c[s[1]], c[s[2]], c[s[3]], c[s[4]], c[s[5]],
        c[s[6]], c[s[7]]);
  } else {
    e = (uint8) (q[xq[0] + s[0]], q[xq[1] + s[1]], q[xq[2] + s[2]],
        q[xq[3] + s[3]], q[xq[4] + s[4]], q[xq[5] + s[5]], q[xq[6] + s[6]],
        q[xq[7] + s[7]]);
  }
  return clahe_blend_bytes8 (e, xtab + 2 * width + x,
      xtab + 3 * width + x, ya, ya1);
}

/* clahe_blend_packed8 () of the 16 columns from x, which share the cell of
 * table @c */
inline __attribute__ ((always_inline)) uint16
clahe_blend_packed16 (const __local uint * c, const __global uint * xtab,
    int width, int x, float ya, float ya1, const __global uchar * s)
{
  const uint16 i = convert_uint16 (vload16 (0, s + x));
  const uint16 e = (uint16) (c[i.s0], c[i.s1], c[i.s2], c[i.s3], c[i.s4],
      c[i.s5], c[i.s6], c[i.s7], c[i.s8], c[i.s9], c[i.sa], c[i.sb],
      c[i.sc], c[i.sd], c[i.se], c[i.sf]);
  return clahe_blend_bytes16 (e, xtab + 2 * width + x,
      xtab + 3 * width + x, ya, ya1);
}

/* clahe_blend_quad () of the 8 columns from x, in 8 lanes: the lanes'
 * float4s (indices computed one by one: extracting them from a vector
 * costs more), paired (k, k + 4) in four vectors, transposed into the
 * lanes' l1[x1], l1[x2], l2[x1], l2[x2] in two steps of four unpacks.
 * z is a zero the compiler cannot see (maxv < 2^16), XORed into each step:
 * without it LLVM merges the loads and both steps into some 40 broadcasts
 * and blends (measured: 12 % more CPU time for GRAY8 frames). */
#define CLAHE_QI(k) (xq[x + (k)] + CLAHE_WORD (srow[x + (k)]))
inline __attribute__ ((always_inline)) uint8
clahe_blend16_quad8 (const __local float4 * q, const __global uint * xtab,
    int width, int x, float ya, float ya1, const __global ushort * srow,
    int shift, uint mask, int maxv)
{
  const __global uint *xq = xtab + 4 * width;
  const uint8 z = (uint8) ((uint) maxv >> 16);
  const float8 p0 = as_float8 (as_uint8 ((float8) (q[CLAHE_QI (0)],
              q[CLAHE_QI (4)])) ^ z);
  const float8 p1 = as_float8 (as_uint8 ((float8) (q[CLAHE_QI (1)],
              q[CLAHE_QI (5)])) ^ z);
  const float8 p2 = as_float8 (as_uint8 ((float8) (q[CLAHE_QI (2)],
              q[CLAHE_QI (6)])) ^ z);
  const float8 p3 = as_float8 (as_uint8 ((float8) (q[CLAHE_QI (3)],
              q[CLAHE_QI (7)])) ^ z);
  const float8 t0 = as_float8 (as_uint8 ((float8) (p0.s0, p1.s0, p0.s1,
              p1.s1, p0.s4, p1.s4, p0.s5, p1.s5)) ^ z);
  const float8 t1 = as_float8 (as_uint8 ((float8) (p2.s0, p3.s0, p2.s1,
              p3.s1, p2.s4, p3.s4, p2.s5, p3.s5)) ^ z);
  const float8 t2 = as_float8 (as_uint8 ((float8) (p0.s2, p1.s2, p0.s3,
              p1.s3, p0.s6, p1.s6, p0.s7, p1.s7)) ^ z);
  const float8 t3 = as_float8 (as_uint8 ((float8) (p2.s2, p3.s2, p2.s3,
              p3.s3, p2.s6, p3.s6, p2.s7, p3.s7)) ^ z);
  const float8 a = (float8) (t0.s0, t0.s1, t1.s0, t1.s1, t0.s4, t0.s5,
      t1.s4, t1.s5);
  const float8 b = (float8) (t0.s2, t0.s3, t1.s2, t1.s3, t0.s6, t0.s7,
      t1.s6, t1.s7);
  const float8 c = (float8) (t2.s0, t2.s1, t3.s0, t3.s1, t2.s4, t2.s5,
      t3.s4, t3.s5);
  const float8 d = (float8) (t2.s2, t2.s3, t3.s2, t3.s3, t2.s6, t2.s7,
      t3.s6, t3.s7);
  const float8 xa = as_float8 (vload8 (0, xtab + 2 * width + x));
  const float8 xa1 = as_float8 (vload8 (0, xtab + 3 * width + x));
  const float8 res = (a * xa1 + b * xa) * ya1 + (c * xa1 + d * xa) * ya;
  return min (as_uint8 (convert_int8 ((res + 8388608.0f) - 8388608.0f)),
      (uint8) (maxv));
}
#undef CLAHE_QI

/* the row's weights, and its table (rebuilt where its pair of rows of
 * tiles is not the previous row's) */
#define CLAHE_QUADS_ROW(y, FILL) \
  int t1_, t2_; \
  float ya, ya1; \
  clahe_between ((y), inv_th, tiles_y, &t1_, &t2_, &ya); \
  ya1 = 1.0f - ya; \
  if (t1_ != qt1 || t2_ != qt2) { \
    FILL (q, lut, t1_, t2_, tiles_x, bins); \
    qt1 = t1_; \
    qt2 = t2_; \
  }

#define CLAHE_QUADS_START \
  __local QUAD_T *q = quads + (size_t) get_local_id (0) * (tiles_x + 1) * \
      bins; \
  int x0, x1, y0, y1, x, y, qt1 = -1, qt2 = -1; \
  if (!gst_cl_work_rect (width, height, chunk, rows, &x0, &x1, &y0, &y1)) \
    return

/* clahe_blend with the packed quad table */
#define QUAD_T uint
__kernel void
clahe_blend_quads (const __global uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, CLAHE_BLEND_ARGS,
    __local uint * quads)
{
  CLAHE_QUADS_START;
  for (y = y0; y < y1; y++) {
    const __global uchar *srow = src + (size_t) y * src_stride;
    __global uchar *drow = dst + (size_t) y * dst_stride;
    CLAHE_QUADS_ROW (y, clahe_fill_quads8);
    for (x = x0; x + 8 <= x1;) {
      const __global uint *xq = xtab + 4 * width + x;
      if (CLAHE_X16 && x + 16 <= x1 && xq[0] == xq[15]) {
        *(__global clahe_uchar16_u *) (drow + x) = convert_uchar16
            (clahe_blend_packed16 (q + xq[0], xtab, width, x, ya, ya1, srow));
        x += 16;
      } else {
        *(__global clahe_uchar8_u *) (drow + x) = convert_uchar8
            (clahe_blend_packed8 (q, xtab, width, x, ya, ya1, srow));
        x += 8;
      }
    }
    for (; x < x1; x++)
      drow[x] = (uchar) clahe_blend_entries (clahe_unpack_quad (q[xtab[4 *
                  width + x] + srow[x]]), as_float (xtab[2 * width + x]),
          as_float (xtab[3 * width + x]), ya, ya1, maxv);
  }
}
#undef QUAD_T

#ifdef GST_CL_VBMI
/* The planar blend (8-bit samples, CPUs with AVX-512 VBMI): a byte
 * permute (vpermi2b) looks up 64 samples in a 128-byte table, so two
 * permutes and a select look up a 256-entry LUT for 64 pixels, where
 * the quad blend gathers the entries of 16. The table in local memory
 * (the quad table's size) holds each cell's four LUTs one after the other
 * as bytes: p[(4 cx + k) bins + v] for k = l1[x1], l1[x2], l2[x1], l2[x2]
 * (clahe_fill_quads' cells). POCL builds for a CPU model that need not
 * name VBMI, so the row functions ask for it with clang's target
 * attribute; the host defines GST_CL_VBMI only where the CPU has it
 * (gstcldevice.c). */
#define CLAHE_VBMI __attribute__ ((target ("avx512vbmi")))
typedef char clahe_v64 __attribute__ ((vector_size (64)));
typedef char clahe_v64_u __attribute__ ((vector_size (64), aligned (1)));
typedef uchar clahe_u64 __attribute__ ((vector_size (64)));

/* The planar table of the pair of rows of tiles (t1, t2) in @q, a cell
 * every @cell bytes: its four LUTs' low bytes, one plane of `bins` after
 * the other, and with @thresholds the four words of each LUT's
 * thresholds after them (the planar blend of 10 bits: the count of its
 * entries below 256, 512 and 768) */
inline void
clahe_fill_planes (__local uchar * q, const __global ushort * lut, int t1,
    int t2, int tiles_x, int bins, int cell, int thresholds)
{
  const __global ushort *l1 = lut + (size_t) t1 * tiles_x * bins;
  const __global ushort *l2 = lut + (size_t) t2 * tiles_x * bins;
  for (int cx = 0; cx <= tiles_x; cx++) {
    const int x1 = max (cx - 1, 0) * bins, x2 = min (cx, tiles_x - 1) * bins;
    const __global ushort *from[4] = { l1 + x1, l1 + x2, l2 + x1, l2 + x2 };
    __local uchar *c = q + cx * cell;
    __local ushort *th = (__local ushort *) (c + 4 * bins);
    for (int j = 0; j < 4; j++) {
      int16 n1 = (int16) (0), n2 = (int16) (0), n3 = (int16) (0);
      for (int v = 0; v < bins; v += 16) {
        const ushort16 e = LOAD_US16 (from[j] + v);
        *(__local gst_cl_uchar16_u *) (c + j * bins + v) = convert_uchar16
            (e & (ushort16) (0xff));
        if (thresholds) {
          n1 -= convert_int16 (e < (ushort16) (256));
          n2 -= convert_int16 (e < (ushort16) (512));
          n3 -= convert_int16 (e < (ushort16) (768));
        }
      }
      if (thresholds) {
        th[4 * j] = (ushort) CLAHE_SUM16 (n1);
        th[4 * j + 1] = (ushort) CLAHE_SUM16 (n2);
        th[4 * j + 2] = (ushort) CLAHE_SUM16 (n3);
      }
    }
  }
}

/* the planar tables of 8 bits (the quad table's size) and of 10 bits */
#define clahe_fill_planes8(q, lut, t1, t2, tiles_x, bins) \
  clahe_fill_planes ((__local uchar *) (q), lut, t1, t2, tiles_x, bins, \
      4 * (bins), 0)
#define clahe_fill_planes16(q, lut, t1, t2, tiles_x, bins) \
  clahe_fill_planes ((__local uchar *) (q), lut, t1, t2, tiles_x, bins, \
      CLAHE_CELL16 (bins), 1)

/* the entries of the 256-byte LUT @t at the 64 samples @s */
inline __attribute__ ((always_inline)) CLAHE_VBMI clahe_v64
clahe_permute_lut (const __local uchar * t, clahe_v64 s)
{
  const __local clahe_v64_u *w = (const __local clahe_v64_u *) t;
  const clahe_v64 lo = __builtin_ia32_vpermi2varqi512 (w[0], s, w[1]);
  const clahe_v64 hi = __builtin_ia32_vpermi2varqi512 (w[2], s, w[3]);
  const clahe_v64 top = s >> 7;

  return (lo & ~top) | (hi & top);
}

/* all ones in the lanes (of 64) from @n on */
inline __attribute__ ((always_inline)) clahe_v64
clahe_lanes_from (int n)
{
  const clahe_v64 iota = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
    33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50,
    51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63
  };
  return iota >= (char) n;
}

/* @a, with @b in the lanes where @m is all ones */
#define CLAHE_MERGE(a, b, m) (((a) & ~(m)) | ((b) & (m)))

/* the lanes (of 64 from x) whose cell is the first one's: xtab's cells
 * never decrease along a row (the 10-bit blend's; for 8 bits a scalar
 * walk to the boundary was faster) */
inline __attribute__ ((always_inline)) int
clahe_first_cell_lanes (const __global uint * xq)
{
  const uint16 c = (uint16) (xq[0]);
  const int16 n = (vload16 (0, xq) == c) + (vload16 (0, xq + 16) == c) +
      (vload16 (0, xq + 32) == c) + (vload16 (0, xq + 48) == c);
  return -CLAHE_SUM16 (n);
}

/* clahe_blend_entries () of column x from the planar table @p */
inline uint
clahe_blend_plane (const __local uchar * p, const __global uint * xtab,
    int width, int x, float ya, float ya1, uint v, int bins)
{
  const __local uchar *c = p + 4 * xtab[4 * width + x] + v;
  return clahe_blend_entries ((float4) (c[0], c[bins], c[2 * bins],
          c[3 * bins]), as_float (xtab[2 * width + x]),
      as_float (xtab[3 * width + x]), ya, ya1, 255);
}

/* bytes 16 k .. 16 k + 15 of @v as uint16, and as floats */
#define CLAHE_BYTES16(v, k) __builtin_convertvector (__builtin_shufflevector \
    ((clahe_u64) (v), (clahe_u64) (v), 16 * (k), 16 * (k) + 1, \
        16 * (k) + 2, 16 * (k) + 3, 16 * (k) + 4, 16 * (k) + 5, \
        16 * (k) + 6, 16 * (k) + 7, 16 * (k) + 8, 16 * (k) + 9, \
        16 * (k) + 10, 16 * (k) + 11, 16 * (k) + 12, 16 * (k) + 13, \
        16 * (k) + 14, 16 * (k) + 15), uint16)
#define CLAHE_PART16(v, k) convert_float16 (CLAHE_BYTES16 (v, k))

/* the blend of 16 columns from x (part k of the block's 64) from their
 * entries @a, @b, @c, @d */
#define CLAHE_BLEND_PART(k) \
  STORE_UC16 (drow + x + 16 * (k), convert_uchar16 (clahe_blend_lanes16 \
          (CLAHE_PART16 (a, k), CLAHE_PART16 (b, k), CLAHE_PART16 (c, k), \
              CLAHE_PART16 (d, k), xtab + 2 * width + x + 16 * (k), \
              xtab + 3 * width + x + 16 * (k), ya, ya1)))

/* the 64 columns from x of a row: their entries from one cell, or from
 * two with a select at the boundary; a block of three cells (tiles
 * narrower than 64 pixels) goes column by column */
inline __attribute__ ((always_inline)) CLAHE_VBMI void
clahe_blend_planes64 (const __local uchar * p, const __global uint * xtab,
    int width, int x, float ya, float ya1, const __global uchar * srow,
    __global uchar * drow, int bins)
{
  const __global uint *xq = xtab + 4 * width + x;
  const clahe_v64 s = *(const __global clahe_v64_u *) (srow + x);
  const uint c0 = xq[0], c1 = xq[63];
  clahe_v64 a, b, c, d;

  a = clahe_permute_lut (p + 4 * c0, s);
  b = clahe_permute_lut (p + 4 * c0 + bins, s);
  c = clahe_permute_lut (p + 4 * c0 + 2 * bins, s);
  d = clahe_permute_lut (p + 4 * c0 + 3 * bins, s);
  if (c0 != c1) {
    clahe_v64 second;
    int n = 1;
    while (xq[n] == c0)
      n++;
    if (xq[n] != c1) {
      for (int i = 0; i < 64; i++)
        drow[x + i] = (uchar) clahe_blend_plane (p, xtab, width, x + i, ya,
            ya1, srow[x + i], bins);
      return;
    }
    second = clahe_lanes_from (n);
    a = CLAHE_MERGE (a, clahe_permute_lut (p + 4 * c1, s), second);
    b = CLAHE_MERGE (b, clahe_permute_lut (p + 4 * c1 + bins, s), second);
    c = CLAHE_MERGE (c, clahe_permute_lut (p + 4 * c1 + 2 * bins, s),
        second);
    d = CLAHE_MERGE (d, clahe_permute_lut (p + 4 * c1 + 3 * bins, s),
        second);
  }
  CLAHE_BLEND_PART (0);
  CLAHE_BLEND_PART (1);
  CLAHE_BLEND_PART (2);
  CLAHE_BLEND_PART (3);
}

/* Row @y's columns x0 .. x1 - 1 from the planar table: rows of at least
 * 64 columns in blocks of 64, the last one overlapping the one before
 * (the same values written twice), narrower ones column by column. Only
 * this function and those it inlines use VBMI: never inlined, it keeps its
 * target where POCL inlines the kernel into its work-group function
 * (built for the CPU model). */
__attribute__ ((noinline)) CLAHE_VBMI void
clahe_blend_planes_row (const __local uchar * p, const __global uint * xtab,
    int width, int x0, int x1, float ya, float ya1,
    const __global uchar * srow, __global uchar * drow, int bins)
{
  if (x1 - x0 < 64) {
    for (int x = x0; x < x1; x++)
      drow[x] = (uchar) clahe_blend_plane (p, xtab, width, x, ya, ya1,
          srow[x], bins);
    return;
  }
  for (int x = x0; x < x1; x += 64) {
    x = min (x, x1 - 64);
    clahe_blend_planes64 (p, xtab, width, x, ya, ya1, srow, drow, bins);
  }
}

/* clahe_blend with the planar table */
#define QUAD_T uint
__kernel void
clahe_blend_planes (const __global uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, CLAHE_BLEND_ARGS,
    __local uint * quads)
{
  CLAHE_QUADS_START;
  for (y = y0; y < y1; y++) {
    CLAHE_QUADS_ROW (y, clahe_fill_planes8);
    clahe_blend_planes_row ((const __local uchar *) q, xtab, width, x0, x1,
        ya, ya1, src + (size_t) y * src_stride, dst + (size_t) y * dst_stride,
        bins);
  }
}
#undef QUAD_T

/* The planar blend of 10 bits (samples in 16-bit words, 1024 levels):
 * each cell holds the low bytes of its four LUTs, one plane of 1024 bytes
 * each, looked up as above a 128-byte segment at a time (eight permutes,
 * each kept where the sample's top bits name its segment), then the three
 * levels t1 <= t2 <= t3 at which each LUT reaches 256, 512 and 768 (4
 * words a LUT, the last unused): a LUT never decreases (a running sum,
 * scaled and rounded), so an entry's high bits are the number of them at
 * or below the sample (three comparisons instead of a second lookup). A
 * cell takes CLAHE_CELL16 bytes, about a quarter of its quad table's
 * place. */
#define CLAHE_CELL16(bins) (4 * (bins) + 64)
typedef ushort clahe_w32 __attribute__ ((vector_size (64)));
typedef ushort clahe_w32_u __attribute__ ((vector_size (64), aligned (2)));
typedef uchar clahe_u32 __attribute__ ((vector_size (32)));

/* the low bytes of the 1024-byte LUT plane @t at the 64 samples whose low
 * bytes are @b and top bits (v >> 7) @top: segment k's where top is k */
inline __attribute__ ((always_inline)) CLAHE_VBMI clahe_v64
clahe_permute_plane16 (const __local uchar * t, clahe_v64 b, clahe_v64 top)
{
  const __local clahe_v64_u *w = (const __local clahe_v64_u *) t;
  clahe_v64 r = b ^ b;
#pragma clang loop unroll(full)
  for (int k = 0; k < 8; k++)
    r |= __builtin_ia32_vpermi2varqi512 (w[2 * k], b, w[2 * k + 1]) &
        (top == (char) k);
  return r;
}

/* the entry of LUT j of cell @c at sample @v, one column */
inline uint
clahe_plane16_entry (const __local uchar * c, int j, uint v, int bins)
{
  const __local ushort *th = (const __local ushort *) (c + 4 * bins) + 4 * j;
  return c[j * bins + v] + 256 * ((v >= th[0]) + (v >= th[1]) + (v >= th[2]));
}

/* clahe_blend_entries () of column x of sample @v from the table @p */
inline uint
clahe_blend_plane16 (const __local uchar * p, const __global uint * xtab,
    int width, int x, float ya, float ya1, uint v, int bins, int maxv)
{
  const __local uchar *c = p + xtab[4 * width + x] / bins *
      CLAHE_CELL16 (bins);
  return clahe_blend_entries ((float4) (clahe_plane16_entry (c, 0, v, bins),
          clahe_plane16_entry (c, 1, v, bins), clahe_plane16_entry (c, 2, v,
              bins), clahe_plane16_entry (c, 3, v, bins)),
      as_float (xtab[2 * width + x]), as_float (xtab[3 * width + x]), ya,
      ya1, maxv);
}

/* lanes 16 k .. 16 k + 15 of the 32-lane @v as uint16 */
#define CLAHE_WORDS16(v, k) __builtin_convertvector (__builtin_shufflevector \
    ((v), (v), 16 * (k), 16 * (k) + 1, 16 * (k) + 2, 16 * (k) + 3, \
        16 * (k) + 4, 16 * (k) + 5, 16 * (k) + 6, 16 * (k) + 7, \
        16 * (k) + 8, 16 * (k) + 9, 16 * (k) + 10, 16 * (k) + 11, \
        16 * (k) + 12, 16 * (k) + 13, 16 * (k) + 14, 16 * (k) + 15), uint16)
#define CLAHE_I32(o) (o), (o) + 1, (o) + 2, (o) + 3, (o) + 4, (o) + 5, \
    (o) + 6, (o) + 7, (o) + 8, (o) + 9, (o) + 10, (o) + 11, (o) + 12, \
    (o) + 13, (o) + 14, (o) + 15, (o) + 16, (o) + 17, (o) + 18, (o) + 19, \
    (o) + 20, (o) + 21, (o) + 22, (o) + 23, (o) + 24, (o) + 25, (o) + 26, \
    (o) + 27, (o) + 28, (o) + 29, (o) + 30, (o) + 31
/* the 64 bytes of two 32-byte vectors */
#define CLAHE_JOIN64(a, b) (clahe_v64) __builtin_shufflevector ((a), (b), \
    CLAHE_I32 (0), CLAHE_I32 (32))

/* the entries (32 words) of a LUT in the 32 lanes of @w (samples) whose
 * low bytes are bytes 32 h .. 32 h + 31 of @lo, its thresholds @t1, @t2,
 * @t3 */
#define CLAHE_ENTRIES32(lo, h, w, t1, t2, t3) \
  (__builtin_convertvector (__builtin_shufflevector ((clahe_u64) (lo), \
          (clahe_u64) (lo), CLAHE_I32 (32 * (h))), clahe_w32) - \
      ((clahe_w32) ((w) >= (t1)) + (clahe_w32) ((w) >= (t2)) + \
          (clahe_w32) ((w) >= (t3))) * (ushort) 256)

/* the blend of the 16 columns of group k from x: lanes 16 (k % 2) .. of
 * the entries e0 .. e3 of half k / 2 */
#define CLAHE_BLEND16_PART(k, e0, e1, e2, e3) \
  STORE_US16 (drow + x + 16 * (k), convert_ushort16 (min \
          (clahe_blend_lanes16 (convert_float16 (CLAHE_WORDS16 (e0, \
                      (k) % 2)), convert_float16 (CLAHE_WORDS16 (e1, \
                      (k) % 2)), convert_float16 (CLAHE_WORDS16 (e2, \
                      (k) % 2)), convert_float16 (CLAHE_WORDS16 (e3, \
                      (k) % 2)), xtab + 2 * width + x + 16 * (k), \
              xtab + 3 * width + x + 16 * (k), ya, ya1), \
          (uint16) (maxv)) << (uint16) (shift)))

/* threshold i (0 .. 2) of LUT j of the cells at @t0 (lanes below n) and
 * @t1 (the others), as the 32 lanes of half h of a block */
inline __attribute__ ((always_inline)) CLAHE_VBMI clahe_w32
clahe_threshold32 (const __local ushort * t0, const __local ushort * t1,
    int j, int i, int h, int n)
{
  const clahe_w32 iota = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
  };
  const clahe_w32 second = (clahe_w32) (iota + (ushort) (32 * h) >=
      (ushort) n);
  return CLAHE_MERGE (t0[4 * j + i], t1[4 * j + i], second);
}

/* LUT j's entries in both halves (e_0, e_1) of the block, from its low
 * bytes l_j */
#define CLAHE_LUT_ENTRIES(j) \
  const clahe_w32 e##j##_0 = CLAHE_ENTRIES32 (l##j, 0, w0, \
      clahe_threshold32 (t0, t1, j, 0, 0, n), \
      clahe_threshold32 (t0, t1, j, 1, 0, n), \
      clahe_threshold32 (t0, t1, j, 2, 0, n)); \
  const clahe_w32 e##j##_1 = CLAHE_ENTRIES32 (l##j, 1, w1, \
      clahe_threshold32 (t0, t1, j, 0, 1, n), \
      clahe_threshold32 (t0, t1, j, 1, 1, n), \
      clahe_threshold32 (t0, t1, j, 2, 1, n))

/* the 64 columns from x of a row of 10-bit samples in 16-bit words, from
 * one cell or two (as clahe_blend_planes64), a block of three
 * column by column */
inline __attribute__ ((always_inline)) CLAHE_VBMI void
clahe_blend16_planes64 (const __local uchar * p, const __global uint * xtab,
    int width, int x, float ya, float ya1, const __global ushort * srow,
    __global ushort * drow, int shift, uint mask, int maxv)
{
  const int bins = 1024;
  const __global uint *xq = xtab + 4 * width + x;
  const __local uchar *p0 = p + xq[0] / bins * CLAHE_CELL16 (bins);
  const __local uchar *p1 = p + xq[63] / bins * CLAHE_CELL16 (bins);
  const __local ushort *t0 = (const __local ushort *) (p0 + 4 * bins);
  const __local ushort *t1 = (const __local ushort *) (p1 + 4 * bins);
  const clahe_w32 w0 = (*(const __global clahe_w32_u *) (srow + x) >>
      shift) & (ushort) mask;
  const clahe_w32 w1 = (*(const __global clahe_w32_u *) (srow + x + 32) >>
      shift) & (ushort) mask;
  const clahe_v64 b = CLAHE_JOIN64 (__builtin_convertvector (w0, clahe_u32),
      __builtin_convertvector (w1, clahe_u32));
  const clahe_v64 top = CLAHE_JOIN64 (__builtin_convertvector (w0 >> 7,
          clahe_u32), __builtin_convertvector (w1 >> 7, clahe_u32));
  clahe_v64 l0, l1, l2, l3;
  int n = 64;

  l0 = clahe_permute_plane16 (p0, b, top);
  l1 = clahe_permute_plane16 (p0 + bins, b, top);
  l2 = clahe_permute_plane16 (p0 + 2 * bins, b, top);
  l3 = clahe_permute_plane16 (p0 + 3 * bins, b, top);
  if (p0 != p1) {
    clahe_v64 second;
    n = clahe_first_cell_lanes (xq);
    if (xq[n] != xq[63]) {
      for (int i = 0; i < 64; i++)
        drow[x + i] = (ushort) (clahe_blend_plane16 (p, xtab, width, x + i,
                ya, ya1, ((uint) srow[x + i] >> shift) & mask, bins,
                maxv) << shift);
      return;
    }
    second = clahe_lanes_from (n);
    l0 = CLAHE_MERGE (l0, clahe_permute_plane16 (p1, b, top), second);
    l1 = CLAHE_MERGE (l1, clahe_permute_plane16 (p1 + bins, b, top), second);
    l2 = CLAHE_MERGE (l2, clahe_permute_plane16 (p1 + 2 * bins, b, top),
        second);
    l3 = CLAHE_MERGE (l3, clahe_permute_plane16 (p1 + 3 * bins, b, top),
        second);
  }
  {
    CLAHE_LUT_ENTRIES (0);
    CLAHE_LUT_ENTRIES (1);
    CLAHE_LUT_ENTRIES (2);
    CLAHE_LUT_ENTRIES (3);
    CLAHE_BLEND16_PART (0, e0_0, e1_0, e2_0, e3_0);
    CLAHE_BLEND16_PART (1, e0_0, e1_0, e2_0, e3_0);
    CLAHE_BLEND16_PART (2, e0_1, e1_1, e2_1, e3_1);
    CLAHE_BLEND16_PART (3, e0_1, e1_1, e2_1, e3_1);
  }
}

/* a row of samples in 16-bit words from the planar table: as
 * clahe_blend_planes_row () */
__attribute__ ((noinline)) CLAHE_VBMI void
clahe_blend16_planes_row (const __local uchar * p,
    const __global uint * xtab, int width, int x0, int x1, float ya,
    float ya1, const __global ushort * srow, __global ushort * drow,
    int shift, uint mask, int bins, int maxv)
{
  if (x1 - x0 < 64) {
    for (int x = x0; x < x1; x++)
      drow[x] = (ushort) (clahe_blend_plane16 (p, xtab, width, x, ya, ya1,
              ((uint) srow[x] >> shift) & mask, bins, maxv) << shift);
    return;
  }
  for (int x = x0; x < x1; x += 64) {
    x = min (x, x1 - 64);
    clahe_blend16_planes64 (p, xtab, width, x, ya, ya1, srow, drow, shift,
        mask, maxv);
  }
}

/* clahe_blend16 with the planar table, at 10 bits (the host checks) */
#define QUAD_T float4
__kernel void
clahe_blend16_planes (const __global uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, CLAHE_BLEND_ARGS,
    __local float4 * quads)
{
  CLAHE_QUADS_START;
  for (y = y0; y < y1; y++) {
    CLAHE_QUADS_ROW (y, clahe_fill_planes16);
    clahe_blend16_planes_row ((const __local uchar *) q, xtab, width, x0,
        x1, ya, ya1, (const __global ushort *) (src + (size_t) y *
            src_stride), (__global ushort *) (dst + (size_t) y * dst_stride),
        shift, mask, bins, maxv);
  }
}
#undef QUAD_T
#undef CLAHE_ENTRIES32
#undef CLAHE_LUT_ENTRIES
#undef CLAHE_BLEND16_PART
#undef CLAHE_JOIN64
#undef CLAHE_I32
#undef CLAHE_WORDS16
#undef CLAHE_BLEND_PART
#undef CLAHE_PART16
#undef CLAHE_BYTES16
#undef CLAHE_MERGE
#undef clahe_fill_planes8
#undef clahe_fill_planes16
#endif

/* clahe_blend16 with the quad table */
#define QUAD_T float4
__kernel void
clahe_blend16_quads (const __global uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, CLAHE_BLEND_ARGS,
    __local float4 * quads)
{
  CLAHE_QUADS_START;
  for (y = y0; y < y1; y++) {
    const __global ushort *srow =
        (const __global ushort *) (src + (size_t) y * src_stride);
    __global ushort *drow = (__global ushort *) (dst + (size_t) y * dst_stride);
    CLAHE_QUADS_ROW (y, clahe_fill_quads);
    for (x = x0; x + 8 <= x1; x += 8)
      STORE_US8 (drow + x, convert_ushort8 (clahe_blend16_quad8 (q, xtab,
                  width, x, ya, ya1, srow, shift, mask, maxv) << shift));
    for (; x < x1; x++)
      drow[x] = (ushort) (clahe_blend_quad (q, xtab, width, x, ya, ya1,
              ((uint) srow[x] >> shift) & mask, maxv) << shift);
  }
}
#undef QUAD_T
#endif

__kernel void
clahe_blend_image (__read_only image2d_t src, __write_only image2d_t dst,
    CLAHE_BLEND_ARGS)
{
  int x0, x1, y0, y1, x, y;
  if (!gst_cl_work_rect (width, height, chunk, rows, &x0, &x1, &y0, &y1))
    return;
  for (y = y0; y < y1; y++) {
    CLAHE_BLEND_ROW (y);
    for (x = x0; x < x1; x++) {
      uint r = clahe_blend_value (l1, l2, xtab, width, x, ya, ya1,
          clahe_load_image (src, x, y, shift, mask), maxv);
      write_imageui (dst, (int2) (x, y), (uint4) (r << shift, 0, 0, 0));
    }
  }
}

/* ------------------------------------------------------------------------ */
/* GPUs, up to 12 bits, buffers: each tile counted by `parts` work-groups   */

/* Slice `part` of `parts` of tile `tile`'s rows, counted by this
 * work-group and added into the tile's histogram `out` (zero before the
 * frame; the tile's LUT, made by clahe_count_parts, zeroes it again for
 * the next): OpenCV's 8x8 grid is 64 tiles, a group each would leave most
 * of a large GPU idle. The group counts into `copies` local tables, item i
 * into table i % copies (a warp's items on a flat area all count one bin,
 * and atomics on one word are serialised), then adds each bin it saw with
 * one global atomic. */
inline void
clahe_count_slice (const __global uchar * src, int stride, int wide,
    int width, int height, int shift, uint mask, int tw, int th,
    int tiles_x, int bins, int tile, int part, int parts,
    __global uint * out, __local uint * hist, int copies)
{
  const int n = (int) get_local_size (0), lid = (int) get_local_id (0);
  const int tx0 = (tile % tiles_x) * tw, ty0 = (tile / tiles_x) * th;
  const int r0 = part * th / parts, rows = (part + 1) * th / parts - r0;
  const int cols = (tw + 3) / 4;
  __local uint *mine = hist + (lid % copies) * bins;

  for (int b = lid; b < bins * copies; b += n)
    hist[b] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  /* four columns an item (one load of 4 samples where they lie in the
   * frame), the slice's rows in turn: item i takes column group i % cols
   * of row i / cols */
  for (int i = lid; i < cols * rows; i += n) {
    const int c = 4 * (i % cols), xp = tx0 + c;
    const int y = clahe_reflect101 (ty0 + r0 + i / cols, height);
    const __global uchar *row = src + (size_t) y * stride;
    if (c + 4 <= tw && xp + 4 <= width) {
      uint4 v;
      if (wide)
        v = (convert_uint4 (vload4 (0, (const __global ushort *) row + xp))
            >> shift) & mask;
      else
        v = convert_uint4 (vload4 (0, row + xp));
      atomic_inc (&mine[v.x]);
      atomic_inc (&mine[v.y]);
      atomic_inc (&mine[v.z]);
      atomic_inc (&mine[v.w]);
    } else {
      for (int k = c; k < min (c + 4, tw); k++) {
        const int x = tx0 + k < width ? tx0 + k :
            clahe_reflect101 (tx0 + k, width);
        atomic_inc (&mine[clahe_load (src, stride, wide, x, y, shift,
                    mask)]);
      }
    }
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < bins; b += n) {
    uint s = 0;
    for (int k = 0; k < copies; k++)
      s += hist[k * bins + b];
    if (s)
      atomic_add (&out[b], s);
  }
}

/* Whether this group is the last of its tile's `parts` to have added its
 * counts (on the tile's counter `done`, left zero for the next frame),
 * for the whole group: each item's adds are made visible before the
 * group counts itself done, as in a reduction's last-block pattern. */
inline int
clahe_last_part (volatile __global uint * done, int parts,
    __local uint * flag)
{
  int last;
  mem_fence (CLK_GLOBAL_MEM_FENCE);
  barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (get_local_id (0) == 0) {
    *flag = atomic_inc (done) == (uint) parts - 1;
    if (*flag)
      atomic_xchg (done, 0);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  last = (int) *flag;
  barrier (CLK_LOCAL_MEM_FENCE);
  return last;
}

/* GPUs, up to 12 bits, buffers: the tiles counted by `parts` work-groups
 * each (clahe_count_slice), then each tile's LUT made by its last group
 * from the histogram (read and zeroed with atomic exchanges: the other
 * groups' adds are atomics too), as clahe_lut makes it from its own
 * count; and the column table. One kernel: a launch and the wait between
 * two kernels less. `hists`: the tiles' histograms, then a counter a
 * tile, all zero before the first frame. */
__kernel void
clahe_count_parts (const __global uchar * src, int stride, int wide,
    int width, int height, int shift, uint mask, int tw, int th,
    int tiles_x, int bins, int parts, __global uint * hists,
    __local uint * hist, int copies, int clip, float lut_scale, int maxv,
    float inv_tw, __global ushort * lut, __global uint * xtab,
    __local uint * scratch, __global ushort * cells)
{
  const int tile = (int) get_group_id (0) / parts;
  const int tiles = (int) get_num_groups (0) / parts;
  volatile __global uint *counts = hists + (size_t) tile * bins;
  __global ushort *tlut = lut + (size_t) tile * bins;

  if (!cells)                   /* the cell blend reads no column table */
    clahe_fill_xtab (xtab, width, inv_tw, tiles_x, bins);
  clahe_count_slice (src, stride, wide, width, height, shift, mask, tw, th,
      tiles_x, bins, tile, (int) get_group_id (0) % parts, parts,
      (__global uint *) counts, hist, copies);
  if (!clahe_last_part (hists + (size_t) tiles * bins + tile, parts,
          scratch))
    return;
  for (int b = (int) get_local_id (0); b < bins;
      b += (int) get_local_size (0))
    hist[b] = atomic_xchg (&counts[b], 0);
  barrier (CLK_LOCAL_MEM_FENCE);
  CLAHE_HIST_TO_LUT (hist, tlut, bins, clip, lut_scale, maxv, scratch,
      cells, tile, tiles, tiles_x);
}

/* clahe_cell () of 4 columns, lane by lane the same operations */
inline int4
clahe_cell4 (int4 p, float inv, int tiles, float4 * a)
{
  const float4 tf = convert_float4 (p) * inv - 0.5f;
  int4 f = convert_int4 (tf);
  f += tf < convert_float4 (f);       /* true is -1 in vector compares */
  *a = tf - convert_float4 (f);
  return clamp (f + 1, 0, tiles);
}

/* clahe_blend_entries () of value v from entry v of its cell's row
 * `crow` (the column's cell at c) */
inline uint
clahe_blend_cell (const __global ushort4 * crow, int c, uint v, float xa,
    float xa1, float ya, float ya1, int maxv)
{
  return clahe_blend_entries (convert_float4 (crow[c + v]), xa, xa1, ya, ya1,
      maxv);
}

/* the n (1 to 4) samples of w into row from x0 */
#define CLAHE_STORE4(row, w) \
  do { \
    if (n == 4) { \
      vstore4 ((w), 0, (row) + x0); \
    } else { \
      (row)[x0] = (w).s0; \
      if (n > 1) \
        (row)[x0 + 1] = (w).s1; \
      if (n > 2) \
        (row)[x0 + 2] = (w).s2; \
    } \
  } while (0)

/* The blend from the cell table (clahe_put_cells): GPUs, up to 12 bits,
 * buffers. A work-item takes 4 columns (one load of 4 samples where they
 * lie in the frame) down `rows` rows, with its columns' cells and weights
 * computed once; OpenCV's operations in its order, as clahe_blend_value ().
 * wide: 16-bit words holding `mask` at bit `shift`, else bytes. */
__kernel void
clahe_blend_cells (const __global uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int wide, int width, int height,
    int shift, uint mask, float inv_tw, float inv_th, int tiles_x,
    int tiles_y, int bins, int maxv, const __global ushort4 * cells,
    int rows)
{
  const int x0 = (int) get_global_id (0) * 4;
  const int y0 = (int) get_global_id (1) * rows;
  const int n = min (width - x0, 4);
  const int4 xs = min ((int4) (x0) + (int4) (0, 1, 2, 3), (int4) (width - 1));
  float4 xa, xa1;
  int4 c;

  if (x0 >= width || y0 >= height)
    return;
  c = clahe_cell4 (xs, inv_tw, tiles_x, &xa) * bins;
  xa1 = 1.0f - xa;
  for (int y = y0; y < min (y0 + rows, height); y++) {
    const __global uchar *srow = src + (size_t) y * src_stride;
    __global uchar *drow = dst + (size_t) y * dst_stride;
    const __global ushort *swords = (const __global ushort *) srow;
    __global ushort *dwords = (__global ushort *) drow;
    float ya, ya1;
    const __global ushort4 *crow = cells + (size_t) clahe_cell (y, inv_th,
        tiles_y, &ya) * (tiles_x + 1) * bins;
    uint4 v, r;
    ya1 = 1.0f - ya;
    if (n == 4)
      v = wide ? (convert_uint4 (vload4 (0, swords + x0)) >> shift) & mask :
          convert_uint4 (vload4 (0, srow + x0));
    else if (wide)
      v = (convert_uint4 ((ushort4) (swords[xs.s0], swords[xs.s1],
                  swords[xs.s2], swords[xs.s3])) >> shift) & mask;
    else
      v = convert_uint4 ((uchar4) (srow[xs.s0], srow[xs.s1], srow[xs.s2],
              srow[xs.s3]));
    r = (uint4) (clahe_blend_cell (crow, c.s0, v.s0, xa.s0, xa1.s0, ya, ya1,
            maxv), clahe_blend_cell (crow, c.s1, v.s1, xa.s1, xa1.s1, ya,
            ya1, maxv), clahe_blend_cell (crow, c.s2, v.s2, xa.s2, xa1.s2,
            ya, ya1, maxv), clahe_blend_cell (crow, c.s3, v.s3, xa.s3,
            xa1.s3, ya, ya1, maxv));
    if (wide)
      CLAHE_STORE4 (dwords, convert_ushort4 (r << shift));
    else
      CLAHE_STORE4 (drow, convert_uchar4 (r));
  }
}
