"""Tests for the built-in bot's knowledge base (core/knowledge): query terms, splitting, search."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.config import paths
from ragtui.core.knowledge.chunking import MAX_PASSAGE_CHARS, passages_of
from ragtui.core.knowledge.formats.markdown import load as load_markdown
from ragtui.core.knowledge.index import MAX_QUERY_TERMS, KnowledgeBase, query_terms
from ragtui.core.types.errors import ConfigError

KNOWLEDGE = paths.bundled_dir("sample_data") / "knowledge"


@pytest.fixture(scope="module")
def kb_ja() -> KnowledgeBase:
    return KnowledgeBase.from_folder(KNOWLEDGE, "ja")


@pytest.fixture(scope="module")
def kb_en() -> KnowledgeBase:
    return KnowledgeBase.from_folder(KNOWLEDGE, "en")


# -- query_terms ------------------------------------------------------------------------------


def test_english_stop_words_and_short_words_dropped() -> None:
    assert query_terms("How do I reset the password for my account?") == ["reset", "password", "account"]


def test_english_terms_are_lowercased_and_deduplicated() -> None:
    assert query_terms("Password PASSWORD password reset") == ["password", "reset"]


def test_cjk_runs_become_trigrams() -> None:
    assert query_terms("パスワード") == ["パスワ", "スワー", "ワード"]


def test_short_cjk_runs_are_skipped() -> None:
    """A trigram index cannot match fewer than three characters."""
    assert query_terms("連携") == []
    assert query_terms("ID連携") == []  # "ID" is too short, "連携" has no trigram


def test_mixed_query_keeps_order_and_dedups_trigrams() -> None:
    terms = query_terms("Tsumugiの連携連携")
    assert terms == ["tsumugi", "の連携", "連携連", "携連携"]
    assert len(terms) == len(set(terms))


def test_terms_are_capped() -> None:
    words = " ".join(f"word{i:03d}" for i in range(MAX_QUERY_TERMS + 20))
    terms = query_terms(words)
    assert len(terms) == MAX_QUERY_TERMS
    assert terms[0] == "word000"
    assert terms[-1] == f"word{MAX_QUERY_TERMS - 1:03d}"


def test_no_usable_terms() -> None:
    assert query_terms("How do I do it? ?! 連携") == []
    assert query_terms("") == []


# -- splitting --------------------------------------------------------------------------------


def split_document(text: str, name: str = "doc.md") -> tuple[str, list[str]]:
    """A Markdown document's title and its passages' texts."""
    document = load_markdown(text.encode("utf-8"), name)
    return document.title, [p.text for p in passages_of(document)]


def test_split_document_title_and_paragraphs() -> None:
    title, passages = split_document("\n# Forgot password\n\nFirst paragraph.\n\nSecond paragraph.\n")
    assert title == "Forgot password"
    assert passages == ["First paragraph.\n\nSecond paragraph."]


def test_split_document_without_heading() -> None:
    """A text without a heading takes its file's name as its title."""
    title, passages = split_document("Just text.\nMore text.", "notes.txt")
    assert title == "notes"
    assert passages == ["Just text.\nMore text."]


def test_split_document_caps_passage_size() -> None:
    """Paragraphs are packed into passages no longer than MAX_PASSAGE_CHARS, none is lost."""
    paragraphs = [f"Paragraph {i}. " + "x" * 200 for i in range(12)]
    title, passages = split_document("# T\n\n" + "\n\n".join(paragraphs))
    assert title == "T"
    assert len(passages) > 1
    assert all(len(p) <= MAX_PASSAGE_CHARS for p in passages)
    assert "\n\n".join(passages) == "\n\n".join(paragraphs)


def test_split_document_caps_a_long_paragraph() -> None:
    text = "\n".join(f"Line {i} of a plain text file without blank lines." for i in range(200))
    _, passages = split_document(text)
    assert all(len(p) <= MAX_PASSAGE_CHARS * 1.5 for p in passages)


def test_bundled_passages_respect_the_cap() -> None:
    for path in KNOWLEDGE.rglob("*.md"):
        title, passages = split_document(path.read_text(encoding="utf-8"))
        assert title, path
        assert passages, path
        assert all(len(p) <= MAX_PASSAGE_CHARS for p in passages), path


# -- search -----------------------------------------------------------------------------------


def test_bundled_folders_are_indexed(kb_ja: KnowledgeBase, kb_en: KnowledgeBase) -> None:
    assert kb_ja.root == KNOWLEDGE / "ja"
    assert kb_ja.documents == len(list((KNOWLEDGE / "ja").glob("*.md")))
    assert kb_en.documents == len(list((KNOWLEDGE / "en").glob("*.md")))


def test_ja_id_linking_question(kb_ja: KnowledgeBase) -> None:
    passages = kb_ja.search("どのようにTsumugiと外部サービスのID連携ができるのか？", k=4)
    assert passages[0].doc_id == "09-linked-services.md"
    assert len(passages) == 4
    scores = [p.score for p in passages]
    assert scores == sorted(scores, reverse=True)
    assert scores[0] > 0


def test_en_reset_link_question(kb_en: KnowledgeBase) -> None:
    passages = kb_en.search("I forgot my password and the reset link expired", k=3)
    assert passages[0].doc_id == "03-forgot-password.md"
    assert passages[0].title
    assert "reset" in passages[0].text.lower()
    assert len(passages) == 3


def test_k_limits_results(kb_en: KnowledgeBase) -> None:
    assert len(kb_en.search("password account email", k=1)) == 1


def test_query_without_terms_returns_nothing(kb_en: KnowledgeBase) -> None:
    assert kb_en.search("how do I do it?") == []
    assert kb_en.search("") == []


@pytest.mark.parametrize(
    "query",
    [
        'password "reset',
        "password* OR reset",
        "NEAR(password reset)",
        'reset AND NOT "" ^title: {body} -x +y',
        '"""',
        'パスワード"*OR(',
    ],
)
def test_fts5_syntax_in_query_does_not_raise(kb_en: KnowledgeBase, kb_ja: KnowledgeBase, query: str) -> None:
    """Customer text is data: FTS5 operators in it must not break or steer the search."""
    assert isinstance(kb_en.search(query), list)
    assert isinstance(kb_ja.search(query), list)


def test_search_of_quoted_term_still_matches(kb_en: KnowledgeBase) -> None:
    passages = kb_en.search('"password" NEAR(reset*')
    assert passages
    assert passages[0].doc_id == "03-forgot-password.md"


def test_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="has no document ragtui can read") as info:
        KnowledgeBase.from_folder(tmp_path, "en")
    assert str(tmp_path) in str(info.value)


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        KnowledgeBase.from_folder(tmp_path / "nope", "en")


def test_folder_without_language_subfolder(tmp_path: Path) -> None:
    """A flat folder of documents is used as-is; doc ids are paths relative to it."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "guide.md").write_text("# Shipping\n\nParcels ship within three days.\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("Refunds take ten business days.\n", encoding="utf-8")
    (tmp_path / "not-a-faq.csv").write_text("parcels,refunds\n", encoding="utf-8")
    kb = KnowledgeBase.from_folder(tmp_path, "en")
    assert kb.root == tmp_path
    assert kb.documents == 2
    assert [s.path for s in kb.skipped] == ["not-a-faq.csv"]  # listed with its reason, never silent
    assert "question" in kb.skipped[0].reason
    (hit,) = kb.search("parcels")
    assert (hit.doc_id, hit.title) == (str(Path("sub") / "guide.md"), "Shipping")
    assert hit.to_dict()["doc_id"] == hit.doc_id


def test_a_folder_of_unreadable_files_names_them(tmp_path: Path) -> None:
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (tmp_path / "data.md").write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(ConfigError, match="has no document ragtui can read") as info:
        KnowledgeBase.from_folder(tmp_path, "en")
    assert "image.png" in str(info.value) and "data.md: a binary file" in str(info.value)


def test_a_repeated_question_is_answered_the_same_and_a_new_document_is_seen(tmp_path: Path):
    (tmp_path / "a.md").write_text("# Refunds\nRefunds take five business days.\n", encoding="utf-8")
    kb = KnowledgeBase.from_folder(tmp_path, "en")
    first = kb.search("how long do refunds take")
    again = kb.search("how long do refunds take")
    assert first == again and first is not again and [p.doc_id for p in first] == ["a.md"]
    again.clear()  # a caller's list is its own
    assert kb.search("how long do refunds take") == first
    kb.add("b.md", "# Refund policy\nRefunds for yearly plans take ten days.\n")
    assert {p.doc_id for p in kb.search("how long do refunds take")} == {"a.md", "b.md"}
