#!/usr/bin/env bash
# ONNX Runtime's C API header (onnxruntime_c_api.h, MIT), which the ONNX Runtime custom-op
# library (src/engines/onnxruntime/) is compiled against. PyPI's onnxruntime wheel ships the
# runtime but no header, and Debian 12 has no onnxruntime package; Debian 13 ("trixie") has
# libonnxruntime-dev. This script downloads that package (apt-get download with a private
# source list and state under the cache folder: nothing of the system's apt setup changes,
# nothing is installed) and unpacks its include/onnxruntime folder and copyright file into
#   ${NDPAD_ORT_HEADER_DIR:-${XDG_CACHE_HOME:-~/.cache}/ndpad/onnxruntime}/include/onnxruntime
# where CMake looks for it (NDPAD_ORT_INCLUDE_DIR). Kept between runs; the header is never
# committed. Prints that folder on stdout (progress on stderr). A header of C API version N
# builds a library that ONNX Runtime N and every newer release load.
# Usage: ci/onnxruntime-header.sh        Non-interactive (CI=true, no stdin).
set -euo pipefail
dest="${NDPAD_ORT_HEADER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ndpad/onnxruntime}"
include="$dest/include/onnxruntime"
say() { echo "onnxruntime-header: $*" >&2; }

api_version() { sed -n 's/^#define ORT_API_VERSION \([0-9][0-9]*\).*/\1/p' "$1/onnxruntime_c_api.h"; }

if [ -f "$include/onnxruntime_c_api.h" ]; then
    say "cached: $include (C API $(api_version "$include"), $(cat "$dest/source" 2>/dev/null))"
    echo "$include"
    exit 0
fi

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null \
    || { say "needs apt-get and dpkg-deb (a Debian system)"; exit 1; }
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { say "no $keyring (package debian-archive-keyring)"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/ndpad-ort-header.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/etc"
arch="$(dpkg --print-architecture)"
echo "deb [arch=$arch signed-by=$keyring] http://deb.debian.org/debian trixie main" \
    >"$work/etc/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$work/etc/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache"
          -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=root" -q)
say "apt-get update (Debian 13 trixie main, private lists)"
apt-get "${apt_opts[@]}" update </dev/null >&2
(cd "$work" && apt-get "${apt_opts[@]}" download libonnxruntime-dev </dev/null >&2)
deb="$(ls "$work"/libonnxruntime-dev_*.deb)"
version="$(dpkg-deb -f "$deb" Version)"
dpkg-deb -x "$deb" "$work/x"
[ -f "$work/x/usr/include/onnxruntime/onnxruntime_c_api.h" ] \
    || { say "$(basename "$deb") holds no usr/include/onnxruntime/onnxruntime_c_api.h"; exit 1; }

rm -rf "$dest.new"
mkdir -p "$dest.new/include"
cp -r "$work/x/usr/include/onnxruntime" "$dest.new/include/"
cp "$work/x/usr/share/doc/libonnxruntime-dev/copyright" "$dest.new/copyright"
echo "Debian libonnxruntime-dev $version" >"$dest.new/source"
rm -rf "$dest"
mv "$dest.new" "$dest"
say "$include: C API $(api_version "$include") from Debian libonnxruntime-dev $version (MIT: $dest/copyright)"
echo "$include"
