#!/usr/bin/env python3
"""Fails when modules of the Python package (python/ndpad) import each other in a circle.

A module imports another when any of its import statements names it, at the top or inside a
function (an import that runs later is still a dependency: a circle of them is the same
tangle, and only the order of first use keeps it from failing). Relative imports are
resolved against the module's package; `from . import x` names the submodule x when one
exists. Importing a submodule implicitly imports its parent packages first; that implicit
step is not counted (it is Python's, not the module's). Imports of other packages (numpy,
torch) are ignored. Also fails on `# noqa: E402` (an import below code: the mark of an import
ordered by hand around a circle).

Usage: ci/check-imports.py [--root DIR] [--graph]
Exit status: 0 without circles, 1 with (each printed with the imports that make it), 2 when
its own self-test (a small package with a known circle) fails. ci/check-deps.py is the same
check for the C units of src/."""

import argparse
import ast
import os
import sys


def modules_of(package_dir, package):
    """{module name: path} for every .py file of the package (subpackages included)."""
    found = {}
    for folder, dirs, names in os.walk(package_dir):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, package_dir)
        prefix = package if rel == "." else package + "." + rel.replace(os.sep, ".")
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            found[prefix if name == "__init__.py" else prefix + "." + name[:-3]] = path
    return found


def imports_of(name, path, modules):
    """{imported module: [line numbers]} of one module, within `modules`."""
    is_package = os.path.basename(path) == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    found = {}

    def add(target, line):
        if target in modules and target != name:
            found.setdefault(target, []).append(line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                base = ".".join(base)
                target = base + "." + node.module if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:
                if target + "." + alias.name in modules:  # from . import submodule
                    add(target + "." + alias.name, node.lineno)
                else:
                    add(target, node.lineno)
    return found


def _check_deps():
    """ci/check-deps.py as a module (its file name is no identifier): its circles() finds the
    strongly connected components of any {node: {other: ...}} graph."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "check_deps", os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-deps.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


circles = _check_deps().circles


def graph_of(package_dir, package):
    modules = modules_of(package_dir, package)
    return modules, {m: imports_of(m, p, modules) for m, p in modules.items()}


def self_test():
    """A package with a circle made of a top-level and a function-level import is refused;
    the same package without the function-level one passes."""
    import tempfile
    files = {
        "__init__.py": "from .a import run\n",
        "a.py": "from . import b\n\ndef run():\n    return b.step()\n",
        "b.py": "import numpy\n\ndef step():\n    from .c import helper\n    return helper()\n",
        "c.py": "def helper():\n    from . import a\n    return a\n",
    }
    with tempfile.TemporaryDirectory() as root:
        pkg = os.path.join(root, "pkg")
        os.mkdir(pkg)
        for name, text in files.items():
            with open(os.path.join(pkg, name), "w") as f:
                f.write(text)
        found = circles(graph_of(pkg, "pkg")[1])
        if found != [["pkg.a", "pkg.b", "pkg.c"]]:
            return "the circle a -> b -> c -> a was not found (got %r)" % found
        with open(os.path.join(pkg, "c.py"), "w") as f:
            f.write("def helper():\n    return 1\n")
        if circles(graph_of(pkg, "pkg")[1]):
            return "a package without a circle was refused"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--graph", action="store_true")
    args = parser.parse_args()
    problem = self_test()
    if problem:
        print("check-imports: self-test failed: %s" % problem, file=sys.stderr)
        return 2
    package_dir = os.path.join(args.root, "python", "ndpad")
    modules, graph = graph_of(package_dir, "ndpad")
    if args.graph:
        for m in sorted(graph):
            print("%-28s -> %s" % (m, ", ".join(sorted(graph[m])) or "-"))
    status = 0
    for component in circles(graph):
        status = 1
        print("check-imports: circle between %s:" % ", ".join(component), file=sys.stderr)
        for a in component:
            for b in component:
                if b in graph[a]:
                    print("  %s -> %s (line %s)" % (a, b, ", ".join(map(str, graph[a][b]))),
                          file=sys.stderr)
    for m, path in sorted(modules.items()):
        with open(path, encoding="utf-8") as f:
            for k, line in enumerate(f, 1):
                if "noqa: E402" in line:
                    status = 1
                    print("check-imports: %s:%d: an import below code (noqa: E402)" % (
                        os.path.relpath(path, args.root), k), file=sys.stderr)
    if status == 0:
        print("check-imports: %d modules of python/ndpad, no circle, imports at the top"
              % len(modules))
    return status


if __name__ == "__main__":
    sys.exit(main())
