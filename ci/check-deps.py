#!/usr/bin/env python3
"""Fails when two units of src/ depend on each other in a circle.

A unit is a .c file with the header of the same name beside it (planner.c + planner.h), or a
header on its own (plan.h, checked.h). Unit A depends on unit B when A
  - calls a function B defines (any identifier followed by "(" that B's .c defines with
    external linkage, or that B's header defines as a static inline function or a
    function-like macro), or
  - includes B's header and B has a .c file (a header-only unit is a shared vocabulary of
    types: including it is no dependency of its own for circles, but calling its inline
    code is).
The level order (below) also counts every include, of header-only units and of `.inc`
lists too: a unit may not include a header of a higher level, even one that is only types
(mode-names.c including plan.h, isa-slots.h including isa-levels.inc).
Comments and string literals are ignored. The order the units may call each other in is
written down in HACKING.md ("Dependency order", a numbered list of levels naming units in
backquotes, `dir/*` for a folder): the check also refuses a unit that depends on one of a
higher level, and a unit the list does not name.

Usage: ci/check-deps.py [--root DIR] [--graph]
  --graph  also print every unit's dependencies (a quick map of src/)
Exit status: 0 without circles, 1 with (each circle printed with the calls that make it),
2 when its own self-test (a small tree with a known circle) fails."""

import argparse
import os
import re
import sys

C_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "defined", "_Alignof",
              "_Static_assert", "__attribute__", "__builtin_expect", "alignof", "do", "else"}


def strip_comments_and_strings(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                         re.S)
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def bodies(code):
    """The code a unit runs: function bodies (inside braces) and macro definitions; file-scope
    prototypes and declarations are left out (a prototype is no call)."""
    out, depth = [], 0
    for line in code.split("\n"):
        if line.lstrip().startswith("#"):
            out.append(line if re.match(r"\s*#\s*define\b", line) else "")
            continue
        kept = []
        for ch in line:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            kept.append(ch if depth > 0 else " ")
        out.append("".join(kept))
    return "\n".join(out)


def top_level_functions(code):
    """Names of the functions defined at file scope: (external, static inline, macros,
    every function defined here)."""
    external, inline, macros, local = set(), set(), set(), set()
    depth = 0
    statement = []
    for line in code.split("\n"):
        m = re.match(r"\s*#\s*define\s+(\w+)\(", line)
        if m:
            macros.add(m.group(1))
        if line.lstrip().startswith("#"):
            continue
        for ch in line:
            if depth == 0:
                statement.append(ch)
            if ch == "{":
                if depth == 0:
                    head = "".join(statement)
                    m = re.search(r"(\w+)\s*\([^;{}]*\)\s*(?:__attribute__\s*\(\(.*\)\)\s*)?\{$",
                                  head.strip(), re.S)
                    if m and m.group(1) not in C_KEYWORDS:
                        local.add(m.group(1))
                        is_static = re.search(r"\bstatic\b", head.split(m.group(1))[0])
                        (inline if is_static and "inline" in head else
                         external if not is_static else set()).add(m.group(1))
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    statement = []
            elif ch == ";" and depth == 0:
                statement = []
        if depth == 0:
            statement.append("\n")
    return external, inline, macros, local | macros


def collect_units(src):
    """{unit: {"files": [...], "code": {path: text}}} for every .c and .h under src/."""
    units = {}
    for folder, _, names in sorted(os.walk(src)):
        for name in sorted(names):
            if not name.endswith((".c", ".h", ".inc")):
                continue
            path = os.path.join(folder, name)
            unit = os.path.relpath(os.path.splitext(path)[0], src)
            with open(path, encoding="utf-8", errors="replace") as f:
                code = strip_comments_and_strings(f.read())
            units.setdefault(unit, {"files": [], "code": {}})
            units[unit]["files"].append(os.path.relpath(path, src))
            units[unit]["code"][path] = code
    return units


def dependencies(units, src, includes=None):
    """{unit: {other_unit: [reasons]}}; every include (header-only units too) also into
    `includes` when given, {unit: {other_unit: [reasons]}}."""
    provider = {}  # function or macro name -> unit
    header_of = {}  # include name as written ("plan.h", "kernels/kernels.h") -> unit
    has_c = {u for u, d in units.items() if any(f.endswith(".c") for f in d["files"])}
    for unit, data in units.items():
        for path, code in data["code"].items():
            external, inline, macros, _ = top_level_functions(code)
            names = external if path.endswith(".c") else inline | macros
            for name in names:
                provider.setdefault(name, unit)
            if path.endswith((".h", ".inc")):
                rel = os.path.relpath(path, src)
                header_of[rel] = unit
                header_of.setdefault(os.path.basename(rel), unit)
    deps = {u: {} for u in units}
    if includes is None:
        includes = {}
    for u in units:
        includes.setdefault(u, {})
    for unit, data in units.items():
        for path, code in data["code"].items():
            here = os.path.relpath(os.path.dirname(path), src)
            for m in re.finditer(r'#\s*include\s*"([^"]+)"', open(path).read()):
                name = os.path.normpath(os.path.join(here, m.group(1))) if here != "." \
                    else m.group(1)
                other = header_of.get(name, header_of.get(os.path.basename(m.group(1))))
                if other and other != unit:
                    why = "%s includes %s" % (os.path.basename(path), m.group(1))
                    includes[unit].setdefault(other, []).append(why)
                    if other in has_c:
                        deps[unit].setdefault(other, []).append(why)
            own = top_level_functions(code)[3]
            for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", bodies(code)):
                other = provider.get(m.group(1))
                if other and other != unit and m.group(1) not in own:
                    reasons = deps[unit].setdefault(other, [])
                    why = "%s calls %s" % (os.path.basename(path), m.group(1))
                    if why not in reasons:
                        reasons.append(why)
    return deps


def levels_from_hacking(path):
    """{pattern: level} from HACKING.md's "Dependency order" list: each numbered item is a
    level, each backquoted name in it (`plan.h`, `stream-plan.c`, `kernels/*`) a unit
    pattern; None when the section is missing."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"^## Dependency order\n(.*?)^## ", text, re.S | re.M)
    if not m:
        return None
    levels, level = {}, None
    for line in m.group(1).split("\n"):
        item = re.match(r"(\d+)\.\s", line)
        if item:
            level = int(item.group(1))
        elif not line.strip() or not line.startswith(" "):
            level = None if not line.strip() else level
            if line.strip() and not line.startswith(" "):
                continue
        if level is None:
            continue
        for name in re.findall(r"`([^`]+)`", line):
            levels.setdefault(re.sub(r"\.(c|h|inc)$", "", name), level)
    return levels


def unit_level(unit, levels):
    """The level of a unit (stream/blocks, plan, kernels/avx2/fill-any-avx2), or None."""
    if unit in levels:
        return levels[unit]
    folder = unit.split("/")[0]
    return levels.get(folder + "/*")


def order_violations(deps, levels, includes=None):
    """[(unit, other, reasons)] where a unit depends on one of a higher level (by a call, or
    by any include when `includes` is given), and [unit] for the units the list does not
    name."""
    unnamed = sorted(u for u in deps if unit_level(u, levels) is None)
    merged = {u: dict(deps[u]) for u in deps}
    for unit, others in (includes or {}).items():
        for other, reasons in others.items():
            merged.setdefault(unit, {}).setdefault(other, reasons)
    wrong = []
    for unit in sorted(merged):
        a = unit_level(unit, levels)
        for other in sorted(merged[unit]):
            b = unit_level(other, levels)
            if a is not None and b is not None and b > a:
                wrong.append((unit, other, merged[unit][other]))
    return wrong, unnamed


def circles(deps):
    """Strongly connected components with more than one unit (Tarjan)."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(deps[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(deps):
        if v not in index:
            visit(v)
    return result


def self_test():
    """The check finds a circle made of calls and includes, and passes a tree without one:
    a check that cannot fail would prove nothing."""
    import tempfile
    files = {
        "a.c": '#include "a.h"\n#include "b.h"\nint a_run(void) { return b_step(); }\n',
        "a.h": "int a_run(void);\n",
        "b.c": '#include "b.h"\n#include "c.h"\nint b_step(void) { return c_inline(); }\n',
        "b.h": "int b_step(void); /* a_run( in a comment is no call */\n",
        "c.h": "static inline int c_inline(void) { return 1; }\n",
    }
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(os.path.join(root, "src"))
        for name, text in files.items():
            with open(os.path.join(root, "src", name), "w") as f:
                f.write(text)
        src = os.path.join(root, "src")
        if circles(dependencies(collect_units(src), src)):
            return "a tree without a circle was refused"
        with open(os.path.join(src, "c.h"), "a") as f:  # c's inline code now calls a
            f.write("int a_run(void);\nstatic inline int c_back(void) { return a_run(); }\n")
        with open(os.path.join(src, "c.c"), "w") as f:
            f.write('#include "c.h"\n')
        found = circles(dependencies(collect_units(src), src))
        if found != [["a", "b", "c"]]:
            return "the circle a -> b -> c -> a was not found (got %r)" % found
        hacking = os.path.join(root, "HACKING.md")
        with open(hacking, "w") as f:
            f.write("## Dependency order\n\n1. `b.c`, `c.h`\n2. `a.c`\n\n## Next\n")
        deps = dependencies(collect_units(src), src)
        wrong, unnamed = order_violations(deps, levels_from_hacking(hacking))
        if [(u, o) for u, o, _ in wrong] != [("c", "a")] or unnamed:
            return "c calling a of a higher level was not found (got %r, %r)" % (
                [(u, o) for u, o, _ in wrong], unnamed)
        # A header-only unit of a higher level, included (types only, no call): an order
        # violation, though no circle.
        with open(os.path.join(src, "d.h"), "w") as f:
            f.write("typedef int d_type;\n")
        with open(os.path.join(src, "b.c"), "a") as f:
            f.write('#include "d.h"\n')
        with open(hacking, "w") as f:
            f.write("## Dependency order\n\n1. `b.c`, `c.h`\n2. `a.c`, `d.h`\n\n## Next\n")
        includes = {}
        deps = dependencies(collect_units(src), src, includes)
        wrong, _ = order_violations(deps, levels_from_hacking(hacking), includes)
        if ("b", "d") not in [(u, o) for u, o, _ in wrong]:
            return "b including d.h of a higher level was not found (got %r)" % (
                [(u, o) for u, o, _ in wrong],)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--graph", action="store_true")
    args = parser.parse_args()
    problem = self_test()
    if problem:
        print("check-deps: self-test failed: %s" % problem, file=sys.stderr)
        return 2
    src = os.path.join(args.root, "src")
    units = collect_units(src)
    includes = {}
    deps = dependencies(units, src, includes)
    if args.graph:
        for unit in sorted(deps):
            print("%-32s -> %s" % (unit, ", ".join(sorted(deps[unit])) or "-"))
    found = circles(deps)
    for component in found:
        print("check-deps: circle between %s:" % ", ".join(component), file=sys.stderr)
        for a in component:
            for b in component:
                if b in deps[a]:
                    print("  %s -> %s: %s" % (a, b, "; ".join(deps[a][b][:4])),
                          file=sys.stderr)
    if found:
        print("check-deps: %d circle(s) among the units of src/; see HACKING.md, "
              "\"Dependency order\"" % len(found), file=sys.stderr)
        return 1
    levels = levels_from_hacking(os.path.join(args.root, "HACKING.md"))
    if levels is None:
        print("check-deps: HACKING.md has no \"Dependency order\" list", file=sys.stderr)
        return 1
    wrong, unnamed = order_violations(deps, levels, includes)
    for unit in unnamed:
        print("check-deps: %s is in no level of HACKING.md's \"Dependency order\"" % unit,
              file=sys.stderr)
    for unit, other, reasons in wrong:
        print("check-deps: %s (level %d) depends on %s (level %d, higher): %s" % (
            unit, unit_level(unit, levels), other, unit_level(other, levels),
            "; ".join(reasons[:4])), file=sys.stderr)
    if wrong or unnamed:
        return 1
    print("check-deps: %d units of src/, no circle, in HACKING.md's level order" % len(units))
    return 0


if __name__ == "__main__":
    sys.exit(main())
