#!/usr/bin/env bash
# The Python package (python/ndpad), on two stacks:
#   A. Debian 12's /usr/bin/python3 with Debian's numpy 1.24 and dask/distributed 2022.12
#      (still supported): the pytest suite against the build's libndpad (ndpad.torch needs
#      torch >= 2.4, so its tests skip under Debian's torch 1.13), and numpy's and dask's own
#      pad tests routed to ndpad (ci/upstream-pad-tests.py);
#   B. a fresh virtual environment with PyPI's newest numpy 2, dask/distributed 2026.x, zarr,
#      torch 2, JAX, array-api-strict, openvino, onnxruntime (ci/python-venv.sh,
#      ci/requirements-python.txt): the ONNX Runtime custom-op library built against Debian
#      13's ONNX Runtime header (ci/onnxruntime-header.sh) and the OpenVINO extension
#      against the venv's openvino SDK, then the pytest suite but the torch tests
#      (test_onnxruntime.py and test_openvino.py with them, never skipped; test_dlpack.py in
#      a process of its own; ndpad.openvino's first-use build is checked too), numpy's and dask's own pad tests routed to ndpad, ndpad.torch on PyPI's
#      torch (ci/test-torch.sh: the native kernels built at first use, then every torch
#      test); every code block of README.md and python/README.md run as written
#      (ci/readme-blocks.py: python blocks on this venv, C and shell blocks); then the
#      wheel: `pip wheel .` (scikit-build-core, the project's CMake), `auditwheel repair`
#      to a manylinux wheel carrying hwloc and the OpenMP runtime, installed into a fresh
#      venv where `import ndpad` must use the library inside it and the suite runs against
#      the installed package, and where ndpad.torch compiles its native kernels at first
#      use from the installed ndpad/include/ndpad.h and runs them on torch's pool; and
#      `pip install .` from the repository root in another fresh venv (the same native
#      kernels load there), the library lookup order (NDPAD_LIBRARY first, the package's
#      own, then the system's), nothing left in the source tree.
# Usage: ci/test-python.sh [build-dir]   (default: build/, built here with ci/build.sh)
# Environment: NDPAD_PYTHON_VENV (the venv of B, default <build-dir>-venv, kept between runs
# and brought up to date), NDPAD_PYTHON_DEBIAN=0 skips A, NDPAD_PYTHON_PYPI=0 skips B.
# Non-interactive: works with CI=true and no stdin.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build}")"
venv="$(realpath -m "${NDPAD_PYTHON_VENV:-$build_dir-venv}")"
cd "$root"

py=/usr/bin/python3   # Debian's: python3-numpy and python3-pytest are installed for it
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

fail() { echo "test-python: FAIL: $*" >&2; exit 1; }
step() { echo "test-python: [$((SECONDS - t_all)) s] $*"; }
t_all=$SECONDS

# 1. Debian packages (the library's own build dependencies come from install-deps.sh).
bash ci/install-deps.sh python3 python3-numpy python3-pytest python3-pip python3-venv \
    python3-dask python3-distributed python3-zarr
"$py" -c 'import numpy, pytest' || fail "numpy or pytest missing for $py"

# 2. The library (Release, same build tree as the other ci scripts).
bash ci/build.sh "$build_dir"
[ -f "$build_dir/libndpad.so" ] || fail "no $build_dir/libndpad.so after the build"

work="$(mktemp -d "${TMPDIR:-/tmp}/ndpad-python.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# ---------------------------------------------------------------------------------------
# A. Debian's numpy 1.24, dask 2022.12
# ---------------------------------------------------------------------------------------
if [ "${NDPAD_PYTHON_DEBIAN:-1}" != 0 ]; then
    step "A. Debian: pytest with $("$py" -c 'import numpy, dask; print("numpy", numpy.__version__, "dask", dask.__version__)')"
    NDPAD_LIBRARY="$build_dir/libndpad.so" NDPAD_TUNER="$build_dir/tuning/ndpad-tune" \
        "$py" -m pytest -q -p no:cacheprovider python/tests \
        </dev/null
    step "A. Debian: numpy's and dask's own pad tests, routed to ndpad"
    NDPAD_LIBRARY="$build_dir/libndpad.so" PYTHONPATH="$root/python" \
        "$py" ci/upstream-pad-tests.py </dev/null
fi

# ---------------------------------------------------------------------------------------
# B. PyPI: numpy 2, dask 2026.x, torch 2, the wheel
# ---------------------------------------------------------------------------------------
if [ "${NDPAD_PYTHON_PYPI:-1}" = 0 ]; then
    step "B. PyPI stack skipped (NDPAD_PYTHON_PYPI=0)"
    exit 0
fi
step "B. the PyPI venv: $venv"
bash ci/python-venv.sh "$venv"
vpy="$venv/bin/python"

# The ONNX Runtime custom-op library: ONNX Runtime's C API header from Debian 13's
# libonnxruntime-dev (ci/onnxruntime-header.sh, cached), configured into the same build;
# python/tests/test_onnxruntime.py must find it (NDPAD_REQUIRE_ORT=1: no skip).
step "B. the ONNX Runtime custom-op library and the OpenVINO extension"
ort_include="$(bash ci/onnxruntime-header.sh)"
cmake -S "$root" -B "$build_dir" -DNDPAD_ORT_INCLUDE_DIR="$ort_include" >/dev/null
# The OpenVINO extension: the repository's CMake against the venv's openvino SDK (the same
# build tree, now configured with OpenVINO_DIR too; the build makes both libraries); the
# pytest run below tests it (python/tests/test_openvino.py), then the package's own
# first-use build is checked.
NDPAD_OPENVINO_EXTENSION="$(bash ci/openvino-extension.sh "$vpy" "$build_dir" 2>"$work/openvino.log")" \
    || { cat "$work/openvino.log"; fail "the OpenVINO extension did not build"; }
export NDPAD_OPENVINO_EXTENSION
[ -f "$build_dir/libndpad-onnxruntime.so" ] || fail "no $build_dir/libndpad-onnxruntime.so"

step "B. PyPI: pytest (but the torch tests: ci/test-torch.sh's) with $("$vpy" -c 'import numpy, dask, onnxruntime, openvino; print("numpy", numpy.__version__, "dask", dask.__version__, "onnxruntime", onnxruntime.__version__, "openvino", openvino.__version__)')"
NDPAD_REQUIRE_ORT=1 NDPAD_LIBRARY="$build_dir/libndpad.so" NDPAD_TUNER="$build_dir/tuning/ndpad-tune" \
    "$vpy" -m pytest -q -p no:cacheprovider --ignore=python/tests/test_torch.py --ignore=python/tests/test_torch_ops.py \
    --ignore=python/tests/test_dlpack.py -k "not torch" python/tests </dev/null
# A process of its own: JAX's threads must not be running when test_fork.py forks.
step "B. PyPI: ndpad.pad on torch, JAX and array-api-strict arrays through DLPack"
NDPAD_LIBRARY="$build_dir/libndpad.so" "$vpy" -m pytest -q -p no:cacheprovider \
    python/tests/test_dlpack.py </dev/null
step "B. PyPI: numpy's and dask's own pad tests, routed to ndpad"
NDPAD_LIBRARY="$build_dir/libndpad.so" PYTHONPATH="$root/python" "$vpy" ci/upstream-pad-tests.py </dev/null

# ndpad.openvino without NDPAD_OPENVINO_EXTENSION: compiled at first use from the package's
# sources against the venv's openvino, then a conv net and wrap through it.
step "B. PyPI: ndpad.openvino's first-use build"
NDPAD_LIBRARY="$build_dir/libndpad.so" NDPAD_OPENVINO_CACHE="$work/openvino-cache" \
    env -u NDPAD_OPENVINO_EXTENSION "$vpy" -m pytest -q -p no:cacheprovider \
    python/tests/test_openvino.py -k "test_conv_net_every_mode and 19 or test_onnx_wrap" </dev/null
ls "$work"/openvino-cache/openvino-*/libndpad_openvino.so >/dev/null \
    || fail "ndpad.openvino did not build its extension at first use"

# ndpad.torch on PyPI's torch 2: native kernels built at first use, then every torch test.
step "B. PyPI: ci/test-torch.sh $vpy"
bash ci/test-torch.sh "$vpy" "$build_dir"
# The READMEs' code blocks as a reader runs them (the torch kernels test-torch.sh just built).
step "B. PyPI: README.md's and python/README.md's code blocks (ci/readme-blocks.py)"
"$vpy" ci/readme-blocks.py --python "$vpy" --build "$build_dir" </dev/null

untracked() { (cd "$root" && find python -print | LC_ALL=C sort); }  # no .git needed
before="$(untracked)"
check='import ndpad, numpy as np; print(ndpad.pad(np.arange(4), 2, "reflect"))'
want='[2 1 0 1 2 3 2 1]'
# A fresh venv with numpy and pytest from the wheelhouse ci/python-venv.sh filled.
wheelhouse="${NDPAD_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/ndpad/wheelhouse}"
fresh_venv() {
    /usr/bin/python3 -m venv "$1"
    "$1/bin/pip" install -q --no-index --find-links "$wheelhouse" numpy pytest </dev/null
}
# torch in a fresh venv: the PyPI venv's, seen through a .pth file (appended to sys.path
# after the fresh venv's own site-packages, so its ndpad wins; $venv holds no ndpad).
# Installing torch from the wheelhouse instead took 2 min 20 s and 5.4 GB (torch needs its
# CUDA packages to import); this takes nothing, and the torch is the same.
with_torch() {
    local purelib
    purelib="$("$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    "$vpy" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' >"$purelib/ci-torch.pth"
}
torch_env=(env -u NDPAD_LIBRARY -u NDPAD_TORCH_NATIVE -u NDPAD_TORCH_BUILD LD_LIBRARY_PATH=
           NDPAD_TORCH_CACHE="$work/torch-cache")

# The wheel: pip wheel (the venv's scikit-build-core, no build isolation), then auditwheel.
step "B. wheel: pip wheel ."
start=$SECONDS
"$venv/bin/pip" wheel -q --no-deps --no-build-isolation -w "$work/dist" "$root" </dev/null \
    || fail "pip wheel . failed"
echo "test-python: pip wheel took $((SECONDS - start)) s"
wheel="$(ls "$work/dist"/ndpad-*.whl)"
case "$(basename "$wheel")" in
    ndpad-*-py3-none-linux_*.whl) ;;
    *) fail "$(basename "$wheel"): expected a py3-none-linux_<arch> wheel carrying libndpad" ;;
esac
PATH="$venv/bin:$PATH" "$venv/bin/auditwheel" repair -w "$work/wheelhouse" "$wheel" </dev/null \
    >"$work/repair.log" 2>&1 || { cat "$work/repair.log"; fail "auditwheel repair failed"; }
repaired="$(ls "$work/wheelhouse"/ndpad-*.whl)"
show="$(PATH="$venv/bin:$PATH" "$venv/bin/auditwheel" show "$repaired")"
echo "$show" | sed -n '2,3p'
grep -q 'consistent with the following platform tag: *"manylinux_' <<<"$(tr '\n' ' ' <<<"$show")" \
    || fail "auditwheel show reports no manylinux tag: $show"
case "$(basename "$repaired")" in
    ndpad-*-py3-none-manylinux_*.whl) ;;
    *) fail "the repaired wheel is $(basename "$repaired")" ;;
esac
# The listing first, then grep (grep -q closing the pipe would fail it under pipefail).
listing="$("$py" -m zipfile -l "$repaired")"
for f in ndpad/libndpad.so ndpad/include/ndpad.h ndpad/bin/ndpad-tune ndpad/_torch_native.cpp \
         ndpad.libs/libgomp ndpad.libs/libhwloc ndpad/_openvino/pad-op.cpp ndpad/openvino.py; do
    grep -q "^${f//./\\.}" <<<"$listing" || fail "$(basename "$repaired") holds no $f"
done
! grep -q "libndpad_torch" <<<"$listing" \
    || fail "$(basename "$repaired") holds a prebuilt libndpad_torch.so (it must match the user's torch)"
echo "test-python: $(basename "$repaired"): libndpad.so, ndpad.h, ndpad-tune, the torch kernels' source, hwloc and libgomp in ndpad.libs/"

step "B. wheel: installed into a fresh venv"
fresh_venv "$work/venv-wheel"
"$work/venv-wheel/bin/pip" install -q --no-index "$repaired" </dev/null
nolib=(env -u NDPAD_LIBRARY -u NDPAD_TORCH_NATIVE LD_LIBRARY_PATH= "$work/venv-wheel/bin/python")
cd "$work"
got="$("${nolib[@]}" -c '
import ndpad, numpy as np
print(ndpad.library_path)
print(ndpad.pad(np.arange(4), 2, "reflect"))
libs = sorted({l.split()[-1] for l in open("/proc/self/maps") if "ndpad.libs/" in l})
print(" ".join(libs))')" || fail "the installed wheel: import ndpad failed"
lines=()
mapfile -t lines <<<"$got"
case "${lines[0]}" in
    "$work/venv-wheel/"*/site-packages/ndpad/libndpad.so) ;;
    *) fail "the installed wheel did not load its own library (loaded: ${lines[0]})" ;;
esac
[ "${lines[1]}" = "$want" ] || fail "the installed wheel printed '${lines[1]}', expected '$want'"
grep -q "ndpad.libs/libgomp" <<<"${lines[2]}" && grep -q "ndpad.libs/libhwloc" <<<"${lines[2]}" \
    || fail "the installed wheel's libndpad did not load the grafted libgomp and hwloc (${lines[2]})"
echo "test-python: the installed wheel loads ${lines[0]} with ${lines[2]}"
# (but the 4 GiB cases of test_large.py, which the source-tree runs took on the same code)
env -u NDPAD_LIBRARY -u NDPAD_TUNER NDPAD_TEST_INSTALLED=1 "$work/venv-wheel/bin/python" -m pytest -q \
    -p no:cacheprovider --ignore="$root/python/tests/test_torch.py" \
    --ignore="$root/python/tests/test_torch_ops.py" -k "not test_large_ and not torch" \
    "$root/python/tests" </dev/null

# ndpad.torch from the installed wheel: the first install() compiles the native kernels
# against torch from the wheel's ndpad/include/ndpad.h (into an empty cache), then they run
# on torch's pool (no ndpad-worker thread; torch.set_num_threads governs them).
step "B. wheel: ndpad.torch's native kernels, built at first use from the installed wheel"
with_torch "$work/venv-wheel"
start=$SECONDS
got="$("${torch_env[@]}" "$work/venv-wheel/bin/python" -c '
import ndpad.torch as nt
from ndpad import _torch_build
nt.install()
print(nt.native_status())
print(_torch_build.default_include())')" || fail "the installed wheel: ndpad.torch.install() failed"
mapfile -t lines <<<"$got"
case "${lines[0]}" in
    "native: $work/torch-cache/"*) ;;
    *) fail "the installed wheel did not build its native torch kernels: ${lines[0]}" ;;
esac
case "${lines[1]}" in
    "$work/venv-wheel/"*/site-packages/ndpad/include) ;;
    *) fail "the installed wheel's kernels were not built from its own ndpad.h (${lines[1]})" ;;
esac
echo "test-python: the installed wheel built ${lines[0]#native: } in $((SECONDS - start)) s"
"${torch_env[@]}" NDPAD_TEST_INSTALLED=1 NDPAD_TEST_NATIVE=1 "$work/venv-wheel/bin/python" \
    -m pytest -q -p no:cacheprovider -k "installed_header or torchs_pool" \
    "$root/python/tests/test_torch_ops.py" </dev/null
cd "$root"

# pip install . from the repository root (build isolation: scikit-build-core from PyPI).
step "B. pip install . into a fresh venv"
fresh_venv "$work/venv-install"
start=$SECONDS
"$work/venv-install/bin/pip" install -q "$root" </dev/null || fail "pip install . failed"
echo "test-python: pip install . took $((SECONDS - start)) s"
[ "$(untracked)" = "$before" ] || fail "the pip build left files in python/: $(diff <(echo "$before") <(untracked))"
nolib=(env -u NDPAD_LIBRARY LD_LIBRARY_PATH= "$work/venv-install/bin/python")
cd "$work"
got="$("${nolib[@]}" -c 'import ndpad; print(ndpad.library_path)')" \
    || fail "pip install .: import without NDPAD_LIBRARY failed"
case "$got" in
    "$work/venv-install/"*/site-packages/ndpad/libndpad.so) ;;
    *) fail "pip install .: the package did not load its own library (loaded: $got)" ;;
esac
got="$("${nolib[@]}" -c "$check")" || fail "pip install .: pad failed"
[ "$got" = "$want" ] || fail "pip install . printed '$got', expected '$want'"
# Its ndpad.h is where the wheel's is: the same sources, so the same cache entry loads
# (NDPAD_TORCH_BUILD=0: nothing compiled again).
with_torch "$work/venv-install"
got="$("${torch_env[@]}" NDPAD_TORCH_BUILD=0 "$work/venv-install/bin/python" \
       -c 'import ndpad.torch as nt; nt.install(); print(nt.native_status())')" \
    || fail "pip install .: ndpad.torch.install() failed"
case "$got" in
    "native: $work/torch-cache/"*) ;;
    *) fail "pip install .: the native torch kernels were not found: $got" ;;
esac
# NDPAD_LIBRARY comes first.
got="$(NDPAD_LIBRARY="$build_dir/libndpad.so" "$work/venv-install/bin/python" \
       -c 'import ndpad; print(ndpad.library_path)')"
[ "$got" = "$build_dir/libndpad.so" ] || fail "NDPAD_LIBRARY did not win (loaded: $got)"
# Without its own library, the package finds a system one: a clear message when there is
# none, LD_LIBRARY_PATH, and `cmake --install` into the venv's prefix.
rm "$work"/venv-install/lib/python3*/site-packages/ndpad/libndpad.so
system_lib=0
if msg="$("${nolib[@]}" -c 'import ndpad; print(ndpad.library_path)' 2>&1)"; then
    echo "test-python: note: found a system-wide libndpad ($msg); not-found message unchecked"
    system_lib=1
else
    grep -q "NDPAD_LIBRARY" <<<"$msg" || fail "unhelpful message when libndpad is missing: $msg"
fi
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
libdir="$(dirname "$(find "$work/prefix" -name 'libndpad.so.0' | head -n 1)")"
got="$(env -u NDPAD_LIBRARY LD_LIBRARY_PATH="$libdir" "$work/venv-install/bin/python" -c "$check")" \
    || fail "package without library: import with LD_LIBRARY_PATH=$libdir failed"
[ "$got" = "$want" ] || fail "package without library printed '$got', expected '$want'"
cmake --install "$build_dir" --prefix "$work/venv-install" >/dev/null
got="$("${nolib[@]}" -c 'import ndpad; print(ndpad.library_path)')"
case "$system_lib:$got" in
    0:"$work/venv-install/"* | 1:*) ;;
    *) fail "a library installed into the venv prefix was not found (loaded: $got)" ;;
esac
cd "$root"
step "Debian and PyPI suites, numpy's and dask's own pad tests, the manylinux wheel, pip install . and the lookup order OK; all Python tests passed"
