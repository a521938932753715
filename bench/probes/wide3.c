/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* wide3: the 3x3 binomial of 16-bit planes (P010_10LE's luma, 10 bits at
 * bit 6) on a GPU: the plugin's gaussian3_buffer16 (kernels/gaussian16.cl,
 * its walk over `rows` rows of 8 samples) over its launch shapes, against
 * the candidates of wide3.cl (t8: 8 samples of R rows a work-item, every
 * load at once; t8walk: a walk R rows at a time), and the device's copy of
 * the plane, at 4K and 8K, hot and rotating through more than the L2
 * holds; every output checked against a C reference ("bad": samples that
 * differ). From the project root:
 *
 *     cc -O2 -o /tmp/wide3 bench/probes/wide3.c -lOpenCL
 *     /tmp/wide3 .
 */
#include "probe.h"

/* the binomial of `in` into `ref`: 16-bit samples of 10 bits at bit 6
 * (@wide), else bytes */
static void
reference (int w, int h, int wide)
{
  const unsigned short *s16 = (const unsigned short *) in;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      unsigned sum = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
          int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
          size_t i = (size_t) yy * w + xx;
          sum += (wide ? s16[i] >> 6 : in[i]) * (2 - (dx != 0)) *
              (2 - (dy != 0));
        }
      if (wide)
        ((unsigned short *) ref)[(size_t) y * w + x] =
            (unsigned short) (((sum + 8) >> 4) << 6);
      else
        ref[(size_t) y * w + x] = (unsigned char) ((sum + 8) >> 4);
    }
}

static void
set_int (cl_kernel k, int i, int v)
{
  cl_int a = v;
  clSetKernelArg (k, i, 4, &a);
}

static void
report (const char *name, Launch * L, double best_hot, double best_cold)
{
  double hot, cold;
  clear_dst ();
  timeit_n (L, 0, &hot, &cold, 30, 3);
  printf ("%-34s hot %.4f ms (%3.0f%%)  cold %.4f ms (%3.0f%%) bad %ld\n",
      name, hot, 100 * best_hot / hot, cold, 100 * best_cold / cold,
      check ());
}

/* times @k (a wide3.cl candidate of one word of R rows a work-item: n4
 * words a row, @h rows) in groups of @lx x @ly */
static void
run_words (cl_kernel k, const char *what, int n4, int h, int R, int lx,
    int ly, double best_hot, double best_cold)
{
  Launch L;
  char name[64];
  set_int (k, 1, n4);
  set_int (k, 3, n4);
  set_int (k, 4, n4);
  set_int (k, 5, h);
  L.k = k;
  L.src_arg = 0;
  L.dst_arg = 2;
  L.l[0] = lx;
  L.l[1] = ly;
  L.g[0] = (n4 + lx - 1) / lx * lx;
  L.g[1] = ((h + R - 1) / R + ly - 1) / ly * ly;
  snprintf (name, sizeof (name), "%s R %d L %3dx%d", what, R, lx, ly);
  report (name, &L, best_hot, best_cold);
}

int
main (int argc, char **argv)
{
  open_device ();
  const char *dir = argc > 1 ? argv[1] : ".";
  const char *s1[] = { slurp_at (dir, "kernels/gstclshared.h"),
    slurp_at (dir, "kernels/common.cl"), slurp_at (dir, "kernels/gaussian.cl"),
    slurp_at (dir, "kernels/gaussian16.cl")
  };
  cl_program preal = build (s1, 4, "-cl-std=CL1.2");
  cl_kernel kreal = clCreateKernel (preal, "gaussian3_buffer16", NULL);
  char *cand = slurp_at (dir, "bench/probes/wide3.cl");
  const int rv[] = { 1, 2, 4, 8 };
  cl_kernel kt8[4], kwalk[4], kb16[4], kc16 = NULL;
  for (int i = 0; i < 4; i++) {
    char opts[64];
    snprintf (opts, sizeof (opts), "-cl-std=CL1.2 -DR=%d -DSHIFT=6", rv[i]);
    const char *s2[] = { cand };
    cl_program p = build (s2, 1, opts);
    kt8[i] = clCreateKernel (p, "t8", NULL);
    kwalk[i] = clCreateKernel (p, "t8walk", NULL);
    kb16[i] = clCreateKernel (p, "b16", NULL);
    if (!kc16)
      kc16 = clCreateKernel (p, "copy16", NULL);
  }

  /* 8-bit planes: b16 only, against the copy (the plugin's 8-bit kernels:
   * devbench) */
  struct { const char *n; int w, h; } bcases[] = {
    {"4K GRAY8", 3840, 2160}, {"8K GRAY8", 7680, 4320},
  };
  for (int ci = 0; ci < 2 && !getenv ("PROBE_NO8"); ci++) {
    const int w = bcases[ci].w, h = bcases[ci].h;
    frames_new ((size_t) w * h);
    frames_random (ci + 7);
    frames_upload ();
    reference (w, h, 0);
    printf ("\n== %s (%.1f MB, %d cold pairs)\n", bcases[ci].n, fsize / 1e6,
        nb_cold);
    double best_hot, best_cold;
    time_copies (kc16, &best_hot, &best_cold);
    const int shapes[][2] = { {64, 1}, {128, 1}, {256, 1}, {32, 4} };
    const int n4 = w / 16;
    for (int ri = 0; ri < 4; ri++)
      for (int si = 0; si < 4; si++)
        run_words (kb16[ri], "b16", n4, h, rv[ri], shapes[si][0],
            shapes[si][1], best_hot, best_cold);
    frames_free ();
    fflush (stdout);
  }

  struct { const char *n; int w, h; } cases[] = {
    {"4K P010 luma", 3840, 2160}, {"8K P010 luma", 7680, 4320},
  };
  for (int ci = 0; ci < 2 && !getenv ("PROBE_NO16"); ci++) {
    const int w = cases[ci].w, h = cases[ci].h;
    frames_new ((size_t) w * h * 2);
    srand (ci + 1);
    for (size_t i = 0; i < fsize / 2; i++)
      ((unsigned short *) in)[i] = (unsigned short) ((rand () & 1023) << 6);
    frames_upload ();
    reference (w, h, 1);
    printf ("\n== %s (%.1f MB, %d cold pairs)\n", cases[ci].n, fsize / 1e6,
        nb_cold);
    double best_hot, best_cold;
    time_copies (kc16, &best_hot, &best_cold);
    Launch L;
    char name[64];

    /* the plugin's kernel: chunk 8 (one walk of 8 samples) */
    const int rowsv[] = { 8, 16, 32, 64 }, locv[] = { 64, 128, 256 };
    for (int ri = 0; ri < 4; ri++)
      for (int li = 0; li < 3; li++) {
        const int chunk = 8, rows = rowsv[ri];
        set_int (kreal, 1, 2 * w);
        set_int (kreal, 3, 2 * w);
        set_int (kreal, 4, w);
        set_int (kreal, 5, h);
        set_int (kreal, 6, 1);
        set_int (kreal, 7, -1);
        set_int (kreal, 8, chunk);
        set_int (kreal, 9, rows);
        set_int (kreal, 10, 6);
        set_int (kreal, 11, 0xffc0);
        L.k = kreal;
        L.src_arg = 0;
        L.dst_arg = 2;
        L.l[0] = locv[li];
        L.l[1] = 1;
        L.g[0] = ((w + chunk - 1) / chunk + L.l[0] - 1) / L.l[0] * L.l[0];
        L.g[1] = (h + rows - 1) / rows;
        snprintf (name, sizeof (name), "plugin rows %2d L %3d", rows,
            locv[li]);
        report (name, &L, best_hot, best_cold);
      }

    /* candidates: group shapes 64x1, 32x4, 128x1, 16x8 */
    const int shapes[][2] = { {64, 1}, {32, 4}, {128, 1}, {16, 8}, {256, 1} };
    const int n4 = w / 8;
    for (int ri = 0; ri < 4; ri++)
      for (int si = 0; si < 5; si++)
        run_words (kt8[ri], "t8", n4, h, rv[ri], shapes[si][0],
            shapes[si][1], best_hot, best_cold);
    const int spans[] = { 16, 32, 64 };
    for (int ri = 1; ri < 4; ri++)
      for (int sp = 0; sp < 3; sp++)
        for (int li = 0; li < 2; li++) {
          cl_kernel k = kwalk[ri];
          set_int (k, 1, n4);
          set_int (k, 3, n4);
          set_int (k, 4, n4);
          set_int (k, 5, h);
          set_int (k, 6, spans[sp]);
          L.k = k;
          L.src_arg = 0;
          L.dst_arg = 2;
          L.l[0] = locv[li];
          L.l[1] = 1;
          L.g[0] = (n4 + L.l[0] - 1) / L.l[0] * L.l[0];
          L.g[1] = (h + spans[sp] - 1) / spans[sp];
          snprintf (name, sizeof (name), "t8walk R %d span %2d L %3d",
              rv[ri], spans[sp], locv[li]);
          report (name, &L, best_hot, best_cold);
        }
    frames_free ();
    fflush (stdout);
  }
  return 0;
}
