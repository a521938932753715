/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* laplace: the probe behind the clamp of cllaplace's GPU kernel of 8-byte
 * words (bench/results/performance-history.md, "GPU kernels against the device's copy"). It
 * times, in one run on the first GPU (else any device), clEnqueueCopyBuffer
 * and a copy kernel, the plugin's laplace_words8 (kernels/laplace.cl) at
 * strength 1, sharpening and edges, and the same walk with the candidate
 * clamps of laplace.cl (CLAMP 1: 32-bit min/max on masked lanes, CLAMP 2:
 * ushort vector min/max, the one that landed) in kernels of their own, and
 * the plugin's laplace_words8 and gaussian3_words8 with every helper made
 * always_inline ("inline": no faster), over rows per item 4-8 and groups
 * of 128-256, at 4K and 8K RGBA and GRAY8, with the frames hot and
 * rotating through more than L2 holds, two rounds in alternation; every
 * output is checked
 * against a C reference ("bad": samples that differ). Not built by meson;
 * from the project root:
 *
 *     cc -O2 -o /tmp/laplace bench/probes/laplace.c -lOpenCL
 *     /tmp/laplace .            # PROBE_CASES=1: 4K RGBA only
 */
#include "probe.h"

static int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

static void
reference (int units, int h, int step, int alpha, int edges)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < units; x++) {
      int s = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int yy = clampi (y + dy, 0, h - 1), xx = x + dx * step;
          if (xx < 0 || xx >= units)
            xx = x;
          s += in[(size_t) yy * units + xx];
        }
      int c = in[(size_t) y * units + x], v;
      if (edges)
        v = abs (9 * c - s);
      else
        v = 10 * c - s;
      ref[(size_t) y * units + x] = (alpha >= 0 && x % step == alpha) ? c :
          (unsigned char) clampi (v, 0, 255);
    }
}

static void
reference_g3 (int units, int h, int step, int alpha)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < units; x++) {
      const unsigned char *a = in + (size_t) clampi (y - 1, 0, h - 1) * units;
      const unsigned char *b = in + (size_t) y * units;
      const unsigned char *c = in + (size_t) clampi (y + 1, 0, h - 1) * units;
      int l = x >= step ? x - step : x, r = x + step < units ? x + step : x;
      unsigned v = a[l] + 2 * a[x] + a[r] + 2 * (b[l] + 2 * b[x] + b[r]) +
          c[l] + 2 * c[x] + c[r];
      ref[(size_t) y * units + x] = (alpha >= 0 && x % step == alpha) ? b[x] :
          (unsigned char) ((v + 8) >> 4);
    }
}

/* @src with every "\ninline " made always_inline: whether NVIDIA's
 * compiler leaves helpers as calls in kernels with many copies of the
 * walk */
static char *
all_inline (const char *src)
{
  const char *from = "\ninline ", *to = "\ninline __attribute__ ((always_inline)) ";
  size_t n = 0;
  for (const char *p = strstr (src, from); p; p = strstr (p + 1, from))
    n++;
  char *out = malloc (strlen (src) + n * strlen (to) + 1), *o = out;
  const char *p = src, *f;
  while ((f = strstr (p, from))) {
    memcpy (o, p, f - p);
    o += f - p;
    strcpy (o, to);
    o += strlen (to);
    p = f + strlen (from);
  }
  strcpy (o, p);
  return out;
}

int
main (int argc, char **argv)
{
  open_device ();

  const char *dir = argc > 1 ? argv[1] : ".";
  char *common = slurp_at (dir, "kernels/common.cl");
  char *lap = slurp_at (dir, "kernels/laplace.cl");
  char *probe = slurp_at (dir, "bench/probes/laplace.cl");
  const char *s1[] = { common, lap };
  cl_program preal = build (s1, 2, "-cl-std=CL1.2");
  const char *s2[] = { common, probe };
  cl_program pc1 = build (s2, 2, "-cl-std=CL1.2 -D CLAMP=1");
  cl_program pc2 = build (s2, 2, "-cl-std=CL1.2 -D CLAMP=2");
  char *w8 = slurp_at (dir, "bench/probes/words8.cl");
  const char *s3[] = { w8 };
  cl_program pw = build (s3, 1, "-cl-std=CL1.2");
  const char *s4[] = { all_inline (common), all_inline (lap) };
  cl_program pinl = build (s4, 2, "-cl-std=CL1.2");
  char *gauss = slurp_at (dir, "kernels/gaussian.cl");
  const char *s5[] = { common, gauss };
  cl_program pg = build (s5, 2, "-cl-std=CL1.2");
  const char *s6[] = { all_inline (common), all_inline (gauss) };
  cl_program pgi = build (s6, 2, "-cl-std=CL1.2");
  cl_kernel kreal = clCreateKernel (preal, "laplace_words8", NULL);
  cl_kernel kinl = clCreateKernel (pinl, "laplace_words8", NULL);
  cl_kernel kg[2] = { clCreateKernel (pg, "gaussian3_words8", NULL),
    clCreateKernel (pgi, "gaussian3_words8", NULL) };
  cl_kernel kc16 = clCreateKernel (pw, "copy16", NULL);

  struct { const char *n; int w, h, step, alpha; } cases[] = {
    {"4K RGBA", 3840, 2160, 4, 3}, {"8K RGBA", 7680, 4320, 4, 3},
    {"4K GRAY8", 3840, 2160, 1, -1}, {"8K GRAY8", 7680, 4320, 1, -1},
  };
  int ncases = getenv ("PROBE_CASES") ? atoi (getenv ("PROBE_CASES")) : 4;
  for (int ci = 0; ci < ncases; ci++) {
    int units = cases[ci].w * cases[ci].step, h = cases[ci].h;
    int step = cases[ci].step, alpha = cases[ci].alpha;
    frames_new ((size_t) units * h);
    srand (ci + 1);
    /* a smooth gradient with noise: sharpening both saturates and not */
    for (int y = 0; y < h; y++)
      for (int x = 0; x < units; x++)
        in[(size_t) y * units + x] = (unsigned char) ((x / step + y) / 8 +
            (rand () % 64));
    frames_upload ();
    printf ("\n== %s (%.1f MB, %d cold pairs)\n", cases[ci].n, fsize / 1e6, nb_cold);
    double hot, cold, best_hot, best_cold;
    Launch L;
    time_copies (kc16, &best_hot, &best_cold);

    int rowsv[] = { 4, 8 };
    int locv[] = { 128, 256 };
    cl_kernel kc[2] = {
      clCreateKernel (pc1, step == 4 ? "lap_s4" : "lap_s1", NULL),
      clCreateKernel (pc2, step == 4 ? "lap_s4" : "lap_s1", NULL),
    };
    const char *names[4] = { "real", "clamp1", "clamp2", "inline" };
    for (int edges = 0; edges < 2; edges++) {
      reference (units, h, step, alpha, edges);
      for (int round = 0; round < 2; round++)
        for (int ri = 0; ri < 2; ri++)
          for (int li = 0; li < 2; li++)
            for (int v = 0; v < 4; v++) {
              cl_int a_units = units, a_h = h, a_step = step, a_alpha = alpha;
              cl_int a_rows = rowsv[ri], a_ss = units, a_edges = edges;
              cl_kernel k = v == 0 ? kreal : v == 3 ? kinl : kc[v - 1];
              if (v == 0 || v == 3) {
                cl_int chunk = 8, mode = edges, qq = 16384, sh = 0, mx = 255;
                clSetKernelArg (k, 1, 4, &a_ss);
                clSetKernelArg (k, 3, 4, &a_ss);
                clSetKernelArg (k, 4, 4, &a_units);
                clSetKernelArg (k, 5, 4, &a_h);
                clSetKernelArg (k, 6, 4, &a_step);
                clSetKernelArg (k, 7, 4, &a_alpha);
                clSetKernelArg (k, 8, 4, &chunk);
                clSetKernelArg (k, 9, 4, &a_rows);
                clSetKernelArg (k, 10, 4, &mode);
                clSetKernelArg (k, 11, 4, &qq);
                clSetKernelArg (k, 12, 4, &sh);
                clSetKernelArg (k, 13, 4, &mx);
              } else {
                clSetKernelArg (k, 1, 4, &a_ss);
                clSetKernelArg (k, 3, 4, &a_ss);
                clSetKernelArg (k, 4, 4, &a_units);
                clSetKernelArg (k, 5, 4, &a_h);
                clSetKernelArg (k, 6, 4, &a_alpha);
                clSetKernelArg (k, 7, 4, &a_rows);
                clSetKernelArg (k, 8, 4, &a_edges);
              }
              L.k = k; L.src_arg = 0; L.dst_arg = 2;
              L.l[0] = locv[li]; L.l[1] = 1;
              L.g[0] = ((size_t) units / 8 + L.l[0] - 1) / L.l[0] * L.l[0];
              L.g[1] = (h + a_rows - 1) / a_rows;
              clear_dst ();
              timeit_n (&L, 0, &hot, &cold, 30, 3);
              printf ("%s %-6s rows %d L %3d r%d      hot %.4f ms (%3.0f%%)  cold %.4f ms (%3.0f%%) bad %ld\n",
                  edges ? "edges  " : "sharpen", names[v], a_rows, locv[li],
                  round, hot, 100 * best_hot / hot, cold, 100 * best_cold / cold,
                  check ());
            }
    }
    /* the plugin's gaussian3_words8, as built and all inline */
    reference_g3 (units, h, step, alpha);
    for (int round = 0; round < 2; round++)
      for (int ri = 0; ri < 2; ri++)
        for (int li = 0; li < 2; li++)
          for (int v = 0; v < 2; v++) {
            cl_int a_units = units, a_h = h, a_step = step, a_alpha = alpha;
            cl_int a_rows = rowsv[ri], a_ss = units, chunk = 8;
            cl_kernel k = kg[v];
            clSetKernelArg (k, 1, 4, &a_ss);
            clSetKernelArg (k, 3, 4, &a_ss);
            clSetKernelArg (k, 4, 4, &a_units);
            clSetKernelArg (k, 5, 4, &a_h);
            clSetKernelArg (k, 6, 4, &a_step);
            clSetKernelArg (k, 7, 4, &a_alpha);
            clSetKernelArg (k, 8, 4, &chunk);
            clSetKernelArg (k, 9, 4, &a_rows);
            L.k = k; L.src_arg = 0; L.dst_arg = 2;
            L.l[0] = locv[li]; L.l[1] = 1;
            L.g[0] = ((size_t) units / 8 + L.l[0] - 1) / L.l[0] * L.l[0];
            L.g[1] = (h + a_rows - 1) / a_rows;
            clear_dst ();
            timeit_n (&L, 0, &hot, &cold, 30, 3);
            printf ("gauss3  %-6s rows %d L %3d r%d      hot %.4f ms (%3.0f%%)  cold %.4f ms (%3.0f%%) bad %ld\n",
                v ? "inline" : "real", a_rows, locv[li], round, hot,
                100 * best_hot / hot, cold, 100 * best_cold / cold, check ());
          }
    clReleaseKernel (kc[0]);
    clReleaseKernel (kc[1]);
    frames_free ();
    fflush (stdout);
  }
  return 0;
}
