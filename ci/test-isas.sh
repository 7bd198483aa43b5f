#!/usr/bin/env bash
# Prints, as a CMake list, the instruction sets below the best one this CPU runs, for
# -DNDPAD_TEST_ISAS: every test is registered once more per level in it, with NDPAD_ISA set.
# The best level is left out: the default registration (NDPAD_ISA unset) already runs it.
# Example on an AVX-512 machine: "scalar;avx2".
set -euo pipefail
cpu_flags=" $(grep -m1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null | cut -d: -f2 || true) "
has_flag() { [[ "$cpu_flags" == *" $1 "* ]]; }
levels=(scalar)
case "$(uname -m)" in
    x86_64)
        if has_flag avx2; then levels+=(avx2); fi
        if has_flag avx512f && has_flag avx512bw && has_flag avx512vl; then levels+=(avx512); fi
        ;;
    aarch64)
        levels+=(neon)
        ;;
esac
below=("${levels[@]:0:${#levels[@]}-1}")
if [ "${#below[@]}" -eq 0 ]; then exit 0; fi   # a scalar-only CPU: nothing below the best
(IFS=';'; echo "${below[*]}")
