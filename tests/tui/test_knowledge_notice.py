"""The TUI says at start which knowledge files the built-in bot did not read, and why."""

from __future__ import annotations

from pathlib import Path

from ragtui.core.config.settings import Config

from .conftest import SIZE, notifications, settle


async def test_a_skipped_knowledge_file_is_said_at_start(make_app, tui_config: Config, tmp_path: Path):
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "refunds.md").write_text("# Refunds\n\nRefunds take five days.\n", encoding="utf-8")
    (folder / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    tui_config.knowledge = folder
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        said = [n for n in notifications(app) if "knowledge file" in n]
        assert len(said) == 1 and "logo.png not read: .png files are not read" in said[0]


async def test_a_folder_that_reads_whole_says_nothing(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not [n for n in notifications(app) if "knowledge" in n.lower()]
