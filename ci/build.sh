#!/usr/bin/env bash
# Configure (Release) and build ndpad. Usage: ci/build.sh [build-dir]   (default: build/)
# Extra CMake options can be passed in CMAKE_ARGS, e.g. CMAKE_ARGS="-DNDPAD_BUILD_BENCH=OFF".
# With CI=true, warnings are errors (-DNDPAD_WERROR=ON).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"   # relative to the caller's directory
cd "$root"

read -r -a extra_args <<<"${CMAKE_ARGS:-}"
# CI builds treat warnings as errors (NDPAD_WERROR); CMAKE_ARGS given later still win.
werror=()
if [ "${CI:-}" = true ]; then werror=(-DNDPAD_WERROR=ON); fi
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "${werror[@]}" "${extra_args[@]}"
cmake --build "$build_dir" -j"$(nproc)"
