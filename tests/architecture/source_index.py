"""ragtui's source read as a whole, for ``display_text``: each module's imports, constants,
functions and classes; names resolved across imports; what an annotation says a value is (a
number, a ``Text``, a ragtui class, a collection of them); and the scopes of names."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .source import parse_source

# A control character: a literal or a Literal[...] value holding one is no plain word.
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@dataclass
class Module:
    path: Path
    name: str  # dotted
    tree: ast.Module
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # local → (module, name or None)
    constants: dict[str, list[ast.expr]] = field(default_factory=dict)
    annotations: dict[str, ast.expr] = field(default_factory=dict)  # module-level ``NAME: T = …``
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)


def _parse_annotation(node: ast.expr | None) -> ast.expr | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    return node


def base_name(node: ast.AST | None) -> str:
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _names_text(annotation: ast.expr | None) -> bool:
    """``-> Text`` (or ``-> Text | None``): read before aliases are known."""
    node = _parse_annotation(annotation)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _names_text(node.left) or _names_text(node.right)
    return isinstance(node, ast.Name | ast.Attribute) and base_name(node) == "Text"


def call_name(node: ast.AST) -> str:
    return base_name(node.func) if isinstance(node, ast.Call) else ""


def is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _resolve_relative(package: str, module: str | None, level: int) -> str:
    if level == 0:
        return module or ""
    parts = package.split(".")
    parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([module] if module else []))


class Package:
    """Every module of the package: names resolved across imports, classes and annotations."""

    def __init__(
        self, root: Path, widgets: set[str], make_checker: Callable[[Package, Module], Any], skip: tuple[str, ...] = ()
    ) -> None:
        """``widgets``: the Textual widgets that draw text (ragtui's subclasses of them are found
        here); ``make_checker``: what ``checker`` makes for a module."""
        self.root = root
        self._widget_names = widgets
        self._make_checker = make_checker
        self.modules: dict[str, Module] = {}
        for path in sorted(root.rglob("*.py")):
            if path.relative_to(root).parts[0] in skip:
                continue
            parts = list(path.relative_to(root.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            self.modules[".".join(parts)] = Module(path, ".".join(parts), parse_source(path))
        for module in self.modules.values():
            self._index(module)
        self.aliases: dict[str, list[ast.expr]] = {}
        self.classes: dict[str, list[ast.ClassDef]] = {}
        returns: dict[str, set[bool]] = {}
        self.builds_text: set[str] = set()  # modules with a function annotated ``-> Text``
        for m in self.modules.values():
            for name, values in m.constants.items():
                self.aliases.setdefault(name, []).extend(values)
            for node in ast.walk(m.tree):
                if isinstance(node, ast.ClassDef):
                    self.classes.setdefault(node.name, []).append(node)
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    returns.setdefault(node.name, set()).add(_names_text(node.returns))
                    if _names_text(node.returns):
                        self.builds_text.add(m.name)
        # Functions annotated ``-> Text``, by name; a name another function returns something
        # else under proves nothing and is left out.
        self.text_functions = {name for name, kinds in returns.items() if kinds == {True}}
        # ``from …labels import Label as StoredLabel``: the name a class is imported under.
        renamed: dict[str, set[str]] = {}
        for m in self.modules.values():
            for local, (_module, name) in m.imports.items():
                if name is not None and name != local and name in self.classes:
                    renamed.setdefault(local, set()).add(name)
        self.class_aliases = {local: names.pop() for local, names in renamed.items() if len(names) == 1}
        self.widgets = self._widget_kinds()
        self._checkers: dict[str, Any] = {}
        self.members = self._members()

    def _index(self, module: Module) -> None:
        package = module.name if module.path.name == "__init__.py" else module.name.rsplit(".", 1)[0]
        for node in module.tree.body:
            if isinstance(node, ast.ImportFrom):
                base = _resolve_relative(package, node.module, node.level)
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    module.imports[alias.asname or alias.name] = (
                        (target, None) if target in self.modules else (base, alias.name)
                    )
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    module.imports[alias.asname or alias.name] = (alias.name, None)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        module.constants.setdefault(target.id, []).append(node.value)
                    elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        for name, value in zip(target.elts, node.value.elts, strict=False):
                            if isinstance(name, ast.Name):
                                module.constants.setdefault(name.id, []).append(value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                module.constants.setdefault(node.target.id, []).append(node.value)
                module.annotations[node.target.id] = node.annotation
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                module.functions[node.name] = node
            elif isinstance(node, ast.ClassDef):
                module.classes[node.name] = node

    def _widget_kinds(self) -> dict[str, str]:
        """Each Textual widget that draws text, and each ragtui class built on one → the
        Textual widget it is (``TextField`` → Input)."""
        kinds = {name: name for name in self._widget_names}
        changed = True
        while changed:
            changed = False
            for name, classes in self.classes.items():
                if name in kinds:
                    continue
                for cls in classes:
                    base = next((kinds[base_name(b)] for b in cls.bases if base_name(b) in kinds), None)
                    if base is not None:
                        kinds[name], changed = base, True
                        break
        return kinds

    def resolve(self, module: Module, name: str, depth: int = 0) -> tuple[Module, str] | None:
        """The module and top-level name ``name`` in ``module`` stands for."""
        if name in module.functions or name in module.constants or name in module.classes:
            return module, name
        target = module.imports.get(name)
        if target is None or target[1] is None or depth > 10:
            return None
        other = self.modules.get(target[0])
        return self.resolve(other, target[1], depth + 1) if other is not None else None

    def checker(self, module: Module) -> Any:
        """The one checker of ``module``: what it proved stays proved."""
        if module.name not in self._checkers:
            self._checkers[module.name] = self._make_checker(self, module)
        return self._checkers[module.name]

    def module_alias(self, module: Module, name: str) -> Module | None:
        target = module.imports.get(name)
        return self.modules.get(target[0]) if target is not None and target[1] is None else None

    # -- annotations ------------------------------------------------------------------------

    def kind(self, node: ast.expr | None, depth: int = 0) -> str:
        """What a value annotated ``node`` is: "number" (ints, floats, bools, literals without
        control characters: nothing a terminal acts on), "text" (a rich ``Text``), "none" or
        "other"."""
        node = _parse_annotation(node)
        if node is None or depth > 8:
            return "other"
        if isinstance(node, ast.Constant) and node.value is None:
            return "none"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            kinds = {self.kind(node.left, depth + 1), self.kind(node.right, depth + 1)} - {"none"}
            return kinds.pop() if len(kinds) == 1 else "other"
        if isinstance(node, ast.Subscript):
            base = base_name(node.value)
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if base in ("Optional", "Annotated", "ClassVar", "Final"):
                return self.kind(items[0], depth + 1)
            if base == "Literal":
                plain = all(
                    isinstance(v, ast.Constant) and not (isinstance(v.value, str) and CONTROL.search(v.value))
                    for v in items
                )
                return "number" if plain else "other"
            return "other"
        if isinstance(node, ast.Name | ast.Attribute):
            name = base_name(node)
            if name in ("int", "float", "bool"):
                return "number"
            if name == "Text":
                return "text"
            aliases = self.aliases.get(name, [])
            if aliases and name not in self.classes:
                kinds = {self.kind(a, depth + 1) for a in aliases}
                return kinds.pop() if len(kinds) == 1 else "other"
        return "other"

    def item_kind(self, node: ast.expr | None) -> str:
        """The ``kind`` of the items of an annotated collection (``tuple[Form, ...]``)."""
        node = _parse_annotation(node)
        if isinstance(node, ast.Subscript) and base_name(node.value) in (
            "list", "tuple", "Sequence", "Iterable", "set", "frozenset", "Iterator", "List",
        ):  # fmt: skip
            items = [i for i in (node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice])]
            kinds = {self.kind(i) for i in items if not (isinstance(i, ast.Constant) and i.value is Ellipsis)}
            return kinds.pop() if len(kinds) == 1 else "other"
        return "other"

    def class_named(self, node: ast.expr | None) -> str | None:
        """The ragtui class an annotation names (``StoredSession | None`` → StoredSession)."""
        node = _parse_annotation(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            names = {self.class_named(node.left), self.class_named(node.right)} - {None}
            return names.pop() if len(names) == 1 else None
        if isinstance(node, ast.Subscript) and base_name(node.value) in ("Optional", "ClassVar", "reactive", "Final"):
            return self.class_named(node.slice)
        name = base_name(node) if isinstance(node, ast.Name | ast.Attribute) else ""
        name = self.class_aliases.get(name, name) if name not in self.classes else name
        return name if name in self.classes else None

    def element_class(self, node: ast.expr | None) -> str | None:
        """The class of an annotated collection's items (``list[Scenario]`` → Scenario)."""
        node = _parse_annotation(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            names = {self.element_class(node.left), self.element_class(node.right)} - {None}
            return names.pop() if len(names) == 1 else None
        if isinstance(node, ast.Subscript) and base_name(node.value) in (
            "list", "tuple", "Sequence", "Iterable", "set", "frozenset", "Iterator", "List",
        ):  # fmt: skip
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return self.class_named(items[0])
        return None

    def _members(self) -> dict[str, dict[str, list[ast.expr]]]:
        """Class name → attribute → its annotations: fields, ``self.x: T = …`` in methods, and
        methods' return annotations (properties), merged over classes of the same name."""
        members: dict[str, dict[str, list[ast.expr]]] = {}
        for name, classes in self.classes.items():
            own = members.setdefault(name, {})
            for cls in classes:
                for item in cls.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        own.setdefault(item.target.id, []).append(item.annotation)
                    elif isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.returns is not None:
                        own.setdefault(item.name, []).append(item.returns)
                for node in ast.walk(cls):
                    target = node.target if isinstance(node, ast.AnnAssign) else None
                    if isinstance(target, ast.Attribute) and is_self(target.value):
                        own.setdefault(target.attr, []).append(node.annotation)  # type: ignore[union-attr]
        return members

    def declared(self, class_name: str, attr: str, depth: int = 0) -> list[ast.expr]:
        """The annotations ``attr`` has on the classes named ``class_name``, or else on their
        bases."""
        own = self.members.get(class_name, {}).get(attr)
        if own or depth > 6:
            return own or []
        return [
            a
            for cls in self.classes.get(class_name, [])
            for b in cls.bases
            for a in self.declared(base_name(b), attr, depth + 1)
        ]


@dataclass
class Scope:
    """A function, comprehension or module body: where its names get their values."""

    node: ast.AST
    parent: Scope | None
    bindings: dict[str, list[tuple[str, ast.AST | None]]] = field(default_factory=dict)

    def bind(self, name: str, kind: str, value: ast.AST | None) -> None:
        self.bindings.setdefault(name, []).append((kind, value))

    def lookup(self, name: str) -> list[tuple[str, ast.AST | None]] | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.bindings:
                return scope.bindings[name]
            scope = scope.parent
        return None


def walk_own(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and what it holds, not inside nested functions, classes or comprehensions
    (a nested function is yielded for the name it binds)."""
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield child
        elif not isinstance(
            child, ast.ClassDef | ast.Lambda | ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp
        ):
            yield from walk_own(child)
