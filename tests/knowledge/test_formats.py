"""Each built-in format read as a help centre exports it: the article of an HTML page without its
chrome, a PDF's pages with their numbers, a FAQ's rows as one passage each, text in another
encoding decoded — and every passage is exactly its span of its document's text."""

from __future__ import annotations

import json

import pytest

from ragtui.core.knowledge.chunking import MAX_PASSAGE_CHARS, passages_of
from ragtui.core.knowledge.formats import faq, html, markdown, pdf
from ragtui.core.types.errors import KnowledgeFileError
from ragtui.core.types.knowledge import Document
from tests.fakes.pdf_maker import text_pdf

HELP_PAGE = """<!doctype html><html lang="en"><head><title>ACME Help — Refunds</title>
<style>body { color: red }</style><script>window.track("view")</script></head>
<body><header class="site-header"><a href="/">ACME</a><nav><a href="/help">Help centre</a> › Billing</nav></header>
<div id="cookie-consent">We use cookies to improve your experience. <button>Accept all</button></div>
<aside class="sidebar">Related: Invoices</aside>
<main><h1>Refunds</h1><p>Refunds are paid within <b>5 business days</b> to the original card.</p>
<h2>Yearly plans</h2><p>Unused months of a yearly plan are refunded pro rata.</p>
<ol><li>Open Settings &gt; Billing.</li><li>Tap <em>Request refund</em>.</li></ol></main>
<footer>© 2026 ACME Inc. · Privacy · Terms</footer><script>analytics()</script></body></html>"""


def spans_hold(document: Document) -> None:
    for p in passages_of(document):
        assert document.text[p.start : p.end] == p.text
        assert len(p.text) <= MAX_PASSAGE_CHARS


def test_html_keeps_the_article_and_its_headings_and_drops_the_chrome():
    document = html.load(HELP_PAGE.encode("utf-8"), "billing/refunds.html")
    text = document.text
    assert document.title == "Refunds" and document.format == "html"
    for chrome in ("cookies", "Accept all", "Help centre", "Related: Invoices", "Privacy", "analytics", "color: red"):
        assert chrome not in text, chrome
    assert "5 business days" in text and "Open Settings > Billing." in text
    passages = passages_of(document)
    assert [p.heading for p in passages] == [("Refunds",), ("Refunds", "Yearly plans")]
    assert passages[1].title == "Refunds › Yearly plans" and "Request refund" in passages[1].text
    spans_hold(document)


def test_html_in_shift_jis_is_decoded():
    page = "<html><head><meta charset='shift_jis'></head><body><article><h1>返金について</h1><p>返金は5営業日以内に行われます。お問い合わせはサポート窓口までご連絡ください。</p></article></body></html>"
    document = html.load(page.encode("shift_jis"), "返金.html")
    assert document.title == "返金について"
    assert "5営業日以内" in document.text


def test_an_html_page_with_nothing_but_chrome_gives_a_reason():
    with pytest.raises(KnowledgeFileError, match="no article text"):
        html.load(b"<html><body><nav>Home</nav><footer>(c)</footer></body></html>", "empty.html")


def test_pdf_pages_keep_their_numbers_and_the_title():
    data = text_pdf(
        [
            ["Terms of Service", "Refunds are issued within 14 days (see section 3)."],
            [],
            ["3. Cancellation", "Cancel at any time."],
        ],
        title="ACME Terms",
    )
    document = pdf.load(data, "terms.pdf")
    assert document.title == "ACME Terms"
    passages = passages_of(document)
    assert [p.page for p in passages] == [1, 3]  # page 2 is blank, and the numbers stay the PDF's
    assert "within 14 days (see section 3)" in passages[0].text
    spans_hold(document)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (text_pdf([[], []]), "a PDF with no text"),
        (b"%PDF-1.4\nthis is not really a pdf", "not a readable PDF"),
    ],
    ids=["scanned", "broken"],
)
def test_a_pdf_without_text_is_refused_with_the_reason(data: bytes, reason: str):
    with pytest.raises(KnowledgeFileError, match=reason):
        pdf.load(data, "x.pdf")


def test_a_csv_faq_gives_one_passage_per_row_under_its_category():
    sheet = (
        "Category,Question,Answer\n"
        'Billing,How long do refunds take?,"Refunds take 5 business days, to the original card."\n'
        "Account,How do I change my email?,Go to Settings > Account > Email address.\n"
        "Account,,An answer without a question is not a FAQ row.\n"
    )
    document = faq.load_csv(sheet.encode("utf-8"), "faq.csv")
    passages = passages_of(document)
    assert [p.heading for p in passages] == [
        ("Billing", "How long do refunds take?"),
        ("Account", "How do I change my email?"),
    ]
    assert passages[0].text == "How long do refunds take?\n\nRefunds take 5 business days, to the original card."
    spans_hold(document)


def test_a_japanese_csv_faq_is_read_by_its_japanese_columns():
    sheet = "質問;回答\nパスワードを忘れました;ログイン画面の「パスワードを忘れた方」から再設定できます。\n"
    document = faq.load_csv(sheet.encode("utf-8-sig"), "よくある質問.csv")
    (passage,) = passages_of(document)
    assert passage.heading == ("パスワードを忘れました",) and "再設定" in passage.text


def test_a_json_faq_is_read_from_a_list_under_any_key():
    export = {
        "meta": {"count": 2},
        "faqs": [{"q": "Can I pause?", "a": "Yes, for up to 3 months."}, {"q": "Fees?", "a": "None."}],
    }
    document = faq.load_json(json.dumps(export).encode(), "export.json")
    assert [p.heading for p in passages_of(document)] == [("Can I pause?",), ("Fees?",)]


@pytest.mark.parametrize(
    ("load", "data", "reason"),
    [
        (faq.load_csv, b"name,price\nwidget,3\n", "without a 'question' and an 'answer' column"),
        (faq.load_json, b'{"not": "a list"}', "without a list of FAQ entries"),
        (faq.load_json, b"{broken", "not valid JSON"),
    ],
    ids=["csv-columns", "json-shape", "json-syntax"],
)
def test_a_file_that_is_not_a_faq_says_what_is_missing(load, data: bytes, reason: str):
    with pytest.raises(KnowledgeFileError, match=reason):
        load(data, "x")


def test_markdown_sections_follow_the_heading_levels_and_ignore_code():
    text = "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n```\n# not a heading\n```\n\n### On Linux\n\nUse apt.\n\n## Use\n\nOpen it.\n"
    document = markdown.load(text.encode(), "guide.md")
    headings = [p.heading for p in passages_of(document)]
    assert headings == [("Guide",), ("Guide", "Install"), ("Guide", "Install", "On Linux"), ("Guide", "Use")]
    assert "# not a heading" in passages_of(document)[1].text
    spans_hold(document)


def test_latin1_text_is_decoded_and_binary_is_refused():
    assert "Café" in markdown.load("# Café\n\nOpen daily.\n".encode("latin-1"), "cafe.md").text
    with pytest.raises(KnowledgeFileError, match="binary"):
        markdown.load(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image.md")


def test_a_long_japanese_paragraph_is_cut_at_sentence_ends_by_characters():
    sentence = "返金は原則として5営業日以内に元のお支払い方法へ行われます。"
    document = markdown.load(("# 返金\n\n" + sentence * 60).encode(), "ja.md")
    passages = passages_of(document)
    assert len(passages) > 1
    assert all(p.text.endswith("。") for p in passages[:-1])  # cut where a sentence ends
    spans_hold(document)
