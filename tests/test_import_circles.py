"""No circle among the product's modules: importing any one never comes back to a module still being
imported (docs/design.md, Packages). The graph is of the imports a module runs when it is first imported;
an import inside a function runs when called, and one under `TYPE_CHECKING` never runs."""

from __future__ import annotations

from imports import top_level_graph, whole_graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
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
                        found.append(sorted(component))
    return found


def test_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_module_imports_its_way_back_to_itself() -> None:
    assert circles(top_level_graph()) == []


# Circles closed only by an import inside a function: none may be added. These two remain, in modules
# edited elsewhere as this test was written: the store's mapper resolves the snapshot class it stores, and
# the explanations of corrections name changes in words that name events again.
KNOWN_INSIDE_FUNCTIONS = [
    ["chronicle.domain.changes", "chronicle.domain.explain"],
    ["chronicle.ledger.store.mapper", "chronicle.ledger.store.snapshots"],
]


def test_imports_inside_functions_hide_no_new_circle() -> None:
    assert sorted(circles(whole_graph())) == KNOWN_INSIDE_FUNCTIONS
