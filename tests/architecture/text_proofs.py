"""What ``display_text`` can prove of an expression: that it is text nothing in it can drive a
terminal (``safe``), a ``rich.text.Text`` (``is_text``), or a value of a ragtui class
(``class_of``); from the names' scopes, the annotations, and the safe-text functions."""

from __future__ import annotations

import ast
import re

from .source_index import (
    CONTROL,
    Module,
    Package,
    Scope,
    base_name,
    call_name,
    is_self,
    walk_own,
)

SAFE_TEXT_FUNCTIONS = {"clean_text", "one_line", "plain", "field_text", "area_text", "strip_controls", "visible"}
NUMERIC_BUILTINS = {"len", "int", "float", "round", "abs", "sum", "ord", "bool", "id", "hash", "isinstance"}
STR_METHODS = {
    "strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "casefold", "replace",
    "removeprefix", "removesuffix", "ljust", "rjust", "center", "zfill", "expandtabs", "format",
    "join", "split", "rsplit", "splitlines", "partition", "rpartition",
}  # fmt: skip
TEXT_METHODS = {"copy", "split", "join", "truncate", "divide", "rstrip", "strip"}
CYCLE = ""  # class_of: a value met again while its class is being found
_NUMERIC_SPEC = re.compile(r"[-+ #0-9,_.<>^=]*[bcdeEfFgGnoxX%]$")


class Proofs:
    """Proves, or fails to prove, what the expressions of one module are."""

    def __init__(self, package: Package, module: Module) -> None:
        self.package = package
        self.module = module
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
            for inner in walk_own(statement):
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
            call = call_name(value) if isinstance(value, ast.Call) else ""
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
            return not (isinstance(node.value, str) and CONTROL.search(node.value))
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
            name = call_name(node)
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
        if is_self(receiver):
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
                and is_self(node.target.value)
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
        name, func = call_name(node), node.func
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
                if is_self(receiver) and len(methods) == 1:
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

    def _safe_returns(self, checker: Proofs, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Every ``return`` of ``function`` is safe, its parameters counting by annotation."""
        if self.package.kind(function.returns) in ("number", "text"):
            return True
        if id(function) in checker._returns:
            return checker._returns[id(function)]
        if not checker._guard("returns", function):
            return False
        try:
            scope = checker._scope_of_node(function.body[0]) if function.body else checker.module_scope
            returns = [n for s in function.body for n in walk_own(s) if isinstance(n, ast.Return)]
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
        if is_self(node):
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
            name = call_name(node)
            if name in ("query_one", "query_exactly_one") and len(node.args) > 1:
                return base_name(node.args[1]) or None
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
            cls = self._current_class(scope) if is_self(node.value) else None
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
                        and call_name(test) == "isinstance"
                        and len(test.args) == 2
                        and isinstance(test.args[0], ast.Name)
                        and test.args[0].id == name.id
                        and base_name(test.args[1]) in self.package.classes
                        and isinstance(test.args[1], ast.Name | ast.Attribute)
                    ):
                        return base_name(test.args[1])
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
        if isinstance(node, ast.Call) and call_name(node) in ("sorted", "list", "reversed", "tuple") and node.args:
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
            name = call_name(node)
            if isinstance(node.func, ast.Name):
                if name in ("Text", "plain"):
                    return True
                resolved = self.package.resolve(self.module, name)
                if resolved is not None and resolved[1] in resolved[0].functions:
                    return self.package.kind(resolved[0].functions[resolved[1]].returns) == "text"
                return name in self.package.text_functions
            if isinstance(node.func, ast.Attribute):
                if base_name(node.func.value) == "Text" and node.func.attr in ("assemble", "from_markup", "from_ansi"):
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
            cls = self._current_class(scope) if is_self(node.value) else None
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


def _match_self(target: ast.AST, value: ast.expr | None, attr: str, values: list[ast.expr]) -> bool:
    """Collect into ``values`` what ``target = value`` gives ``self.attr``; False when it is
    given part of a value that is not written out (``self.a, self.b = pair``)."""
    if isinstance(target, ast.Attribute):
        if target.attr == attr and is_self(target.value):
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
