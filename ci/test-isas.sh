#!/usr/bin/env bash
# Prints, as a CMake list, the instruction-set levels below the best one this CPU runs, for
# -DNDPAD_TEST_ISAS: every test is registered once more per level in it, with NDPAD_ISA set.
# The levels, their parents, architectures and /proc/cpuinfo flags come from the one list,
# src/isa-levels.inc: a level is here when the CPU has its flags and its parent is here.
# The best level (the last such in the list) is left out: the default registration
# (NDPAD_ISA unset) already runs it. Example on an AVX-512 VBMI machine: "scalar;avx2;avx512".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cpu_flags=" $(grep -m1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null | cut -d: -f2 || true) "
case "$(uname -m)" in
    x86_64) arch=x86 ;;
    aarch64) arch=aarch64 ;;
    *) arch=none ;;
esac
declare -A present=()
levels=()
# NDPAD_ISA_LEVEL(ID, name, PARENT, arch, width, "cpuinfo flags", <CPUID, XCR0, HWCAP bits>)
while IFS=, read -r id name parent level_arch width flags _; do
    id="${id#NDPAD_ISA_LEVEL(}"; id="${id// /}"; name="${name// /}"
    parent="${parent// /}"; level_arch="${level_arch// /}"
    flags="${flags#*\"}"; flags="${flags%\"*}"
    [ "$parent" = "$id" ] || [ -n "${present[$parent]:-}" ] || continue
    [ "$level_arch" = any ] || [ "$level_arch" = "$arch" ] || continue
    ok=1
    for flag in $flags; do [[ "$cpu_flags" == *" $flag "* ]] || ok=0; done
    [ "$ok" = 1 ] || continue
    present[$id]=1
    levels+=("$name")
done < <(grep '^NDPAD_ISA_LEVEL(' "$root/src/isa-levels.inc")
below=("${levels[@]:0:${#levels[@]}-1}")
if [ "${#below[@]}" -eq 0 ]; then exit 0; fi   # a scalar-only CPU: nothing below the best
(IFS=';'; echo "${below[*]}")
