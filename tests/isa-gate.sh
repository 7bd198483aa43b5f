#!/usr/bin/env bash
# isa-gate.sh LEVEL PROBE... -- TEST...
# Runs TEST when this build and CPU run the instruction-set level LEVEL (PROBE is
# ndpad-isa-levels, behind the cross-compiling emulator if any), else exits 77, which ctest
# reports as not run (SKIP_RETURN_CODE), never as passed. A TEST that itself exits 77 is a
# failure, not a skip.
set -u
level=$1
shift
probe=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do probe+=("$1"); shift; done
shift
"${probe[@]}" --usable "$level"
rc=$?
if [ "$rc" -eq 77 ]; then exit 77; fi
if [ "$rc" -ne 0 ]; then
    echo "isa-gate: ${probe[*]} --usable $level failed with status $rc" >&2
    exit 1
fi
"$@"
rc=$?
if [ "$rc" -eq 77 ]; then exit 1; fi
exit "$rc"
