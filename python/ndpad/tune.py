"""Tune ndpad for this machine from Python: `python -m ndpad.tune [options]` or
`ndpad.tune.tune(...)`. Both run ndpad-tune, the tuner the wheel ships inside the package
(ndpad/bin/ndpad-tune; `ndpad-tune --help` is its manual), which measures the plans' choices
per problem class and writes the wisdom file that libndpad reads: $NDPAD_WISDOM, else
$XDG_CACHE_HOME/ndpad/wisdom or ~/.cache/ndpad/wisdom. The same file serves C and Python
programs. It shows a progress bar on a terminal and ends with a table of what it chose.

On a loaded machine (other processes busy, noisy timings) it refuses: nothing is written,
`python -m ndpad.tune` exits with status 3 and tune() raises TuningRefused."""

import os
import shutil
import subprocess
import sys

__all__ = ["tune", "tuner_path", "TuningRefused", "main"]


class TuningRefused(RuntimeError):
    """Nothing was tuned (every class refused on a loaded machine, or the budget too short
    for any class); the wisdom file was left as it was."""


def tuner_path():
    """The ndpad-tune executable: $NDPAD_TUNER when set, else the one inside this package
    (a wheel or `pip install .`), else `ndpad-tune` on PATH (`cmake --install`); None when
    there is none."""
    env = os.environ.get("NDPAD_TUNER")
    if env:
        return env if os.access(env, os.X_OK) else None
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "ndpad-tune")
    if os.access(here, os.X_OK):
        return here
    return shutil.which("ndpad-tune")


def _command(budget, problems, cache, threads, check, noise, save):
    tuner = tuner_path()
    if tuner is None:
        raise FileNotFoundError(
            "ndpad-tune not found: it ships in ndpad's wheel (ndpad/bin/ndpad-tune) and is "
            "built by CMake (build/tuning/ndpad-tune); set NDPAD_TUNER to its path")
    args = [tuner, "--budget", repr(float(budget))]
    for spec in problems:
        args += ["--problem", str(spec)]
    if cache is not None:
        args += ["--cache", os.fspath(cache)]
    if threads is not None:
        threads = [threads] if isinstance(threads, int) else list(threads)
        args += ["--threads", ",".join(str(int(t)) for t in threads)]
    if check:
        args.append("--check")
    if noise is not None:
        args += ["--noise", repr(float(noise))]
    if not save:
        args.append("--no-save")
    return args


def tune(budget=30.0, problems=(), *, cache=None, threads=None, check=False, noise=None,
         save=True, quiet=False):
    """Runs ndpad-tune and returns its table (stdout) as text.

    budget: seconds in all (the tuner keeps within it).
    problems: specs such as "shape=1,64,256,256 pads=0,0,1,1/0,0,1,1 mode=constant esize=4";
        empty: the standard benchmark classes.
    cache: the wisdom file (default: the one libndpad reads, see the module's text).
    threads: a thread budget or a list of them (default 1 and all cores).
    check: re-measure stored entries and drop those that no longer win.
    noise: take the machine's noise as this fraction instead of measuring it (for tests only).
    save: False measures and prints but writes nothing.
    quiet: no progress on stderr.

    Raises ValueError for arguments ndpad-tune refuses (its message), TuningRefused when
    nothing was tuned, OSError when the wisdom file cannot be written."""
    args = _command(budget, problems, cache, threads, check, noise, save)
    run = subprocess.run(args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE if quiet else None, text=True)
    if run.returncode == 0:
        return run.stdout
    detail = (run.stderr or run.stdout or "").strip()
    if run.returncode == 2:
        raise ValueError("ndpad.tune: " + (detail or "bad arguments"))
    if run.returncode == 3:
        raise TuningRefused("ndpad.tune: nothing tuned (machine loaded, or the budget too short); "
                            "the wisdom file is unchanged\n" + run.stdout)
    raise OSError("ndpad.tune: ndpad-tune failed with status %d: %s" % (run.returncode, detail))


def main(argv=None):
    """`python -m ndpad.tune [ndpad-tune options]`: runs the tuner with these options (its
    progress bar and table on this terminal) and exits with its status."""
    argv = sys.argv[1:] if argv is None else argv
    tuner = tuner_path()
    if tuner is None:
        print("python -m ndpad.tune: ndpad-tune not found (set NDPAD_TUNER to its path)",
              file=sys.stderr)
        return 1
    return subprocess.call([tuner] + list(argv))


if __name__ == "__main__":
    sys.exit(main())
