#!/usr/bin/env bash
# The Python package (python/): Debian's python3 with numpy and pytest, a Release build of
# libndpad, the pytest suite against it, then `pip install` of the package into a temporary
# venv and an import from outside the source tree that finds a `cmake --install`ed library.
# Usage: ci/test-python.sh [build-dir]   (default: build/, built here with ci/build.sh)
# Non-interactive: works with CI=true and no stdin.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
cd "$root"

py=/usr/bin/python3   # Debian's: python3-numpy and python3-pytest are installed for it
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

fail() { echo "test-python: FAIL: $*" >&2; exit 1; }

# 1. Debian packages (the library's own build dependencies come from install-deps.sh).
bash ci/install-deps.sh python3 python3-numpy python3-pytest python3-pip python3-setuptools \
    python3-wheel python3-venv
"$py" -c 'import numpy, pytest' || fail "numpy or pytest missing for $py"

# 2. The library (Release, same build tree as the other ci scripts).
bash ci/build.sh "$build_dir"
[ -f "$build_dir/libndpad.so" ] || fail "no $build_dir/libndpad.so after the build"

# 3. The test suite, against the source tree's package and the build's library.
echo "test-python: pytest with numpy $("$py" -c 'import numpy; print(numpy.__version__)')"
NDPAD_LIBRARY="$build_dir/libndpad.so" "$py" -m pytest -q -p no:cacheprovider python/tests \
    </dev/null

# 4. pip install into a fresh venv (offline: Debian's setuptools, no build isolation), from a
#    copy of python/ so that the build leaves nothing in the source tree; then import it from
#    elsewhere with the library found through a `cmake --install` prefix.
work="$(mktemp -d "${TMPDIR:-/tmp}/ndpad-python.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r python "$work/src"
rm -rf "$work/src/build" "$work/src/dist" "$work/src"/*.egg-info  # stale in-tree builds
"$py" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install -q --no-index --no-build-isolation "$work/src" </dev/null \
    || fail "pip install --no-build-isolation ./python failed"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
libdir="$(dirname "$(find "$work/prefix" -name 'libndpad.so.0' | head -n 1)")"

check='import ndpad, numpy as np; print(ndpad.pad(np.arange(4), 2, "reflect"))'
want='[2 1 0 1 2 3 2 1]'
cd "$work"
got="$(env -u NDPAD_LIBRARY LD_LIBRARY_PATH="$libdir" "$work/venv/bin/python" -c "$check")" \
    || fail "installed package: import with LD_LIBRARY_PATH=$libdir failed"
[ "$got" = "$want" ] || fail "installed package printed '$got', expected '$want'"
got="$(NDPAD_LIBRARY="$libdir/libndpad.so.0" "$work/venv/bin/python" -c "$check")" \
    || fail "installed package: import with NDPAD_LIBRARY failed"
[ "$got" = "$want" ] || fail "installed package printed '$got', expected '$want'"
# Without any library the import fails with a message that says what to do (unless a
# libndpad is installed system-wide, which the import then rightly finds).
nolib=(env -u NDPAD_LIBRARY LD_LIBRARY_PATH= "$work/venv/bin/python")
system_lib=0
if msg="$("${nolib[@]}" -c 'import ndpad; print(ndpad.library_path)' 2>&1)"; then
    echo "test-python: note: found a system-wide libndpad ($msg); not-found message unchecked"
    system_lib=1
else
    grep -q "NDPAD_LIBRARY" <<<"$msg" || fail "unhelpful message when libndpad is missing: $msg"
fi
# `cmake --install` into the venv's own prefix: found with no variable set (a system-wide
# libndpad, on the loader's path, would come first).
cmake --install "$build_dir" --prefix "$work/venv" >/dev/null
got="$("${nolib[@]}" -c 'import ndpad; print(ndpad.library_path)')"
case "$system_lib:$got" in
    0:"$work/venv/"* | 1:*) ;;
    *) fail "a library installed into the venv prefix was not found (loaded: $got)" ;;
esac
# The package's own tests against the installed copy.
NDPAD_TEST_INSTALLED=1 NDPAD_LIBRARY="$libdir/libndpad.so.0" \
    "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$work/src/tests" </dev/null
cd "$root"
echo "test-python: pip install + import OK; all Python tests passed"
