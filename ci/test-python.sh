#!/usr/bin/env bash
# The Python package (python/): Debian's python3 with numpy, torch and pytest, a Release build
# of libndpad, the pytest suite against it, then the documented `pip install ./python` (which
# builds it and ships it in the package) and `pip wheel` in fresh venvs, the installed
# package's tests and library lookup order. ndpad.torch (torch >= 2.4) is tested by
# ci/test-torch.sh on PyPI's torch.
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
    python3-wheel python3-venv python3-dask python3-distributed python3-zarr python3-torch \
    libtorch-dev
"$py" -c 'import numpy, pytest' || fail "numpy or pytest missing for $py"

# 2. The library (Release, same build tree as the other ci scripts).
bash ci/build.sh "$build_dir"
[ -f "$build_dir/libndpad.so" ] || fail "no $build_dir/libndpad.so after the build"

# ndpad.torch needs torch >= 2.4: its tests skip under Debian's torch 1.13 here and run
# on PyPI's torch in ci/test-torch.sh (which builds the native kernels it needs).

# 3. The test suite, against the source tree's package and the build's libraries; the
#    installed-operator tests run with the native kernels (which must load: NDPAD_TEST_NATIVE)
#    and with the Python ones, and install() falls back to the Python ones without them.
echo "test-python: pytest with numpy $("$py" -c 'import numpy; print(numpy.__version__)')"
NDPAD_LIBRARY="$build_dir/libndpad.so" "$py" -m pytest -q -p no:cacheprovider python/tests \
    </dev/null

# 4. The documented pip path, in fresh venvs, offline (Debian's setuptools and wheel, no build
#    isolation): `pip install ./python` builds libndpad with the repository's CMake and ships
#    it in the package, leaving nothing in the source tree; `pip wheel` gives a platform
#    wheel holding it. Then the lookup order: NDPAD_LIBRARY first, the package's own next,
#    and for a package installed without its library (NDPAD_BUILD_LIBRARY=0), the system's.
work="$(mktemp -d "${TMPDIR:-/tmp}/ndpad-python.XXXXXX")"
trap 'rm -rf "$work"' EXIT
untracked() { (cd "$root" && find python -print | LC_ALL=C sort); }  # no .git needed
before="$(untracked)"
"$py" -m venv --system-site-packages "$work/venv"
echo "test-python: pip install --no-build-isolation ./python (builds libndpad)"
start=$SECONDS
(cd "$root" && NDPAD_BUILD_TORCH=0 "$work/venv/bin/pip" install -q --no-index \
    --no-build-isolation ./python </dev/null) || fail "pip install --no-build-isolation ./python failed"
echo "test-python: pip install took $((SECONDS - start)) s"
# The wheel, building in a kept directory (NDPAD_CMAKE_BUILD_DIR, for incremental rebuilds).
NDPAD_CMAKE_BUILD_DIR="$work/cmake" NDPAD_BUILD_TORCH=0 "$work/venv/bin/pip" wheel -q --no-index \
    --no-build-isolation --no-deps -w "$work/wheels" "$root/python" </dev/null \
    || fail "pip wheel ./python failed"
[ -e "$work/cmake/libndpad.so" ] || fail "NDPAD_CMAKE_BUILD_DIR was not used or not kept"
[ "$(untracked)" = "$before" ] || fail "the pip build left files in python/: $(diff <(echo "$before") <(untracked))"
wheel="$(ls "$work/wheels"/ndpad-*.whl)"
case "$(basename "$wheel")" in
    *-none-any.whl) fail "pure wheel $(basename "$wheel"): it should carry libndpad" ;;
esac
# The listing first, then grep: grep -q would stop reading at the match, and the listing's
# broken pipe then fails the pipeline under pipefail.
listing="$("$py" -m zipfile -l "$wheel")"
for lib in libndpad.so; do
    grep -q " *ndpad/${lib//./\\.} " <<<"$listing" \
        || fail "$(basename "$wheel") holds no ndpad/$lib"
done
echo "test-python: $(basename "$wheel") holds ndpad/libndpad.so"

check='import ndpad, numpy as np; print(ndpad.pad(np.arange(4), 2, "reflect"))'
want='[2 1 0 1 2 3 2 1]'
nolib=(env -u NDPAD_LIBRARY -u NDPAD_TORCH_NATIVE LD_LIBRARY_PATH= "$work/venv/bin/python")
cd "$work"
got="$("${nolib[@]}" -c 'import ndpad; print(ndpad.library_path)')" \
    || fail "installed package: import without NDPAD_LIBRARY failed"
case "$got" in
    "$work/venv/"*/site-packages/ndpad/libndpad.so) ;;
    *) fail "the installed package did not load its own library (loaded: $got)" ;;
esac
got="$("${nolib[@]}" -c "$check")" || fail "installed package: pad failed"
[ "$got" = "$want" ] || fail "installed package printed '$got', expected '$want'"
# NDPAD_LIBRARY still comes first.
got="$(NDPAD_LIBRARY="$build_dir/libndpad.so" "$work/venv/bin/python" \
       -c 'import ndpad; print(ndpad.library_path)')"
[ "$got" = "$build_dir/libndpad.so" ] || fail "NDPAD_LIBRARY did not win (loaded: $got)"
# The package's own tests against the installed copy and its own libraries (but the two long
# differential runs of ndpad.torch, which step 3 ran on the same code).
env -u NDPAD_LIBRARY -u NDPAD_TORCH_NATIVE NDPAD_TEST_INSTALLED=1 \
    "$work/venv/bin/python" -m pytest -q \
    -p no:cacheprovider -k "not random_cases_against_torch and not gradcheck_random" \
    "$root/python/tests" </dev/null

# Without its library: a system libndpad (`cmake --install`ed) is found.
"$py" -m venv --system-site-packages "$work/venv-nolib"
NDPAD_BUILD_LIBRARY=0 "$work/venv-nolib/bin/pip" install -q --no-index --no-build-isolation \
    "$root/python" </dev/null || fail "pip install with NDPAD_BUILD_LIBRARY=0 failed"
[ "$(untracked)" = "$before" ] || fail "the pip build left files in python/: $(diff <(echo "$before") <(untracked))"
nolib=(env -u NDPAD_LIBRARY LD_LIBRARY_PATH= "$work/venv-nolib/bin/python")
system_lib=0
if msg="$("${nolib[@]}" -c 'import ndpad; print(ndpad.library_path)' 2>&1)"; then
    echo "test-python: note: found a system-wide libndpad ($msg); not-found message unchecked"
    system_lib=1
else
    grep -q "NDPAD_LIBRARY" <<<"$msg" || fail "unhelpful message when libndpad is missing: $msg"
fi
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
libdir="$(dirname "$(find "$work/prefix" -name 'libndpad.so.0' | head -n 1)")"
got="$(env -u NDPAD_LIBRARY LD_LIBRARY_PATH="$libdir" "$work/venv-nolib/bin/python" -c "$check")" \
    || fail "package without library: import with LD_LIBRARY_PATH=$libdir failed"
[ "$got" = "$want" ] || fail "package without library printed '$got', expected '$want'"
# `cmake --install` into the venv's own prefix: found with no variable set (a system-wide
# libndpad, on the loader's path, would come first).
cmake --install "$build_dir" --prefix "$work/venv-nolib" >/dev/null
got="$("${nolib[@]}" -c 'import ndpad; print(ndpad.library_path)')"
case "$system_lib:$got" in
    0:"$work/venv-nolib/"* | 1:*) ;;
    *) fail "a library installed into the venv prefix was not found (loaded: $got)" ;;
esac
cd "$root"
echo "test-python: pip install (library built and shipped), pip wheel, lookup order OK; all Python tests passed"
