#!/usr/bin/env bash
# The whole test suite: dependencies, Release build, every ctest test, then the install check.
# Usage: ci/test.sh [build-dir]   (default: build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
cd "$root"

bash ci/install-deps.sh
bash ci/test-install-deps.sh   # it waits for a busy apt lock (a fake apt-get; 1 s)

# Fast checks first: no circle between the units of src/ (HACKING.md, "Dependency order"),
# and the house format (NDPAD_CHECK_FORMAT=0 skips it, e.g. before the tree is formatted).
/usr/bin/python3 ci/check-deps.py
/usr/bin/python3 ci/check-imports.py   # the same for python/ndpad: one-way imports, at the top
if [ "${NDPAD_CHECK_FORMAT:-1}" != 0 ]; then bash ci/format.sh --check; fi

# Besides the default run (the best instruction set), register every test once more per
# lower instruction set this CPU runs, with NDPAD_ISA set, so that the scalar kernels and
# each SIMD path are all exercised, not only the best one.
isas="$(bash ci/test-isas.sh)"
echo "test.sh: tests run on the best ISA, then once per ISA in: ${isas:-(none)}"
CMAKE_ARGS="-DNDPAD_TEST_ISAS=$isas -DNDPAD_WERROR=ON ${CMAKE_ARGS:-}" bash ci/build.sh "$build_dir"
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j"$(nproc)"
bash ci/check-install.sh "$build_dir"
bash ci/test-python.sh "$build_dir"   # the Python package: pytest, pip install (same build)
bash ci/aarch64-qemu.sh "$build_dir-aarch64"   # NEON: cross-built suite under qemu-aarch64
bash ci/sanitize.sh "$build_dir-asan" "$build_dir-tsan"   # ASan+UBSan suite, TSan threads test
bash ci/fuzz.sh "$build_dir-fuzz"   # libFuzzer: fixed seed and runs, about 1 min per target
bash ci/valgrind.sh "$build_dir-valgrind"   # memcheck on the reliability tests and corpora
bash ci/soak.sh "$build_dir"   # 8 threads, every kind of call, RSS and fds flat (~1 min)
echo "test.sh: all tests passed"
