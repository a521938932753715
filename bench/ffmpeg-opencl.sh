#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# Builds a small FFmpeg with OpenCL and tonemap_opencl for the comparison
# of issue 35 on the GPU machine, which has no FFmpeg and no network:
# Debian's own ffmpeg loads 215 libraries (241 MB), more than a device run
# carries (64 MiB), where this static one is a single binary.
#
#   bench/ffmpeg-opencl.sh [BUILDDIR]        (default build-ffmpeg)
#
# BUILDDIR/bin then holds `ffmpeg` and `libclkernels.so` (the kernel-time
# shim of bench/probes/clkernels.c), all a GPU run needs to carry.
# The source is Debian bookworm's (ffmpeg 5.1.9, checked against the
# SHA-256 of its .dsc); the binary has only what the comparison takes: the
# lavfi source testsrc2, setparams, format, hwupload, hwdownload,
# tonemap_opencl and scale, the null and rawvideo outputs, raw files.
# It links libOpenCL dynamically (the machine's ICD loader). Then, on the
# GPU machine, bench/tonemap-gpu.sh runs it against cltonemap.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

out=${1:-build-ffmpeg}
version=5.1.9
tarball=ffmpeg_$version.orig.tar.xz
sha256=d9b593bb2ba93d4b50f74177e0cdcd41747e708596367deed0c30348a71dd176
url=http://deb.debian.org/debian/pool/main/f/ffmpeg/$tarball

mkdir -p "$out"
cd "$out"
if [ ! -f "$tarball" ]; then
  curl -sSf -o "$tarball.part" "$url"
  mv "$tarball.part" "$tarball"
fi
echo "$sha256  $tarball" | sha256sum -c --quiet
if [ ! -d "ffmpeg-$version" ]; then
  tar xf "$tarball"
fi
cd "ffmpeg-$version"
if [ ! -f ffbuild/config.mak ]; then
  # no assembler needed (--disable-x86asm): the filters compared run on
  # the GPU, and the CPU parts (test source, format conversion) are the
  # same for every run of the comparison
  ./configure --disable-everything --disable-autodetect --disable-doc \
    --disable-debug --disable-x86asm --disable-ffplay --disable-ffprobe \
    --enable-static --disable-shared --enable-opencl \
    --enable-indev=lavfi --enable-protocol=file,pipe \
    --enable-demuxer=rawvideo --enable-decoder=rawvideo \
    --enable-encoder=rawvideo,wrapped_avframe \
    --enable-muxer=rawvideo,null \
    --enable-filter=testsrc2,setparams,format,hwupload,hwdownload,tonemap_opencl,scale,null,nullsink \
    >/dev/null
fi
make -j"$(nproc)" ffmpeg >/dev/null 2>&1
mkdir -p ../bin
cp ffmpeg ../bin/ffmpeg
strip ../bin/ffmpeg
cd "$root"
cc -O2 -shared -fPIC -o "$out/bin/libclkernels.so" bench/probes/clkernels.c \
  -ldl -lOpenCL -lpthread
echo "$out/bin: ffmpeg with $("$out/bin/ffmpeg" -hide_banner -filters \
  2>/dev/null | grep -c tonemap_opencl) tonemap_opencl, libclkernels.so"
