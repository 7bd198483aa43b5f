#!/usr/bin/env bash
# clang-format over every C/C++ file of the tree (.clang-format holds the house style).
# Usage: ci/format.sh --check   clang-format --dry-run -Werror: lists what differs, fails
#        ci/format.sh --fix     formats every file in place
# Files: what git tracks under src/ include/ tests/ bench/ tuning/ (*.c *.h *.cc *.cpp *.hpp),
# so build trees and fuzz corpora are never touched. The *.inc lists (kernels, ISA levels)
# are tables aligned in columns by hand: not formatted. clang-format is Debian's
# (clang-format); ci/test.sh runs --check unless NDPAD_CHECK_FORMAT=0.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

mode="${1:-}"
case "$mode" in
    --check|--fix) ;;
    *) echo "usage: ci/format.sh --check | --fix" >&2; exit 2 ;;
esac
if ! command -v clang-format >/dev/null 2>&1; then
    bash ci/install-deps.sh clang-format
fi

mapfile -t files < <(git ls-files -- 'src/*' 'include/*' 'tests/*' 'bench/*' 'tuning/*' \
                     | grep -E '\.(c|h|cc|cpp|hpp)$')
if [ "${#files[@]}" -eq 0 ]; then
    echo "format.sh: no C/C++ files found (not a git checkout?)" >&2
    exit 2
fi

if [ "$mode" = --fix ]; then
    clang-format -i --style=file "${files[@]}"
    echo "format.sh: formatted ${#files[@]} files"
    exit 0
fi

bad=()
for f in "${files[@]}"; do
    clang-format --dry-run -Werror --style=file "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
    echo "format.sh: ${#bad[@]} of ${#files[@]} files differ from .clang-format:" >&2
    printf '  %s\n' "${bad[@]}" >&2
    echo "format.sh: see the changes with clang-format --dry-run FILE; apply with" \
         "ci/format.sh --fix" >&2
    exit 1
fi
echo "format.sh: ${#files[@]} files match .clang-format"
