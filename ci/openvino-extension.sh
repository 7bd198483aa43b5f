#!/usr/bin/env bash
# Builds the OpenVINO extension (src/engines/openvino/) with the repository's CMake against
# the openvino SDK of a Python environment (a PyPI openvino wheel carries one), in an existing
# build tree, and prints the library's path. ci/test-python.sh tests it, ci/main-job.sh
# benchmarks it (build/results/engines.txt).
# Usage: ci/openvino-extension.sh PYTHON BUILD_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$1"
build_dir="$(realpath -m "$2")"
ov_dir="$("$python" -c 'import openvino.utils as u; print(u.get_cmake_path())')"
CMAKE_ARGS="${CMAKE_ARGS:-} -DOpenVINO_DIR=$ov_dir" bash "$root/ci/build.sh" "$build_dir" >&2
lib="$build_dir/src/engines/openvino/libndpad_openvino.so"
[ -f "$lib" ] || { echo "openvino-extension: CMake built no $lib (OpenVINO_DIR=$ov_dir)" >&2; exit 1; }
echo "$lib"
