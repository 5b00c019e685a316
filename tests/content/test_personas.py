"""Tests for personas (personas.py): bundled files, validation and the save/load round trip."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from ragtui.core.config import paths
from ragtui.core.content.personas import load_persona_file, load_personas, pick_personas, save_persona
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.personas import Persona

BUNDLED = paths.bundled_dir("personas")
VALID = 'name = "{name}"\nlanguage = "en"\ntemperature = {temperature}\npersona = """\n- Talks a lot.\n"""\n'


def write_persona(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("language", ["ja", "en"])
def test_bundled_personas(language: str) -> None:
    personas = load_personas(BUNDLED, language)
    names = [p.name for p in personas]
    assert {"angry", "calm", "beginner"} <= set(names)
    assert len(names) >= 5
    assert names == sorted(names)
    for persona in personas:
        assert persona.language == language
        assert persona.persona.strip()
        assert 0.0 <= persona.temperature <= 2.0


def test_bundled_languages_have_the_same_personas() -> None:
    """Switching language keeps the same names on the command line."""
    assert [p.name for p in load_personas(BUNDLED, "ja")] == [p.name for p in load_personas(BUNDLED, "en")]


def test_broken_toml_names_the_file(tmp_path: Path) -> None:
    path = write_persona(tmp_path / "en", "broken", 'name = "broken"\npersona = """never closed\n')
    with pytest.raises(ConfigError) as info:
        load_personas(tmp_path, "en")
    assert str(path) in str(info.value)
    assert "not valid TOML" in str(info.value)


def test_name_must_match_file_stem(tmp_path: Path) -> None:
    """What a list shows is what the user types, so name and file name must agree."""
    path = write_persona(tmp_path / "en", "calm", VALID.format(name="quiet", temperature=0.5))
    with pytest.raises(ConfigError) as info:
        load_persona_file(path)
    assert str(path) in str(info.value)
    assert "'quiet'" in str(info.value)
    assert "'calm'" in info.value.hint


@pytest.mark.parametrize("temperature", ["2.5", "-0.1"])
def test_temperature_out_of_range(tmp_path: Path, temperature: str) -> None:
    path = write_persona(tmp_path / "en", "hot", VALID.format(name="hot", temperature=temperature))
    with pytest.raises(ConfigError, match="temperature must be between 0 and 2") as info:
        load_persona_file(path)
    assert str(path) in str(info.value)


def test_temperature_must_be_a_number(tmp_path: Path) -> None:
    path = write_persona(tmp_path / "en", "hot", VALID.format(name="hot", temperature='"warm"'))
    with pytest.raises(ConfigError, match="temperature must be int or float"):
        load_persona_file(path)


def test_unknown_key_and_missing_key(tmp_path: Path) -> None:
    typo = write_persona(tmp_path / "en", "typo", VALID.format(name="typo", temperature=0.5) + 'descripton = "x"\n')
    with pytest.raises(ConfigError, match="unknown key 'descripton'"):
        load_persona_file(typo)
    missing = write_persona(tmp_path / "en", "bare", 'name = "bare"\nlanguage = "en"\n')
    with pytest.raises(ConfigError, match="missing key 'persona'"):
        load_persona_file(missing)


def test_persona_in_wrong_language_folder(tmp_path: Path) -> None:
    text = VALID.format(name="calm", temperature=0.5).replace('language = "en"', 'language = "ja"')
    write_persona(tmp_path / "en", "calm", text)
    with pytest.raises(ConfigError, match="language 'ja' but the file is in"):
        load_personas(tmp_path, "en")


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_personas(tmp_path, "ja")
    assert str(tmp_path / "ja") in str(info.value)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    persona = Persona(
        name="night-owl",
        language="ja",
        persona="- 深夜に問い合わせる。\n- \"引用\" や '記号' \\ も使う。\n- 短く話す。",
        temperature=0.9,
        description="夜型のユーザー",
    )
    path = save_persona(tmp_path, persona)
    assert path == tmp_path / "ja" / "night-owl.toml"
    assert load_persona_file(path) == persona
    assert load_personas(tmp_path, "ja") == [persona]
    assert not list(path.parent.glob("*.tmp"))  # the temporary file was renamed, not left behind


def test_saved_file_is_hand_editable_toml(tmp_path: Path) -> None:
    """The persona text is written as a readable multi-line string, not one escaped line."""
    persona = Persona(name="calm2", language="en", persona="- Line one.\n- Line two.\n", temperature=0.5)
    path = save_persona(tmp_path, persona)
    text = path.read_text(encoding="utf-8")
    assert 'persona = """' in text
    assert "- Line one.\n- Line two.\n" in text
    data = tomllib.loads(text)
    assert data["persona"] == persona.persona
    assert data["name"] == "calm2"
    assert "description" not in data  # empty values are left out


def test_save_validates_first(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a valid persona name"):
        save_persona(tmp_path, Persona(name="Bad Name", language="en", persona="x"))
    with pytest.raises(ConfigError, match="persona text is empty"):
        save_persona(tmp_path, Persona(name="empty", language="en", persona="   "))
    assert not any(tmp_path.rglob("*.toml"))


def test_save_overwrites_existing_file(tmp_path: Path) -> None:
    save_persona(tmp_path, Persona(name="calm", language="en", persona="old"))
    path = save_persona(tmp_path, Persona(name="calm", language="en", persona="new"))
    assert load_persona_file(path).persona == "new"


def test_pick_personas() -> None:
    personas = load_personas(BUNDLED, "en")
    assert pick_personas(personas, None) == personas
    assert pick_personas(personas, []) == personas
    assert [p.name for p in pick_personas(personas, ["calm", "angry"])] == ["calm", "angry"]


def test_pick_unknown_persona_lists_known_names() -> None:
    personas = load_personas(BUNDLED, "en")
    with pytest.raises(ConfigError, match="unknown persona 'grumpy'") as info:
        pick_personas(personas, ["calm", "grumpy"])
    assert info.value.hint == "known personas: " + ", ".join(sorted(p.name for p in personas))


def test_saved_persona_reads_as_a_person_wrote_it(tmp_path):
    from ragtui.core.content.personas import load_persona_file, save_persona
    from ragtui.core.types.personas import Persona

    text = 'Says "Fix this NOW" and \\ backslashes.\nSecond line with """ three quotes.\n'
    persona = Persona("quoted", "en", text, 0.8, "Shouts")
    path = save_persona(tmp_path, persona)
    written = path.read_text(encoding="utf-8")
    assert written.splitlines()[:4] == [
        'name = "quoted"',
        'language = "en"',
        "temperature = 0.8",
        'description = "Shouts"',
    ]
    assert '"Fix this NOW"' in written and '\\"Fix' not in written  # no needless escapes
    assert 'persona = """\n' in written
    assert load_persona_file(path) == persona


def test_bundled_persona_files_survive_a_save_unchanged(config, tmp_path):
    from ragtui.core.content.personas import load_persona_file, persona_toml

    for path in sorted((config.personas / "en").glob("*.toml")) + sorted((config.personas / "ja").glob("*.toml")):
        assert persona_toml(load_persona_file(path)) == path.read_text(encoding="utf-8"), path


def test_personas_are_listed_by_name(tmp_path):
    from ragtui.core.content.personas import load_personas, save_persona
    from ragtui.core.types.personas import Persona

    for name in ("in-a-hurry", "in", "angry"):
        save_persona(tmp_path, Persona(name, "en", "text"))
    assert [p.name for p in load_personas(tmp_path, "en")] == ["angry", "in", "in-a-hurry"]


# -- patience and goal (optional, hand-editable) ------------------------------------------------


def test_patience_and_goal_load_and_round_trip(tmp_path: Path) -> None:
    text = VALID.format(name="hurried", temperature=0.7) + 'patience = 2\ngoal = "a fix in one step"\n'
    persona = load_persona_file(write_persona(tmp_path / "en", "hurried", text))
    assert (persona.patience, persona.goal) == (2, "a fix in one step")
    saved = save_persona(tmp_path, persona)
    assert load_persona_file(saved) == persona
    plain = load_persona_file(write_persona(tmp_path / "en", "plain", VALID.format(name="plain", temperature=0.7)))
    assert (plain.patience, plain.goal) == (None, "")
    assert "patience" not in save_persona(tmp_path, plain).read_text(encoding="utf-8")


@pytest.mark.parametrize("value", ["0", "-1", "2.5", '"three"', "true", "51"])
def test_impossible_patience_is_one_clear_line(tmp_path: Path, value: str) -> None:
    text = VALID.format(name="odd", temperature=0.7) + f"patience = {value}\n"
    path = write_persona(tmp_path / "en", "odd", text)
    with pytest.raises(ConfigError) as error:
        load_persona_file(path)
    message = str(error.value)
    assert str(path) in message and "patience must be a whole number of turns from 1 to 50" in message
    assert "\n" not in message.split(" (")[0]


# -- one declaration ------------------------------------------------------------------------------


def test_the_file_model_is_derived_from_persona_and_built_on_first_use() -> None:
    """Persona declares the fields: the file's model has the same keys and defaults, and is not
    built by importing the module (a config read or a first frame never pays for it)."""
    import dataclasses
    import subprocess
    import sys

    from ragtui.core.content.personas import RULES, persona_file_model

    model = persona_file_model()
    declared = {f.name: f.default for f in dataclasses.fields(Persona)}
    assert list(model.model_fields) == list(declared)
    assert {name: field.default for name, field in model.model_fields.items() if not field.is_required()} == {
        name: default for name, default in declared.items() if default is not dataclasses.MISSING
    }
    assert set(RULES) <= set(declared)
    code = (
        "from ragtui.core.content import personas\n"
        "assert personas.persona_file_model.cache_info().currsize == 0, 'built at import'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_valid_persona_is_checked_without_being_copied(tmp_path: Path) -> None:
    from ragtui.core.content.personas import validate_persona

    persona = load_persona_file(write_persona(tmp_path / "en", "calm", VALID.format(name="calm", temperature=0.5)))
    assert validate_persona(persona, "persona") is persona
