#!/usr/bin/env python3
"""numpy's and dask's own pad tests, from the installed numpy and dask, with every pad call
routed to ndpad: numpy/lib/tests/test_arraypad.py with `np.pad(` -> `ndpad.pad(`, and
dask/array/tests/test_creation.py (`-k pad`) with `da.pad(` -> `ndpad.dask.pad(`. With
numpy >= 2.1, the cases dask skips as its own bug (pads larger than the axis in reflect,
symmetric and wrap: dask issue 5303) run too.

Usage: PYTHON ci/upstream-pad-tests.py [numpy] [dask]   (default: both)
Run with the interpreter whose numpy and dask are to be tested; ndpad is imported as that
interpreter finds it (PYTHONPATH=python and NDPAD_LIBRARY for a checkout). A copy of each
file is rewritten into a temporary directory with a conftest.py that counts the calls that
reach ndpad and fails the run when none did (or when a call of the original is left), so a
green run cannot come from tests that never called ndpad. Exits with pytest's status.
"""

import os
import re
import subprocess
import sys
import tempfile

CONFTEST = '''
import ndpad, ndpad.dask

calls = {"ndpad.pad": 0, "ndpad.dask.pad": 0}
_pad, _dask_pad = ndpad.pad, ndpad.dask.pad


def _counted_pad(*args, **kwargs):
    calls["ndpad.pad"] += 1
    return _pad(*args, **kwargs)


def _counted_dask_pad(*args, **kwargs):
    calls["ndpad.dask.pad"] += 1
    return _dask_pad(*args, **kwargs)


ndpad.pad, ndpad.dask.pad = _counted_pad, _counted_dask_pad


def pytest_sessionfinish(session, exitstatus):
    want = "%(want)s"
    print("\\nupstream-pad-tests: calls that reached %%s: %%d (ndpad %%s, library %%s)"
          %% (want, calls[want], ndpad.__file__, ndpad.library_path))
    if calls[want] == 0:
        print("upstream-pad-tests: FAIL: no test called %%s" %% want)
        session.exitstatus = 1
'''


def routed(source, target, pattern, replacement, module, want):
    with open(source, encoding="utf-8") as f:
        text = f.read()
    text, count = re.subn(pattern, replacement, text)
    if count == 0:
        sys.exit("upstream-pad-tests: no %s in %s" % (pattern, source))
    # `import ndpad...` right after the file's `import numpy as np`.
    text, n = re.subn(r"^import numpy as np$", "import numpy as np\nimport %s" % module, text,
                      count=1, flags=re.M)
    if n != 1:
        sys.exit("upstream-pad-tests: no `import numpy as np` line in %s" % source)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(os.path.dirname(target), "conftest.py"), "w") as f:
        f.write(CONFTEST % {"want": want})
    print("upstream-pad-tests: %s: %d calls routed to %s" % (source, count, want), flush=True)


def main():
    which = sys.argv[1:] or ["numpy", "dask"]
    import numpy
    status = 0
    with tempfile.TemporaryDirectory(prefix="ndpad-upstream-") as tmp:
        for name in which:
            if name == "numpy":
                source = os.path.join(os.path.dirname(numpy.__file__), "lib", "tests",
                                      "test_arraypad.py")
                # `np.pad(` but not `xnp.pad(`; the file's own `_as_pairs` etc. stay numpy's.
                target = os.path.join(tmp, "numpy", "test_arraypad_routed.py")
                routed(source, target, r"(?<![\w.])np\.pad\(", "ndpad.pad(", "ndpad", "ndpad.pad")
                args = [target]
                version = "numpy %s" % numpy.__version__
            elif name == "dask":
                import dask
                source = os.path.join(os.path.dirname(dask.__file__), "array", "tests",
                                      "test_creation.py")
                # The file name must not contain "pad": -k would select every test.
                target = os.path.join(tmp, "dask", "test_creation_routed.py")
                routed(source, target, r"(?<![\w.])da\.pad\(", "ndpad.dask.pad(", "ndpad.dask",
                       "ndpad.dask.pad")
                if tuple(int(v) for v in numpy.__version__.split(".")[:2]) >= (2, 1):
                    # dask skips reflect, symmetric and wrap in test_pad_3d_data, where pads
                    # exceed the axis (dask issue 5303); ndpad.dask is right there (numpy >=
                    # 2.1's results), so the copy runs them.
                    with open(target, encoding="utf-8") as f:
                        text = f.read()
                    text, n = re.subn(r"pytest\.mark\.skip(\(\s*reason=\"Bug when pad_width is "
                                      r"larger than dimension)", r"pytest.mark.ndpad_unskipped\1",
                                      text)
                    with open(target, "w", encoding="utf-8") as f:
                        f.write(text)
                    print("upstream-pad-tests: %d skips of dask issue 5303 (pads larger than "
                          "the axis) removed: ndpad.dask must pass them" % n, flush=True)
                args = [target, "-k", "pad"]
                version = "dask %s" % dask.__version__
            else:
                sys.exit("upstream-pad-tests: unknown suite %r (numpy or dask)" % name)
            print("upstream-pad-tests: %s's own pad tests, every call routed to ndpad"
                  % version, flush=True)
            rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "-rs", "-p",
                                  "no:cacheprovider", "-o", "addopts=", "-W",
                                  "ignore::pytest.PytestUnknownMarkWarning",
                                  "--rootdir", os.path.dirname(target)] + args,
                                 cwd=os.path.dirname(target), stdin=subprocess.DEVNULL)
            status = status or rc
    return status


if __name__ == "__main__":
    sys.exit(main())
