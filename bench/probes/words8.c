/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* words8: the probe behind the GPU 3x3 kernels of 8-byte words
 * (bench/results/performance-history.md, "GPU kernels against the device's copy"). It times,
 * in one run on the first GPU (else any device), clEnqueueCopyBuffer and
 * two copy kernels, the plugin's gaussian3_buffer (kernels/gaussian.cl),
 * and candidate 3x3 kernels of words8.cl: one 32-bit word per work-item
 * (w4), one 8-byte word (w8, the design that landed as gaussian3_words8)
 * and a word with its neighbours through local memory (w4l), over rows per
 * item 1-32 and several work-group shapes, at 4K and 8K GRAY8 and RGBA,
 * with the frames hot in cache and rotating through more than L2 holds;
 * every output is checked against a C reference ("bad": samples that
 * differ). Not built by meson; from the project root:
 *
 *     cc -O2 -o /tmp/words8 bench/probes/words8.c -lOpenCL
 *     /tmp/words8 .            # PROBE_CASES=1: 4K GRAY8 only
 */
#include "probe.h"


static void
reference (int units, int h, int step, int alpha)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < units; x++) {
      const unsigned char *a = in + (size_t) (y > 0 ? y - 1 : 0) * units;
      const unsigned char *b = in + (size_t) y * units;
      const unsigned char *c = in + (size_t) (y + 1 < h ? y + 1 : y) * units;
      int l = x >= step ? x - step : x, r = x + step < units ? x + step : x;
      unsigned s = a[l] + 2 * a[x] + a[r] + 2 * (b[l] + 2 * b[x] + b[r]) +
          c[l] + 2 * c[x] + c[r];
      ref[(size_t) y * units + x] = (alpha >= 0 && x % step == alpha) ? b[x] :
          (unsigned char) ((s + 8) >> 4);
    }
}

int
main (int argc, char **argv)
{
  open_device ();

  const char *dir = argc > 1 ? argv[1] : ".";
  char *common = slurp_at (dir, "kernels/common.cl");
  char *gauss = slurp_at (dir, "kernels/gaussian.cl");
  char *probe = slurp_at (dir, "bench/probes/words8.cl");
  const char *s1[] = { common, gauss };
  cl_program preal = build (s1, 2, "-cl-std=CL1.2");
  const char *s2[] = { probe };
  cl_program pnew = build (s2, 1, "-cl-std=CL1.2");
  cl_kernel kreal = clCreateKernel (preal, "gaussian3_buffer", NULL);
  cl_kernel kw4 = clCreateKernel (pnew, "w4", NULL);
  cl_kernel kw8 = clCreateKernel (pnew, "w8", NULL);
  cl_kernel kw4l = clCreateKernel (pnew, "w4l", NULL);
  cl_kernel kc4 = clCreateKernel (pnew, "copy4", NULL);
  cl_kernel kc16 = clCreateKernel (pnew, "copy16", NULL);

  struct { const char *n; int w, h, step, alpha; } cases[] = {
    {"4K GRAY8", 3840, 2160, 1, -1}, {"8K GRAY8", 7680, 4320, 1, -1},
    {"4K RGBA", 3840, 2160, 4, 3}, {"8K RGBA", 7680, 4320, 4, 3},
  };
  int ncases = getenv ("PROBE_CASES") ? atoi (getenv ("PROBE_CASES")) : 4;
  for (int ci = 0; ci < ncases; ci++) {
    int units = cases[ci].w * cases[ci].step, h = cases[ci].h;
    int step = cases[ci].step, alpha = cases[ci].alpha;
    frames_new ((size_t) units * h);
    frames_random (ci + 1);
    frames_upload ();
    reference (units, h, step, alpha);
    printf ("\n== %s (%.1f MB, %d cold pairs)\n", cases[ci].n, fsize / 1e6, nb_cold);
    double hot, cold, best_hot, best_cold;
    Launch L;
    time_copies (kc16, &best_hot, &best_cold);
    L.k = kc4; L.src_arg = 0; L.dst_arg = 1;
    L.g[0] = fsize / 4; L.g[1] = 1; L.l[0] = 256; L.l[1] = 1;
    timeit_n (&L, 0, &hot, &cold, 30, 3);
    printf ("%-28s hot %.4f ms (%4.0f GB/s)  cold %.4f ms (%4.0f GB/s)\n",
        "copy4", hot, 2 * fsize / hot / 1e6, cold, 2 * fsize / cold / 1e6);
    if (hot < best_hot) best_hot = hot;
    if (cold < best_cold) best_cold = cold;

    /* the plugin's kernel */
    int chunk = 16;
    int rowsv[] = { 1, 2, 4, 8, 16, 32 };
    int locv[] = { 32, 64, 128, 256 };
    for (int ri = 0; ri < 6; ri++)
      for (int li = 0; li < 4; li++) {
        int rows = rowsv[ri];
        cl_int a_units = units, a_h = h, a_step = step, a_alpha = alpha;
        cl_int a_chunk = chunk, a_rows = rows, a_ss = units;
        clSetKernelArg (kreal, 1, 4, &a_ss);
        clSetKernelArg (kreal, 3, 4, &a_ss);
        clSetKernelArg (kreal, 4, 4, &a_units);
        clSetKernelArg (kreal, 5, 4, &a_h);
        clSetKernelArg (kreal, 6, 4, &a_step);
        clSetKernelArg (kreal, 7, 4, &a_alpha);
        clSetKernelArg (kreal, 8, 4, &a_chunk);
        clSetKernelArg (kreal, 9, 4, &a_rows);
        L.k = kreal; L.src_arg = 0; L.dst_arg = 2;
        L.l[0] = locv[li]; L.l[1] = 1;
        L.g[0] = ((units + chunk - 1) / chunk + L.l[0] - 1) / L.l[0] * L.l[0];
        L.g[1] = (h + rows - 1) / rows;
        clear_dst ();
        timeit_n (&L, 0, &hot, &cold, 30, 3);
        printf ("real16 rows %2d L %3d          hot %.4f ms (%3.0f%%)  cold %.4f ms (%3.0f%%) bad %ld\n",
            rows, locv[li], hot, 100 * best_hot / hot, cold, 100 * best_cold / cold, check ());
      }
    /* candidates */
    struct { const char *n; cl_kernel k; int per; int local; } cand[] = {
      {"w4", kw4, 1, 0}, {"w8", kw8, 2, 0}, {"w4l", kw4l, 1, 1},
    };
    int locs2[][2] = { {32, 1}, {64, 1}, {128, 1}, {256, 1}, {32, 4}, {32, 8}, {64, 4} };
    for (int k = 0; k < 3; k++)
      for (int ri = 0; ri < 6; ri++)
        for (int li = 0; li < 7; li++) {
          if (cand[k].local && locs2[li][1] != 1)
            continue;
          int rows = rowsv[ri];
          cl_int nw = units / 4, ssw = units / 4, a_h = h, a_step = step,
              a_rows = rows;
          cl_uint keep = alpha >= 0 ? 0xffu << (8 * alpha) : 0;
          cl_kernel kk = cand[k].k;
          clSetKernelArg (kk, 1, 4, &ssw);
          clSetKernelArg (kk, 3, 4, &ssw);
          clSetKernelArg (kk, 4, 4, &nw);
          clSetKernelArg (kk, 5, 4, &a_h);
          clSetKernelArg (kk, 6, 4, &a_step);
          clSetKernelArg (kk, 7, 4, &keep);
          clSetKernelArg (kk, 8, 4, &a_rows);
          if (cand[k].local)
            clSetKernelArg (kk, 9, (locs2[li][0] + 2) * 4, NULL);
          L.k = kk; L.src_arg = 0; L.dst_arg = 2;
          L.l[0] = locs2[li][0]; L.l[1] = locs2[li][1];
          size_t items = nw / cand[k].per, yits = (h + rows - 1) / rows;
          L.g[0] = (items + L.l[0] - 1) / L.l[0] * L.l[0];
          L.g[1] = (yits + L.l[1] - 1) / L.l[1] * L.l[1];
          clear_dst ();
          timeit_n (&L, 0, &hot, &cold, 30, 3);
          printf ("%-4s rows %2d L %3dx%d         hot %.4f ms (%3.0f%%)  cold %.4f ms (%3.0f%%) bad %ld\n",
              cand[k].n, rows, locs2[li][0], locs2[li][1], hot,
              100 * best_hot / hot, cold, 100 * best_cold / cold, check ());
        }
    frames_free ();
    fflush (stdout);
  }
  return 0;
}
