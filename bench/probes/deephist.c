/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* deephist: the probe behind clhistogram's GPU count of one-sample planes of
 * more than 8 bits (issue 37: the P010_10LE histogram at 53-67 % of the
 * read-only reduction on the H100 and H200, where the 8-bit ones reach
 * 80-100 %). It times, in one run on the first GPU (else any device):
 *
 * - the read-only reduction devbench measures analyzers against;
 * - the plugin's histogram_deep_tiles (kernels/histogram.cl) as
 *   gstclhistogramdeep.c launches it on such planes (the column walk: 512
 *   work-items a group, WALK_ITEMS_PER_CU = 512 a compute unit, 4 copies of
 *   the local tables where 32 KiB hold them), "(plugin)", then with other
 *   copies and work-items a compute unit;
 * - the candidates of deephist.cl: the same walk counting into 16-bit
 *   counters packed two a word (twice the copies in the same local
 *   memory), and the walk without its atomics (what the loads cost alone).
 *
 * on the luma of 10-bit (P010_10LE: the level in bits 6..15) and 12-bit
 * (I420_12LE: bits 0..11) frames at 4K and 8K, on three pictures:
 * devbench's gradient with 3 bits of noise, uniform noise, a flat frame.
 * Sources rotate through more than L2 holds. Every histogram is checked
 * against a C count ("bad": levels that differ). Not built by meson's
 * default; from the project root:
 *
 *     cc -O2 -o /tmp/deephist bench/probes/deephist.c -lOpenCL
 *     /tmp/deephist .
 *
 * PROBE_FIRST=i PROBE_CASES=n: cases i to n - 1 only (0: 4K 10-bit, 1: 8K
 * 10-bit, 2: 4K 12-bit, 3: 8K 12-bit); PROBE_PICS=1: the gradient only.
 */
#include "probe.h"

/* gstclhistogramdeep.c's walk: group, work-items a compute unit, copies,
 * local bytes */
#define WALK_GROUP 512
#define WALK_ITEMS_PER_CU 512
#define WALK_COPIES 4
#define DEEP_LOCAL_BYTES 32768

static unsigned *href, *hout;
static cl_mem totals;
static cl_uint n_cu;
static cl_ulong local_max;

/* time_counts () and check_counts () (probe.h) on the @levels totals */
#define time_hist(k, g, l, n, levels) time_counts (k, totals, (levels) * 4, \
    g, l, n, 0)
#define check_hist(k, g, l, levels) check_counts (k, totals, (levels) * 4, \
    g, l, href, hout, levels)

/* the walk's launch: @per_cu work-items a compute unit, as
 * gstclhistogramdeep.c computes it for WALK_ITEMS_PER_CU */
static void
walk_launch (size_t items, int per_cu, int h, size_t g[2], size_t l[2])
{
  size_t gx = (items + WALK_GROUP - 1) / WALK_GROUP, gy;
  if (gx > 64)
    gx = 64;
  gy = (size_t) per_cu * n_cu / (gx * WALK_GROUP);
  if (gy < 1)
    gy = 1;
  if (gy > (size_t) h)
    gy = h;
  g[0] = gx * WALK_GROUP;
  g[1] = gy;
  l[0] = WALK_GROUP;
  l[1] = 1;
}

/* the most samples one copy of a group's tables can count in the walk
 * launched as @g (groups of WALK_GROUP): a group's busiest copy takes
 * ceil (items of the group / copies) work-items, of 8 samples a row and
 * ceil (rows / g[1]) rows each */
static size_t
copy_samples (size_t items, int h, const size_t g[2], int copies)
{
  const size_t busy = items < WALK_GROUP ? items : WALK_GROUP;
  return (busy + copies - 1) / copies * 8 * ((h + g[1] - 1) / g[1]);
}

/* picture @pic of frame @b: 16-bit words holding a @depth-bit level at
 * bit @shift; the C count of the last frame into href */
static void
fill (int pic, int b, int w, int h, int depth, int shift)
{
  unsigned short *s = (unsigned short *) in;
  const unsigned mask = (1u << depth) - 1;
  unsigned seed = 12345 + b;
  for (size_t j = 0; j < (size_t) w * h; j++) {
    size_t x = j % w, y = j / w;
    unsigned v;
    seed = seed * 1664525u + 1013904223u;
    v = pic == 0 ? (unsigned) (x / 9 + y / 7 + b * 17) + (seed >> 29) :
        pic == 1 ? seed >> 8 : 300;
    s[j] = (unsigned short) ((v & mask) << shift);
  }
  memset (href, 0, sizeof (unsigned) << depth);
  for (size_t j = 0; j < (size_t) w * h; j++)
    href[(s[j] >> shift) & mask]++;
}

static void
set_args (cl_kernel k, int plugin, cl_int stride, cl_int units, cl_int h,
    cl_int depth, cl_int shift, size_t lbytes, cl_int copies)
{
  int a = 1;
  const cl_int one = 1, zero = 0;
  clSetKernelArg (k, a++, 4, &stride);
  clSetKernelArg (k, a++, 4, &units);
  clSetKernelArg (k, a++, 4, &h);
  if (plugin) {                 /* step, r_off, g_off, b_off, want */
    clSetKernelArg (k, a++, 4, &one);
    clSetKernelArg (k, a++, 4, &zero);
    clSetKernelArg (k, a++, 4, &zero);
    clSetKernelArg (k, a++, 4, &zero);
    clSetKernelArg (k, a++, 4, &one);
  }
  clSetKernelArg (k, a++, 4, &depth);
  clSetKernelArg (k, a++, 4, &shift);
  clSetKernelArg (k, a++, sizeof (cl_mem), &totals);
  clSetKernelArg (k, a++, lbytes, NULL);
  if (plugin)
    clSetKernelArg (k, a++, 4, &copies);
}

/* deephist.cl's deep_walk built with @copies, @packed, @count */
static cl_kernel
walk_kernel (const char *src, int copies, int packed, int count)
{
  char opts[128];
  const char *s[] = { src };
  snprintf (opts, sizeof opts, "-cl-std=CL1.2 -DCOPIES=%d -DPACKED=%d "
      "-DCOUNT=%d", copies, packed, count);
  return clCreateKernel (build (s, 1, opts), "deep_walk", NULL);
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : ".";
  open_device ();
  clGetDeviceInfo (dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof n_cu, &n_cu,
      NULL);
  clGetDeviceInfo (dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_max,
      &local_max, NULL);
  printf ("compute units %u, local memory %lu bytes\n", n_cu,
      (unsigned long) local_max);
  const char *s1[] = { slurp_at (dir, "kernels/common.cl"),
    slurp_at (dir, "kernels/histogram.cl")
  };
  cl_kernel kplug = clCreateKernel (build (s1, 2, "-cl-std=CL1.2"),
      "histogram_deep_tiles", NULL);
  const char *s2[] = { slurp_at (dir, "bench/probes/histogram.cl") };
  cl_kernel kred = clCreateKernel (build (s2, 1, "-cl-std=CL1.2 -DATOMIC=0"),
      "reduce16", NULL);
  char *cand = slurp_at (dir, "bench/probes/deephist.cl");
  href = calloc (65536, sizeof (unsigned));
  hout = calloc (65536, sizeof (unsigned));
  totals = clCreateBuffer (ctx, CL_MEM_READ_WRITE, 65536 * 4, NULL, NULL);

  struct { const char *n; int w, h, depth, shift; } cases[] = {
    {"4K 10-bit (P010_10LE luma)", 3840, 2160, 10, 6},
    {"8K 10-bit (P010_10LE luma)", 7680, 4320, 10, 6},
    {"4K 12-bit (I420_12LE luma)", 3840, 2160, 12, 0},
    {"8K 12-bit (I420_12LE luma)", 7680, 4320, 12, 0},
  };
  const char *pics[] = { "gradient+noise", "noise", "flat" };
  int ncases = getenv ("PROBE_CASES") ? atoi (getenv ("PROBE_CASES")) : 4;
  int npics = getenv ("PROBE_PICS") ? atoi (getenv ("PROBE_PICS")) : 3;
  int first = getenv ("PROBE_FIRST") ? atoi (getenv ("PROBE_FIRST")) : 0;
  for (int ci = first; ci < ncases; ci++)
    for (int pic = 0; pic < npics; pic++) {
      const int w = cases[ci].w, h = cases[ci].h, depth = cases[ci].depth;
      const int shift = cases[ci].shift, stride = 2 * w;
      const size_t levels = (size_t) 1 << depth, table = levels * 4;
      const size_t items = (size_t) w / 8;
      size_t g[2], l[2];
      fsize = (size_t) stride * h;
      nb_cold = (int) ((400u << 20) / fsize) + 1;
      if (nb_cold > NB)
        nb_cold = NB;
      in = malloc (fsize);
      for (int b = 0; b < nb_cold; b++) {
        fill (pic, b, w, h, depth, shift);
        srcs[b] = clCreateBuffer (ctx, CL_MEM_READ_WRITE, fsize, NULL, NULL);
        clEnqueueWriteBuffer (q, srcs[b], CL_TRUE, 0, fsize, in, 0, NULL,
            NULL);
      }
      printf ("\n== %s, %s (%.1f MB, %d frames rotating)\n", cases[ci].n,
          pics[pic], fsize / 1e6, nb_cold);

      /* the read-only reduction, as devbench runs it */
      cl_uint n16 = (cl_uint) (fsize / 16);
      size_t gr[2] = { (size_t) n_cu * 8 * 256, 1 }, lr[2] = { 256, 1 };
      clSetKernelArg (kred, 1, 4, &n16);
      clSetKernelArg (kred, 2, sizeof (cl_mem), &totals);
      clSetKernelArg (kred, 3, 256 * 4, NULL);
      double red = time_hist (kred, gr, lr, 20, 1);
      printf ("%-46s %.4f ms  %5.0f GB/s\n", "read-only reduction", red,
          fsize / red / 1e6);

      /* the plugin's kernel: its copies first, then the others, and
       * other work-items a compute unit */
      const int plug_copies = DEEP_LOCAL_BYTES / table < WALK_COPIES ?
          (int) (DEEP_LOCAL_BYTES / table) : WALK_COPIES;
      struct { int copies, per_cu; } pv[] = {
        {plug_copies, WALK_ITEMS_PER_CU}, {1, 512}, {2, 512}, {8, 512},
        {plug_copies, 256}, {plug_copies, 1024}, {plug_copies, 2048},
      };
      for (size_t i = 0; i < sizeof pv / sizeof pv[0]; i++) {
        const size_t lbytes = pv[i].copies * table;
        char name[96];
        if (i > 0 && pv[i].copies == plug_copies &&
            pv[i].per_cu == WALK_ITEMS_PER_CU)
          continue;
        if (lbytes + 1024 > local_max)
          continue;
        walk_launch (items, pv[i].per_cu, h, g, l);
        set_args (kplug, 1, stride, w, h, depth, shift, lbytes,
            pv[i].copies);
        double t = time_hist (kplug, g, l, 20, levels);
        if (t < 0)
          continue;
        snprintf (name, sizeof name, "plugin's, copies %d, %d items/CU%s",
            pv[i].copies, pv[i].per_cu, i == 0 ? " (plugin)" : "");
        printf ("%-46s %.4f ms  %3.0f%%  bad %d\n", name, t, 100 * red / t,
            check_hist (kplug, g, l, levels));
      }

      /* the candidates: packed 16-bit counters, and no counting; the
       * group's samples a copy must stay below 2^16 */
      struct { int copies, packed, count; } cv[] = {
        {plug_copies, 0, 1}, {4, 1, 1}, {8, 1, 1}, {16, 1, 1}, {2, 1, 1},
        {1, 0, 0},
      };
      for (size_t i = 0; i < sizeof cv / sizeof cv[0]; i++) {
        const size_t lbytes = cv[i].count ? cv[i].copies * (cv[i].packed ?
            table / 2 : table) : 4;
        char name[96];
        if (lbytes + 1024 > local_max || lbytes > DEEP_LOCAL_BYTES)
          continue;
        /* more work-items a compute unit where a copy could count 2^16
         * samples (devices of few compute units) */
        int per_cu = WALK_ITEMS_PER_CU;
        for (;;) {
          walk_launch (items, per_cu, h, g, l);
          if (!cv[i].packed || copy_samples (items, h, g, cv[i].copies) <
              65536 || g[1] == (size_t) h)
            break;
          per_cu *= 2;
        }
        if (cv[i].packed && copy_samples (items, h, g, cv[i].copies) >=
            65536)
          continue;
        cl_kernel k = walk_kernel (cand, cv[i].copies, cv[i].packed,
            cv[i].count);
        set_args (k, 0, stride, w, h, depth, shift, lbytes, 0);
        double t = time_hist (k, g, l, 20, levels);
        if (t < 0)
          continue;
        if (!cv[i].count)
          snprintf (name, sizeof name, "walk, loads only (no atomics)");
        else
          snprintf (name, sizeof name, "walk, %s counters, copies %d%s",
              cv[i].packed ? "16-bit" : "32-bit", cv[i].copies,
              per_cu != WALK_ITEMS_PER_CU ? ", more items/CU" : "");
        if (cv[i].count)
          printf ("%-46s %.4f ms  %3.0f%%  bad %d\n", name, t, 100 * red / t,
              check_hist (k, g, l, levels));
        else
          printf ("%-46s %.4f ms  %3.0f%%\n", name, t, 100 * red / t);
        clReleaseKernel (k);
      }
      for (int b = 0; b < nb_cold; b++)
        clReleaseMemObject (srcs[b]);
      free (in);
      fflush (stdout);
    }
  return 0;
}
