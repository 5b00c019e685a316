"""A help centre's export as a folder: every format read, every file that gives nothing listed
with its reason (never a silent skip), `ragtui knowledge` showing both, the built-in bot
retrieving from every format, and a plugin's loader read like a built-in one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.knowledge.folder import MAX_FILE_BYTES, read_folder
from ragtui.core.knowledge.index import KnowledgeBase
from ragtui.core.registry import loaders as registry
from ragtui.core.registry.loaders import DocumentLoader
from ragtui.core.types.knowledge import Document, Section
from tests.fakes.pdf_maker import text_pdf

from .test_formats import HELP_PAGE


@pytest.fixture
def help_centre(tmp_path: Path) -> Path:
    root = tmp_path / "help"
    (root / "billing").mkdir(parents=True)
    (root / "billing" / "refunds.html").write_text(HELP_PAGE, encoding="utf-8")
    (root / "terms.pdf").write_bytes(text_pdf([["Terms", "Accounts inactive for 24 months are closed."]]))
    (root / "faq.csv").write_text(
        "question,answer\nCan I pause my plan?,Yes: Settings > Plan > Pause.\n", encoding="utf-8"
    )
    (root / "shipping.md").write_text("# Shipping\n\nParcels ship within three days.\n", encoding="utf-8")
    (root / "notes.txt").write_text("Support hours are 9:00 to 18:00 on weekdays.\n", encoding="utf-8")
    # what gives nothing, each for its own reason
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (root / "scan.pdf").write_bytes(text_pdf([[]]))
    (root / "blob.md").write_bytes(b"\x00\x01\x02\x03")
    (root / "empty.md").write_text("\n\n", encoding="utf-8")
    with (root / "huge.md").open("wb") as handle:  # sparse: costs no disk
        handle.truncate(MAX_FILE_BYTES + 1)
    return root


def test_every_format_is_read_and_every_skip_has_its_reason(help_centre: Path):
    read = read_folder(help_centre)
    assert [d.path for d in read.documents] == [
        "billing/refunds.html",
        "faq.csv",
        "notes.txt",
        "shipping.md",
        "terms.pdf",
    ]
    assert {d.format for d in read.documents} == {"html", "faq-csv", "markdown", "pdf"}
    reasons = {s.path: s.reason for s in read.skipped}
    assert set(reasons) == {"blob.md", "empty.md", "huge.md", "logo.png", "scan.pdf"}
    assert "binary" in reasons["blob.md"]
    assert reasons["empty.md"] == "no text"
    assert "too large" in reasons["huge.md"] and "50 MB" in reasons["huge.md"]
    assert ".png files are not read" in reasons["logo.png"] and ".pdf" in reasons["logo.png"]
    assert "no text" in reasons["scan.pdf"]


def test_the_built_in_bot_retrieves_from_every_format(help_centre: Path):
    kb = KnowledgeBase.from_folder(help_centre, "en")
    assert kb.documents == 5 and len(kb.skipped) == 5
    for question, source in [
        ("how long until my refund is paid", "billing/refunds.html"),
        ("are inactive accounts closed", "terms.pdf"),
        ("can I pause my plan", "faq.csv"),
        ("when are support hours", "notes.txt"),
    ]:
        assert kb.search(question)[0].doc_id == source, question


def test_ragtui_knowledge_lists_documents_passages_and_skips(help_centre: Path, capsys):
    assert main(["knowledge", str(help_centre), "--passages"]) == 0
    out = capsys.readouterr().out
    assert "5 document(s)" in out and "5 file(s) skipped" in out
    assert "billing/refunds.html" in out and "Refunds › Yearly plans" in out
    assert "skipped huge.md: too large" in out and "skipped scan.pdf: a PDF with no text" in out


def test_ragtui_knowledge_on_a_folder_with_nothing_readable_is_one_error_line(tmp_path: Path, capsys):
    (tmp_path / "only.bin").write_bytes(os.urandom(64))
    assert main(["knowledge", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert "skipped only.bin: .bin files are not read" in captured.out
    assert captured.err.count("\n") == 1 and "has no document ragtui can read" in captured.err
    assert main(["knowledge", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_ragtui_knowledge_lists_the_formats(capsys):
    assert main(["knowledge", "--formats"]) == 0
    out = capsys.readouterr().out
    for name in ("markdown", "html", "pdf", "faq-csv", "faq-json"):
        assert name in out


def _zendesk(data: bytes, path: str) -> Document:
    text = data.decode("utf-8")
    return Document(path, "zendesk", "Ticket macro", text, (Section(("Macro",), 0, len(text)),))


def _broken(data: bytes, path: str) -> Document:
    raise RuntimeError("parser exploded")


def test_a_plugin_loader_is_read_like_a_built_in_one_and_its_failure_costs_only_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    registry.loaders()  # the built-ins first, as any lookup would
    monkeypatch.setitem(registry._loaders, "zendesk", DocumentLoader("zendesk", (".zd",), _zendesk))
    monkeypatch.setitem(registry._loaders, "broken", DocumentLoader("broken", (".brk",), _broken))
    (tmp_path / "macro.zd").write_text("Escalate refunds over 500 EUR to billing.", encoding="utf-8")
    (tmp_path / "x.brk").write_text("anything", encoding="utf-8")
    read = read_folder(tmp_path)
    assert [(d.path, d.format) for d in read.documents] == [("macro.zd", "zendesk")]
    assert (
        read.skipped[0].path == "x.brk"
        and "the broken loader failed: RuntimeError: parser exploded" in read.skipped[0].reason
    )


def test_a_loader_must_name_lower_case_suffixes():
    with pytest.raises(ValueError, match="lower case"):
        registry.register_loader(DocumentLoader("bad", ("PDF",), _broken))


def test_the_bundled_mixed_format_help_centre_reads_whole_in_both_languages(capsys):
    """examples/help-centre: HTML with page chrome, a PDF, CSV FAQs (English and Japanese
    columns), Markdown, and a page in Shift_JIS — every file read, by language subfolder."""
    root = Path(__file__).resolve().parents[2] / "examples" / "help-centre"
    for language, documents in (("en", 4), ("ja", 2)):
        assert main(["knowledge", str(root), "--language", language]) == 0
        out = capsys.readouterr().out
        assert f"{documents} document(s)" in out and "0 file(s) skipped" in out
    ja = read_folder(root / "ja")
    assert any("5,000円以上のご注文は送料無料です。" in p.text for p in ja.passages)  # decoded from Shift_JIS
    assert not any("クッキー" in p.text for p in ja.passages)  # the cookie banner is chrome
