#!/usr/bin/env bash
# Install ndpad into a temporary prefix and build three tiny consumers against it:
#   1. CMake, find_package(ndpad CONFIG REQUIRED) + ndpad::ndpad          (shared)
#   2. CMake, find_package(ndpad CONFIG REQUIRED) + ndpad::ndpad_static   (static)
#   3. cc $(pkg-config --cflags --libs ndpad) -Wl,-rpath,<libdir>           (shared; runs as is)
#   4. cc $(pkg-config --cflags --static --libs ndpad)  (links without libudev-dev: hwloc shared)
#   5. cc $(pkg-config --cflags --libs ndpad-static)                       (libndpad.a)
# Each pads a small tensor and checks the values. Also checks that libndpad.so exports only
# ndpad_ symbols. Usage: ci/check-install.sh [build-dir]   (default: build/, already built)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
cd "$root"

fail() { echo "check-install: FAIL: $*" >&2; exit 1; }

[ -f "$build_dir/CMakeCache.txt" ] || fail "no build in $build_dir (run ci/build.sh first)"

work="$(mktemp -d "${TMPDIR:-/tmp}/ndpad-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

echo "check-install: installing into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null || fail "cmake --install failed"

libdir="$(find "$prefix" -name 'libndpad.so' -printf '%h\n' | head -n 1)"
[ -n "$libdir" ] || fail "libndpad.so not installed"
for f in include/ndpad.h; do
    [ -f "$prefix/$f" ] || fail "$f not installed"
done
for f in libndpad.a libndpad.so.0 pkgconfig/ndpad.pc pkgconfig/ndpad-static.pc \
         cmake/ndpad/ndpadConfig.cmake cmake/ndpad/ndpadConfigVersion.cmake \
         cmake/ndpad/ndpadTargets.cmake; do
    [ -e "$libdir/$f" ] || fail "$libdir/$f not installed"
done
# the tuner, when this build has it (README.md lists it among the installed files)
if [ -x "$build_dir/tuning/ndpad-tune" ]; then
    [ -x "$prefix/bin/ndpad-tune" ] || fail "bin/ndpad-tune not installed"
fi

# Hidden visibility: the shared library exports the public API and nothing else.
if command -v nm >/dev/null 2>&1; then
    stray="$(nm -D --defined-only "$libdir/libndpad.so" | awk 'NF == 3 && $2 ~ /[TDBRVW]/ {print $3}' \
             | grep -v '^ndpad_' | grep -v '^_' || true)"
    [ -z "$stray" ] || fail "libndpad.so exports non-ndpad symbols: $stray"
fi

mkdir -p "$work/consumer"
cat >"$work/consumer/consumer.c" <<'C'
#include <ndpad.h>
#include <stdio.h>

/* EDGE-pad a 2x3 tensor by one element on every side and check the 4x5 result. */
int main(void)
{
    const int64_t shape[2] = {2, 3}, pads[2] = {1, 1};
    const int in[6] = {1, 2, 3, 4, 5, 6};
    const int want[20] = {1, 1, 2, 3, 3, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6, 4, 4, 5, 6, 6};
    int out[20];
    const ndpad_problem p = {.rank = 2, .mode = NDPAD_EDGE, .elem_size = sizeof(int),
                             .shape = shape, .pads_begin = pads, .pads_end = pads};
    ndpad_status st = ndpad_pad(&p, in, out);
    if (st != NDPAD_OK) {
        fprintf(stderr, "ndpad_pad: %s: %s\n", ndpad_status_string(st), ndpad_last_error());
        return 1;
    }
    for (int i = 0; i < 20; i++)
        if (out[i] != want[i]) {
            fprintf(stderr, "out[%d] = %d, expected %d\n", i, out[i], want[i]);
            return 1;
        }
    /* An error must come back as a status with a message, not a crash. */
    const int64_t bad_shape[2] = {2, -3};
    const ndpad_problem q = {.rank = 2, .mode = NDPAD_EDGE, .elem_size = 4,
                             .shape = bad_shape, .pads_begin = pads, .pads_end = pads};
    if (ndpad_pad(&q, in, out) == NDPAD_OK || ndpad_last_error()[0] == '\0') {
        fprintf(stderr, "a negative shape was not reported\n");
        return 1;
    }
    printf("consumer: ndpad %d.%d.%d OK\n", NDPAD_VERSION_MAJOR, NDPAD_VERSION_MINOR,
           NDPAD_VERSION_PATCH);
    return 0;
}
C

cat >"$work/consumer/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(ndpad_consumer LANGUAGES C)
find_package(ndpad 0.1 CONFIG REQUIRED)
add_executable(consumer_shared consumer.c)
target_link_libraries(consumer_shared PRIVATE ndpad::ndpad)
add_executable(consumer_static consumer.c)
target_link_libraries(consumer_static PRIVATE ndpad::ndpad_static)
CM

echo "check-install: CMake consumer (find_package(ndpad CONFIG))"
cmake -S "$work/consumer" -B "$work/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release >"$work/consumer-configure.log" 2>&1 \
    || { cat "$work/consumer-configure.log" >&2; fail "consumer configure failed"; }
cmake --build "$work/consumer-build" >"$work/consumer-build.log" 2>&1 \
    || { cat "$work/consumer-build.log" >&2; fail "consumer build failed"; }
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$work/consumer-build/consumer_shared" || fail "CMake shared consumer failed"
"$work/consumer-build/consumer_static" || fail "CMake static consumer failed"
if command -v ldd >/dev/null 2>&1 && ldd "$work/consumer-build/consumer_static" | grep -q libndpad; then
    fail "consumer_static is linked against libndpad.so"
fi

echo "check-install: pkg-config consumer"
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
pkg-config --exists --print-errors ndpad || fail "pkg-config cannot find ndpad"
read -r -a pc_flags <<<"$(pkg-config --cflags --libs ndpad)"
cc -std=c11 -Wall -Wextra -Werror -o "$work/consumer_pc" "$work/consumer/consumer.c" "${pc_flags[@]}" \
    "-Wl,-rpath,$libdir" || fail "pkg-config consumer build failed (flags: ${pc_flags[*]})"
env -u LD_LIBRARY_PATH "$work/consumer_pc" || fail "pkg-config consumer (with its rpath) failed"
# --static: what libndpad.a needs, hwloc as its shared library (no -ludev, no libudev-dev).
read -r -a pc_flags <<<"$(pkg-config --cflags --static --libs ndpad)"
cc -std=c11 -o "$work/consumer_pc_flags" "$work/consumer/consumer.c" "${pc_flags[@]}" \
    || fail "pkg-config --static consumer build failed (flags: ${pc_flags[*]})"
read -r -a pc_flags <<<"$(pkg-config --cflags --libs ndpad-static)"
cc -std=c11 -Wall -Wextra -Werror -o "$work/consumer_pc_static" "$work/consumer/consumer.c" \
    "${pc_flags[@]}" || fail "ndpad-static consumer build failed (flags: ${pc_flags[*]})"
env -u LD_LIBRARY_PATH "$work/consumer_pc_static" || fail "ndpad-static consumer failed"
if command -v ldd >/dev/null 2>&1 && ldd "$work/consumer_pc_static" | grep -q libndpad; then
    fail "the ndpad-static consumer is linked against libndpad.so"
fi

echo "check-install: OK (CMake shared + static, pkg-config shared with rpath, --static, ndpad-static)"
