#!/usr/bin/env bash
# ndpad.torch on a torch >= 2.4 (PyPI's): the operators (opcheck, torch.compile, torch.export,
# autograd), install() with the native kernels and with the Python ones, install/uninstall
# while other threads pad, and the native kernels compiled at first use against this torch.
# Usage: ci/test-torch.sh PYTHON [build-dir]
#   PYTHON     a python whose environment has torch >= 2.4, numpy, pytest and expecttest
#              (ci/python-venv.sh makes one; by hand: python3 -m venv V && V/bin/pip install
#              torch numpy pytest expecttest)
#   build-dir  libndpad's build (default build/, built here with ci/build.sh if missing)
# The native kernels are compiled the way a user gets them: install() at first use, into
# NDPAD_TORCH_CACHE (here build-dir/torch-cache, kept: rebuilt only when torch or the sources
# change). Non-interactive: works with CI=true and no stdin.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: ci/test-torch.sh PYTHON [build-dir]" >&2; exit 2; }
py="$1"
build_dir="$(realpath -m "${2:-$root/build}")"
cd "$root"
export PYTHONDONTWRITEBYTECODE=1
fail() { echo "test-torch: FAIL: $*" >&2; exit 1; }

"$py" - <<'PY' || fail "$py has no torch >= 2.4 with numpy, pytest and expecttest"
import expecttest, numpy, pytest, torch
v = tuple(int("".join(c for c in p if c.isdigit()) or 0) for p in torch.__version__.split("+")[0].split(".")[:2])
assert v >= (2, 4), torch.__version__
print("test-torch: torch %s, numpy %s, %s" % (torch.__version__, numpy.__version__, __import__("sys").executable))
PY

[ -f "$build_dir/libndpad.so" ] || bash ci/build.sh "$build_dir"
[ -f "$build_dir/libndpad.so" ] || fail "no $build_dir/libndpad.so after the build"
export NDPAD_LIBRARY="$build_dir/libndpad.so"
export NDPAD_TORCH_CACHE="$build_dir/torch-cache"
unset NDPAD_TORCH_NATIVE NDPAD_TORCH_BUILD

# The native kernels, built at first use by install() exactly as a user's first install().
start=$SECONDS
got="$(PYTHONPATH="$root/python" "$py" -c 'import ndpad.torch as nt; nt.install(); print(nt.native_status())' </dev/null)" \
    || fail "install() failed"
case "$got" in
    "native: $NDPAD_TORCH_CACHE/"*) echo "test-torch: native kernels ready in $((SECONDS - start)) s: ${got#native: }" ;;
    *) fail "install() did not build and load the native kernels: $got" ;;
esac

# 1. Everything, with the native kernels (a failure to load them fails the tests).
NDPAD_TEST_NATIVE=1 "$py" -m pytest -q -p no:cacheprovider python/tests/test_torch.py \
    python/tests/test_torch_ops.py python/tests/test_torch_channels.py </dev/null
#    The torch cases of the fork and 64-bit suites too (the native kernels' plan cache held
#    across fork(); F.pad to a 4 GiB output through them).
NDPAD_TEST_NATIVE=1 "$py" -m pytest -q -p no:cacheprovider -k torch python/tests/test_fork.py \
    python/tests/test_large.py </dev/null
# 2. install() with the Python kernels (one implementation per process: another run).
NDPAD_TORCH_NATIVE=0 "$py" -m pytest -q -p no:cacheprovider -k "install or native" \
    python/tests/test_torch.py python/tests/test_torch_ops.py </dev/null
echo "test-torch: all torch tests passed"
