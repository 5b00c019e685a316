"""Reading ragtui's source as syntax trees, for the layering tests."""

from __future__ import annotations

import ast
import pickle
import subprocess
import sys
from pathlib import Path

_PARSE = "import ast, pickle, sys; sys.stdout.buffer.write(pickle.dumps(ast.parse(open(sys.argv[1], encoding='utf-8').read())))"


def parse_source(path: Path) -> ast.Module:
    """``ast.parse`` of the file. CPython 3.11 can refuse with "AST constructor recursion depth
    mismatch" once some earlier code in the same process hit a RecursionError (its depth
    bookkeeping is left off by one); the file is then parsed in a fresh interpreter instead."""
    source = path.read_text(encoding="utf-8")
    try:
        return ast.parse(source)
    except SystemError:
        result = subprocess.run([sys.executable, "-c", _PARSE, str(path)], capture_output=True, check=True, timeout=60)
        tree = pickle.loads(result.stdout)
        assert isinstance(tree, ast.Module)
        return tree
