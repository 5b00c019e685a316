"""`ragtui knowledge` on static-site folders shows each page under its front-matter title and
passages with no front matter, shortcode, Liquid or anchor syntax — on small Hugo and Jekyll
folders, and on the thirteen real Hugo pages in examples/static-site."""

from __future__ import annotations

import re
from pathlib import Path

from ragtui.cli.main import main
from ragtui.core.knowledge.folder import read_folder

from .test_site_markdown import HUGO_MOVING, HUGO_PAYMENT, JEKYLL, SYNTAX

ROOT = Path(__file__).resolve().parents[2]


def listed(out: str) -> str:
    """The passage previews and titles of `ragtui knowledge --passages`, code spans left out."""
    return re.sub(r"`[^`\n]*`", "", out)


def test_ragtui_knowledge_on_a_hugo_folder_shows_front_matter_titles_and_clean_passages(tmp_path: Path, capsys):
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "moving.md").write_text(HUGO_MOVING, encoding="utf-8")
    (tmp_path / "payment-method.md").write_text(HUGO_PAYMENT, encoding="utf-8")
    assert main(["knowledge", str(tmp_path), "--passages"]) == 0
    out = capsys.readouterr().out
    assert "Moving or leaving accounts" in out and "Add or update a payment method" in out
    assert "The data export page in settings" in out  # the figure's caption, as a passage begins
    assert "Exporting your information" in out and "{#export}" not in out
    for word in ("description:", "menu:", "weight:", "{{<", "{{%", "figure src", "page-ref", "[!NOTE]"):
        assert word not in out, word
    assert not SYNTAX.search(listed(out))


def test_ragtui_knowledge_on_a_jekyll_folder_shows_front_matter_titles_and_clean_passages(tmp_path: Path, capsys):
    (tmp_path / "_docs").mkdir()
    (tmp_path / "_docs" / "includes.md").write_text(JEKYLL, encoding="utf-8")
    # jekyll/jekyll, docs/_docs/installation/macos.md (front matter title, {#id} heading anchors)
    (tmp_path / "_docs" / "macos.md").write_text(
        "---\ntitle: Jekyll on macOS\npermalink: /docs/installation/macos/\n---\n\n"
        "### Install a newer Ruby version via Homebrew {#homebrew}\n\n"
        "If you wish to install the latest version of Ruby and get faster builds, we recommend to do it via "
        "[Homebrew](https://brew.sh) a handy package manager for macOS.\n",
        encoding="utf-8",
    )
    assert main(["knowledge", str(tmp_path), "--passages"]) == 0
    out = capsys.readouterr().out
    assert "Jekyll on macOS" in out and "Includes" in out
    assert "Install a newer Ruby version via Homebrew" in out
    for word in ("permalink", "{%", "{#homebrew}", "{:toc}", ".no_toc", "site.baseurl"):
        assert word not in out, word
    assert not SYNTAX.search(listed(out))


def test_the_bundled_hugo_help_site_reads_cleanly():
    read = read_folder(ROOT / "examples" / "static-site" / "en")
    assert not read.skipped
    assert len(read.documents) == 13
    titles = {d.path: d.title for d in read.documents}
    assert titles["billing/faqs.md"] == "Billing FAQs"
    assert titles["billing/tax-certificate.md"] == "Sales tax exemption and VAT"
    for passage in read.passages:
        prose = re.sub(r"`[^`\n]*`", "", passage.text)
        assert not SYNTAX.search(prose), (passage.doc_id, passage.text)
        assert passage.heading[0] == titles[passage.doc_id]  # every section under its page's title
