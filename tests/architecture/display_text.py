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
from dataclasses import dataclass
from pathlib import Path

from .source_index import Module, Package, Scope, base_name, call_name
from .text_proofs import Proofs

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


class Checker(Proofs):
    """Every sink of one module, its text proven safe or reported."""

    def __init__(self, package: Package, module: Module) -> None:
        super().__init__(package, module)
        self.findings: list[Finding] = []

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
        func, name = node.func, call_name(node)
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
        elif receiver is not None and base_name(receiver) in ("Text", "Content") and isinstance(receiver, ast.Name):
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
            elif isinstance(item, ast.Call) and call_name(item) in self.package.widgets:
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
            if kind in ("expr", "member") and isinstance(value, ast.Call) and call_name(value) in self.package.widgets:
                continue
            if kind == "expr" and isinstance(value, ast.List) and not value.elts:
                continue
            if (
                kind == "members"
                and isinstance(value, ast.ListComp | ast.GeneratorExp)
                and isinstance(value.elt, ast.Call)
                and call_name(value.elt) in self.package.widgets
            ):
                continue
            return False
        return True


def findings_in(root: Path, under: str = "tui") -> list[Finding]:
    """Every sink under ``root/under`` whose text is not proven safe; and in every core module
    that builds a ``Text`` (a function annotated ``-> Text``), whose results the check trusts
    as checked. (The CLI is not the TUI's to import; its console draws every control visibly.)"""
    package = Package(root, {*WIDGET_TEXT, *CHOICE_WIDGETS, "DataTable"}, Checker, skip=("cli",))
    found: list[Finding] = []
    for module in package.modules.values():
        in_core = module.path.is_relative_to(root / "core")
        if module.path.is_relative_to(root / under) or (module.name in package.builds_text and in_core):
            found.extend(package.checker(module).run())
    return sorted(found, key=lambda f: (f.path, f.line))
