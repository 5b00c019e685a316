"""Finds text that reaches the terminal through a Textual widget without the one door
(``ragtui/tui/safe_text.py``, built on ``ragtui/core/text/text_safety.py``).

Read from the source with ``ast``. A *sink* is a place where a string becomes what the terminal
draws: ``Text(x)``, ``text.append(x)`` on a ``Text``, ``Text.assemble``, a widget built with text
(``Static``, ``Label``, ``Button``, ``Input``, ``TextArea``, ``Option``, ``Selection``, a toggle
button, the prompts of a ``Select`` or ``OptionList``, and ragtui's subclasses of them),
``.update(x)``, ``.load_text(x)``, ``.insert_text_at_cursor(x)``, a table's cells, row labels
and column labels, the keywords ``tooltip=``/``placeholder=``, and assignments to ``title``,
``sub_title``, ``border_title``, ``border_subtitle``, ``tooltip``, ``placeholder``, ``value``,
``text`` and ``label``. (``notify`` is not one: every notification goes through
``RagtuiApp.notify``, which cleans it — a test of its own holds it to that.)

An argument passes when it is *provably* safe:

- a literal without control characters;
- the result of a safe-text function (``clean_text``, ``one_line``, ``plain``, ``field_text``,
  ``area_text``, a ``StreamCleaner``'s ``feed``/``flush``, the core's ``strip_controls`` and
  ``visible``);
- a number or a fixed word: an f-string field with a numeric format (``{x:.2f}``, ``{n:d}``),
  ``{x!r}`` (``repr`` escapes every control character), ``len(…)``/``int(…)``…, a comparison, or
  a name, parameter, field or property annotated ``int``/``float``/``bool`` or a ``Literal`` of
  plain words (``StopReason``) — a field is looked up on the receiver's class, known from
  annotations (``session: StoredSession`` → ``StoredSession.id: int``), an ``isinstance`` test
  around it, or what ``self.x`` is set to; of a receiver whose class is not known, nothing is
  trusted — and a loop index from ``enumerate``;
- a ``Text`` (``Text(…)``, ``plain(…)``, a function annotated ``-> Text``): building a ``Text``
  is itself a sink, so its text was checked where it was built;
- built only of the above: f-strings, ``+``, ``%``, ``str.join``/``format``, ``a or b``,
  ``x if c else y``, slices and items, string methods, a list or comprehension of safe items, a
  local name, ``self`` attribute or module constant whose every assignment is safe (a list:
  also whatever is appended to it), and a call to a ragtui function whose every ``return`` is
  safe (its parameters count by their annotations).

A sink Textual parses as markup (``Static``, ``Label``, ``Button``, ``Option``, ``.update``…) must moreover get a literal, a ``Text`` or ``markup=False``: cleaned text still
holds ``[bold]``.

Anything else is reported; what is safe for a reason this cannot see is listed by the test with
that reason. A known blind spot, accepted: a field of a class that shares its name with
another is judged by all of them (safe only when safe in each).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .source import parse_source

SAFE_TEXT_FUNCTIONS = {"clean_text", "one_line", "plain", "field_text", "area_text", "strip_controls", "visible"}
NUMERIC_BUILTINS = {"len", "int", "float", "round", "abs", "sum", "ord", "bool", "id", "hash", "isinstance"}
STR_METHODS = {
    "strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "casefold", "replace",
    "removeprefix", "removesuffix", "ljust", "rjust", "center", "zfill", "expandtabs", "format",
    "join", "split", "rsplit", "splitlines", "partition", "rpartition",
}  # fmt: skip
TEXT_METHODS = {"copy", "split", "join", "truncate", "divide", "rstrip", "strip"}
COLLECTION_WRAPPERS = {"sorted", "list", "tuple", "reversed", "set", "frozenset", "dict.fromkeys"}
# Widgets that draw the text they are built with: class → (positional indexes, keyword names).
WIDGET_TEXT: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "Static": ((0,), ("content", "renderable")),
    "Label": ((0,), ("content", "renderable")),
    "Button": ((0,), ("label",)),
    "Checkbox": ((0,), ("label",)),
    "RadioButton": ((0,), ("label",)),
    "Input": ((0,), ("value",)),
    "TextArea": ((0,), ("text",)),
    "Option": ((0,), ("prompt",)),
    "Selection": ((0,), ("prompt",)),
    "TabPane": ((0,), ("title",)),
    "Tab": ((0,), ("label",)),
    "Collapsible": ((), ("title",)),
    "Markdown": ((0,), ("markdown",)),
    "Link": ((0,), ("text", "url")),
    "Content": ((0,), ("text",)),
}
CHOICE_WIDGETS = {"Select", "OptionList", "SelectionList"}
METHOD_TEXT: dict[str, tuple[tuple[int, ...] | None, tuple[str, ...]]] = {
    "update": ((0,), ("content",)),
    "load_text": ((0,), ("text",)),
    "add_row": (None, ("label",)),
    "add_column": ((0,), ("label",)),
    "add_columns": (None, ()),
    "update_cell": ((2,), ("value",)),
    "update_cell_at": ((1,), ("value",)),
    "insert_text_at_cursor": ((0,), ()),
    "set_heading": ((0,), ()),
}
CHOICE_METHODS = {"add_option", "add_options", "set_options"}
ASSIGNED_TEXT = {
    "title",
    "sub_title",
    "border_title",
    "border_subtitle",
    "tooltip",
    "placeholder",
    "value",
    "text",
    "label",
}
KEYWORD_TEXT = {"tooltip", "placeholder"}
# Textual parses these as markup when given a str and markup is not turned off.
MARKUP_SINKS = {"Static", "Label", "Button", "Checkbox", "RadioButton", "Option", "Selection", "update"}
CYCLE = ""  # class_of: a value met again while its class is being found
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_NUMERIC_SPEC = re.compile(r"[-+ #0-9,_.<>^=]*[bcdeEfFgGnoxX%]$")


@dataclass(frozen=True)
class Finding:
    path: str  # ragtui/tui/…
    line: int
    sink: str
    argument: str  # ast.unparse of the argument
    why: str

    def key(self) -> tuple[str, str]:
        return self.path, self.argument

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.sink}: {self.argument} ({self.why})"


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


def _base_name(node: ast.AST | None) -> str:
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
    return isinstance(node, ast.Name | ast.Attribute) and _base_name(node) == "Text"


def _call_name(node: ast.AST) -> str:
    return _base_name(node.func) if isinstance(node, ast.Call) else ""


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _resolve_relative(package: str, module: str | None, level: int) -> str:
    if level == 0:
        return module or ""
    parts = package.split(".")
    parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([module] if module else []))


class Package:
    """Every module of the package: names resolved across imports, classes and annotations."""

    def __init__(self, root: Path, skip: tuple[str, ...] = ()) -> None:
        self.root = root
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
        self._checkers: dict[str, Checker] = {}
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
        kinds = {name: name for name in [*WIDGET_TEXT, *CHOICE_WIDGETS, "DataTable"]}
        changed = True
        while changed:
            changed = False
            for name, classes in self.classes.items():
                if name in kinds:
                    continue
                for cls in classes:
                    base = next((kinds[_base_name(b)] for b in cls.bases if _base_name(b) in kinds), None)
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

    def checker(self, module: Module) -> Checker:
        """The one checker of ``module``: what it proved stays proved."""
        if module.name not in self._checkers:
            self._checkers[module.name] = Checker(self, module)
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
            base = _base_name(node.value)
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if base in ("Optional", "Annotated", "ClassVar", "Final"):
                return self.kind(items[0], depth + 1)
            if base == "Literal":
                plain = all(
                    isinstance(v, ast.Constant) and not (isinstance(v.value, str) and _CONTROL.search(v.value))
                    for v in items
                )
                return "number" if plain else "other"
            return "other"
        if isinstance(node, ast.Name | ast.Attribute):
            name = _base_name(node)
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
        if isinstance(node, ast.Subscript) and _base_name(node.value) in (
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
        if isinstance(node, ast.Subscript) and _base_name(node.value) in ("Optional", "ClassVar", "reactive", "Final"):
            return self.class_named(node.slice)
        name = _base_name(node) if isinstance(node, ast.Name | ast.Attribute) else ""
        name = self.class_aliases.get(name, name) if name not in self.classes else name
        return name if name in self.classes else None

    def element_class(self, node: ast.expr | None) -> str | None:
        """The class of an annotated collection's items (``list[Scenario]`` → Scenario)."""
        node = _parse_annotation(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            names = {self.element_class(node.left), self.element_class(node.right)} - {None}
            return names.pop() if len(names) == 1 else None
        if isinstance(node, ast.Subscript) and _base_name(node.value) in (
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
                    if isinstance(target, ast.Attribute) and _is_self(target.value):
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
            for a in self.declared(_base_name(b), attr, depth + 1)
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


def _walk_own(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and what it holds, not inside nested functions, classes or comprehensions
    (a nested function is yielded for the name it binds)."""
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield child
        elif not isinstance(
            child, ast.ClassDef | ast.Lambda | ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp
        ):
            yield from _walk_own(child)


class Checker:
    """Proves, or fails to prove, every sink of one module safe."""

    def __init__(self, package: Package, module: Module) -> None:
        self.package = package
        self.module = module
        self.findings: list[Finding] = []
        self._busy: set[tuple[str, int]] = set()  # what is being proven: a cycle proves nothing
        self._scopes: dict[int, Scope] = {}
        self._returns: dict[int, bool] = {}
        self.module_scope = self.scope_for(module.tree, None)
        # Each function's (or class's) innermost class and enclosing scope, for ``self`` fields.
        self._owner: dict[int, tuple[ast.ClassDef | None, ast.AST | None]] = {}
        self._parent: dict[int, ast.AST] = {}
        self._map_owners(module.tree, None, None)

    def _map_owners(self, node: ast.AST, cls: ast.ClassDef | None, function: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            self._owner[id(child)] = (cls, function)
            self._parent[id(child)] = node
            if isinstance(child, ast.ClassDef):
                self._map_owners(child, child, function)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                self._map_owners(child, cls, child)
            else:
                self._map_owners(child, cls, function)

    def _scope_of_node(self, node: ast.AST) -> Scope:
        """The scope an expression anywhere in the module is evaluated in."""
        _cls, function = self._owner.get(id(node), (None, None))
        chain = []
        while function is not None:
            chain.append(function)
            function = self._owner.get(id(function), (None, None))[1]
        scope = self.module_scope
        for f in reversed(chain):
            scope = self.scope_for(f, scope)
        return scope

    def _guard(self, what: str, node: ast.AST) -> bool:
        key = (what, id(node))
        if key in self._busy:
            return False
        self._busy.add(key)
        return True

    # -- scopes -----------------------------------------------------------------------------

    def scope_for(self, node: ast.AST, parent: Scope | None) -> Scope:
        if id(node) in self._scopes:
            return self._scopes[id(node)]
        scope = self._scopes[id(node)] = Scope(node, parent)
        body: list[ast.AST] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                scope.bind(arg.arg, "param", arg.annotation)
            for star in (args.vararg, args.kwarg):
                if star is not None:
                    scope.bind(star.arg, "unknown", None)
            body = [node.body] if isinstance(node, ast.Lambda) else list(node.body)
        elif isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp):
            for generator in node.generators:
                self._bind_target(scope, generator.target, "element", generator.iter)
        else:
            body = list(getattr(node, "body", []))
        for statement in body:
            for inner in _walk_own(statement):
                self._bind(scope, inner)
        return scope

    def _bind(self, scope: Scope, node: ast.AST) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self._bind_target(scope, target, "expr", node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            scope.bind(node.target.id, "annotated", node.annotation)
            if node.value is not None:
                scope.bind(node.target.id, "expr", node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) or isinstance(node, ast.NamedExpr):
            scope.bind(node.target.id, "expr", node.value)
        elif isinstance(node, ast.For | ast.AsyncFor):
            self._bind_target(scope, node.target, "element", node.iter)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    self._bind_target(scope, item.optional_vars, "unknown", None)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            scope.bind(node.name, "unknown", None)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            scope.bind(node.name, "function", node)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
        ):
            # A list filled in place holds what is appended to it.
            name, method = node.func.value.id, node.func.attr
            if method in ("append", "insert") and node.args:
                scope.bind(name, "member", node.args[-1])
            elif method == "extend" and node.args:
                scope.bind(name, "members", node.args[0])

    def _bind_target(self, scope: Scope, target: ast.AST, kind: str, value: ast.AST | None) -> None:
        if isinstance(target, ast.Name):
            scope.bind(target.id, kind, value)
        elif isinstance(target, ast.Tuple | ast.List):
            call = _call_name(value) if isinstance(value, ast.Call) else ""
            for index, element in enumerate(target.elts):
                if kind == "expr" and isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(target.elts):
                    self._bind_target(scope, element, "expr", value.elts[index])
                elif kind == "element" and call == "enumerate" and isinstance(value, ast.Call) and value.args:
                    self._bind_target(scope, element, "number" if index == 0 else "element", value.args[0])
                elif kind == "element" and call == "zip" and isinstance(value, ast.Call) and index < len(value.args):
                    self._bind_target(scope, element, "element", value.args[index])
                elif kind == "element" and isinstance(value, ast.Name):
                    # for s, cells in rows: position ``index`` of each tuple put into ``rows``
                    self._bind_target(scope, element, "item_of", ast.Subscript(value=value, slice=ast.Constant(index)))
                elif kind == "element" and isinstance(value, ast.List | ast.Tuple):
                    # for a, b in [(x, y), …]: each position from the same position of each item
                    column = [e.elts[index] for e in value.elts if isinstance(e, ast.Tuple) and index < len(e.elts)]
                    if len(column) == len(value.elts):
                        self._bind_target(scope, element, "one_of", ast.Tuple(elts=column))
                    else:
                        self._bind_target(scope, element, "unknown", None)
                else:
                    self._bind_target(scope, element, "unknown", None)
        elif isinstance(target, ast.Starred):
            self._bind_target(scope, target.value, "unknown", None)

    # -- safe text --------------------------------------------------------------------------

    def safe(self, node: ast.AST | None, scope: Scope) -> bool:
        """``node`` is text that cannot drive the terminal, a number, or a checked ``Text``.
        A value met again while it is being proven (a list refilled in a loop) is taken as safe:
        whatever else it is made from must still be proven, and nothing is made from itself alone."""
        if node is None:
            return False
        if not self._guard("safe", node):
            return True
        try:
            return self.is_text(node, scope) or self._safe(node, scope)
        finally:
            self._busy.discard(("safe", id(node)))

    def _safe(self, node: ast.AST, scope: Scope) -> bool:
        if isinstance(node, ast.Constant):
            return not (isinstance(node.value, str) and _CONTROL.search(node.value))
        if isinstance(node, ast.JoinedStr):
            return all(self.safe(v, scope) for v in node.values)
        if isinstance(node, ast.FormattedValue):
            if node.conversion == ord("r") or _numeric_spec(node.format_spec):
                return True
            return self.safe(node.value, scope)
        if isinstance(node, ast.BinOp):
            return self.safe(node.left, scope) and self.safe(node.right, scope)
        if isinstance(node, ast.UnaryOp | ast.Compare):
            return True
        if isinstance(node, ast.BoolOp):
            return all(self.safe(v, scope) for v in node.values)
        if isinstance(node, ast.IfExp):
            return self.safe(node.body, scope) and self.safe(node.orelse, scope)
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return all(self.safe(e, scope) for e in node.elts)
        if isinstance(node, ast.Dict):
            return all(self.safe(v, scope) for v in [*node.keys, *node.values] if v is not None)
        if isinstance(node, ast.Starred):
            return self.safe(node.value, scope)
        if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            return self.safe(node.elt, self.scope_for(node, scope))
        if isinstance(node, ast.Subscript):
            return self.safe(node.value, scope)
        if isinstance(node, ast.Name):
            return self._safe_name(node.id, scope)
        if isinstance(node, ast.Attribute):
            return self._safe_attribute(node, scope)
        if isinstance(node, ast.Call):
            return self._safe_call(node, scope)
        return False

    def _safe_name(self, name: str, scope: Scope) -> bool:
        if name in ("True", "False", "None"):
            return True
        bindings = scope.lookup(name)
        if bindings is None:
            return self._safe_constant(self.module, name)
        annotated = [v for k, v in bindings if k in ("param", "annotated")]
        if any(self.package.kind(v) in ("number", "text") for v in annotated):  # type: ignore[arg-type]
            return True
        if any(k == "param" for k, _ in bindings):
            return False
        values = [(k, v) for k, v in bindings if k != "annotated"]
        return bool(values) and all(self._safe_binding(k, v, scope) for k, v in values)

    def _safe_binding(self, kind: str, value: ast.AST | None, scope: Scope) -> bool:
        if kind == "number":
            return True
        if kind == "item_of" and isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
            return self._safe_position(value.value, value.slice.value, scope)  # type: ignore[attr-defined]
        if kind in ("expr", "member", "one_of"):
            return self.safe(value, scope)
        if kind in ("element", "members"):
            return self._safe_items(value, scope)
        return False

    def _safe_position(self, name: ast.Name, index: int, scope: Scope) -> bool:
        """Position ``index`` of every tuple the list ``name`` holds is safe."""
        bindings = scope.lookup(name.id)
        if not bindings:
            return False
        for kind, value in bindings:
            if kind == "expr" and isinstance(value, ast.List | ast.Tuple):
                items = value.elts
            elif kind == "member":
                items = [value]  # type: ignore[list-item]
            elif kind == "annotated":
                continue
            else:
                return False
            for item in items:
                if not (isinstance(item, ast.Tuple) and index < len(item.elts) and self.safe(item.elts[index], scope)):
                    return False
        return True

    def _safe_items(self, node: ast.AST | None, scope: Scope) -> bool:
        """Every item of the collection ``node`` is safe."""
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name == "range":
                return True
            if name in ("sorted", "list", "tuple", "reversed", "set", "frozenset", "fromkeys") and node.args:
                return self._safe_items(node.args[0], scope)
        if isinstance(node, ast.Dict):
            return all(self.safe(k, scope) for k in node.keys if k is not None)
        if isinstance(node, ast.Name):  # annotated as a collection of numbers or plain words
            bindings = scope.lookup(node.id)
            annotations = [v for k, v in bindings or [] if k in ("param", "annotated")]
            if bindings is None:
                resolved = self.package.resolve(self.module, node.id)
                if resolved is not None and resolved[1] in resolved[0].annotations:
                    annotations = [resolved[0].annotations[resolved[1]]]
            if any(self.package.item_kind(a) in ("number", "text") for a in annotations):  # type: ignore[arg-type]
                return True
        return self.safe(node, scope)

    def _safe_constant(self, module: Module, name: str) -> bool:
        resolved = self.package.resolve(module, name)
        if resolved is None:
            return False
        owner, top = resolved
        values = owner.constants.get(top)
        if not values:
            return False
        checker = self if owner is self.module else self.package.checker(owner)
        return all(checker.safe(v, checker.module_scope) for v in values)

    def _safe_attribute(self, node: ast.Attribute, scope: Scope) -> bool:
        receiver = node.value
        if node.attr == "plain" and self.is_text(receiver, scope):
            return True  # a Text's own characters: checked when it was built
        if isinstance(receiver, ast.Name):
            other = self.package.module_alias(self.module, receiver.id)
            if other is not None:
                return self._safe_constant(other, node.attr)
        owner = self.class_of(receiver, scope)
        declared = self.package.declared(owner, node.attr) if owner else []
        if declared and all(self.package.kind(a) in ("number", "text") for a in declared):
            return True
        if declared:
            return False
        if _is_self(receiver):
            return self._safe_self_field(node.attr, scope)
        return False

    def _self_assignments(self, cls: ast.ClassDef, attr: str) -> list[ast.expr] | None:
        """What ``self.attr`` is ever set to in ``cls`` (None: set in a way that is not seen,
        such as unpacking a value that is not a tuple written out)."""
        values: list[ast.expr] = []
        for item in cls.body:
            if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in item.targets):
                values.append(item.value)
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if not _match_self(target, node.value, attr, values):
                        return None
            elif (
                isinstance(node, ast.AnnAssign | ast.AugAssign)
                and node.value is not None
                and isinstance(node.target, ast.Attribute)
                and node.target.attr == attr
                and _is_self(node.target.value)
            ):
                values.append(node.value)
        return values

    def _current_class(self, scope: Scope) -> ast.ClassDef | None:
        """The class whose method (or code nested in one) ``scope`` is."""
        return self._owner.get(id(scope.node), (None, None))[0]

    def _safe_self_field(self, attr: str, scope: Scope) -> bool:
        cls = self._current_class(scope)
        if cls is None:
            return False
        if not self._guard(f"self.{attr}", cls):
            return True  # a field made from itself (self.index + 1): its other sources decide
        try:
            values = self._self_assignments(cls, attr)
            return bool(values) and all(self.safe(v, self._scope_of_node(v)) for v in values or [])
        finally:
            self._busy.discard((f"self.{attr}", id(cls)))

    def _safe_call(self, node: ast.Call, scope: Scope) -> bool:
        name, func = _call_name(node), node.func
        if name in SAFE_TEXT_FUNCTIONS or name in NUMERIC_BUILTINS:
            return True
        if name == "repr":
            return True
        if name in ("sorted", "list", "tuple", "set", "frozenset", "reversed", "min", "max") and isinstance(
            func, ast.Name
        ):
            return all(self._safe_items(a, scope) for a in node.args)
        if name == "str" and isinstance(func, ast.Name):
            return bool(node.args) and self.safe(node.args[0], scope)
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if func.attr in ("feed", "flush") and "cleaner" in ast.unparse(receiver).lower():
                return True
            if (func.attr in STR_METHODS or func.attr == "get") and self.safe(receiver, scope):
                return all(self.safe(a, scope) for a in node.args) and all(
                    self.safe(k.value, scope) for k in node.keywords
                )
            if isinstance(receiver, ast.Name):
                other = self.package.module_alias(self.module, receiver.id)
                if other is not None:
                    return self._safe_function(other, func.attr)
            owner = self.class_of(receiver, scope)
            if owner is not None:
                methods = [
                    m
                    for cls in self.package.classes.get(owner, [])
                    for m in cls.body
                    if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name == func.attr
                ]
                if methods and all(self.package.kind(m.returns) in ("number", "text") for m in methods):
                    return True
                if _is_self(receiver) and len(methods) == 1:
                    return self._safe_returns(self, methods[0])
            return False
        if isinstance(func, ast.Name):
            bindings = scope.lookup(func.id)
            if bindings:
                functions = [v for k, v in bindings if k == "function"]
                return len(functions) == 1 and self._safe_returns(self, functions[0])  # type: ignore[arg-type]
            resolved = self.package.resolve(self.module, func.id)
            if resolved is not None:
                return self._safe_function(*resolved)
        return False

    def _safe_function(self, module: Module, name: str) -> bool:
        resolved = self.package.resolve(module, name)
        if resolved is None or resolved[1] not in resolved[0].functions:
            return False
        owner, top = resolved
        checker = self if owner is self.module else self.package.checker(owner)
        return self._safe_returns(checker, owner.functions[top])

    def _safe_returns(self, checker: Checker, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Every ``return`` of ``function`` is safe, its parameters counting by annotation."""
        if self.package.kind(function.returns) in ("number", "text"):
            return True
        if id(function) in checker._returns:
            return checker._returns[id(function)]
        if not checker._guard("returns", function):
            return False
        try:
            scope = checker._scope_of_node(function.body[0]) if function.body else checker.module_scope
            returns = [n for s in function.body for n in _walk_own(s) if isinstance(n, ast.Return)]
            proven = bool(returns) and all(checker.safe(r.value, scope) for r in returns)
        finally:
            checker._busy.discard(("returns", id(function)))
        checker._returns[id(function)] = proven
        return proven

    # -- types ------------------------------------------------------------------------------

    def class_of(self, node: ast.AST, scope: Scope) -> str | None:
        """The ragtui class of ``node``'s value, when annotations say it. A name met again while
        its class is being found (a loop that refills a list) adds nothing: the rest decide."""
        if not self._guard("class", node):
            return CYCLE
        try:
            return self._class_of(node, scope)
        finally:
            self._busy.discard(("class", id(node)))

    def _class_of(self, node: ast.AST, scope: Scope) -> str | None:
        if _is_self(node):
            cls = self._current_class(scope)
            return cls.name if cls is not None else None
        if isinstance(node, ast.Name):
            narrowed = self._narrowed(node)
            if narrowed is not None:
                return narrowed
            bindings = scope.lookup(node.id) or []
            names: set[str | None] = set()
            for kind, value in bindings:
                if kind in ("param", "annotated"):
                    names.add(self.package.class_named(value))  # type: ignore[arg-type]
                elif kind == "expr":
                    names.add(self.class_of(value, scope))  # type: ignore[arg-type]
                elif kind == "element":
                    names.add(self.element_class_of(value, scope))
                elif kind == "item_of" and isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
                    index = value.slice.value  # type: ignore[attr-defined]
                    for k, v in scope.lookup(value.value.id) or []:
                        if k == "member" and isinstance(v, ast.Tuple) and index < len(v.elts):
                            names.add(self.class_of(v.elts[index], scope))
                        elif k != "annotated" and (k != "expr" or not isinstance(v, ast.List) or v.elts):
                            names.add(None)
                else:
                    names.add(None)
            names.discard(CYCLE)
            return names.pop() if len(names) == 1 else None
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name in ("query_one", "query_exactly_one") and len(node.args) > 1:
                return _base_name(node.args[1]) or None
            if isinstance(node.func, ast.Name):
                if name in self.package.classes:
                    return name
                resolved = self.package.resolve(self.module, name)
                if resolved is not None and resolved[1] in resolved[0].functions:
                    return self.package.class_named(resolved[0].functions[resolved[1]].returns)
            if isinstance(node.func, ast.Attribute):
                owner = self.class_of(node.func.value, scope)
                if owner is not None:
                    methods = [
                        m
                        for cls in self.package.classes.get(owner, [])
                        for m in cls.body
                        if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name == node.func.attr
                    ]
                    if len(methods) == 1:
                        return self.package.class_named(methods[0].returns)
            return None
        if isinstance(node, ast.Attribute):
            owner = self.class_of(node.value, scope)
            declared = self.package.declared(owner, node.attr) if owner else []
            names = {self.package.class_named(a) for a in declared}
            cls = self._current_class(scope) if _is_self(node.value) else None
            if not declared and cls is not None:  # self.base = base, with base: StoredSession
                values = self._self_assignments(cls, node.attr) or []
                names = {self.class_of(v, self._scope_of_node(v)) for v in values} - {CYCLE}
            return names.pop() if len(names) == 1 else None
        if isinstance(node, ast.Subscript):
            return self.element_class_of(node.value, scope)
        if isinstance(node, ast.IfExp | ast.BoolOp):
            parts = [node.body, node.orelse] if isinstance(node, ast.IfExp) else node.values
            names = {self.class_of(p, scope) for p in parts if not (isinstance(p, ast.Constant) and p.value is None)}
            names.discard(CYCLE)
            return names.pop() if len(names) == 1 else None
        return None

    def _narrowed(self, name: ast.Name) -> str | None:
        """The class an enclosing ``if isinstance(name, Cls):`` (or ``elif``) gives ``name``."""
        child: ast.AST = name
        parent = self._parent.get(id(child))
        while parent is not None and not isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if isinstance(parent, ast.If) and any(child is s for s in parent.body):
                tests = (
                    parent.test.values
                    if isinstance(parent.test, ast.BoolOp) and isinstance(parent.test.op, ast.And)
                    else [parent.test]
                )
                for test in tests:
                    if (
                        isinstance(test, ast.Call)
                        and _call_name(test) == "isinstance"
                        and len(test.args) == 2
                        and isinstance(test.args[0], ast.Name)
                        and test.args[0].id == name.id
                        and _base_name(test.args[1]) in self.package.classes
                        and isinstance(test.args[1], ast.Name | ast.Attribute)
                    ):
                        return _base_name(test.args[1])
            child, parent = parent, self._parent.get(id(parent))
        return None

    def _methods(self, receiver: ast.AST, name: str, scope: Scope) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        """The methods ``receiver.name(…)`` calls, when the receiver's class is known."""
        owner = self.class_of(receiver, scope)
        return [
            m
            for cls in self.package.classes.get(owner or "", [])
            for m in cls.body
            if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name == name
        ]

    def element_class_of(self, node: ast.AST | None, scope: Scope) -> str | None:
        """The class of the items of the collection ``node``."""
        if isinstance(node, ast.Call) and _call_name(node) in ("sorted", "list", "reversed", "tuple") and node.args:
            return self.element_class_of(node.args[0], scope)
        if isinstance(node, ast.Name):
            bindings = scope.lookup(node.id) or []
            names = {
                self.package.element_class(v)  # type: ignore[arg-type]
                if k in ("param", "annotated")
                else self.element_class_of(v, scope)
                if k == "expr"
                else None
                for k, v in bindings
            }
            return names.pop() if len(names) == 1 else None
        if isinstance(node, ast.Attribute):
            owner = self.class_of(node.value, scope)
            declared = self.package.declared(owner, node.attr) if owner else []
            names = {self.package.element_class(a) for a in declared}
            return names.pop() if len(names) == 1 else None
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                resolved = self.package.resolve(self.module, node.func.id)
                if resolved is not None and resolved[1] in resolved[0].functions:
                    return self.package.element_class(resolved[0].functions[resolved[1]].returns)
            if isinstance(node.func, ast.Attribute):
                owner = self.class_of(node.func.value, scope)
                methods = [
                    m
                    for cls in self.package.classes.get(owner or "", [])
                    for m in cls.body
                    if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name == node.func.attr
                ]
                if len(methods) == 1:
                    return self.package.element_class(methods[0].returns)
        return None

    def is_text(self, node: ast.AST, scope: Scope) -> bool:
        """``node`` is a ``rich.text.Text``: its text was checked where it was built. A name
        that is a Text when what it was made from is (``shown = lines[0]`` of
        ``lines = shown.split()``) is taken as one: every other source must still be a Text."""
        if not self._guard("text", node):
            return True
        try:
            return self._is_text(node, scope)
        finally:
            self._busy.discard(("text", id(node)))

    def _is_text(self, node: ast.AST, scope: Scope) -> bool:
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if isinstance(node.func, ast.Name):
                if name in ("Text", "plain"):
                    return True
                resolved = self.package.resolve(self.module, name)
                if resolved is not None and resolved[1] in resolved[0].functions:
                    return self.package.kind(resolved[0].functions[resolved[1]].returns) == "text"
                return name in self.package.text_functions
            if isinstance(node.func, ast.Attribute):
                if _base_name(node.func.value) == "Text" and node.func.attr in ("assemble", "from_markup", "from_ansi"):
                    return True  # checked as a sink
                if node.func.attr in TEXT_METHODS and self.is_text(node.func.value, scope):
                    return True
                other = (
                    self.package.module_alias(self.module, node.func.value.id)
                    if isinstance(node.func.value, ast.Name)
                    else None
                )
                if other is not None:  # module.function(…)
                    function = other.functions.get(node.func.attr)
                    return function is not None and self.package.kind(function.returns) == "text"
                methods = self._methods(node.func.value, node.func.attr, scope)
                if methods:
                    return all(self.package.kind(m.returns) == "text" for m in methods)
                if node.func.attr in self.package.text_functions:
                    return True
            return False
        if isinstance(node, ast.Subscript):
            return self._is_text_list(node.value, scope)
        if isinstance(node, ast.IfExp):
            return self.is_text(node.body, scope) and self.is_text(node.orelse, scope)
        if isinstance(node, ast.BoolOp):
            return all(self.is_text(v, scope) for v in node.values)
        if isinstance(node, ast.Attribute):
            owner = self.class_of(node.value, scope)
            declared = self.package.declared(owner, node.attr) if owner else []
            if declared:
                return all(self.package.kind(a) == "text" for a in declared)
            cls = self._current_class(scope) if _is_self(node.value) else None
            if cls is not None:
                values = self._self_assignments(cls, node.attr)
                return bool(values) and all(self.is_text(v, self._scope_of_node(v)) for v in values or [])
            return False
        if isinstance(node, ast.Name):
            bindings = scope.lookup(node.id)
            if not bindings:
                return False
            if any(k in ("param", "annotated") and self.package.kind(v) == "text" for k, v in bindings):  # type: ignore[arg-type]
                return True
            values = [(k, v) for k, v in bindings if k not in ("annotated", "member", "members")]
            return bool(values) and all(
                (k == "expr" and self.is_text(v, scope)) or (k == "element" and self._is_text_list(v, scope))  # type: ignore[arg-type]
                for k, v in values
            )
        return False

    def _is_text_list(self, node: ast.AST | None, scope: Scope) -> bool:
        """``node`` is a list of ``Text`` (``text.split("\\n")``)."""
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("split", "divide")
        ):
            return self.is_text(node.func.value, scope)
        if isinstance(node, ast.Name):
            bindings = scope.lookup(node.id)
            return bool(bindings) and all(k == "expr" and self._is_text_list(v, scope) for k, v in bindings or [])
        return False

    # -- sinks ------------------------------------------------------------------------------

    def run(self) -> list[Finding]:
        self._visit(self.module.tree, self.module_scope)
        return self.findings

    def _visit(self, node: ast.AST, scope: Scope) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                self._visit(child, scope)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                self._visit(child, self.scope_for(child, scope))
            elif isinstance(child, ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp):
                inner = self.scope_for(child, scope)
                self._check(child, inner)
                self._visit(child, inner)
            else:
                self._check(child, scope)
                self._visit(child, scope)

    def _report(self, node: ast.AST, sink: str, argument: ast.AST, why: str) -> None:
        path = str(self.module.path.relative_to(self.package.root.parent))
        self.findings.append(Finding(path, getattr(node, "lineno", 0), sink, ast.unparse(argument), why))

    def culprit(self, node: ast.AST, scope: Scope) -> ast.AST:
        """The smallest part of the unsafe ``node`` that could not be proven safe."""
        parts: list[ast.AST] = []
        if isinstance(node, ast.JoinedStr | ast.BoolOp):
            parts = list(node.values)
        elif isinstance(node, ast.FormattedValue | ast.Starred | ast.Subscript):
            parts = [node.value]
        elif isinstance(node, ast.BinOp):
            parts = [node.left, node.right]
        elif isinstance(node, ast.IfExp):
            parts = [node.body, node.orelse]
        elif isinstance(node, ast.Tuple | ast.List):
            parts = list(node.elts)
        elif isinstance(node, ast.ListComp | ast.GeneratorExp):
            scope, parts = self.scope_for(node, scope), [node.elt]
        for part in parts:
            if not self.safe(part, scope):
                return self.culprit(part, scope)
        return node

    def _need(self, node: ast.AST, sink: str, argument: ast.AST, scope: Scope, *, markup: bool = False) -> None:
        """``argument`` must be safe; given to a sink that parses markup, also a literal or a
        ``Text``."""
        if not self.safe(argument, scope):
            culprit = self.culprit(argument, scope)
            why = "not through safe_text" if culprit is argument else f"{ast.unparse(culprit)} not through safe_text"
            self._report(node, sink, argument, why)
        elif markup and not isinstance(argument, ast.Constant) and not self.is_text(argument, scope):
            self._report(node, sink, argument, "a str parsed as markup: give a Text, or markup=False")

    def _check(self, node: ast.AST, scope: Scope) -> None:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr in ASSIGNED_TEXT:
                    self._need(node, f".{target.attr} =", node.value, scope)
            return
        if not isinstance(node, ast.Call):
            return
        func, name = node.func, _call_name(node)
        markup_off = any(
            k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False for k in node.keywords
        )
        for keyword in node.keywords:
            if keyword.arg in KEYWORD_TEXT:
                self._need(node, f"{name}({keyword.arg}=)", keyword.value, scope)
        receiver = func.value if isinstance(func, ast.Attribute) else None
        if isinstance(func, ast.Name) and name == "Text":
            if node.args:
                self._need(node, "Text()", node.args[0], scope)
        elif receiver is not None and _base_name(receiver) in ("Text", "Content") and isinstance(receiver, ast.Name):
            if func.attr == "assemble":  # type: ignore[union-attr]
                for part in node.args:
                    piece = part.elts[0] if isinstance(part, ast.Tuple) and part.elts else part
                    self._need(node, "Text.assemble()", piece, scope)
            elif node.args and not isinstance(node.args[0], ast.Constant):
                self._report(node, f"{receiver.id}.{name}()", node.args[0], "parses what it is given")
        elif name == "append" and receiver is not None and self.is_text(receiver, scope):
            if node.args:
                self._need(node, "Text.append()", node.args[0], scope)
        elif name == "append_text" and node.args:
            if not self.is_text(node.args[0], scope):
                self._report(node, "Text.append_text()", node.args[0], "not a Text built from checked text")
        elif self.package.widgets.get(name) in WIDGET_TEXT and (isinstance(func, ast.Name) or name[:1].isupper()):
            positions, keywords = WIDGET_TEXT[self.package.widgets[name]]
            markup = self.package.widgets[name] in MARKUP_SINKS and not markup_off
            for index in positions:
                if index < len(node.args):
                    self._need(node, f"{name}()", node.args[index], scope, markup=markup)
            for keyword in node.keywords:
                if keyword.arg in keywords:
                    self._need(node, f"{name}({keyword.arg}=)", keyword.value, scope, markup=markup)
        elif self.package.widgets.get(name) in CHOICE_WIDGETS and (isinstance(func, ast.Name) or name[:1].isupper()):
            for arg in node.args:
                self._need_choices(node, name, arg, scope)
            for keyword in node.keywords:
                if keyword.arg in ("options", "selections"):
                    self._need_choices(node, name, keyword.value, scope)
        elif name in CHOICE_METHODS and receiver is not None:
            for arg in node.args[:1]:
                self._need_choices(node, f".{name}()", ast.List(elts=[arg]) if name == "add_option" else arg, scope)
        elif name in METHOD_TEXT and receiver is not None:
            positions, keywords = METHOD_TEXT[name]
            markup = name in MARKUP_SINKS and not markup_off
            args = node.args if positions is None else [node.args[i] for i in positions if i < len(node.args)]
            for arg in args:
                self._need(node, f".{name}()", arg, scope, markup=markup)
            for keyword in node.keywords:
                if keyword.arg in keywords:
                    self._need(
                        node, f".{name}({keyword.arg}=)", keyword.value, scope, markup=markup and keyword.arg != "title"
                    )

    def _need_choices(self, node: ast.AST, name: str, arg: ast.AST, scope: Scope) -> None:
        """Choices: each an ``Option``/``Selection``/button (checked where it is built), a
        ``(prompt, value)`` pair whose prompt is safe, or safe text."""
        if isinstance(arg, ast.Starred):
            self._need_choices(node, name, arg.value, scope)
            return
        if isinstance(arg, ast.List | ast.Tuple):
            items = [(e, scope) for e in arg.elts]
        elif isinstance(arg, ast.ListComp | ast.GeneratorExp):
            items = [(arg.elt, self.scope_for(arg, scope))]
        else:
            items = [(arg, scope)]
        for item, inner in items:
            if isinstance(item, ast.Starred | ast.ListComp | ast.GeneratorExp):
                self._need_choices(node, name, item, inner)
            elif isinstance(item, ast.Call) and _call_name(item) in self.package.widgets:
                continue
            elif isinstance(item, ast.Tuple) and item.elts:
                self._need(node, f"{name} prompt", item.elts[0], inner)
            elif isinstance(item, ast.Name) and self._built_choices(item, inner):
                continue
            elif isinstance(item, ast.Name) and inner.lookup(item.id):
                # a list of choices made in place: each of what it was made from is checked
                for kind, value in inner.lookup(item.id) or []:
                    if kind in ("expr", "members") and isinstance(value, ast.List | ast.ListComp | ast.GeneratorExp):
                        self._need_choices(node, name, value, inner)
                    elif kind == "member" and value is not None:
                        self._need_choices(node, name, ast.List(elts=[value]), inner)
                    else:
                        self._need(node, f"{name} choice", item, inner)
                        break
            else:
                self._need(node, f"{name} choice", item, inner)

    def _built_choices(self, item: ast.Name, scope: Scope) -> bool:
        """A name bound only to choices built (and so checked) in place."""
        bindings = scope.lookup(item.id)
        if not bindings:
            return False
        for kind, value in bindings:
            if kind in ("expr", "member") and isinstance(value, ast.Call) and _call_name(value) in self.package.widgets:
                continue
            if kind == "expr" and isinstance(value, ast.List) and not value.elts:
                continue
            if (
                kind == "members"
                and isinstance(value, ast.ListComp | ast.GeneratorExp)
                and isinstance(value.elt, ast.Call)
                and _call_name(value.elt) in self.package.widgets
            ):
                continue
            return False
        return True


def _match_self(target: ast.AST, value: ast.expr | None, attr: str, values: list[ast.expr]) -> bool:
    """Collect into ``values`` what ``target = value`` gives ``self.attr``; False when it is
    given part of a value that is not written out (``self.a, self.b = pair``)."""
    if isinstance(target, ast.Attribute):
        if target.attr == attr and _is_self(target.value):
            if value is None:
                return False
            values.append(value)
        return True
    if isinstance(target, ast.Tuple | ast.List):
        written = isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(target.elts)
        for index, element in enumerate(target.elts):
            part = value.elts[index] if written else None  # type: ignore[union-attr]
            if not _match_self(element, part, attr, values):
                return False
    return True


def _numeric_spec(spec: ast.AST | None) -> bool:
    """``{x:.2f}``, ``{n:d}``, ``{v:+.0%}``: a format only a number takes (a str raises)."""
    if not isinstance(spec, ast.JoinedStr) or not all(isinstance(v, ast.Constant) for v in spec.values):
        return False
    return bool(_NUMERIC_SPEC.fullmatch("".join(str(v.value) for v in spec.values)))  # type: ignore[attr-defined]


def findings_in(root: Path, under: str = "tui") -> list[Finding]:
    """Every sink under ``root/under`` whose text is not proven safe; and in every core module
    that builds a ``Text`` (a function annotated ``-> Text``), whose results the check trusts
    as checked. (The CLI is not the TUI's to import; its console draws every control visibly.)"""
    package = Package(root, skip=("cli",))
    found: list[Finding] = []
    for module in package.modules.values():
        in_core = module.path.is_relative_to(root / "core")
        if module.path.is_relative_to(root / under) or (module.name in package.builds_text and in_core):
            found.extend(package.checker(module).run())
    return sorted(found, key=lambda f: (f.path, f.line))
