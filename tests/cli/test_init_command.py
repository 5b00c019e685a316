"""``ragtui init DIR`` writes a config for a team's own help centre: the folder, its language and
the product the prompts name — guessed, asked, or given — and never overwrites a config unasked."""

from __future__ import annotations

import io
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.config.settings import load_config

ROOT = Path(__file__).resolve().parents[2]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def help_centre(tmp_path: Path) -> Path:
    folder = tmp_path / "help"
    shutil.copytree(ROOT / "examples" / "help-centre", folder)
    return folder


def test_init_writes_the_folder_language_and_product_the_config_then_reads(help_centre, tmp_path, capsys):
    target = tmp_path / "ragtui.toml"
    argv = [
        "init",
        str(help_centre),
        "--config",
        str(target),
        "--product",
        "Kumo Coffee",
        "--support",
        "hello@kumo.example",
    ]
    assert main(argv) == 0
    config = load_config(target)
    assert config.knowledge.resolve() == help_centre.resolve() and config.language == "en"
    assert (config.product().name, config.product().support) == ("Kumo Coffee", "hello@kumo.example")
    assert "product: Kumo Coffee" in capsys.readouterr().out


def test_init_asks_with_its_guess_and_enter_keeps_it(tmp_path, monkeypatch):
    sample = tmp_path / "kb"
    shutil.copytree(ROOT / "sample_data" / "knowledge", sample)
    monkeypatch.setattr(sys, "stdin", _Terminal("\nthe form at tsumugi.example/help\n"))
    target = tmp_path / "ragtui.toml"
    assert main(["init", str(sample), "--config", str(target)]) == 0
    product = load_config(target).product()
    assert (product.name, product.support) == ("Tsumugi", "the form at tsumugi.example/help")  # guessed, typed


def test_init_takes_the_guesses_with_yes_and_reads_japanese_documents_as_japanese(tmp_path):
    folder = tmp_path / "herupu"
    folder.mkdir()
    for name, body in (
        ("a.md", "# 配送\n\nKumoの配送は三日です。"),
        ("b.md", "# 返品\n\nKumoへの返品は support@kumo.example へ。"),
    ):
        (folder / name).write_text(body, encoding="utf-8")
    (folder / "c.md").write_text("# 支払い\n\nKumoではカードが使えます。", encoding="utf-8")
    target = tmp_path / "ragtui.toml"
    assert main(["init", str(folder), "--config", str(target), "--yes"]) == 0
    config = load_config(target)
    assert config.language == "ja"
    assert (config.product().name, config.product().support) == ("Kumo", "support@kumo.example")


def test_init_never_replaces_a_config_unasked(help_centre, tmp_path, capsys):
    target = tmp_path / "ragtui.toml"
    target.write_text('language = "ja"\n', encoding="utf-8")
    assert main(["init", str(help_centre), "--config", str(target), "--yes"]) == 2
    assert "already exists; nothing was written" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == 'language = "ja"\n'
    assert main(["init", str(help_centre), "--config", str(target), "--yes", "--force"]) == 0
    assert load_config(target).language == "en"


def test_init_refuses_a_folder_with_nothing_to_read_by_name(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    target = tmp_path / "ragtui.toml"
    assert main(["init", str(empty), "--config", str(target), "--yes"]) == 2
    assert main(["init", str(tmp_path / "missing"), "--config", str(target), "--yes"]) == 2
    err = capsys.readouterr().err
    assert f"knowledge folder {empty} has no document" in err and "missing does not exist" in err
    assert "Traceback" not in err and not target.exists()


@pytest.mark.parametrize("what", ["folder", "database"])
def test_init_names_a_folder_or_a_database_for_what_it_is_and_never_replaces_it(help_centre, tmp_path, capsys, what):
    target = tmp_path / "target"
    if what == "folder":
        target.mkdir()
        said = f"--config {target} is a folder, not a file"
    else:
        sqlite3.connect(target).execute("CREATE TABLE runs (id INTEGER)").connection.close()
        said = f"refusing to write --config to {target}: it is a SQLite database"
    before = target.read_bytes() if target.is_file() else None
    for force in ([], ["--force"]):
        assert main(["init", str(help_centre), "--config", str(target), "--yes", *force]) == 2
        err = capsys.readouterr().err
        assert said in err and "already exists" not in err and err.count("\n") == 1
    assert (target.read_bytes() if target.is_file() else None) == before
