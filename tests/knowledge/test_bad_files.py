"""What a knowledge folder may hold that is not a help article, each one clear line naming the
file and never a hang, a traceback or the whole folder lost: a FIFO, a symlink to a device, a
short Shift_JIS file (read as Japanese, never as Korean-looking mojibake) and one whose encoding
cannot be told; and what ``ragtui init`` makes of a Japanese help centre's product name."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.knowledge.decode import decode_text
from ragtui.core.knowledge.folder import KnowledgeFolder, read_folder
from ragtui.core.knowledge.product_guess import guess_product
from ragtui.core.types.errors import KnowledgeFileError
from ragtui.core.types.knowledge import Document

ARTICLE = "# Shipping\n\nParcels ship within three days.\n"


def read_within(folder: Path, seconds: float = 20.0) -> KnowledgeFolder:
    """``read_folder`` in a thread; a read still blocked after ``seconds`` fails the test (and
    is released by opening the FIFO for writing, so no thread is left behind)."""
    result: list[KnowledgeFolder] = []
    reader = threading.Thread(target=lambda: result.append(read_folder(folder)), daemon=True)
    reader.start()
    reader.join(seconds)
    if reader.is_alive():
        for fifo in folder.glob("*.md"):
            if fifo.is_fifo():
                with fifo.open("wb"):
                    pass  # the writer's end: the blocked read sees end of file
        reader.join()
        pytest.fail(f"reading {folder} blocked on a FIFO")
    return result[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_the_folder_is_skipped_by_what_it_is_never_waited_on(tmp_path: Path, capsys):
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "shipping.md").write_text(ARTICLE, encoding="utf-8")
    os.mkfifo(folder / "pipe.md")
    read = read_within(folder)
    assert [d.path for d in read.documents] == ["shipping.md"]
    assert {s.path: s.reason for s in read.skipped} == {"pipe.md": "not a regular file (a FIFO)"}
    assert main(["knowledge", str(folder)]) == 0
    assert "skipped pipe.md: not a regular file (a FIFO)" in capsys.readouterr().out


def test_a_symlink_to_a_device_is_skipped_and_the_rest_of_the_folder_is_read(tmp_path: Path, capsys):
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "shipping.md").write_text(ARTICLE, encoding="utf-8")
    (folder / "zero.md").symlink_to("/dev/zero")
    read = read_folder(folder)
    assert [d.path for d in read.documents] == ["shipping.md"]
    assert {s.path: s.reason for s in read.skipped} == {"zero.md": "not a regular file (a device, through a symlink)"}
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\ndatabase = "runs.db"\n', encoding="utf-8")
    argv = ["scenarios", "generate", str(folder), "--out", str(tmp_path / "x.toml"), "--config", str(config)]
    assert main([*argv, "--estimate"]) == 0
    captured = capsys.readouterr()
    assert "skipped zero.md: not a regular file" in captured.err and "Plan:" in captured.out


def test_a_document_past_the_size_limit_is_refused_as_read(tmp_path: Path, monkeypatch):
    from ragtui.core.knowledge import folder as module

    monkeypatch.setattr(module, "MAX_FILE_BYTES", 16)
    root = tmp_path / "help"
    root.mkdir()
    (root / "long.md").write_text("# Long\n\n" + "word " * 10, encoding="utf-8")
    (reason,) = [s.reason for s in read_folder(root).skipped]
    assert reason.startswith("too large")


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("配送料は無料です", "shift_jis"),  # charset-normalizer alone: 봹몭뿿궼뼰뿿궳궥 (cp949)
        ("配送料は無料です", "euc_jp"),
        ("パスワードを忘れた場合", "euc_jp"),
        ("# 返品\n\n返品は30日以内です。", "shift_jis"),
    ],
)
def test_short_japanese_in_a_legacy_encoding_is_read_as_japanese(text: str, codec: str):
    decoded, _ = decode_text(text.encode(codec))
    assert decoded == text


def test_a_file_that_reads_as_japanese_and_as_another_script_alike_is_refused_in_one_line(tmp_path: Path):
    with pytest.raises(KnowledgeFileError, match="encoding could not be told") as caught:
        decode_text("配送料".encode("euc_jp"))  # all kanji: as Big5 or EUC-JP, nothing tells
    assert "save it as UTF-8" in caught.value.hint
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "short.md").write_bytes("配送料".encode("euc_jp"))
    (folder / "long.md").write_bytes("# 配送\n\n通常配送は国内2〜4営業日でお届けします。".encode("euc_jp"))
    read = read_folder(folder)
    assert [d.path for d in read.documents] == ["long.md"] and "配送" in read.documents[0].text
    assert [s.path for s in read.skipped] == ["short.md"]


def doc(text: str) -> Document:
    return Document("a.md", "markdown", "", text, ())


ELSEWHERE = ["配送は通常3日でお届けします。アカウントからご確認ください。", "お支払い方法はカードのみです。"]


@pytest.mark.parametrize(
    ("named", "product"),
    [
        (
            [
                "クモコーヒーのアカウントを作成するには、アプリを開いてログインしてください。",
                "クモコーヒーでは、パスワードをいつでも再設定できます。メールをご確認ください。",
                "返金はクモコーヒーのサポートにお問い合わせください。アカウント画面から送れます。",
            ],
            "クモコーヒー",
        ),
        (
            [
                "ご利用の Kumo Coffee では、アカウントを作成できます。",
                "Kumo Coffee の定期便はいつでも停止できます。",
                "返金は Kumo Coffee までご連絡ください。",
            ],
            "Kumo Coffee",
        ),
        (
            [
                "ご利用のＫｕｍｏでは、アカウントを作成できます。",
                "Ｋｕｍｏの定期便は停止できます。",
                "返金はＫｕｍｏへ。",
            ],
            "Kumo",
        ),
    ],
)
def test_a_japanese_help_centre_s_product_is_guessed_from_three_documents_of_five(named: list[str], product: str):
    assert guess_product([doc(t) for t in [*named, *ELSEWHERE]]) == product


def test_loanwords_and_actions_in_katakana_are_never_the_product():
    texts = [
        "アカウントにログインして、タップしてください。",
        "アカウントのダウンロードはこちら。ダウンロードして保存します。",
        "アカウントを削除するとログインできません。",
    ]
    assert guess_product([doc(t) for t in texts]) == ""
