/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* ptxdump: builds OpenCL source files (concatenated in the order given, as
 * the plugin does with kernels/common.cl first) with build options for the
 * first GPU (else any device) and writes the program binary to OUT: on
 * NVIDIA the PTX, which the CUDA toolkit's `ptxas -arch=sm_90` and
 * `cuobjdump -sass` turn into the instructions the GPU runs (after
 * removing ", texmode_independent" from the .target line). Not built by
 * meson; from the project root:
 *
 *     cc -O2 -o /tmp/ptxdump bench/probes/ptxdump.c -lOpenCL
 *     /tmp/ptxdump histogram.ptx "-cl-std=CL1.2" kernels/common.cl \
 *         kernels/histogram.cl
 */
#include "probe.h"

int
main (int argc, char **argv)
{
  if (argc < 4) {
    fprintf (stderr, "usage: ptxdump OUT OPTIONS FILE...\n");
    return 2;
  }
  open_device ();
  int n = argc - 3;
  const char **srcs = calloc (n, sizeof (char *));
  for (int i = 0; i < n; i++)
    srcs[i] = slurp (argv[3 + i]);
  cl_program p = build (srcs, n, argv[2]);
  size_t size = 0;
  clGetProgramInfo (p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
  unsigned char *bin = malloc (size);
  clGetProgramInfo (p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
  /* without the terminating NULs the driver counts in the size */
  while (size && !bin[size - 1])
    size--;
  FILE *f = fopen (argv[1], "wb");
  if (!f) {
    perror (argv[1]);
    return 1;
  }
  fwrite (bin, 1, size, f);
  fclose (f);
  return 0;
}
