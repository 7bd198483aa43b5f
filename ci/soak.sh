#!/usr/bin/env bash
# Soak test (issue 12): tests/soak.c on 8 threads, a random mix of plan/execute/destroy,
# one-shot pads, ONNX calls, wisdom save/load through temporary files and deliberate
# errors, each result checked against the reference; RSS and open descriptors sampled after
# a warm-up and at the end must stay flat. Reports calls, threads, minutes, RSS and fds.
#
#   ci/soak.sh [build-dir]                       CI: a fixed number of calls (about a minute)
#   ci/soak.sh [build-dir] --minutes 60          by hand: an hour
#   ci/soak.sh [build-dir] --calls N --seed S    any soak.c options after the build dir
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
[ $# -gt 0 ] && shift
cd "$root"

if [ ! -x "$build_dir/tests/soak" ]; then
    bash ci/build.sh "$build_dir"
fi
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--calls "${NDPAD_SOAK_CALLS:-6000}")
echo "soak.sh: $build_dir/tests/soak --threads 8 ${args[*]}"
"$build_dir/tests/soak" --threads 8 "${args[@]}"
