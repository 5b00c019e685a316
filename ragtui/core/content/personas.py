"""Personas: ``personas/<language>/<name>.toml`` ↔ ``Persona``.

Files stay hand-editable: tomllib reads them, tomli-w writes them with the persona text as a
multi-line string. A persona's name must match its file name, so what the user sees in a list
is what they type on the command line.

``Persona`` (core/types) declares the fields; the file's checks are derived from it here, built
on first use, and a file is read once into the ``Persona`` every later step is given.
"""

from __future__ import annotations

import re
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import tomli_w
from pydantic import AfterValidator, BeforeValidator, create_model

from ..config.config_file import Language
from ..config.toml_io import read_toml
from ..config.validation import TomlTable, between, invalid, validate
from ..files.atomic import atomic_write_text
from ..types.errors import ConfigError
from ..types.personas import Persona
from .picking import Skipped, pick_named

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")
MAX_PATIENCE = 50  # turns; more is no patience limit at all, only a typo
PATIENCE_HINT = "leave it out for a customer who never gives up"


def persona_name(name: str) -> str:
    if not NAME.match(name):
        raise invalid(f"{name!r} is not a valid persona name", "use lowercase letters, digits, '-' or '_' (at most 48)")
    return name


def behaviour(text: str) -> str:
    if not text.strip():
        raise invalid("text is empty", "describe how this customer talks and behaves")
    return text


def turns(value: object) -> object:
    """A whole number of turns; a float like 3.0 is accepted, 2.5, "three" or true are not."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PATIENCE:
        raise invalid(f"must be a whole number of turns from 1 to {MAX_PATIENCE}, got {value!r}", PATIENCE_HINT)
    return value


# What a file's values must keep beyond their type, by field of ``Persona``, which declares the
# fields, their types and defaults: the file's model is derived from it (``persona_file_model``).
RULES: dict[str, tuple[Any, ...]] = {
    "name": (AfterValidator(persona_name),),
    "persona": (AfterValidator(behaviour),),
    "temperature": (between(0, 2),),
    "patience": (BeforeValidator(turns),),
}
# Narrower than Persona's ``str``: a file names one of the languages ragtui speaks.
NARROWER: dict[str, Any] = {"language": Language}


@cache
def persona_file_model() -> type[TomlTable]:
    """``personas/<language>/<name>.toml`` (also what the editor may save), checked: Persona's
    fields with ``RULES``. Built on first use, so reading a config or drawing a frame never pays
    for building it."""
    hints = typing.get_type_hints(Persona)
    declared: dict[str, Any] = {}
    for field in fields(Persona):
        kind = _ruled(NARROWER.get(field.name, hints[field.name]), RULES.get(field.name, ()))
        declared[field.name] = (kind, ... if field.default is MISSING else field.default)
    return create_model("PersonaFile", __base__=TomlTable, **declared)


def _ruled(kind: Any, rules: tuple[Any, ...]) -> Any:
    """``kind`` with ``rules`` attached; on ``X | None`` they go on ``X``, so a key left out
    (None) is not checked as a value (a missing patience is no limit, not a bad number)."""
    if not rules:
        return kind
    args = typing.get_args(kind)
    if type(None) in args and len(args) == 2:
        inner = next(a for a in args if a is not type(None))
        return Annotated[inner, *rules] | None
    return Annotated[kind, *rules]


def validate_persona(persona: Persona | Mapping[str, Any], where: str) -> Persona:
    """The persona, or one line naming ``where`` and what is wrong with it. A valid ``Persona``
    given is returned as it is (the same object); a file's table becomes one."""
    data = persona.to_dict() if isinstance(persona, Persona) else persona
    checked = validate(persona_file_model(), data, where, top_level=True)
    found = Persona(**{field.name: getattr(checked, field.name) for field in fields(Persona)})
    return persona if isinstance(persona, Persona) and persona == found else found


def load_persona_file(path: Path) -> Persona:
    where = str(path)
    persona = validate_persona(read_toml(path, "persona file"), where)
    if persona.name != path.stem:
        raise ConfigError(
            f"{where}: name {persona.name!r} differs from the file name", f"rename one to match {path.stem!r}"
        )
    return persona


def load_personas(directory: Path, language: str, skipped: list[Skipped] | None = None) -> list[Persona]:
    """All personas of one language, sorted by name. The first broken file raises, unless
    ``skipped`` is given: then each broken file is left out and listed there, so one
    half-written persona does not stop the others from running."""
    folder = directory / language
    if not folder.is_dir():
        raise ConfigError(f"persona folder {folder} does not exist", "create it or set 'personas' in the config")
    personas = []
    for path in sorted(folder.glob("*.toml")):
        try:
            persona = load_persona_file(path)
            if persona.language != language:
                raise ConfigError(f"{path}: language {persona.language!r} but the file is in {folder}")
        except ConfigError as exc:
            if skipped is None:
                raise
            skipped.append(Skipped(path.stem, exc, path))
            continue
        personas.append(persona)
    return sorted(personas, key=lambda p: p.name)


def pick_personas(
    personas: list[Persona], names: list[str] | None, skipped: list[Skipped] | None = None
) -> list[Persona]:
    """The named personas (all when ``names`` is empty); an unknown name lists the known ones,
    and a name whose file was skipped as broken is that file's error."""
    return pick_named(personas, names, lambda p: p.name, "persona", skipped or ())


# The order a person writes a persona file in: short keys first, the long text last.
# patience and goal are optional: written only when set, before the behaviour text block.
FILE_ORDER = ("name", "language", "temperature", "description", "patience", "goal", "persona")


def persona_toml(persona: Persona) -> str:
    """The file text, as a person would write it: keys in ``FILE_ORDER``, the behaviour text
    as a ``\"\"\"`` block without needless escapes. tomli-w writes the short values; its
    multi-line strings escape every ``"``, so the block is written here, escaping only what
    TOML requires, and checked by parsing it back (anything unusual falls back to tomli-w)."""
    data = {k: v for k, v in persona.to_dict().items() if v != "" and v is not None}
    head = tomli_w.dumps({k: data[k] for k in FILE_ORDER if k in data and k != "persona"})
    body = _multiline_basic(persona.persona)
    text = head + f'persona = """\n{body}"""\n' if body is not None else ""
    if not text or tomllib.loads(text) != data:
        return tomli_w.dumps({k: data[k] for k in FILE_ORDER if k in data}, multiline_strings=True)
    return text


def _multiline_basic(text: str) -> str | None:
    """The body of a TOML multi-line basic string for ``text``, or None when it needs more
    than backslash and quote-run escapes (control characters)."""
    if any((ord(c) < 0x20 and c not in "\t\n") or ord(c) == 0x7F for c in text):
        return None
    body = text.replace("\\", "\\\\").replace('"""', '""\\"')
    if body.endswith('"'):
        body = body[:-1] + '\\"'  # a quote right before the closing delimiter must be escaped
    return body if body.endswith("\n") else body + "\\\n"


def save_persona(directory: Path, persona: Persona) -> Path:
    """Write ``persona`` to its file (validated first) and return the path."""
    path = directory / persona.language / f"{persona.name}.toml"
    validate_persona(persona, str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, persona_toml(persona))
    return path
