"""Persona files that could not be read, as the persona editor lists them: each by its file
name and the one-line reason, to be opened as plain text, fixed and saved from there.

Free of widgets: the screen asks what to list, how to label it and where a fix is saved.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from ...core.content.persona_folders import PersonaFolders
from ...core.content.picking import Skipped
from ...core.types.personas import Persona
from ..safe_text import one_line

BROKEN = "broken:"  # the option id's prefix of a broken file in the persona list


def to_list(skipped: list[Skipped], personas: list[Persona], folders: PersonaFolders) -> list[Skipped]:
    """The broken files to offer: every one, but a shipped file the user's own file of the same
    name overrides (that persona works; the shipped file is not what runs)."""
    working = {p.name for p in personas}
    return [
        s for s in skipped if s.path is not None and not (s.name in working and s.path.is_relative_to(folders.shipped))
    ]


def reason(skipped: Skipped) -> str:
    """What is wrong, without the file's path the list already names."""
    text = str(skipped.error)
    if skipped.path is not None:
        for prefix in (f"persona file {skipped.path} ", f"{skipped.path}: "):
            if text.startswith(prefix):
                return text[len(prefix) :]
    return text


def label(skipped: Skipped) -> Text:
    """The list entry: ``⚠ angry.toml — is not valid TOML: …`` on one line."""
    name = skipped.path.name if skipped.path is not None else skipped.name
    text = Text(f"⚠ {one_line(name, 40)}", style="bold yellow")
    text.append(f" — {one_line(reason(skipped), 80)}", style="yellow")
    return text


def fix_target(skipped: Skipped, folders: PersonaFolders, language: str) -> Path:
    """Where the fixed text is saved: the file itself when it is the user's, else a file of the
    same name in the user's folder (it overrides the shipped one, which stays as installed)."""
    assert skipped.path is not None
    if skipped.path.is_relative_to(folders.user):
        return skipped.path
    return folders.user / language / skipped.path.name
