#!/usr/bin/env bash
# The main job: dependencies, Release build, then the demo (spec examples + timing vs memcpy).
# Usage: ci/main-job.sh [build-dir]   (default: build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
cd "$root"

bash ci/install-deps.sh
bash ci/build.sh "$build_dir"
"$build_dir/bench/ndpad-demo"
