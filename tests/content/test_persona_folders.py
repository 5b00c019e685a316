"""The user's persona folder over the shipped one (persona_folders.py): what `-p NAME`, the
TUI's lists and the editor read and write."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.cli.content_pick import pick_content
from ragtui.core.config.settings import Config, parse_config
from ragtui.core.content.persona_folders import Origin, PersonaFolders, folders_of, load_merged
from ragtui.core.content.picking import Skipped
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.personas import Persona

PERSONA = 'name = "{name}"\nlanguage = "en"\ndescription = "{description}"\npersona = """\n- Talks.\n"""\n'


def write(folder: Path, name: str, description: str = "") -> Path:
    (folder / "en").mkdir(parents=True, exist_ok=True)
    path = folder / "en" / f"{name}.toml"
    path.write_text(PERSONA.format(name=name, description=description), encoding="utf-8")
    return path


def test_the_users_file_overrides_a_shipped_one_and_adds_its_own(tmp_path: Path) -> None:
    folders = PersonaFolders(user=tmp_path / "mine", shipped=tmp_path / "shipped")
    write(folders.shipped, "angry", "shipped")
    write(folders.shipped, "calm", "shipped")
    write(folders.user, "angry", "mine")
    write(folders.user, "pirate", "mine")
    merged = {p.name: p.description for p in load_merged(folders, "en")}
    assert merged == {"angry": "mine", "calm": "shipped", "pirate": "mine"}
    assert folders.origin("en", "angry") is Origin.OVERRIDE
    assert folders.origin("en", "calm") is Origin.SHIPPED
    assert folders.origin("en", "pirate") is Origin.USER
    assert folders.origin("en", "nobody") is None


def test_saving_and_removing_touch_only_the_users_folder(tmp_path: Path) -> None:
    folders = PersonaFolders(user=tmp_path / "mine", shipped=tmp_path / "shipped")
    shipped = write(folders.shipped, "angry", "shipped")
    before = shipped.read_bytes()
    path = folders.save(Persona("angry", "en", "- Edited.\n", description="mine"))
    assert path == folders.user_file("en", "angry") and shipped.read_bytes() == before
    assert folders.remove_user_file("en", "angry") is True
    assert folders.remove_user_file("en", "angry") is False  # nothing left: the shipped one stays
    assert shipped.read_bytes() == before
    assert [p.description for p in load_merged(folders, "en")] == ["shipped"]


def test_no_user_folder_yet_reads_the_shipped_ones_and_neither_folder_is_one_clear_error(tmp_path: Path) -> None:
    folders = PersonaFolders(user=tmp_path / "mine", shipped=tmp_path / "shipped")
    with pytest.raises(ConfigError, match="persona folder .*shipped.*en does not exist"):
        load_merged(folders, "en")
    write(folders.shipped, "calm")
    assert [p.name for p in load_merged(folders, "en")] == ["calm"]


def test_a_broken_user_file_is_listed_as_skipped(tmp_path: Path) -> None:
    folders = PersonaFolders(user=tmp_path / "mine", shipped=tmp_path / "shipped")
    write(folders.shipped, "calm")
    (folders.user / "en").mkdir(parents=True)
    (folders.user / "en" / "half.toml").write_text("name = ", encoding="utf-8")
    skipped: list[Skipped] = []
    assert [p.name for p in load_merged(folders, "en", skipped)] == ["calm"]
    assert [s.name for s in skipped] == ["half"] and "half.toml" in str(skipped[0].error)


def test_dash_p_finds_the_users_persona_first_then_the_shipped_ones(tmp_path: Path) -> None:
    config = Config(personas=tmp_path / "shipped", user_personas=tmp_path / "mine")
    write(config.personas, "angry", "shipped")
    write(config.user_personas, "pirate", "mine")
    write(config.user_personas, "angry", "mine")
    config.scenarios = Path(__file__).resolve().parents[2] / "sample_data" / "scenarios"
    config.language = "en"
    _, personas = pick_content(config, [], ["angry", "pirate"])
    assert [(p.name, p.description) for p in personas] == [("angry", "mine"), ("pirate", "mine")]


def test_the_config_names_the_user_folder_relative_to_itself(tmp_path: Path) -> None:
    source = tmp_path / "ragtui.toml"
    config = parse_config({"user_personas": "my-personas"}, source)
    assert folders_of(config).user == tmp_path / "my-personas"
    assert Config().user_personas.parts[-2:] == ("ragtui", "personas")
