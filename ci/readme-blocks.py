#!/usr/bin/env python3
"""Runs the code blocks of README.md and python/README.md as a reader would.

Every fenced block with a language is code and must run as written:
  ```python   written to a file and run by PYTHON in a fresh interpreter (NDPAD_LIBRARY at the
              build's libndpad.so, PYTHONPATH at python/, as ci/test-python.sh runs pytest);
  ```c        compiled with `cc -std=c11` against include/ and the build's libndpad.so (with an
              rpath) and run: it must be a whole program;
  ```sh       run by `bash -euo pipefail` in a scratch directory that mirrors the repository
              root (each top-level entry a symlink; `build` is BUILD_DIR), HOME a scratch
              directory too, so an install into "$HOME/..." stays there.
A block that must not run here (a pip install from PyPI, the 18-minute main job) is preceded by
the line `<!-- not run: WHY -->`; a block in any other language (cmake, ...) needs that line
too. Blocks without a language (or `text`) are output, not code. Each block must exit 0; a
failure names the file and the line of its fence. Usage:
  ci/readme-blocks.py [--python PY] [--build DIR] [--list] [FILE ...]
(default: this interpreter, build/, README.md and python/README.md)
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = ("python", "c", "sh", "bash")
OUTPUT = ("", "text")
NOT_RUN = re.compile(r"^<!-- not run: (.+?) -->$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
TIMEOUT = 300


class Block:
    def __init__(self, path, line, lang, text, not_run):
        self.path, self.line, self.lang, self.text, self.not_run = path, line, lang, text, not_run

    def where(self):
        return f"{os.path.relpath(self.path, ROOT)}:{self.line}"


def blocks(path):
    """The fenced blocks of a Markdown file, with the line of each opening fence (1-based)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found, i, last = [], 0, ""
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if lines[i].strip():
                last = lines[i].strip()
            i += 1
            continue
        indent, fence, lang = m.group(1), m.group(2), m.group(3).lower()
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line)
            i += 1
        i += 1
        why = NOT_RUN.match(last)
        found.append(Block(path, start, lang, "\n".join(body) + "\n", why.group(1) if why else None))
        last = ""
    return found


def scratch_tree(work, build):
    """A directory that looks like the repository root, with `build` at the build directory."""
    tree = os.path.join(work, "tree")
    os.makedirs(tree)
    for name in os.listdir(ROOT):
        if name not in ("build", ".git"):
            os.symlink(os.path.join(ROOT, name), os.path.join(tree, name))
    os.symlink(build, os.path.join(tree, "build"))
    return tree


def run(block, n, args, work, env):
    """Runs one block; returns (ok, output)."""
    here = os.path.join(work, f"block{n}")
    os.makedirs(here)
    if block.lang == "python":
        src = os.path.join(here, "block.py")
        cmds, cwd = [[args.python, src]], here
    elif block.lang == "c":
        if not re.search(r"\bint\s+main\s*\(", block.text):
            return False, "a C block must be a whole program (int main) or be marked not run"
        src, exe = os.path.join(here, "block.c"), os.path.join(here, "block")
        cc = os.environ.get("CC", "cc")
        cmds = [[cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(ROOT, "include"),
                 "-o", exe, src, "-L", args.build, "-lndpad", f"-Wl,-rpath,{args.build}",
                 "-lpthread"], [exe]]
        cwd = here
    else:
        src = os.path.join(here, "block.sh")
        cmds, cwd = [["bash", "-euo", "pipefail", src]], env["NDPAD_README_TREE"]
    with open(src, "w", encoding="utf-8") as f:
        f.write(block.text)
    out = []
    for cmd in cmds:
        # a session of its own, so that a timeout ends the block's children too
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
        try:
            text, _ = p.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            text, _ = p.communicate()
            return False, "".join(out) + text + f"timed out after {TIMEOUT} s: {' '.join(cmd)}"
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
        out.append(text)
        if p.returncode != 0:
            return False, "".join(out) + f"exit status {p.returncode}: {' '.join(cmd)}"
    return True, "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--python", default=sys.executable, help="the interpreter of python blocks")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the build directory")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="blocks run at once (default 2)")
    ap.add_argument("--only", action="append", choices=RUN, help="run only blocks of this language")
    ap.add_argument("--list", action="store_true", help="list the blocks, run nothing")
    ap.add_argument("files", nargs="*",
                    default=[os.path.join(ROOT, "README.md"), os.path.join(ROOT, "python", "README.md")])
    args = ap.parse_args()
    args.build = os.path.realpath(args.build)
    args.python = shutil.which(args.python) or args.python

    todo, errors = [], []
    for path in args.files:
        for b in blocks(os.path.realpath(path)):
            if b.not_run is not None:
                print(f"readme-blocks: {b.where()}: {b.lang or 'text'} block not run: {b.not_run}")
            elif b.lang in RUN:
                if not args.only or b.lang in args.only:
                    todo.append(b)
            elif b.lang not in OUTPUT:
                errors.append(f"{b.where()}: a ```{b.lang} block: run only python, c and sh blocks;"
                              " mark others with <!-- not run: why -->")
    if args.list:
        for b in todo:
            print(f"readme-blocks: {b.where()}: {b.lang} block")
        return 0
    lib = os.path.join(args.build, "libndpad.so")
    if not os.path.exists(lib):
        print(f"readme-blocks: FAIL: no {lib} (build first)", file=sys.stderr)
        return 1

    work = tempfile.mkdtemp(prefix="ndpad-readme.")
    try:
        home = os.path.join(work, "home")
        os.makedirs(home)
        env = dict(os.environ, NDPAD_LIBRARY=lib, HOME=home, MPLBACKEND="Agg",
                   PYTHONPATH=os.path.join(ROOT, "python"), PYTHONDONTWRITEBYTECODE="1",
                   NDPAD_README_TREE=scratch_tree(work, args.build),
                   # the torch kernels ci/test-torch.sh built, never compiled here (seconds)
                   NDPAD_TORCH_CACHE=os.path.join(args.build, "torch-cache"), NDPAD_TORCH_BUILD="0")
        env.pop("NDPAD_TORCH_NATIVE", None)
        def one(n):
            t0 = time.monotonic()
            ok, out = run(todo[n], n, args, work, env)
            return ok, out, time.monotonic() - t0

        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for b, (ok, out, took) in zip(todo, pool.map(one, range(len(todo)))):
                if ok:
                    print(f"readme-blocks: {b.where()}: {b.lang} block OK ({took:.1f} s)", flush=True)
                else:
                    errors.append(f"{b.where()}: {b.lang} block failed ({took:.1f} s):\n{out.rstrip()}")
                    print(f"readme-blocks: FAIL: {errors[-1]}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if errors:
        print(f"readme-blocks: FAIL: {len(errors)} of the blocks above failed:", file=sys.stderr)
        for e in errors:
            print(f"  {e.splitlines()[0]}", file=sys.stderr)
        return 1
    print(f"readme-blocks: {len(todo)} blocks ran as written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
