"""The import arrows: solver <- generators <- {cad, print} <- templeforge.

Walks every module's imports with ``ast`` (the module level and inside functions) and fails
on an arrow against the layering, on click below ``templeforge``, on CadQuery or ReportLab in
``solver`` or ``generators``, and on ``import print`` (which would shadow the builtin).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGES = ("solver", "generators", "cad", "print", "templeforge")

#: What each package may import of the others.
ALLOWED = {
    "solver": {"solver"},
    "generators": {"solver", "generators"},
    "cad": {"solver", "generators", "cad"},
    "print": {"solver", "generators", "print"},
    "templeforge": set(PACKAGES),
}

#: Third-party packages each package must not import.
FORBIDDEN = {
    "solver": {"click", "cadquery", "reportlab"},
    "generators": {"click", "cadquery", "reportlab"},
    "cad": {"click", "reportlab"},
    "print": {"click", "cadquery"},
    "templeforge": set(),
}


def modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def imports(path: Path) -> list[tuple[int, str, bool]]:
    """(line, top-level module, is a bare 'import X') for every import in the file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name.split(".")[0], True) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module.split(".")[0], False))
    return out


def test_there_are_modules_to_check() -> None:
    assert len(modules()) > 30


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_layers(path: Path) -> None:
    package = path.relative_to(ROOT).parts[0]
    wrong = []
    for line, top, bare in imports(path):
        if top in PACKAGES and top not in ALLOWED[package]:
            wrong.append(f"line {line}: {package} imports {top}")
        if top in FORBIDDEN[package]:
            wrong.append(f"line {line}: {package} imports {top}")
        if top == "print" and bare:
            wrong.append(f"line {line}: 'import print' shadows the builtin; write 'from print import ...'")
    assert not wrong, "\n".join(wrong)


def test_the_walk_catches_an_arrow_against_the_layers(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from templeforge import cli\n    import click\n")
    assert [(top, bare) for _, top, bare in imports(bad)] == [("templeforge", False), ("click", True)]


def runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it runs (``if TYPE_CHECKING:`` blocks left out)."""
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return out


@pytest.mark.parametrize("package", sorted(p.name for p in (ROOT / "generators").iterdir()
                                           if (p / "__init__.py").is_file()))
def test_no_module_of_a_package_imports_itself_back(package: str) -> None:
    """Within each package under generators/, the runtime imports form no cycle (generate
    <-> like <-> spec had one)."""
    base = f"generators.{package}"
    files = {p.stem: p for p in (ROOT / "generators" / package).glob("*.py") if p.stem != "__init__"}
    edges = {m: {name.split(".")[2] for name in runtime_imports(p) if name.startswith(base + ".")} & set(files)
             for m, p in files.items()}

    def cycle_from(start: str, here: str, seen: tuple[str, ...]) -> tuple[str, ...] | None:
        for nxt in sorted(edges[here]):
            if nxt == start:
                return (*seen, nxt)
            if nxt not in seen:
                found = cycle_from(start, nxt, (*seen, nxt))
                if found:
                    return found
        return None

    for m in sorted(files):
        found = cycle_from(m, m, (m,))
        assert found is None, " -> ".join(found)
