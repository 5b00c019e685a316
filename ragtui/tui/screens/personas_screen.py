"""The persona editor: list, create, edit, duplicate and delete personas.

Edits are saved to the user's own folder (``user_personas``); the shipped personas stay as
installed, and a user file with a shipped persona's name overrides it until "restore shipped"
(ctrl+r) deletes that file. Saving under a new name asks: rename, save as a copy, or cancel.

Saving goes through ``save_persona`` (validation, then tomli-w with multi-line strings), so the
files stay hand-editable. A dialogue already running keeps the persona it started with: the
engine copied it into the session when the dialogue began.

Edits are never thrown away silently: moving to another persona, starting a new one, switching
language or leaving with unsaved changes asks first (save / discard / stay).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from ...core.config.settings import LANGUAGES
from ...core.content.persona_folders import Origin, PersonaFolders, folders_of, load_merged
from ...core.content.personas import validate_persona
from ...core.content.picking import Skipped
from ...core.text.number_text import setting_text
from ...core.types.errors import ConfigError
from ...core.types.personas import Persona
from ..context import services
from ..dialogs.common import Choice, ConfirmScreen, UnsavedChangesScreen
from ..dialogs.persona_rename import PersonaRenameScreen, RenameChoice
from ..safe_text import area_text, field_text, one_line, plain
from ..widgets.fields import NumberField, TextField
from . import broken_files


class PersonasScreen(Screen[None]):
    BINDINGS = [
        Binding("ctrl+n", "new", "New", tooltip="A new persona"),
        Binding("ctrl+s", "save", "Save", tooltip="Save the persona"),
        # Not ctrl+d / ctrl+x: text fields use those (delete right, cut) when they have focus.
        Binding("ctrl+t", "duplicate", "Duplicate", tooltip="A copy of this persona, to edit and save"),
        Binding("f8", "delete", "Delete", tooltip="Delete the persona, after asking"),
        # Kept out of the footer (80 columns); Help lists them.
        Binding("ctrl+r", "restore", "Restore shipped", show=False, tooltip="Restore the shipped version of a persona"),
        Binding("ctrl+l", "switch_language", "Language", show=False, tooltip="The personas of the next language"),
        Binding("escape", "back", "Back", tooltip="Back; unsaved edits ask first: save, discard or stay"),
    ]

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language
        self.personas: list[Persona] = []
        self.original: str | None = None  # name of the file being edited; None: a new persona
        self.filled: tuple[str, ...] = ()  # the form as last filled or saved: edits differ from it
        self._returning: str | None = None  # the list highlight being put back after "stay"
        self.broken: list[Skipped] = []  # files that could not be read, listed under the personas
        self.fixing: Skipped | None = None  # the broken file open in the form as plain text

    @property
    def folders(self) -> PersonaFolders:
        return folders_of(services(self.app).config)

    def compose(self) -> ComposeResult:
        yield Static("", id="personas-title", markup=False)
        with Horizontal(id="personas-body"):
            yield OptionList(id="persona-names")
            with Vertical(id="persona-form"):
                with VerticalScroll(id="persona-fields"):
                    for label, field, field_id, tooltip in (
                        ("Name", TextField, "p-name", "lowercase letters, digits, - or _; also the file name"),
                        ("Description", TextField, "p-description", "one line, shown in lists"),
                        ("Temperature", NumberField, "p-temperature", "0–2: how varied the customer's messages are"),
                    ):
                        with Horizontal(classes="field"):
                            yield Label(Text(label))
                            yield field(id=field_id, compact=True, tooltip=tooltip)
                    yield Label("Behaviour: how this customer talks and acts (given to the simulator)")
                    yield TextArea("", soft_wrap=True, id="p-text")
                yield Static("", id="persona-error", classes="error", markup=False)
                with Horizontal(classes="buttons"):
                    yield Button("Save", variant="primary", id="p-save", compact=True)
                    yield Button("New", id="p-new", compact=True)
                    yield Button("Duplicate", id="p-duplicate", compact=True)
                    yield Button("Delete", variant="error", id="p-delete", compact=True)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#persona-names").focus()

    def reload(self, select: str | None = None, select_file: Path | None = None) -> None:
        """Read every persona of the language (the user's over the shipped); a broken file is
        listed, not fatal."""
        folders = self.folders
        skipped: list[Skipped] = []
        try:
            self.personas = load_merged(folders, self.language, skipped)
        except ConfigError:  # neither folder exists yet: start with an empty list
            self.personas = []
        self.broken = broken_files.to_list(skipped, self.personas, folders)
        title = Text(
            f"Personas ({one_line(self.language, 8)}) — yours in {one_line(str(_short(folders.user / self.language)), 80)}, "
            f"shipped in {one_line(str(_short(folders.shipped / self.language)), 80)}\n"
            "ctrl+s save · ctrl+n new · ctrl+t duplicate · F8 delete · ctrl+r restore"
        )
        if self.broken:
            title.append(
                f"\n⚠ {len(self.broken)} file(s) could not be read: listed under the personas (⚠); "
                "open one to fix it as text",
                style="yellow",
            )
        self.query_one("#personas-title", Static).update(title)
        names = self.query_one("#persona-names", OptionList)
        names.clear_options()
        names.add_options([Option(self._label(p.name), id=p.name) for p in self.personas])
        names.add_options(
            [Option(broken_files.label(b), id=f"{broken_files.BROKEN}{i}") for i, b in enumerate(self.broken)]
        )
        index = next((i for i, p in enumerate(self.personas) if p.name == select), 0)
        fixed = next((i for i, b in enumerate(self.broken) if b.path == select_file), None)
        if fixed is not None:  # saved, and still broken: the file stays open with its new reason
            self._returning = f"{broken_files.BROKEN}{fixed}"
            names.highlighted = len(self.personas) + fixed
            self._open_broken(self.broken[fixed])
        elif self.personas:
            self._returning = self.personas[index].name  # the highlight event: no question asked
            names.highlighted = index
            self.fill(self.personas[index])
        else:
            self._new()

    def _label(self, name: str) -> Text:
        """The name, marked when it is the user's own file (over a shipped one, or new)."""
        origin = self.folders.origin(self.language, name)
        label = Text(one_line(name, 40))
        if origin is Origin.OVERRIDE:
            label.append(" (edited)", style="italic")
        elif origin is Origin.USER:
            label.append(" (yours)", style="italic")
        return label

    def fill(self, persona: Persona, *, original: str | None = "same") -> None:
        self.fixing = None
        for field_id in ("p-name", "p-description", "p-temperature"):
            self.query_one(f"#{field_id}", Input).disabled = False
        self.original = persona.name if original == "same" else original
        self.query_one("#p-name", Input).value = field_text(persona.name)
        self.query_one("#p-description", Input).value = field_text(persona.description)
        self.query_one("#p-temperature", Input).value = setting_text(persona.temperature)
        self.query_one("#p-text", TextArea).load_text(area_text(persona.persona))
        self.query_one("#persona-error", Static).update("")
        self.filled = self._values()

    def _values(self) -> tuple[str, ...]:
        return (
            *(self.query_one(f"#{i}", Input).value for i in ("p-name", "p-description", "p-temperature")),
            self.query_one("#p-text", TextArea).text,
        )

    @property
    def dirty(self) -> bool:
        return self._values() != self.filled

    def guard(self, then: Callable[[], object], on_stay: Callable[[], None] | None = None) -> None:
        """Run ``then`` now when nothing is unsaved; otherwise ask save / discard / stay."""
        if not self.dirty:
            then()
            return

        def chosen(choice: Choice | None) -> None:
            if choice == "save":
                self.save(then)
            elif choice == "discard":
                then()
                # Back where the person was: not in Name (ctrl+n puts it there), where the next
                # keys would edit the form they just chose to leave alone.
                if before is not None and before.is_attached:
                    before.focus()
            elif on_stay is not None:
                on_stay()

        before = self.app.focused
        self.app.push_screen(UnsavedChangesScreen(self._what()), chosen)

    def _what(self) -> str:
        """The persona the form shows, as the unsaved-changes question names it."""
        typed = self.query_one("#p-name", Input).value.strip()
        if not self.original:
            return f"The new persona {typed}" if typed else "The new persona"
        if typed and typed != self.original:
            return f"Persona {self.original} (renamed to {typed})"
        return f"Persona {self.original}"

    @on(OptionList.OptionHighlighted, "#persona-names")
    def _chosen(self, event: OptionList.OptionHighlighted) -> None:
        if self._returning == event.option.id:  # the highlight put back: not a new choice
            self._returning = None
            return
        option = event.option.id or ""
        if option.startswith(broken_files.BROKEN):
            broken = self.broken[int(option.removeprefix(broken_files.BROKEN))]
            if broken is not self.fixing:
                self.guard(lambda: self._open_broken(broken), on_stay=self._return_highlight)
            return
        persona = next((p for p in self.personas if p.name == option), None)
        if persona is None or (persona.name == self.original and self.fixing is None):
            return
        self.guard(lambda: self._open(persona.name), on_stay=self._return_highlight)

    def _open_broken(self, broken: Skipped) -> None:
        """The broken file as plain text in the behaviour box, its reason below: fix, ctrl+s."""
        assert broken.path is not None
        try:
            raw = broken.path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raw = ""
            self.app.notify(f"Cannot read {broken.path}: {exc.strerror}", severity="error", markup=False)
        self.fill(Persona(name=broken.name, language=self.language, persona=raw), original=None)
        self.fixing = broken
        for field_id in ("p-name", "p-description", "p-temperature"):
            field = self.query_one(f"#{field_id}", Input)
            field.value = field_text(broken.name) if field_id == "p-name" else ""
            field.disabled = True  # the whole file is in the text box below
        shown = plain(f"{broken.path}: {broken_files.reason(broken)}\n", style="bold")
        shown.append("The file as written is below: fix it and save with ctrl+s.", style="italic")
        self.query_one("#persona-error", Static).update(shown)
        self.filled = self._values()

    def _open(self, name: str) -> None:
        persona = next((p for p in self.personas if p.name == name), None)
        if persona is not None:
            self._highlight(name)
            self.fill(persona)

    def _highlight(self, name: str | None) -> None:
        names = self.query_one("#persona-names", OptionList)
        index = next((i for i, p in enumerate(self.personas) if p.name == name), None)
        if names.highlighted != index:
            self._returning = name
            names.highlighted = index

    def _return_highlight(self) -> None:
        """Stay: the list shows the persona (or broken file) being edited again."""
        if self.fixing is not None and self.fixing in self.broken:
            names = self.query_one("#persona-names", OptionList)
            index = len(self.personas) + self.broken.index(self.fixing)
            if names.highlighted != index:
                self._returning = f"{broken_files.BROKEN}{self.broken.index(self.fixing)}"
                names.highlighted = index
            return
        self._highlight(self.original)

    def action_back(self) -> None:
        self.guard(lambda: self.dismiss(None))

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
        validate_persona(persona, "persona")
        if persona.name != self.original and self.folders.exists(self.language, persona.name):
            raise ConfigError(f"a persona named {persona.name!r} already exists", "choose another name")
        return persona

    @on(Button.Pressed, "#p-save")
    def action_save(self) -> None:
        self.save()

    def save(self, then: Callable[[], object] | None = None) -> bool:
        """Save the form to the user's folder; True when saved now. A new name asks first
        (rename / copy / cancel) and ``then`` runs once the answer saved it."""
        if self.fixing is not None:
            return self._save_fixed(self.fixing, then)
        try:
            persona = self.form()
        except ConfigError as exc:
            return self._not_saved(exc)
        old = self.original
        if not old or old == persona.name:
            return self._write(persona, None, then)
        shipped = self.folders.shipped_file(self.language, old).is_file()

        def chosen(choice: RenameChoice | None) -> None:
            if choice in ("rename", "copy"):
                self._write(persona, old if choice == "rename" else None, then)

        self.app.push_screen(PersonaRenameScreen(old, persona.name, shipped), chosen)
        return False

    def _write(self, persona: Persona, renamed_from: str | None, then: Callable[[], object] | None) -> bool:
        try:
            path = self.folders.save(persona)
            if renamed_from:  # only the user's own file goes; a shipped one stays as shipped
                self.folders.remove_user_file(self.language, renamed_from)
        except (ConfigError, OSError) as exc:
            return self._not_saved(exc)
        self.app.notify(f"Saved persona {persona.name} to {path}", markup=False)
        self.reload(select=persona.name)
        if then is not None:
            then()
        return True

    def _save_fixed(self, broken: Skipped, then: Callable[[], object] | None) -> bool:
        """Write the broken file's text as edited (to the user's folder when the file is a
        shipped one); read again, it is a persona, or stays listed with its new reason."""
        path = broken_files.fix_target(broken, self.folders, self.language)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.query_one("#p-text", TextArea).text, encoding="utf-8")
        except OSError as exc:
            return self._not_saved(exc)
        self.app.notify(f"Saved {path}", markup=False)
        self.filled = self._values()
        self.reload(select=broken.name, select_file=path)
        if then is not None:
            then()
        return True

    def _not_saved(self, exc: Exception) -> bool:
        self.query_one("#persona-error", Static).update(plain(str(exc)))
        self.app.notify(f"Not saved: {exc}", severity="error", markup=False)
        return False

    @on(Button.Pressed, "#p-new")
    def action_new(self) -> None:
        self.guard(self._new)

    def _new(self) -> None:
        self.fill(Persona(name="", language=self.language, persona=""), original=None)
        self._highlight(None)
        self.query_one("#p-name", Input).focus()

    @on(Button.Pressed, "#p-duplicate")
    def action_duplicate(self) -> None:
        self.guard(self._duplicate)

    def _duplicate(self) -> None:
        if self.fixing is not None:
            self.app.notify(
                "Fix the file and save it first: it is not a persona yet.", severity="warning", markup=False
            )
            return
        current: Persona | None
        try:
            current = self.form()
        except ConfigError:
            current = next((p for p in self.personas if p.name == self.original), None)
            if current is None:
                return
        taken = {p.name for p in self.personas}
        name = next(f"{current.name}-copy{n or ''}" for n in range(100) if f"{current.name}-copy{n or ''}" not in taken)
        self.fill(
            Persona(name[:48], self.language, current.persona, current.temperature, current.description), original=None
        )
        self.filled = ()  # a copy is unsaved until saved
        self._highlight(None)
        self.app.notify(f"Duplicated as {name}: edit it, then ctrl+s to save", markup=False)

    @on(Button.Pressed, "#p-delete")
    def action_delete(self) -> None:
        if self.fixing is not None:
            path = self.fixing.path
            self.app.notify(f"{path} is not a persona yet: fix it here, or delete the file.", markup=False)
            return
        name = self.original
        if not name:
            self.app.notify("This persona is not saved yet: nothing to delete.", severity="warning", markup=False)
            return
        origin = self.folders.origin(self.language, name)
        if origin is Origin.SHIPPED:
            self.app.notify(f"{name} is a shipped persona: it stays as shipped.", severity="warning", markup=False)
            return
        if origin is Origin.OVERRIDE:
            self.action_restore()
            return
        path = self.folders.user_file(self.language, name)

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

    def action_restore(self) -> None:
        """Delete the user's file over a shipped persona, after asking: the shipped one is back."""
        name = self.original
        if not name or self.folders.origin(self.language, name) is not Origin.OVERRIDE:
            shown = name or "This persona"
            self.app.notify(f"{shown} has no edits over a shipped persona to undo.", severity="warning", markup=False)
            return
        path = self.folders.user_file(self.language, name)

        def confirmed(answer: bool | None) -> None:
            if not answer:
                return
            try:
                self.folders.remove_user_file(self.language, name)
            except OSError as exc:
                self.app.notify(f"Cannot delete {path}: {exc.strerror}", severity="error", markup=False)
                return
            self.app.notify(f"Restored the shipped persona {name}", markup=False)
            self.reload(select=name)

        self.app.push_screen(
            ConfirmScreen(f"Restore the shipped persona {name}? Your edits in {path} are deleted."), confirmed
        )

    def action_switch_language(self) -> None:
        def switch() -> None:
            self.language = LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
            self.reload()

        self.guard(switch)


def _short(folder: Path) -> Path:
    """The folder relative to the current one when under it, so the title stays short."""
    return folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder
