"""Dependencies point one way: tools/ is pure and imports no front-end, LLM or rendering library."""

import ast
import subprocess
import sys
from pathlib import Path

FORBIDDEN = (
    "langchain",
    "langchain_core",
    "openai",
    "jinja2",
    "fastapi",
    "slack_bolt",
    "slack_sdk",
    "weasyprint",
    "torch",
    "transformers",
    "advisor",
    "reports",
    "httpx",
    "requests",
    "sqlalchemy",
)


def test_importing_tools_pulls_in_no_llm_web_or_rendering_module() -> None:
    code = (
        "import sys, pkgutil, importlib, tools\n"
        "for m in pkgutil.walk_packages(tools.__path__, 'tools.'):\n"
        "    importlib.import_module(m.name)\n"
        f"bad = sorted({{n.split('.')[0] for n in sys.modules}} & set({FORBIDDEN!r}))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"tools/ imports {out.stdout.strip()}"


def test_cli_start_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys, advisor.cli as c\n"
        "c._register()\n"
        "heavy = ('weasyprint', 'langchain', 'torch', 'fastapi', 'slack_bolt', 'transformers')\n"
        "print(','.join(sorted(h for h in heavy if h in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"CLI start imports {out.stdout.strip()}"


# ----------------------------------------------------------------------------- layering (issue 11)
ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tools", "advisor", "reports", "prompts", "evals")
MODULE_LINES_MAX = 600  # "no module over ~600 lines in tools/, advisor/ or reports/"
CLASS_LINES_MAX = 400  # "no class over ~400 lines"
SIZE_CHECKED = ("tools", "advisor", "reports")


def _module_files() -> dict[str, Path]:
    files: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join(parts)] = path
    return files


def import_graph(files: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> project modules it imports, counting every import statement: module-level,
    function-level and TYPE_CHECKING ones alike (a cycle hidden inside a function is still a cycle)."""

    def resolve(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            for target in targets:
                found = resolve(target)
                if found and found != mod:
                    graph[mod].add(found)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def test_cycle_finder_finds_a_cycle_through_a_function_level_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_anywhere_in_the_project() -> None:
    cycles = import_cycles(import_graph(_module_files()))
    assert cycles == [], f"import cycles: {cycles}"


def test_tools_imports_nothing_above_it() -> None:
    graph = import_graph(_module_files())
    up = {(m, t) for m, ts in graph.items() if m.startswith("tools") for t in ts if not t.startswith("tools")}
    assert up == set()


def test_no_module_or_class_over_the_size_limits() -> None:
    too_long: list[str] = []
    for mod, path in _module_files().items():
        if not mod.startswith(SIZE_CHECKED):
            continue
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MODULE_LINES_MAX:
            too_long.append(f"{mod}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > CLASS_LINES_MAX:
                    too_long.append(f"{mod}.{node.name}: class of {length} lines")
    assert too_long == []


def test_no_sys_path_edits() -> None:
    """The project is an installed distribution: packages and bench scripts import it as it is."""
    files = [*_module_files().values(), *sorted((ROOT / "bench").glob("*.py"))]
    edits = [
        str(path.relative_to(ROOT))
        for path in files
        if "sys.path.insert" in path.read_text(encoding="utf-8")
        or "sys.path.append" in path.read_text(encoding="utf-8")
    ]
    assert edits == []


# ----------------------------------------------------------------------------- lazy imports (issue 11)
LAZY_CHECKED = ("tools", "advisor", "reports", "evals")
LAZY_EXEMPT = ("evals.cases_v2",)  # generator scripts that wrote the v2 eval cases, run by hand
LAZY_MARK = "lazy:"


def uncommented_lazy_imports(source: str) -> list[int]:
    """Line numbers of function-level imports without a `lazy:` comment saying why.

    A run of consecutive import statements in one block counts as one group: the comment goes on its
    first line or in the comment lines right above it."""
    lines = source.splitlines()
    missing: list[int] = []

    def commented(stmt: ast.stmt) -> bool:
        if LAZY_MARK in lines[stmt.lineno - 1].partition("#")[2]:
            return True
        above = stmt.lineno - 2
        while above >= 0 and lines[above].lstrip().startswith("#"):
            if LAZY_MARK in lines[above]:
                return True
            above -= 1
        return False

    def visit(node: ast.AST, in_function: bool) -> None:
        inside = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for _, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            previous_was_import = False
            for child in children:
                is_import = isinstance(child, ast.Import | ast.ImportFrom)
                if is_import and inside and not previous_was_import and not commented(child):
                    missing.append(child.lineno)
                previous_was_import = is_import
                if isinstance(child, ast.AST):
                    visit(child, inside)

    visit(ast.parse(source), False)
    return missing


def test_lazy_import_checker_groups_consecutive_imports() -> None:
    source = (
        "import os\n"
        "def f():\n"
        "    # lazy: costs a second of start\n"
        "    import a\n"
        "\n"
        "    from b import c\n"
        "    x = 1\n"
        "    import d\n"
        "    if x:\n"
        "        import e  # lazy: e is slow\n"
        "    def g():\n"
        "        import h\n"
    )
    assert uncommented_lazy_imports(source) == [8, 12]


def test_every_function_level_import_says_why_it_is_lazy() -> None:
    """Imports belong at module top; one inside a function stays only where start-up time needs it and
    says so (`# lazy: WeasyPrint costs ~0.6 s of CLI start`)."""
    missing = [
        f"{path.relative_to(ROOT)}:{line}"
        for mod, path in _module_files().items()
        if mod.startswith(LAZY_CHECKED) and not mod.startswith(LAZY_EXEMPT)
        for line in uncommented_lazy_imports(path.read_text(encoding="utf-8"))
    ]
    assert missing == []
