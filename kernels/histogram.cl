/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* histogram.cl: the histograms of clhistogram: 256 levels for 8-bit
 * formats (first part), 2^D levels for the formats of more than 8 bits
 * (the histogram_deep_* kernels, second part).
 *
 * Every 8-bit kernel counts 8-bit levels of up to four channels, in slots
 * 0 = luma, 1 = red, 2 = green, 3 = blue (the bits of `want`). In strips
 * (CPUs) each work-item writes one partial histogram to
 * partials[(slot * n_units + unit) * 256 + level], which the host (or
 * histogram_reduce, where there are hundreds) adds up; in tiles (GPUs)
 * each work-group adds its local tables atomically into totals[slot * 256
 * + level]. The host keeps 64-bit totals across frames. One-byte pixels (GRAY8,
 * the Y plane) are luma; packed RGB pixels are `step` bytes with red, green
 * and blue at r_off, g_off, b_off, and their luma is OpenCV's RGB2GRAY:
 * (4899 R + 9617 G + 1868 B + 8192) >> 14.
 *
 * CPUs (strips): a work-item counts whole rows into private tables with
 * plain increments, spread over several copies so that a frame of one level
 * does not serialise on one counter; one-byte pixels count pairs instead
 * (histogram_pairs). GPUs (tiles): work-groups count into
 * local tables with atomics, neighbouring work-items on different copies,
 * and stride over rows so that neighbouring items read neighbouring pixels.
 */

#define LUMA(r, g, b) ((4899u * (r) + 9617u * (g) + 1868u * (b) + 8192u) >> 14)

#define GRAY_COPIES 8           /* private copies for one-byte pixels */
#define RGB_COPIES 2            /* private copies per channel for RGB */

/* the packed pixel at p into copy k of the wanted tables of h, n times */
#define COUNT_PIXEL(p, k, n)                                            \
  do {                                                                  \
    const uint r_ = (p)[r_off], g_ = (p)[g_off], b_ = (p)[b_off];       \
    if (want & 1)                                                       \
      h[0 * 512 + (k) + LUMA (r_, g_, b_)] += (n);                      \
    if (want & 2)                                                       \
      h[1 * 512 + (k) + r_] += (n);                                     \
    if (want & 4)                                                       \
      h[2 * 512 + (k) + g_] += (n);                                     \
    if (want & 8)                                                       \
      h[3 * 512 + (k) + b_] += (n);                                     \
  } while (0)

/* rows y0 to y1, samples x0 to x1, of one-byte pixels into the
 * GRAY_COPIES copies of h */
static inline void
strips_count_gray (uint * h, __global const uchar * src, int stride, int x0,
    int x1, int y0, int y1)
{
  for (int y = y0; y < y1; y++) {
    const __global uchar *row = src + (size_t) y * stride;
    int x = x0;
    for (; x + 16 <= x1; x += 16) {
      const uchar16 v = LOAD_UC16 (row + x);
      const ulong2 w = as_ulong2 (v);
      if (w.s0 == w.s1 && w.s0 == (w.s0 & 0xff) * 0x0101010101010101ul) {
        /* sixteen equal pixels */
        h[v.s0] += 16;
        continue;
      }
      h[0 * 256 + v.s0]++; h[1 * 256 + v.s1]++;
      h[2 * 256 + v.s2]++; h[3 * 256 + v.s3]++;
      h[4 * 256 + v.s4]++; h[5 * 256 + v.s5]++;
      h[6 * 256 + v.s6]++; h[7 * 256 + v.s7]++;
      h[0 * 256 + v.s8]++; h[1 * 256 + v.s9]++;
      h[2 * 256 + v.sa]++; h[3 * 256 + v.sb]++;
      h[4 * 256 + v.sc]++; h[5 * 256 + v.sd]++;
      h[6 * 256 + v.se]++; h[7 * 256 + v.sf]++;
    }
    for (; x < x1; x++)
      h[row[x]]++;
  }
}

/* the same for packed pixels of `step` bytes, into the RGB_COPIES copies of
 * each wanted slot's table */
static inline void
strips_count_packed (uint * h, __global const uchar * src, int stride,
    int x0, int x1, int y0, int y1, int step, int r_off, int g_off,
    int b_off, int want)
{
  for (int y = y0; y < y1; y++) {
    const __global uchar *row = src + (size_t) y * stride;
    int k = 0;
    int x = x0;
    /* sixteen equal 4-byte pixels (flat areas: borders, sky, a frozen
     * frame) count as one pixel sixteen times: without it a flat frame
     * increments the same two counters, each increment waiting for the
     * one before */
    if (step == 4) {
      for (; x + 64 <= x1; x += 64) {
        const uint4 a = as_uint4 (LOAD_UC16 (row + x));
        const uint4 b = as_uint4 (LOAD_UC16 (row + x + 16));
        const uint4 c = as_uint4 (LOAD_UC16 (row + x + 32));
        const uint4 d = as_uint4 (LOAD_UC16 (row + x + 48));
        const uint4 same = (uint4) (a.x);
        if (all ((a == same) & (b == same) & (c == same) & (d == same))) {
          COUNT_PIXEL (row + x, k, 16);
          k ^= 256;
          continue;
        }
        for (int i = 0; i < 64; i += 4, k ^= 256)
          COUNT_PIXEL (row + x + i, k, 1);
      }
    }
    for (; x < x1; x += step, k ^= 256)
      COUNT_PIXEL (row + x, k, 1);
  }
}

__kernel void
histogram_strips (__global const uchar * src, int stride, int units,
    int height, int step, int r_off, int g_off, int b_off, int want,
    int chunk, int rows, __global uint * partials, int n_units)
{
  const int unit = get_global_id (1) * get_global_size (0) + get_global_id (0);
  uint h[GRAY_COPIES * 256];
  int x0, x1, y0, y1;

  for (int i = 0; i < GRAY_COPIES * 256; i++)
    h[i] = 0;
  if (unit >= n_units)
    return;

  if (gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1)) {
    if (step == 1)
      strips_count_gray (h, src, stride, x0, x1, y0, y1);
    else
      strips_count_packed (h, src, stride, x0, x1, y0, y1, step, r_off,
          g_off, b_off, want);
  }

  for (int slot = 0; slot < 4; slot++) {
    if (!(want & (1 << slot)))
      continue;
    __global uint *out = partials + ((size_t) slot * n_units + unit) * 256;
    for (int level = 0; level < 256; level++) {
      uint s = 0;
      if (step == 1)
        for (int c = 0; c < GRAY_COPIES; c++)
          s += h[c * 256 + level];
      else
        s = h[slot * 512 + level] + h[slot * 512 + 256 + level];
      out[level] = s;
    }
  }
}

/* One-byte pixels on CPUs (GRAY8, the Y plane): a work-item counts pairs
 * of neighbouring pixels in a table of 65536 counters (index lo + 256 * hi),
 * which halves the increments, the limit of a histogram on a CPU; a run of
 * 16 equal pixels is one addition. The tables live in `tables` (65536
 * counters per work-item, zero on entry) and are folded into 256 levels
 * and zeroed again at the end, while still in cache. */
#define PAIR_AT(w, s) ((uint) ((w) >> (s)) & 0xffffu)

__kernel void
histogram_pairs (__global const uchar * src, int stride, int units,
    int height, int chunk, int rows, __global uint * tables,
    __global uint * partials, int n_units)
{
  const int unit = get_global_id (1) * get_global_size (0) + get_global_id (0);
  uint lo[256];
  int x0, x1, y0, y1;

  if (unit >= n_units)
    return;
  for (int i = 0; i < 256; i++)
    lo[i] = 0;
  __global uint *t = tables + (size_t) unit * 65536;

  if (gst_cl_work_rect (units, height, chunk, rows, &x0, &x1, &y0, &y1)) {
    for (int y = y0; y < y1; y++) {
      const __global uchar *row = src + (size_t) y * stride;
      int x = x0;
      for (; x + 16 <= x1; x += 16) {
        const ulong2 w = as_ulong2 (LOAD_UC16 (row + x));
        const ulong rep = (w.s0 & 0xff) * 0x0101010101010101ul;
        if (w.s0 == rep && w.s1 == rep) {
          t[(uint) (w.s0 & 0xff) * 257u] += 8;
          continue;
        }
        t[PAIR_AT (w.s0, 0)]++;
        t[PAIR_AT (w.s0, 16)]++;
        t[PAIR_AT (w.s0, 32)]++;
        t[PAIR_AT (w.s0, 48)]++;
        t[PAIR_AT (w.s1, 0)]++;
        t[PAIR_AT (w.s1, 16)]++;
        t[PAIR_AT (w.s1, 32)]++;
        t[PAIR_AT (w.s1, 48)]++;
      }
      for (; x + 2 <= x1; x += 2)
        t[row[x] | (row[x + 1] << 8)]++;
      if (x < x1)
        lo[row[x]]++;
    }
  }

  /* fold: counter hi * 256 + lo counts one lo and one hi */
  for (int hi = 0; hi < 256; hi++) {
    __global uint *r = t + hi * 256;
    uint16 rs = (uint16) (0);
    for (int l = 0; l < 256; l += 16) {
      const uint16 c = vload16 (0, r + l);
      rs += c;
      vstore16 (vload16 (0, lo + l) + c, 0, lo + l);
      vstore16 ((uint16) (0), 0, r + l);
    }
    const uint8 a = rs.lo + rs.hi;
    const uint4 b = a.lo + a.hi;
    lo[hi] += b.x + b.y + b.z + b.w;
  }
  __global uint *out = partials + (size_t) unit * 256;
  for (int i = 0; i < 256; i++)
    out[i] = lo[i];
}

/* The partials of n_units units added per slot and level on the device,
 * where there are hundreds of units (work-groups on GPUs): the host then
 * reads 256 totals per slot instead of n_units * 256 partials. One
 * work-item per slot * 256 + level; neighbouring items read neighbouring
 * counters. */
__kernel void
histogram_reduce (__global const uint * partials, int n_units, int want,
    __global uint * totals)
{
  const int i = get_global_id (0);
  const int slot = i >> 8;
  if (i >= 4 * 256 || !(want & (1 << slot)))
    return;
  const __global uint *p = partials + (size_t) slot * n_units * 256 + (i & 255);
  uint s = 0;
  for (int u = 0; u < n_units; u++)
    s += p[(size_t) u * 256];
  totals[i] = s;
}

/* Local tables of tiles: `copies` interleaved copies of 4 slots x 256
 * levels, lh[(slot * 256 + level) * copies + copy]. Neighbouring work-items
 * count into different copies, so that the same level seen by a whole warp
 * (smooth or flat content) spreads over as many counters, each in its own
 * bank. */
inline void
hist_local_clear (__local uint * lh, int copies, int want)
{
  /* a slot's copies are one block of 256 * copies counters: only the
   * counted slots are cleared (one of four for luma) */
  for (int slot = 0; slot < 4; slot++) {
    if (!(want & (1 << slot)))
      continue;
    __local uint *b = lh + slot * 256 * copies;
    for (int i = get_local_id (0); i < 256 * copies; i += get_local_size (0))
      b[i] = 0;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* a pixel's levels (red, green, blue), counted n times in the slots of
 * `want` */
inline void
hist_local_count (__local uint * my, int copies, uint r, uint g, uint b,
    int want, uint n)
{
  if (want & 1)
    atomic_add (&my[LUMA (r, g, b) * copies], n);
  if (want & 2)
    atomic_add (&my[(256 + r) * copies], n);
  if (want & 4)
    atomic_add (&my[(512 + g) * copies], n);
  if (want & 8)
    atomic_add (&my[(768 + b) * copies], n);
}

/* Each work-group adds its counts atomically into one table of 4 slots x
 * 256 levels (zeroed before the frame): with hundreds of groups on a GPU,
 * no partials to write, read back or add up in a second kernel; a level
 * none of the group's pixels had costs nothing, so flat content adds one
 * counter per group. */
inline void
hist_local_add (__local uint * lh, int copies, __global uint * totals,
    int want)
{
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = get_local_id (0); i < 1024; i += get_local_size (0)) {
    const int slot = i >> 8;
    if (!(want & (1 << slot)))
      continue;
    uint s = 0;
    for (int c = 0; c < copies; c++)
      s += lh[i * copies + c];
    if (s)
      atomic_add (&totals[i], s);
  }
}

/* GPUs (tiles): a 2D range whose dimension 1 strides over the rows and
 * dimension 0 over a row, with no division per pixel. One-byte pixels are
 * read four at a time (one 32-bit load where the rows are 4-byte aligned),
 * and four equal ones are one addition. */
/* four one-byte pixels of a word: one addition when they are equal */
inline void
hist_count_word (__local uint * my, int copies, uint w)
{
  const uint b0 = w & 0xff;
  if (w == b0 * 0x01010101u) {
    atomic_add (&my[b0 * copies], 4u);
  } else {
    atomic_inc (&my[b0 * copies]);
    atomic_inc (&my[((w >> 8) & 0xff) * copies]);
    atomic_inc (&my[((w >> 16) & 0xff) * copies]);
    atomic_inc (&my[(w >> 24) * copies]);
  }
}

/* a 4-byte pixel, red, green and blue at bytes r_off, g_off, b_off,
 * counted n times */
inline void
hist_count_pixel4 (__local uint * my, int copies, uint p, int r_off,
    int g_off, int b_off, int want, uint n)
{
  hist_local_count (my, copies, (p >> (8 * r_off)) & 0xff,
      (p >> (8 * g_off)) & 0xff, (p >> (8 * b_off)) & 0xff, want, n);
}

/* 16 bytes of a row: sixteen one-byte pixels or four 4-byte ones; all
 * equal (flat areas) is one addition per slot */
inline void
hist_count_vector (__local uint * my, int copies, uint4 v, int step,
    int r_off, int g_off, int b_off, int want)
{
  if (step == 1) {
    const uint b0 = v.x & 0xff;
    if (all (v == (uint4) (b0 * 0x01010101u))) {
      atomic_add (&my[b0 * copies], 16u);
    } else {
      hist_count_word (my, copies, v.x);
      hist_count_word (my, copies, v.y);
      hist_count_word (my, copies, v.z);
      hist_count_word (my, copies, v.w);
    }
  } else if (all (v == (uint4) (v.x))) {
    hist_count_pixel4 (my, copies, v.x, r_off, g_off, b_off, want, 4);
  } else {
    hist_count_pixel4 (my, copies, v.x, r_off, g_off, b_off, want, 1);
    hist_count_pixel4 (my, copies, v.y, r_off, g_off, b_off, want, 1);
    hist_count_pixel4 (my, copies, v.z, r_off, g_off, b_off, want, 1);
    hist_count_pixel4 (my, copies, v.w, r_off, g_off, b_off, want, 1);
  }
}

/* rows a work-item reads before it counts them, on rows of whole 16-byte
 * vectors: 64 bytes in flight per item instead of 16 */
#ifndef TILE_BATCH
#define TILE_BATCH 4
#endif

/* The column walk of the tiles kernels (8-bit and deeper): vectors of type
 * T at rows get_global_id (1), then get_global_size (1) apart, down to
 * `height`, TILE_BATCH rows at a time: LOAD (v, y) loads the batch of rows
 * from y into v (clamped to the plane), COUNT (e) counts a vector. The
 * next batch's loads are issued before this batch is counted. */
#define HIST_WALK_COLUMN(T, LOAD, COUNT)                                \
  do {                                                                  \
    const int ys_ = get_global_size (1);                                \
    T v_[TILE_BATCH], n_[TILE_BATCH];                                   \
    int y_ = get_global_id (1);                                         \
    if (y_ < height)                                                    \
      LOAD (v_, y_);                                                    \
    for (; y_ < height; y_ += ys_ * TILE_BATCH) {                       \
      const int yn_ = y_ + ys_ * TILE_BATCH;                            \
      if (yn_ < height)                                                 \
        LOAD (n_, yn_);                                                 \
      _Pragma ("unroll")                                                \
      for (int k_ = 0; k_ < TILE_BATCH; k_++)                           \
        if (y_ + k_ * ys_ < height)                                     \
          COUNT (v_[k_]);                                               \
      _Pragma ("unroll")                                                \
      for (int k_ = 0; k_ < TILE_BATCH; k_++)                           \
        v_[k_] = n_[k_];                                                \
    }                                                                   \
  } while (0)

/* TILE_BATCH rows' 16 bytes at x, rows y, y + ys, ... (clamped to the
 * plane) */
inline void
hist_load_batch (uint4 * v, const __global uchar * src, int stride,
    int height, int y, int ys, int x, int vectors)
{
#pragma unroll
  for (int k = 0; k < TILE_BATCH; k++) {
    const __global uchar *p = src + (size_t) min (y + k * ys,
        height - 1) * stride + x;
    v[k] = vectors ? *(const __global uint4 *) p : as_uint4 (vload16 (0, p));
  }
}

/* histogram_tiles' count in 16-byte vectors: each work-item walks down
 * its column of vectors, the next batch's loads issued before this batch
 * is counted; the tail of the rows pixel by pixel */
static inline void
tiles_count_vectors (__local uint * my, int copies,
    __global const uchar * src, int stride, int units, int height, int step,
    int r_off, int g_off, int b_off, int want, int vectors)
{
  const int ys = get_global_size (1);

  for (int x = get_global_id (0) * 16; x < units;
      x += get_global_size (0) * 16) {
    if (x + 16 <= units) {
#define LOAD(v, y) hist_load_batch (v, src, stride, height, y, ys, x, vectors)
#define COUNT(e) hist_count_vector (my, copies, e, step, r_off, g_off, \
    b_off, want)
      HIST_WALK_COLUMN (uint4, LOAD, COUNT);
#undef LOAD
#undef COUNT
    } else {
      for (int y = get_global_id (1); y < height; y += ys) {
        const __global uchar *row = src + (size_t) y * stride;
        for (int i = x; i < units; i += step)
          if (step == 1)
            atomic_inc (&my[row[i] * copies]);
          else
            hist_local_count (my, copies, row[i + r_off], row[i + g_off],
                row[i + b_off], want, 1u);
      }
    }
  }
}

/* histogram_tiles' count of rows whose vectors cannot be read: one-byte
 * pixels four at a time, packed pixels one at a time */
static inline void
tiles_count_pixels (__local uint * my, int copies,
    __global const uchar * src, int stride, int width, int height, int step,
    int r_off, int g_off, int b_off, int want, int words)
{
  for (int y = get_global_id (1); y < height; y += get_global_size (1)) {
    const __global uchar *row = src + (size_t) y * stride;
    if (step == 1) {
      for (int x = get_global_id (0) * 4; x < width;
          x += get_global_size (0) * 4) {
        if (x + 4 <= width) {
          hist_count_word (my, copies, words ?
              *(const __global uint *) (row + x) :
              as_uint (vload4 (0, row + x)));
        } else {
          for (int i = x; i < width; i++)
            atomic_inc (&my[row[i] * copies]);
        }
      }
    } else {
      for (int x = get_global_id (0); x < width; x += get_global_size (0)) {
        const __global uchar *px = row + (size_t) x * step;
        hist_local_count (my, copies, px[r_off], px[g_off], px[b_off],
            want, 1u);
      }
    }
  }
}

/* With `sixteen` (the host sets it for one-byte and 4-byte pixels on rows
 * of whole 16-byte vectors) a work-item walks down a column of 16-byte
 * vectors, TILE_BATCH rows (get_global_size (1) apart) at a time, and
 * loads the next batch before it counts this one. Counting waits for its
 * loads and the next loads wait for the counting (local atomics order
 * the work-item's memory accesses), so keeping the next batch in flight
 * while this one is counted, with one group a compute unit
 * (gstclhistogramcount.c), is what brings the kernel near the read-only
 * reduction on GPUs (bench/probes/histogram.c, PROBE_PIPE; figures in
 * docs/performance.md). */
__kernel void
histogram_tiles (__global const uchar * src, int stride, int units,
    int height, int step, int r_off, int g_off, int b_off, int want,
    __global uint * totals, __local uint * lh, int copies, int sixteen)
{
#ifdef GST_CL_HIST_STEP
  /* a build for one format and launch (gstclhistogramcount.c, TilesBuild): its
   * arguments as constants, so that the branches on them and the tables'
   * addressing fold (measured faster on NVIDIA GPUs:
   * bench/results/performance-history.md) */
  step = GST_CL_HIST_STEP;
  r_off = GST_CL_HIST_R;
  g_off = GST_CL_HIST_G;
  b_off = GST_CL_HIST_B;
  want = GST_CL_HIST_WANT;
  copies = GST_CL_HIST_COPIES;
  sixteen = GST_CL_HIST_SIXTEEN;
#endif
  const int width = units / step;
  const int words = (stride & 3) == 0 && ((size_t) src & 3) == 0;
  const int vectors = (stride & 15) == 0 && ((size_t) src & 15) == 0;
  __local uint *my = lh + get_local_id (0) % copies;

  hist_local_clear (lh, copies, want);
  if (sixteen)
    tiles_count_vectors (my, copies, src, stride, units, height, step,
        r_off, g_off, b_off, want, vectors);
  else
    tiles_count_pixels (my, copies, src, stride, width, height, step, r_off,
        g_off, b_off, want, words);
  hist_local_add (lh, copies, totals, want);
}

/* layout: 0 = one channel (CL_R), 3 = RGB as a CL_R image three texels per
 * pixel, 4 = CL_RGBA */
__kernel void
histogram_image (read_only image2d_t src, int width, int height, int layout,
    int r_off, int g_off, int b_off, int want, __global uint * totals,
    __local uint * lh, int copies)
{
  __local uint *my = lh + get_local_id (0) % copies;

  hist_local_clear (lh, copies, want);
  for (int y = get_global_id (1); y < height; y += get_global_size (1)) {
    for (int x = get_global_id (0); x < width; x += get_global_size (0)) {
      if (layout == 0) {
        const uint v = read_imageui (src, GST_CL_SAMPLER, (int2) (x, y)).x;
        atomic_inc (&my[v * copies]);
      } else if (layout == 3) {
        const uint r = read_imageui (src, GST_CL_SAMPLER,
            (int2) (3 * x + r_off, y)).x;
        const uint g = read_imageui (src, GST_CL_SAMPLER,
            (int2) (3 * x + g_off, y)).x;
        const uint b = read_imageui (src, GST_CL_SAMPLER,
            (int2) (3 * x + b_off, y)).x;
        hist_local_count (my, copies, r, g, b, want, 1u);
      } else {
        const uint4 t = read_imageui (src, GST_CL_SAMPLER, (int2) (x, y));
        const uint c[4] = { t.x, t.y, t.z, t.w };
        hist_local_count (my, copies, c[r_off], c[g_off], c[b_off], want,
            1u);
      }
    }
  }
  hist_local_add (lh, copies, totals, want);
}

/* ------------------------------------------------------------------------ */
/* Formats of more than 8 bits per sample (GRAY16_LE, P010_10LE, RGBA64_LE...)
 *
 * Samples are little-endian 16-bit words holding a value v of `depth` (D)
 * bits at bit `shift`: v = (word >> shift) & (2^D - 1); the other bits are
 * ignored. Every kernel counts all 2^D levels of each counted slot, so that
 * the host derives any number of bins and exact statistics. Counted slots
 * are packed: the n-th bit set in `want` is table n (a luma-only frame
 * counts one table, not four), and every table holds 2^D counters.
 *
 * CPUs (strips): a bounded number of work-items (a few per compute unit)
 * count into tables of their own in `tables` (global memory, zero on
 * entry), `copies` copies per slot so that repeated levels do not
 * serialise on one counter; histogram_deep_reduce then adds them into
 * `totals` and zeroes them for the next frame. GPUs (tiles, images):
 * work-groups count into local tables where they fit (2^10 and 2^12
 * levels), else straight into the totals with global atomics (2^16
 * levels); runs of equal samples are one addition either way.
 */

/* the packed table of slot `slot` among the slots of `want` */
#define DEEP_TABLE(want, slot) popcount ((want) & ((1 << (slot)) - 1))

/* histogram_deep_strips' rectangle of one-sample pixels: 16 words at a
 * time over up to four copies of the table at t */
static inline void
deep_count_gray (__global uint * restrict t, int copies, int depth,
    __global const uchar * restrict src, int stride, int x0, int x1, int y0,
    int y1, int shift, uint mask)
{
  __global uint *t0 = t, *t1 = t + ((size_t) (1 % copies) << depth);
  __global uint *t2 = t + ((size_t) (2 % copies) << depth);
  __global uint *t3 = t + ((size_t) (3 % copies) << depth);

  for (int y = y0; y < y1; y++) {
    const __global ushort *row =
        (const __global ushort *) (src + (size_t) y * stride);
    int x = x0;
    for (; x + 16 <= x1; x += 16) {
      const ushort16 w = LOAD_US16 (row + x);
      const ulong4 q = as_ulong4 (w);
      const ulong rep = (q.s0 & 0xffff) * 0x0001000100010001ul;
      /* sixteen equal words (flat areas): one addition. Compared as four
       * 64-bit words: a comparison of 16-lane vectors costs POCL as much
       * as the counting */
      if (q.s0 == rep && q.s1 == rep && q.s2 == rep && q.s3 == rep) {
        t0[(w.s0 >> shift) & mask] += 16;
        continue;
      }
      const ushort16 v = (w >> (ushort16) (shift)) & (ushort16) (mask);
      t0[v.s0]++; t1[v.s1]++; t2[v.s2]++; t3[v.s3]++;
      t0[v.s4]++; t1[v.s5]++; t2[v.s6]++; t3[v.s7]++;
      t0[v.s8]++; t1[v.s9]++; t2[v.sa]++; t3[v.sb]++;
      t0[v.sc]++; t1[v.sd]++; t2[v.se]++; t3[v.sf]++;
    }
    for (; x < x1; x++)
      t0[(row[x] >> shift) & mask]++;
  }
}

/* a run of `run` equal pixels (r, g, b) into the wanted tables */
static inline void
deep_add_run (__global uint * tl, __global uint * tr, __global uint * tg,
    __global uint * tb, int want, uint r, uint g, uint b, uint run)
{
  if (want & 1)
    tl[LUMA (r, g, b)] += run;
  if (want & 2)
    tr[r] += run;
  if (want & 4)
    tg[g] += run;
  if (want & 8)
    tb[b] += run;
}

/* histogram_deep_strips' rectangle of packed RGB pixels (RGBA64_LE), one
 * copy per slot: a run of equal pixels is counted once, when it ends */
static inline void
deep_count_packed (__global uint * restrict t, int copies, int depth,
    __global const uchar * restrict src, int stride, int x0, int x1, int y0,
    int y1, int step, int r_off, int g_off, int b_off, int want, int shift,
    uint mask)
{
  __global uint *tl = t + ((size_t) DEEP_TABLE (want, 0) * copies << depth);
  __global uint *tr = t + ((size_t) DEEP_TABLE (want, 1) * copies << depth);
  __global uint *tg = t + ((size_t) DEEP_TABLE (want, 2) * copies << depth);
  __global uint *tb = t + ((size_t) DEEP_TABLE (want, 3) * copies << depth);

  for (int y = y0; y < y1; y++) {
    const __global ushort *row =
        (const __global ushort *) (src + (size_t) y * stride);
    uint pr = 0, pg = 0, pb = 0, run = 0;
    for (int x = x0; x < x1; x += step) {
      const uint r = (row[x + r_off] >> shift) & mask;
      const uint g = (row[x + g_off] >> shift) & mask;
      const uint b = (row[x + b_off] >> shift) & mask;
      if (run && r == pr && g == pg && b == pb) {
        run++;
        continue;
      }
      if (run)
        deep_add_run (tl, tr, tg, tb, want, pr, pg, pb, run);
      pr = r;
      pg = g;
      pb = b;
      run = 1;
    }
    if (run)
      deep_add_run (tl, tr, tg, tb, want, pr, pg, pb, run);
  }
}

__kernel void
histogram_deep_strips (__global const uchar * restrict src, int stride,
    int units, int height, int step, int r_off, int g_off, int b_off,
    int want, int depth, int shift, int chunk, int rows, int n_cols,
    int n_rects, __global uint * restrict tables, int n_units, int copies)
{
  const int unit = get_global_id (0);
  const uint mask = (1u << depth) - 1;
  const int n_tables = popcount (want);

  if (unit >= n_units)
    return;
  /* this work-item's tables: slot table s, copy c at t + ((s * copies + c)
   * << depth); copies is 1, 2 or 4 */
  __global uint *t = tables + (((size_t) unit * n_tables * copies) << depth);

  /* rectangles of chunk samples x rows, taken in turn by the n_units
   * work-items, so that any tuning uses n_units tables */
  for (int r = unit; r < n_rects; r += n_units) {
    const int x0 = (r % n_cols) * chunk, y0 = (r / n_cols) * rows;
    const int x1 = min (x0 + chunk, units), y1 = min (y0 + rows, height);

    if (step == 1)
      deep_count_gray (t, copies, depth, src, stride, x0, x1, y0, y1, shift,
          mask);
    else
      deep_count_packed (t, copies, depth, src, stride, x0, x1, y0, y1, step,
          r_off, g_off, b_off, want, shift, mask);
  }
}

/* The tables of histogram_deep_strips added into totals[(table << depth) +
 * level] and zeroed for the next frame. Work-item i takes `span` vectors
 * of 16 levels (16-byte aligned) from vector i * span on, across every
 * unit and copy: a few dozen work-items for 2^16 levels, one for 2^10. */
__kernel void
histogram_deep_reduce (__global uint16 * tables, int n_units, int n_tables,
    int copies, int depth, int span, __global uint16 * totals)
{
  const int per_table = (1 << depth) / 16;
  const int end = min ((int) (get_global_id (0) + 1) * span,
      n_tables * per_table);

  for (int i = get_global_id (0) * span; i < end; i++) {
    const int table = i / per_table, level = i % per_table;
    uint16 s = (uint16) (0);
    for (int u = 0; u < n_units; u++)
      for (int c = 0; c < copies; c++) {
        __global uint16 *p = tables + ((size_t) (u * n_tables + table) *
            copies + c) * per_table + level;
        s += *p;
        *p = (uint16) (0);
      }
    totals[i] = s;
  }
}

/* GPUs: n counts of level v of packed table `table`, into the local tables
 * (interleaved copies, lh[((table << depth) + v) * copies + copy]) when
 * `copies` > 0, else into the totals. */
inline void
deep_add (__local uint * my, int copies, __global uint * totals, int table,
    int depth, uint v, uint n)
{
  const uint i = ((uint) table << depth) + v;
  if (copies)
    atomic_add (&my[i * copies], n);
  else
    atomic_add (&totals[i], n);
}

inline void
deep_add_rgb (__local uint * my, int copies, __global uint * totals,
    int want, int depth, uint r, uint g, uint b, uint n)
{
  if (want & 1)
    deep_add (my, copies, totals, 0, depth, LUMA (r, g, b), n);
  if (want & 2)
    deep_add (my, copies, totals, DEEP_TABLE (want, 1), depth, r, n);
  if (want & 4)
    deep_add (my, copies, totals, DEEP_TABLE (want, 2), depth, g, n);
  if (want & 8)
    deep_add (my, copies, totals, DEEP_TABLE (want, 3), depth, b, n);
}

inline void
deep_local_clear (__local uint * lh, int copies, int n)
{
  for (int i = get_local_id (0); i < n * copies; i += get_local_size (0))
    lh[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* the local tables added into the totals (levels a group did not see cost
 * nothing) */
inline void
deep_local_add (__local uint * lh, int copies, int n, __global uint * totals)
{
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = get_local_id (0); i < n; i += get_local_size (0)) {
    uint s = 0;
    for (int c = 0; c < copies; c++)
      s += lh[i * copies + c];
    if (s)
      atomic_add (&totals[i], s);
  }
}

/* eight samples of a 16-byte vector into table 0: one addition when they
 * are equal (flat areas) */
inline void
deep_add_vector (__local uint * my, int copies, __global uint * totals,
    int depth, int shift, uint mask, ushort8 w)
{
  const ushort8 v = (w >> (ushort8) (shift)) & (ushort8) (mask);
  if (all (v == (ushort8) (v.s0))) {
    deep_add (my, copies, totals, 0, depth, v.s0, 8);
  } else {
    deep_add (my, copies, totals, 0, depth, v.s0, 1);
    deep_add (my, copies, totals, 0, depth, v.s1, 1);
    deep_add (my, copies, totals, 0, depth, v.s2, 1);
    deep_add (my, copies, totals, 0, depth, v.s3, 1);
    deep_add (my, copies, totals, 0, depth, v.s4, 1);
    deep_add (my, copies, totals, 0, depth, v.s5, 1);
    deep_add (my, copies, totals, 0, depth, v.s6, 1);
    deep_add (my, copies, totals, 0, depth, v.s7, 1);
  }
}

/* TILE_BATCH rows' 8 samples at x, rows y, y + ys, ... (clamped to the
 * plane), in one 16-byte load each where the rows are 16-byte aligned */
inline void
deep_load_batch (ushort8 * v, const __global uchar * src, int stride,
    int height, int y, int ys, int x, int vectors)
{
#pragma unroll
  for (int k = 0; k < TILE_BATCH; k++) {
    const __global ushort *p = (const __global ushort *) (src + (size_t)
        min (y + k * ys, height - 1) * stride) + x;
    v[k] = vectors ? as_ushort8 (*(const __global uint4 *) p) :
        vload8 (0, p);
  }
}

/* histogram_deep_tiles on one-sample planes: each work-item walks down its
 * column of 8-sample vectors, TILE_BATCH rows at a time, the next batch's
 * loads issued before this batch is counted (as tiles_count_vectors does
 * for 8 bits); the tail of the rows sample by sample */
static inline void
deep_tiles_walk (__local uint * my, int copies, __global uint * totals,
    __global const uchar * src, int stride, int units, int height,
    int depth, int shift, uint mask, int vectors)
{
  const int ys = get_global_size (1);

  for (int x = get_global_id (0) * 8; x < units;
      x += get_global_size (0) * 8) {
    if (x + 8 <= units) {
#define LOAD(v, y) deep_load_batch (v, src, stride, height, y, ys, x, vectors)
#define COUNT(e) deep_add_vector (my, copies, totals, depth, shift, mask, e)
      HIST_WALK_COLUMN (ushort8, LOAD, COUNT);
#undef LOAD
#undef COUNT
    } else {
      for (int y = get_global_id (1); y < height; y += ys) {
        const __global ushort *row =
            (const __global ushort *) (src + (size_t) y * stride);
        for (int i = x; i < units; i++)
          deep_add (my, copies, totals, 0, depth, (row[i] >> shift) & mask,
              1);
      }
    }
  }
}

/* histogram_deep_tiles on RGB pixels: dimension 0 across a row, a pixel a
 * work-item, dimension 1 striding over the rows */
static inline void
deep_tiles_rgb (__local uint * my, int copies, __global uint * totals,
    __global const uchar * src, int stride, int units, int height, int step,
    int r_off, int g_off, int b_off, int want, int depth, int shift,
    uint mask)
{
  for (int y = get_global_id (1); y < height; y += get_global_size (1)) {
    const __global ushort *row =
        (const __global ushort *) (src + (size_t) y * stride);
    for (int x = get_global_id (0) * step; x < units;
        x += get_global_size (0) * step)
      deep_add_rgb (my, copies, totals, want, depth,
          (row[x + r_off] >> shift) & mask,
          (row[x + g_off] >> shift) & mask,
          (row[x + b_off] >> shift) & mask, 1);
  }
}

/* GPUs (tiles): work-groups count into local tables (`copies` 0: none,
 * straight into the totals); one-sample planes walk down columns
 * (deep_tiles_walk), RGB pixels stride over the rows (deep_tiles_rgb). */
__kernel void
histogram_deep_tiles (__global const uchar * src, int stride, int units,
    int height, int step, int r_off, int g_off, int b_off, int want,
    int depth, int shift, __global uint * totals, __local uint * lh,
    int copies)
{
  const uint mask = (1u << depth) - 1;
  const int n = popcount (want) << depth;
  const int vectors = (stride & 15) == 0 && ((size_t) src & 15) == 0;
  __local uint *my = lh + (copies ? get_local_id (0) % copies : 0);

  if (copies)
    deep_local_clear (lh, copies, n);
  if (step == 1)
    deep_tiles_walk (my, copies, totals, src, stride, units, height, depth,
        shift, mask, vectors);
  else
    deep_tiles_rgb (my, copies, totals, src, stride, units, height, step,
        r_off, g_off, b_off, want, depth, shift, mask);
  if (copies)
    deep_local_add (lh, copies, n, totals);
}

/* Images of 16-bit channels (read_imageui returns the stored words):
 * layout 0 = CL_R, 4 = CL_RGBA. */
__kernel void
histogram_deep_image (read_only image2d_t src, int width, int height,
    int layout, int r_off, int g_off, int b_off, int want, int depth,
    int shift, __global uint * totals, __local uint * lh, int copies)
{
  const uint mask = (1u << depth) - 1;
  const int n = popcount (want) << depth;
  __local uint *my = lh + (copies ? get_local_id (0) % copies : 0);

  if (copies)
    deep_local_clear (lh, copies, n);
  for (int y = get_global_id (1); y < height; y += get_global_size (1)) {
    for (int x = get_global_id (0); x < width; x += get_global_size (0)) {
      const uint4 t = (read_imageui (src, GST_CL_SAMPLER, (int2) (x, y)) >>
          (uint4) (shift)) & (uint4) (mask);
      if (layout == 0) {
        deep_add (my, copies, totals, 0, depth, t.x, 1);
      } else {
        const uint c[4] = { t.x, t.y, t.z, t.w };
        deep_add_rgb (my, copies, totals, want, depth, c[r_off], c[g_off],
            c[b_off], 1);
      }
    }
  }
  if (copies)
    deep_local_add (lh, copies, n, totals);
}
