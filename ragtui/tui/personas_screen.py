"""The persona editor: list, create, edit, duplicate and delete ``personas/<lang>/*.toml``.

Saving goes through ``save_persona`` (validation, then tomli-w with multi-line strings), so the
files stay hand-editable. A dialogue already running keeps the persona it started with: the
engine copied it into the session when the dialogue began.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from ..core.config import LANGUAGES
from ..core.content.personas import Persona, load_persona_file, save_persona
from ..core.errors import ConfigError
from .dialogs import ConfirmScreen
from .safe_text import clean_text

if TYPE_CHECKING:
    from .app import RagtuiApp


class PersonasScreen(Screen[None]):
    BINDINGS = [
        Binding("ctrl+n", "new", "New"),
        Binding("ctrl+s", "save", "Save"),
        # Not ctrl+d / ctrl+x: text fields use those (delete right, cut) when they have focus.
        Binding("ctrl+t", "duplicate", "Duplicate"),
        Binding("f8", "delete", "Delete"),
        Binding("ctrl+l", "switch_language", "Language"),
        Binding("escape", "dismiss(None)", "Back"),
    ]

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language
        self.personas: list[Persona] = []
        self.original: str | None = None  # name of the file being edited; None: a new persona

    @property
    def folder(self) -> Path:
        return cast("RagtuiApp", self.app).config.personas

    def compose(self) -> ComposeResult:
        yield Static("", id="personas-title", markup=False)
        with Horizontal():
            yield OptionList(id="persona-names")
            with Vertical(id="persona-form"):
                yield Label("Name (lowercase letters, digits, - or _; also the file name)")
                yield Input(id="p-name")
                yield Label("Description (one line, shown in lists)")
                yield Input(id="p-description")
                yield Label("Temperature (0–2)")
                yield Input("0.7", id="p-temperature")
                yield Label("Behaviour: how this customer talks and acts (given to the simulator)")
                yield TextArea("", soft_wrap=True, id="p-text")
                yield Static("", id="persona-error", classes="error", markup=False)
                with Horizontal(classes="buttons"):
                    yield Button("Save", variant="primary", id="p-save")
                    yield Button("New", id="p-new")
                    yield Button("Duplicate", id="p-duplicate")
                    yield Button("Delete", variant="error", id="p-delete")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#persona-names").focus()

    def reload(self, select: str | None = None) -> None:
        """Read every persona file of the language; a broken file is listed, not fatal."""
        folder = self.folder / self.language
        self.personas, problems = [], []
        for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
            try:
                self.personas.append(load_persona_file(path))
            except ConfigError as exc:
                problems.append(str(exc))
        title = Text(
            f"Personas ({self.language}) in {folder} — ctrl+s save · ctrl+n new · ctrl+t duplicate · F8 delete"
        )
        if problems:
            title.append(f"\n⚠ {len(problems)} file(s) could not be read: {clean_text(problems[0])}", style="yellow")
        self.query_one("#personas-title", Static).update(title)
        names = self.query_one("#persona-names", OptionList)
        names.clear_options()
        names.add_options([Option(Text(p.name), id=p.name) for p in self.personas])
        index = next((i for i, p in enumerate(self.personas) if p.name == select), 0)
        if self.personas:
            names.highlighted = index
            self.fill(self.personas[index])
        else:
            self.action_new()

    def fill(self, persona: Persona, *, original: str | None = "same") -> None:
        self.original = persona.name if original == "same" else original
        self.query_one("#p-name", Input).value = persona.name
        self.query_one("#p-description", Input).value = persona.description
        self.query_one("#p-temperature", Input).value = f"{persona.temperature:g}"
        self.query_one("#p-text", TextArea).load_text(persona.persona)
        self.query_one("#persona-error", Static).update("")

    @on(OptionList.OptionHighlighted, "#persona-names")
    def _chosen(self, event: OptionList.OptionHighlighted) -> None:
        persona = next((p for p in self.personas if p.name == event.option.id), None)
        if persona is not None:
            self.fill(persona)

    def form(self) -> Persona:
        """The persona as typed; raises ConfigError saying which field is wrong."""
        raw = self.query_one("#p-temperature", Input).value.strip()
        try:
            temperature = float(raw)
        except ValueError:
            raise ConfigError(f"temperature must be a number between 0 and 2, got {raw!r}") from None
        # patience and goal are edited in the file; the form keeps what the file has.
        kept = next((p for p in self.personas if p.name == self.original), None)
        persona = Persona(
            name=self.query_one("#p-name", Input).value.strip(),
            language=self.language,
            persona=self.query_one("#p-text", TextArea).text,
            temperature=temperature,
            description=self.query_one("#p-description", Input).value.strip(),
            patience=kept.patience if kept else None,
            goal=kept.goal if kept else "",
        )
        persona.validate("persona")
        if persona.name != self.original and (self.folder / self.language / f"{persona.name}.toml").exists():
            raise ConfigError(f"a persona named {persona.name!r} already exists", "choose another name")
        return persona

    @on(Button.Pressed, "#p-save")
    def action_save(self) -> None:
        error = self.query_one("#persona-error", Static)
        try:
            persona = self.form()
            path = save_persona(self.folder, persona)
            if self.original and self.original != persona.name:  # renamed: the old file goes
                (self.folder / self.language / f"{self.original}.toml").unlink(missing_ok=True)
        except (ConfigError, OSError) as exc:
            error.update(Text(str(exc)))
            self.app.notify(f"Not saved: {exc}", severity="error", markup=False)
            return
        self.app.notify(f"Saved persona {persona.name} to {path}", markup=False)
        self.reload(select=persona.name)

    @on(Button.Pressed, "#p-new")
    def action_new(self) -> None:
        self.fill(Persona(name="", language=self.language, persona=""), original=None)
        self.query_one("#p-name", Input).focus()

    @on(Button.Pressed, "#p-duplicate")
    def action_duplicate(self) -> None:
        try:
            current = self.form()
        except ConfigError:
            current = next((p for p in self.personas if p.name == self.original), None)  # type: ignore[assignment]
            if current is None:
                return
        taken = {p.name for p in self.personas}
        name = next(f"{current.name}-copy{n or ''}" for n in range(100) if f"{current.name}-copy{n or ''}" not in taken)
        self.fill(
            Persona(name[:48], self.language, current.persona, current.temperature, current.description), original=None
        )
        self.app.notify(f"Duplicated as {name}: edit it, then ctrl+s to save", markup=False)

    @on(Button.Pressed, "#p-delete")
    def action_delete(self) -> None:
        name = self.original
        if not name:
            self.app.notify("This persona is not saved yet: nothing to delete.", severity="warning", markup=False)
            return
        path = self.folder / self.language / f"{name}.toml"

        def confirmed(answer: bool | None) -> None:
            if not answer:
                return
            try:
                path.unlink()
            except OSError as exc:
                self.app.notify(f"Cannot delete {path}: {exc.strerror}", severity="error", markup=False)
                return
            self.app.notify(f"Deleted persona {name}", markup=False)
            self.reload()

        self.app.push_screen(ConfirmScreen(f"Delete persona {name} ({path})?"), confirmed)

    def action_switch_language(self) -> None:
        self.language = LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
        self.reload()
