"""The two persona folders: the user's own (edits go there) over the shipped one.

The shipped personas (the ``personas`` folder of the config, by default the bundled one) stay as
they were installed. Everything the persona editor saves goes to the user's folder
(``user_personas``, by default ``~/.config/ragtui/personas``); a user file with a shipped
persona's name overrides it, and deleting that file brings the shipped one back. ``-p NAME``,
the TUI's lists and replays all read through :func:`load_merged`, so a persona is found in the
user's folder first, then among the shipped ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from ..config.settings import Config
from ..types.errors import ConfigError
from ..types.personas import Persona
from .personas import load_personas, save_persona
from .picking import Skipped


class Origin(Enum):
    """Where the persona a list shows comes from."""

    SHIPPED = "shipped"  # only in the shipped folder
    USER = "user"  # only in the user's folder
    OVERRIDE = "override"  # the user's file, over a shipped persona of the same name


@dataclass(frozen=True)
class PersonaFolders:
    user: Path  # the user's own personas: written by the editor
    shipped: Path  # the shipped ones: read only

    def user_file(self, language: str, name: str) -> Path:
        return self.user / language / f"{name}.toml"

    def shipped_file(self, language: str, name: str) -> Path:
        return self.shipped / language / f"{name}.toml"

    def origin(self, language: str, name: str) -> Origin | None:
        mine, shipped = self.user_file(language, name).is_file(), self.shipped_file(language, name).is_file()
        if mine and shipped:
            return Origin.OVERRIDE
        if mine:
            return Origin.USER
        return Origin.SHIPPED if shipped else None

    def exists(self, language: str, name: str) -> bool:
        return self.origin(language, name) is not None

    def save(self, persona: Persona) -> Path:
        """Write ``persona`` to the user's folder; the shipped file (if any) stays as it is."""
        return save_persona(self.user, persona)

    def remove_user_file(self, language: str, name: str) -> bool:
        """Delete the user's file of ``name``; True when there was one. Never touches a shipped file."""
        path = self.user_file(language, name)
        if not path.is_file():
            return False
        path.unlink()
        return True


def folders_of(config: Config) -> PersonaFolders:
    """The folders a config names (``user_personas`` over ``personas``)."""
    return PersonaFolders(user=config.user_personas, shipped=config.personas)


def load_merged(folders: PersonaFolders, language: str, skipped: list[Skipped] | None = None) -> list[Persona]:
    """Every persona of ``language``: the user's files over the shipped ones, sorted by name.
    A missing folder is empty; only when neither folder exists is that an error."""
    found: dict[str, Persona] = {}
    present = False
    for directory in (folders.shipped, folders.user):  # the user's last: it overrides
        if not (directory / language).is_dir():
            continue
        present = True
        for persona in load_personas(directory, language, skipped):
            found[persona.name] = persona
    if not present:
        raise ConfigError(
            f"persona folder {folders.shipped / language} does not exist",
            "create it or set 'personas' in the config",
        )
    return sorted(found.values(), key=lambda p: p.name)
