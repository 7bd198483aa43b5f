#!/usr/bin/env bash
# The NEON path on an x86-64 machine: cross-compile ndpad and its tests for AArch64 with
# Debian's gcc-aarch64-linux-gnu (cmake/toolchain-aarch64.cmake) and run the whole ctest suite
# under qemu-aarch64 (user mode), once on the best ISA (NEON), then once per ISA in
# "scalar;neon" with NDPAD_ISA set. Benchmarks and the tuner are not built.
#
# Usage: ci/aarch64-qemu.sh [build-dir]   (default: build-aarch64/ in the repository)
#
# Installs what is missing (arm64 foreign architecture, cross compiler, qemu-user, the arm64
# development packages of hwloc and cmocka) as root, or through sudo when it needs no password.
# When that is impossible and CI is unset, it says so and exits 0 (a developer's machine);
# with CI set it fails instead, so that CI never skips the NEON run silently.
#
# The tests run with OpenMP threads as on any machine: qemu-user runs guest threads fine
# once the loader and libc.so.6 come from the same glibc build, which the toolchain file's
# emulator line ensures (LD_LIBRARY_PATH); mixing the two hung in every pthread_create,
# hence in every OpenMP team. Every test gets a time limit all the same, so that a hang
# fails CI quickly instead of eating its budget.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build-aarch64}")"   # relative to the caller's directory
cd "$root"
start=$SECONDS
if [ "$(uname -m)" = aarch64 ]; then
    echo "aarch64-qemu: this machine is AArch64: ci/test.sh tests NEON natively; nothing to do"
    exit 0
fi

skip_or_fail() {
    if [ -n "${CI:-}" ]; then
        echo "aarch64-qemu: $1; CI is set, so this is a failure" >&2
        exit 1
    fi
    echo "aarch64-qemu: SKIPPED, the NEON path is not tested: $1" >&2
    echo "aarch64-qemu: (run as root, or install them by hand, to test it)" >&2
    exit 0
}

# ---- dependencies --------------------------------------------------------------------------
host_packages=(cmake make pkg-config qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
arm64_packages=(libhwloc-dev:arm64 libcmocka-dev:arm64)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
for pkg in "${host_packages[@]}" "${arm64_packages[@]}"; do
    installed "$pkg" || missing+=("$pkg")
done
if [ "${#missing[@]}" -ne 0 ]; then
    echo "aarch64-qemu: installing ${missing[*]}"
    command -v apt-get >/dev/null 2>&1 || skip_or_fail "apt-get not found to install ${missing[*]}"
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            as_root=(sudo -n)
        else
            skip_or_fail "not root and no password-less sudo to install ${missing[*]}"
        fi
    fi
    # DPkg::Lock::Timeout: wait for another apt holding the lock instead of failing at once.
    apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -y
         -o "DPkg::Lock::Timeout=${NDPAD_APT_LOCK_TIMEOUT:-600}"
         -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        "${as_root[@]}" dpkg --add-architecture arm64 || skip_or_fail "dpkg --add-architecture arm64 failed"
    fi
    "${apt[@]}" update </dev/null || skip_or_fail "apt-get update failed"
    "${apt[@]}" install --no-install-recommends "${missing[@]}" </dev/null ||
        skip_or_fail "apt-get install ${missing[*]} failed"
fi

# ---- configure, build ----------------------------------------------------------------------
# NDPAD_REQUIRE_SIMD: a compiler that cannot build the NEON kernels is an error here, not a
# scalar-only build that would pass without testing NEON at all.
cmake -S "$root" -B "$build_dir" \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-aarch64.cmake" \
    -DCMAKE_BUILD_TYPE=Release \
    -DNDPAD_BUILD_BENCH=OFF -DNDPAD_BUILD_TUNER=OFF -DNDPAD_REQUIRE_SIMD=ON \
    "-DNDPAD_TEST_ISAS=scalar;neon"
cmake --build "$build_dir" -j"$(nproc)"
echo "aarch64-qemu: built in $((SECONDS - start)) s; running the tests under qemu-aarch64"

# ---- test ----------------------------------------------------------------------------------
# The isa-neon runs are reported as skipped if the emulated CPU or the build lacks NEON
# (tests/isa-gate.sh); here that is a failure, so passing means the NEON kernels ran.
# Emulation is 10-30x slower than the native tiers, which run the full random counts: the
# sub-byte differential test draws 2000 problems per ISA here instead of 6000, and
# test-consts-stream 60 per NDPAD_STREAM setting instead of 300. test-fork
# forks 20 children per stress test here, as its per-ISA runs do: fork safety does not depend
# on the ISA, the native and valgrind runs fork a thousand, and under qemu-user a thousand
# forks from a threaded process hung once in three CI runs (in the wisdom stress test).
NDPAD_TEST_FORKS="${NDPAD_TEST_FORKS:-20}" \
NDPAD_BITS_DIFF_COUNT="${NDPAD_BITS_DIFF_COUNT:-2000}" \
NDPAD_CONSTS_STREAM_COUNT="${NDPAD_CONSTS_STREAM_COUNT:-60}" \
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j"$(nproc)" --timeout 600 |
    tee "$build_dir/ctest.log"
if grep -q "(Skipped)" "$build_dir/ctest.log"; then
    echo "aarch64-qemu: tests were skipped (see above): NEON did not run everywhere" >&2
    exit 1
fi
echo "aarch64-qemu: all tests passed under qemu-aarch64 (scalar and NEON) in $((SECONDS - start)) s"
