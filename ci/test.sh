#!/usr/bin/env bash
# The whole test suite: dependencies, Release build, every ctest test, then the install check.
# Usage: ci/test.sh [build-dir]   (default: build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
cd "$root"

bash ci/install-deps.sh

# Besides the default run (the best instruction set), register every test once more per
# instruction set this CPU runs, with NDPAD_ISA set, so that the scalar kernels and each
# SIMD path are all exercised, not only the best one.
isas="scalar"
cpu_flags=" $(grep -m1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null | cut -d: -f2 || true) "
has_flag() { [[ "$cpu_flags" == *" $1 "* ]]; }
case "$(uname -m)" in
    x86_64)
        if has_flag avx2; then isas+=";avx2"; fi
        if has_flag avx512f && has_flag avx512bw && has_flag avx512vl; then isas+=";avx512"; fi
        ;;
    aarch64)
        isas+=";neon"
        ;;
esac
echo "test.sh: tests run on the best ISA, then once per ISA in: $isas"
CMAKE_ARGS="-DNDPAD_TEST_ISAS=$isas ${CMAKE_ARGS:-}" bash ci/build.sh "$build_dir"
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j"$(nproc)"
bash ci/check-install.sh "$build_dir"
bash ci/test-python.sh "$build_dir"   # the Python package: pytest, pip install (same build)
bash ci/aarch64-qemu.sh "$build_dir-aarch64"   # NEON: cross-built suite under qemu-aarch64
bash ci/sanitize.sh "$build_dir-asan" "$build_dir-tsan"   # ASan+UBSan suite, TSan threads test
bash ci/fuzz.sh "$build_dir-fuzz"   # libFuzzer: fixed seed and runs, about 1 min per target
bash ci/valgrind.sh "$build_dir-valgrind"   # memcheck on the reliability tests and corpora
echo "test.sh: all tests passed"
