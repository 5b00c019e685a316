"""The store is the only module that holds a database connection: every query of ragtui's
database is a method of ``Store`` or a function in ``ragtui/core/store`` that takes one.
Read from the source with ``ast``; outside ``ragtui/core/store`` none of these may appear:

- an import of ``sqlite3`` or ``sqlite_utils`` (a connection, a ``Database``, their errors);
- the store's private connection (``._db``) or a connection reached through ``.db``
  (``x.db.execute``, ``x.db.conn``, ``x.db["sessions"]``);
- a call of ``.execute``, ``.executemany`` or ``.executescript`` (SQL run on some connection).

The one allowance is the knowledge folder's full-text index: an in-memory SQLite FTS5 table
built from the folder's files on each start, never a file and never the store's database. It
is held to that: every ``sqlite3.connect`` it makes must open ``":memory:"``.

The benchmarks (``bench/``) are held to the same rule: what they count in a database they read
through the store (``core/store/tallies.py``), never with a connection of their own."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
STORE = ROOT / "core" / "store"
BENCH = ROOT.parent / "bench"
DRIVERS = {"sqlite3", "sqlite_utils"}
SQL_CALLS = {"execute", "executemany", "executescript"}
# file -> why it may open a connection of its own (only ever ``sqlite3.connect(":memory:")``).
IN_MEMORY_ONLY = {
    "ragtui/core/knowledge/index.py": "the knowledge folder's FTS5 search index, rebuilt in memory on each start",
}


def connection_uses(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, what) for each import of a database driver, use of a connection, or SQL call."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if a.name.split(".")[0] in DRIVERS]
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in DRIVERS:
            found.append((node.lineno, f"from {node.module} import …"))
        elif isinstance(node, ast.Attribute) and node.attr == "_db":
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Attribute | ast.Subscript):
            inner = node.value
            if isinstance(inner, ast.Attribute) and inner.attr == "db":
                found.append((node.lineno, ast.unparse(node)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS:
            found.append((node.lineno, ast.unparse(node.func)))
    return sorted(set(found))


def memory_only(tree: ast.Module) -> bool:
    """Every ``sqlite3.connect`` in ``tree`` opens ``":memory:"`` (and there is at least one)."""
    connects = [
        node for node in ast.walk(tree) if isinstance(node, ast.Call) and ast.unparse(node.func) == "sqlite3.connect"
    ]
    return bool(connects) and all(
        node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == ":memory:" for node in connects
    )


def test_no_module_outside_the_store_holds_a_connection():
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.is_relative_to(STORE):
            continue
        name = str(path.relative_to(ROOT.parent))
        tree = parse_source(path)
        if name in IN_MEMORY_ONLY:
            assert memory_only(tree), f"{name} may only open an in-memory index ({IN_MEMORY_ONLY[name]})"
            continue
        offenders += [f"{name}:{line} {what}" for line, what in connection_uses(tree)]
    assert offenders == []


def test_no_benchmark_holds_a_connection():
    paths = sorted(BENCH.rglob("*.py"))
    assert paths
    offenders = [
        f"{path.relative_to(ROOT.parent)}:{line} {what}"
        for path in paths
        for line, what in connection_uses(parse_source(path))
    ]
    assert offenders == []


def test_the_check_sees_each_kind_of_use():
    sample = ast.parse(
        "import sqlite3\n"
        "from sqlite_utils import Database\n"
        "import sqlite_utils.db\n"
        "rows = store.db.execute('SELECT 1')\n"
        "conn = self.store.db.conn\n"
        "table = store.db['sessions']\n"
        "private = store._db\n"
        "cursor = conn.execute('PRAGMA data_version')\n"
        "path = overrides.db\n"  # a --db path, not a connection
    )
    assert [what for _, what in connection_uses(sample)] == [
        "import sqlite3",
        "from sqlite_utils import …",
        "import sqlite_utils.db",
        "store.db.execute",
        "self.store.db.conn",
        "store.db['sessions']",
        "store._db",
        "conn.execute",
    ]
    assert connection_uses(parse_source(STORE / "store.py"))  # the store itself is seen doing it
    assert memory_only(ast.parse("import sqlite3\nc = sqlite3.connect(':memory:')\n"))
    assert not memory_only(ast.parse("import sqlite3\nc = sqlite3.connect(path)\n"))
