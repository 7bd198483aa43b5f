#!/usr/bin/env bash
# Install the Debian 12 packages ndpad needs to build, test and benchmark, when missing,
# plus any packages named as arguments (what one CI tier needs on top, e.g. clang).
# Usage: ci/install-deps.sh [package ...]
# Runs non-interactively; as root it uses apt-get directly, otherwise sudo if available.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(
    cmake make gcc g++ libc6-dev pkg-config  # toolchain (gcc brings libgomp for OpenMP)
    libhwloc-dev                             # topology
    libcmocka-dev                            # tests
    libbenchmark-dev                         # benchmarks
    "$@"                                     # the caller's extra packages
)

missing=()
for pkg in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$pkg")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-deps: all packages present (${packages[*]})"
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: apt-get not found; install these packages by hand: ${missing[*]}" >&2
    exit 1
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        as_root=(sudo -n)
    else
        echo "install-deps: not root and sudo is unavailable; install: ${missing[*]}" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
# Another apt (unattended-upgrades on a fresh machine, a parallel job) may hold the dpkg or
# lists lock: wait for it (DPkg::Lock::Timeout, seconds) instead of failing at once, and
# retry a run that still lost the race for the lock.
lock_wait="${NDPAD_APT_LOCK_TIMEOUT:-600}"
apt_get() {
    local attempt out status
    for attempt in 1 2 3 4 5; do
        status=0
        out="$("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get -o "DPkg::Lock::Timeout=$lock_wait" "$@" </dev/null 2>&1)" || status=$?
        printf '%s\n' "$out"
        [ "$status" -eq 0 ] && return 0
        grep -qiE 'could not get lock|unable to (acquire|lock)' <<<"$out" || return "$status"
        echo "install-deps: apt is busy (attempt $attempt); waiting" >&2
        sleep "${NDPAD_APT_RETRY_SLEEP:-30}"
    done
    return "$status"
}
apt_get update -q
apt_get install -y -q --no-install-recommends "${missing[@]}"
