"""A run with the built-in bot says which knowledge files it did not read, before the first
dialogue, on stderr; the run itself goes on with the rest of the folder."""

from __future__ import annotations

from pathlib import Path

from ragtui.cli.main import main

from ..conftest import endpoint_toml


def test_a_run_names_the_knowledge_files_it_skipped(server, tmp_path: Path, capsys):
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "linking.md").write_text("# Linked services\n\nGo to Settings > Account > Linked services.\n", "utf-8")
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4\nnot really")
    config = tmp_path / "ragtui.toml"
    config.write_text(
        f'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\nknowledge = "{folder}"\n'
        + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    assert main(["run", "--config", str(config), "-s", "id-linking", "-p", "calm"]) in (0, 1)
    captured = capsys.readouterr()
    assert "knowledge file scan.pdf not read: not a readable PDF" in captured.err
    assert "Traceback" not in captured.err
