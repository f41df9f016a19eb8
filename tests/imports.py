"""The product's imports, read from its source: which module imports which name from where, and whether at
the module's top (run when it is first imported) or inside a function (run when called). The import-rule and
import-circle tests read them (docs/design.md, Packages)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("domain", "ledger", "projections", "cli")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, `chronicle.cli.main`
    source: str  # what it imports from, absolute: `chronicle.ledger.application.addresses`, `click`
    name: str | None  # the name taken from it (`from source import name`), None for `import source`
    line: int
    top: bool  # at the module's top: not inside a function (a `TYPE_CHECKING` block counts as neither)

    @property
    def where(self) -> str:
        return f"{self.module}:{self.line}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["chronicle", *parts])


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, package: str, body: list[ast.stmt], top: bool) -> list[Import]:
    found: list[Import] = []
    for node in body:
        if isinstance(node, ast.Import):
            found += [Import(module, alias.name, None, node.lineno, top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            found += [Import(module, source, alias.name, node.lineno, top) for alias in node.names]
        elif isinstance(node, ast.If) and _type_checking(node):
            continue  # names for the type checker alone: never run
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside = [child for child in ast.walk(node) if isinstance(child, (ast.Import, ast.ImportFrom))]
            found += _imports(module, package, inside, False)  # type: ignore[arg-type]
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.ClassDef, ast.For, ast.While)):
            inner = [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)]
            if isinstance(node, ast.Try):
                inner += [stmt for handler in node.handlers for stmt in handler.body]
            found += _imports(module, package, inner, top)
    return found


@cache
def product_imports() -> tuple[Import, ...]:
    found: list[Import] = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = module_name(path)
            package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
            found += _imports(module, package, ast.parse(path.read_text()).body, True)
    return tuple(found)


@cache
def product_modules() -> frozenset[str]:
    return frozenset(module_name(path) for folder in FOLDERS for path in (ROOT / folder).rglob("*.py"))


def imported_module(entry: Import) -> str | None:
    """The product module an import runs: `from package import module` names the module, else the source."""
    modules = product_modules()
    for candidate in (f"{entry.source}.{entry.name}" if entry.name else None, entry.source):
        while candidate:
            if candidate in modules:
                return candidate
            candidate = candidate.rpartition(".")[0]
    return None


def top_level_graph() -> dict[str, set[str]]:
    """Each product module and the product modules its top-level imports run."""
    graph: dict[str, set[str]] = {module: set() for module in product_modules()}
    for entry in product_imports():
        target = imported_module(entry) if entry.top else None
        if target is not None and target != entry.module:
            graph[entry.module].add(target)
    return graph


def whole_graph() -> dict[str, set[str]]:
    """Each product module and the product modules it imports anywhere: at its top or inside a function."""
    graph: dict[str, set[str]] = {module: set() for module in product_modules()}
    for entry in product_imports():
        target = imported_module(entry)
        if target is not None and target != entry.module:
            graph[entry.module].add(target)
    return graph
