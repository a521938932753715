/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* histogram: the probe behind clhistogram's GPU kernel. It times, in one
 * run on the first GPU (else any device), the read-only reduction devbench
 * measures analyzers against, the plugin's histogram_tiles
 * (kernels/histogram.cl) as gstclhistogramcount.c launches it and with other
 * group counts, group sizes and copies, and the candidates of histogram.cl,
 * on GRAY8 and 4-byte RGBA (luma; all channels for the plugin's kernel) at
 * 4K and 8K, on three pictures: devbench's gradients with 3 bits of noise,
 * uniform noise, and a flat frame. Sources rotate through more than L2
 * holds. Every histogram is checked against a C count ("bad": levels that
 * differ). Not built by meson; from the project root:
 *
 *     cc -O2 -o /tmp/histogram bench/probes/histogram.c -lOpenCL -lm
 *     /tmp/histogram .        # PROBE_CASES=1: 4K GRAY8 only
 *
 * PROBE_PRIV=1 adds hist_priv (per-lane counters), which ran 2-3x slower
 * than the plugin's kernel on the H100 (2026-11-24). PROBE_GROUPS=1 times
 * only the plugin's configuration over 1 to 32 groups per compute unit
 * (the choice of VEC_GROUPS_PER_CU in gstclhistogramcount.c); the
 * plugin's own figures, with the group its tuner picks, come from devbench
 * (on 2026-11-25 12 groups a CU for 4-byte pixels ran 12 % faster here at
 * 8K and 2-8 % slower in devbench: bench/results/performance-history.md). PROBE_PIPE=1
 * times the plugin's build against builds of other batches over groups
 * per compute unit; with PROBE_HOT=1 also the plugin's on one source
 * and on sources written from the host just before, as devbench's are.
 */
#include "probe.h"

#define LUMA(r, g, b) ((4899u * (r) + 9617u * (g) + 1868u * (b) + 8192u) >> 14)

/* gstclhistogramcount.c's groups per compute unit (VEC_GROUPS_PER_CU) */
#define PLUGIN_GPC 1

static unsigned href[1024], hout[1024];
static cl_mem totals;
static cl_uint n_cu;
static cl_ulong local_max;

/* time_counts () and check_counts () on the totals (probe.h) */
#define time_hist_hot(k, g, l, n, hot) time_counts (k, totals, sizeof hout, \
    g, l, n, hot)
#define time_hist(k, g, l, n) time_hist_hot (k, g, l, n, 0)

/* the arguments of the plugin's histogram_tiles after the source (red,
 * green and blue at bytes 0, 1 and 2) */
static void
set_tiles_args (cl_kernel k, cl_int stride, cl_int units, cl_int h,
    cl_int step, cl_int want, size_t lbytes, cl_int copies, cl_int sixteen)
{
  const cl_int r_off = 0, g_off = 1, b_off = 2;
  clSetKernelArg (k, 1, 4, &stride);
  clSetKernelArg (k, 2, 4, &units);
  clSetKernelArg (k, 3, 4, &h);
  clSetKernelArg (k, 4, 4, &step);
  clSetKernelArg (k, 5, 4, &r_off);
  clSetKernelArg (k, 6, 4, &g_off);
  clSetKernelArg (k, 7, 4, &b_off);
  clSetKernelArg (k, 8, 4, &want);
  clSetKernelArg (k, 9, sizeof (cl_mem), &totals);
  clSetKernelArg (k, 10, lbytes, NULL);
  clSetKernelArg (k, 11, 4, &copies);
  clSetKernelArg (k, 12, 4, &sixteen);
}

/* gstclhistogramcount.c's launch of histogram_tiles: groups of G items, items
 * across a row (at most 64 groups across), per_cu groups a compute unit
 * down the rows */
static void
tiles_launch (size_t items, size_t G, int per_cu, int h, size_t g[2],
    size_t l[2])
{
  size_t gx = (items + G - 1) / G, gy;
  if (gx > 64) gx = 64;
  if (gx < 1) gx = 1;
  gy = per_cu * n_cu / gx;
  if (gy < 1) gy = 1;
  if (gy > (size_t) h) gy = h;
  g[0] = gx * G;
  g[1] = gy;
  l[0] = G;
  l[1] = 1;
}

/* bytes of local tables for `copies` copies of the counted slots */
static size_t
tiles_local_bytes (int copies, int want)
{
  return (size_t) copies * (want == 1 ? 1 : 4) * 256 * 4;
}

/* histogram_tiles built as gstclhistogramcount.c builds it for a format (red,
 * green and blue at bytes 0, 1 and 2), with TILE_BATCH rows a batch */
static cl_kernel
tiles_const_kernel (const char **s1, int step, int want, int copies,
    int sixteen, int batch, cl_program * p)
{
  char opts[320];
  snprintf (opts, sizeof opts, "-cl-std=CL1.2 -DGST_CL_HIST_STEP=%d "
      "-DGST_CL_HIST_R=0 -DGST_CL_HIST_G=1 -DGST_CL_HIST_B=2 "
      "-DGST_CL_HIST_WANT=%d -DGST_CL_HIST_COPIES=%d "
      "-DGST_CL_HIST_SIXTEEN=%d -DTILE_BATCH=%d", step, want, copies,
      sixteen, batch);
  *p = build (s1, 2, opts);
  return clCreateKernel (*p, "histogram_tiles", NULL);
}

#define check_hist(k, g, l, n_levels) check_counts (k, totals, \
    sizeof hout, g, l, href, hout, n_levels)

static void
fill (int pic, int b, int w, int h, int step)
{
  unsigned seed = 12345 + b;
  for (size_t j = 0; j < fsize; j++) {
    size_t x = j % 4096, y = j / 4096;
    seed = seed * 1664525u + 1013904223u;
    in[j] = pic == 0 ? (unsigned char) ((x / 9 + y / 7 + b * 17) + (seed >> 29)) :
        pic == 1 ? (unsigned char) (seed >> 24) : 77;
  }
  (void) w; (void) h; (void) step;
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : ".";
  open_device ();
  clGetDeviceInfo (dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof n_cu, &n_cu, NULL);
  clGetDeviceInfo (dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_max, &local_max, NULL);
  printf ("compute units %u, local memory %lu bytes\n", n_cu, (unsigned long) local_max);
  char *common = slurp_at (dir, "kernels/common.cl");
  char *hist = slurp_at (dir, "kernels/histogram.cl");
  char *probe = slurp_at (dir, "bench/probes/histogram.cl");
  const char *s1[] = { common, hist };
  /* the plugin's kernel with its TILE_BATCH (4) and other batches */
  int batches[] = { 4, 1, 2, 8 };
  cl_kernel kt[4];
  for (int i = 0; i < 4; i++) {
    char opts[64];
    snprintf (opts, sizeof opts, "-cl-std=CL1.2 -DTILE_BATCH=%d", batches[i]);
    kt[i] = clCreateKernel (build (s1, 2, opts), "histogram_tiles", NULL);
  }
  const char *s2[] = { probe };
  cl_program pp0 = build (s2, 1, "-cl-std=CL1.2 -DATOMIC=0");
  cl_program pp1 = build (s2, 1, "-cl-std=CL1.2 -DATOMIC=1");
  cl_kernel kpriv[2] = { clCreateKernel (pp0, "hist_priv", NULL),
    clCreateKernel (pp1, "hist_priv", NULL) };
  cl_kernel kread = clCreateKernel (pp0, "hist_read", NULL);
  cl_kernel kred = clCreateKernel (pp0, "reduce16", NULL);
  totals = clCreateBuffer (ctx, CL_MEM_READ_WRITE, sizeof hout, NULL, NULL);

  struct { const char *n; int w, h, step, want; } cases[] = {
    {"4K GRAY8", 3840, 2160, 1, 1}, {"4K RGBA luma", 3840, 2160, 4, 1},
    {"4K RGBA all", 3840, 2160, 4, 15}, {"8K GRAY8", 7680, 4320, 1, 1},
    {"8K RGBA luma", 7680, 4320, 4, 1}, {"8K RGBA all", 7680, 4320, 4, 15},
  };
  const char *pics[] = { "gradient+noise", "noise", "flat" };
  int ncases = getenv ("PROBE_CASES") ? atoi (getenv ("PROBE_CASES")) : 6;
  int first = getenv ("PROBE_FIRST") ? atoi (getenv ("PROBE_FIRST")) : 0;
  int npics = getenv ("PROBE_PICS") ? atoi (getenv ("PROBE_PICS")) : 3;
  for (int ci = first; ci < ncases; ci++)
    for (int pic = 0; pic < npics; pic++) {
      int w = cases[ci].w, h = cases[ci].h, step = cases[ci].step;
      int want = cases[ci].want, stride = w * step, units = stride;
      fsize = (size_t) stride * h;
      nb_cold = (int) ((400u << 20) / fsize) + 1;
      if (nb_cold > NB) nb_cold = NB;
      in = malloc (fsize);
      for (int b = 0; b < nb_cold; b++) {
        fill (pic, b, w, h, step);
        srcs[b] = clCreateBuffer (ctx, CL_MEM_READ_WRITE, fsize, NULL, NULL);
        clEnqueueWriteBuffer (q, srcs[b], CL_TRUE, 0, fsize, in, 0, NULL, NULL);
        /* the C count of the last frame, which `in` keeps: the one that
         * check_hist reads, and what PROBE_HOT's writes put in every
         * source */
        if (b == nb_cold - 1) {
          memset (href, 0, sizeof href);
          for (size_t p = 0; p < fsize; p += step) {
            if (step == 1) { href[in[p]]++; continue; }
            unsigned r = in[p], g = in[p + 1], bl = in[p + 2];
            href[LUMA (r, g, bl)]++;
            if (want & 2) href[256 + r]++;
            if (want & 4) href[512 + g]++;
            if (want & 8) href[768 + bl]++;
          }
        }
      }
      int n_levels = want == 1 ? 256 : 1024;
      printf ("\n== %s, %s (%.1f MB, %d frames rotating)\n", cases[ci].n, pics[pic],
          fsize / 1e6, nb_cold);

      /* the read-only reduction, as devbench runs it */
      cl_uint n16 = (cl_uint) (fsize / 16);
      size_t gr[2] = { (size_t) n_cu * 8 * 256, 1 }, lr[2] = { 256, 1 };
      clSetKernelArg (kred, 1, 4, &n16);
      clSetKernelArg (kred, 2, sizeof (cl_mem), &totals);
      clSetKernelArg (kred, 3, 256 * 4, NULL);
      double red = time_hist (kred, gr, lr, 20);
      printf ("%-44s %.4f ms  %5.0f GB/s\n", "read-only reduction", red, fsize / red / 1e6);
      double red_hot = time_hist_hot (kred, gr, lr, 20, 1);
      printf ("%-44s %.4f ms  %5.0f GB/s\n", "read-only reduction, one frame (hot)",
          red_hot, fsize / red_hot / 1e6);

      /* the plugin's kernel over groups, groups per compute unit
       * (groups_x = items / group, at most 64; groups_y = per CU x CUs /
       * groups_x), copies and batches; "(plugin)": gstclhistogramcount.c's
       * choice (group 512, 1 per CU, 4 copies, batch 4) */
      int sixteen = step == 1 || step == 4;
      /* work-items across a row, as gstclhistogramcount.c counts them on rows
       * of whole 16-byte vectors (before 2026-11-26 the probe launched
       * one per pixel for 4-byte pixels, three in four of them idle) */
      size_t items = step == 1 ? (w + 15) / 16 : (w + 3) / 4;
      int gsz[] = { 256, 128, 512, 1024 }, cps[] = { 8, 1, 2, 4 };
      int gpc_sweep[] = { 4, 1, 2, 8 }, gpc_more[] = { 1, 2, 4, 8, 12, 16, 24, 32 };
      /* PROBE_GROUPS=1: only the plugin's group (512), copies (4) and batch
       * (4), over more groups per compute unit */
      const int groups_only = getenv ("PROBE_GROUPS") != NULL;
      /* PROBE_CONST=1: only the plugin's configuration, its build against
       * one with the format's arguments as constants (GST_CL_HIST_*),
       * alternated twice */
      if (getenv ("PROBE_CONST")) {
        const int copies = 4;
        cl_program pc;
        cl_kernel kconst = tiles_const_kernel (s1, step, want, copies,
            sixteen, 4, &pc);
        size_t lbytes = tiles_local_bytes (copies, want), g[2], l[2];
        tiles_launch (items, 512, PLUGIN_GPC, h, g, l);
        for (int round = 0; round < 2; round++)
          for (int v = 0; v < 2; v++) {
            cl_kernel kk = v ? kconst : kt[0];
            set_tiles_args (kk, stride, units, h, step, want, lbytes, copies,
                sixteen);
            double t = time_hist (kk, g, l, 30);
            printf ("r%d %-41s %.4f ms  %3.0f%%  bad %d\n", round,
                v ? "plugin's, arguments as constants" : "plugin's", t,
                100 * red / t, check_hist (kk, g, l, n_levels));
          }
        clReleaseKernel (kconst);
        clReleaseProgram (pc);
        free (in);
        goto next;
      }
      /* PROBE_PIPE=1: the plugin's build (constants, batch 4, its groups
       * per CU) against builds of other batches (TILE_BATCH) over groups
       * per CU, alternated twice (the figures of the pipelined walk
       * against the kernel before it: bench/results/performance-history.md) */
      if (getenv ("PROBE_PIPE")) {
        const int copies = 4;
        const int pb[] = { 4, 2, 4, 8 };
        const int pg[] = { 1, 2, 4, 6, 8, 12 };
        cl_kernel kv[4];
        cl_program pv[4];
        for (int i = 0; i < 4; i++)
          kv[i] = tiles_const_kernel (s1, step, want, copies, sixteen, pb[i],
              &pv[i]);
        size_t lbytes = tiles_local_bytes (copies, want);
        for (int round = 0; round < 2; round++)
          for (int i = 0; i < 4; i++)
            /* the plugin's build at its groups a CU, then the others */
            for (int gi = 0; gi < (i == 0 ? 1 : 6); gi++) {
              const int per = i == 0 ? PLUGIN_GPC : pg[gi];
              size_t g[2], l[2];
              tiles_launch (items, 512, per, h, g, l);
              set_tiles_args (kv[i], stride, units, h, step, want, lbytes,
                  copies, sixteen);
              double t = time_hist (kv[i], g, l, 30);
              char name[96];
              snprintf (name, sizeof name, "r%d %s batch %d, %d/CU", round,
                  i ? "tiles" : "plugin's", pb[i], per);
              printf ("%-44s %.4f ms  %3.0f%%  bad %d\n", name, t,
                  100 * red / t, check_hist (kv[i], g, l, n_levels));
              if (i == 0 && getenv ("PROBE_HOT")) {
                for (int hot = 1; hot <= 2; hot++) {
                  double th = time_hist_hot (kv[i], g, l, 30, hot);
                  printf ("r%d plugin's, %-32s %.4f ms  %3.0f%%\n", round,
                      hot == 1 ? "one source (hot)" : "each written first",
                      th, 100 * red / th);
                }
              }
            }
        for (int i = 0; i < 4; i++) {
          clReleaseKernel (kv[i]);
          clReleaseProgram (pv[i]);
        }
        free (in);
        goto next;
      }
      const int *gpc = groups_only ? gpc_more : gpc_sweep;
      for (int bi = 0; bi < (groups_only ? 1 : 4); bi++)
      for (int gi = groups_only ? 2 : 0; gi < (groups_only ? 3 : 4); gi++)
        for (int pi = 0; pi < (groups_only ? 8 : 4); pi++)
          for (int cpi = groups_only ? 3 : 0; cpi < 4; cpi++) {
            cl_kernel ktiles = kt[bi];
            int copies = cps[cpi];
            size_t lbytes = tiles_local_bytes (copies, want), g[2], l[2];
            if (lbytes + 1024 > local_max) continue;
            size_t G = gsz[gi];
            tiles_launch (items, G, gpc[pi], h, g, l);
            set_tiles_args (ktiles, stride, units, h, step, want, lbytes, copies,
                sixteen);
            double t = time_hist (ktiles, g, l, 20);
            if (t < 0) continue;
            char name[96];
            snprintf (name, sizeof name, "tiles G %zu, %d/CU, copies %d, batch %d%s", G,
                gpc[pi], copies, batches[bi],
                batches[bi] == 4 && G == 512 && copies == 4 &&
                gpc[pi] == PLUGIN_GPC ? " (plugin)" : "");
            printf ("%-44s %.4f ms  %3.0f%%  bad %d\n", name, t, 100 * red / t,
                check_hist (ktiles, g, l, n_levels));
          }
      if (want != 1 || groups_only) { free (in); goto next; }

      /* candidates: per-lane 16-bit counters, and the loads alone */
      for (int kk = getenv ("PROBE_PRIV") ? 0 : 2; kk < 3; kk++) {
        cl_kernel k = kk < 2 ? kpriv[kk] : kread;
        int gv[] = { 32, 64, 96, 256 }, pv[] = { 2, 4, 8, 16 };
        for (int gi = 0; gi < 4; gi++)
          for (int pi = 0; pi < 4; pi++) {
            size_t G = gv[gi], lbytes = kk == 2 ? 4 : G * 128 * 4;
            if (lbytes + 1024 > local_max) continue;
            size_t gx = ((step == 1 ? items : (size_t) w) + G - 1) / G; if (gx > 64) gx = 64;
            size_t gy = pv[pi] * n_cu / gx; if (gy < 1) gy = 1; if (gy > (size_t) h) gy = h;
            size_t g[2] = { gx * G, gy }, l[2] = { G, 1 };
            if ((size_t) w * h / (gx * G * gy) >= 65536 / (sixteen ? 1 : 1)) continue;
            cl_int a_stride = stride, a_w = w, a_h = h, a_step = step;
            clSetKernelArg (k, 1, 4, &a_stride);
            clSetKernelArg (k, 2, 4, &a_w);
            clSetKernelArg (k, 3, 4, &a_h);
            clSetKernelArg (k, 4, 4, &a_step);
            clSetKernelArg (k, 5, sizeof (cl_mem), &totals);
            clSetKernelArg (k, 6, lbytes, NULL);
            double t = time_hist (k, g, l, 20);
            if (t < 0) continue;
            char name[96];
            snprintf (name, sizeof name, "%s G %zu, %d/CU", kk == 0 ? "priv" :
                kk == 1 ? "priv atomic" : "loads only", G, pv[pi]);
            if (kk < 2)
              printf ("%-44s %.4f ms  %3.0f%%  bad %d\n", name, t, 100 * red / t,
                  check_hist (k, g, l, 256));
            else
              printf ("%-44s %.4f ms  %3.0f%%\n", name, t, 100 * red / t);
          }
      }
      free (in);
    next:
      for (int b = 0; b < nb_cold; b++)
        clReleaseMemObject (srcs[b]);
      fflush (stdout);
    }
  return 0;
}
