"""The conversation formats (JSONL, CSV/TSV, the Intercom-style helpdesk JSON), the mapping of
their role words to speakers, and the turns a conversation becomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragtui.core.conversations.html_body import html_to_text
from ragtui.core.conversations.reading import ReadOptions, read_conversations
from ragtui.core.conversations.roles import speaker_of
from ragtui.core.conversations.turns import turn_messages
from ragtui.core.registry.conversation_loaders import (
    ConversationLoader,
    conversation_loaders,
    loader_for_suffix,
    register_conversation_loader,
)
from ragtui.core.types.conversations import ImportedConversation, ImportedMessage, RawConversation, RawMessage


def read(path: Path, **options) -> list[ImportedConversation]:
    return list(read_conversations(path, ReadOptions(**options)))


def speakers(conversation: ImportedConversation) -> list[str]:
    return [m.speaker for m in conversation.messages]


def test_jsonl_of_openai_messages_sharegpt_and_content_parts(tmp_path):
    path = tmp_path / "c.jsonl"
    lines = [
        {"id": "a", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]},
        {"conversation_id": 7, "conversations": [{"from": "human", "value": "Q"}, {"from": "gpt", "value": "A"}]},
        {"messages": [{"role": "user", "content": [{"type": "text", "text": "part one"}, {"type": "image_url"}]}]},
        {"id": "d", "messages": [{"role": "system", "content": "be kind"}, {"role": "user", "content": "x"}]},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines[:2]) + "\n\n" + "\n".join(map(json.dumps, lines[2:])))
    found = read(path)
    assert [c.key for c in found] == ["a", "7", "line-4", "d"]
    assert [c.line for c in found] == [1, 2, 4, 5]
    assert speakers(found[0]) == ["customer", "bot"] and speakers(found[1]) == ["customer", "bot"]
    assert found[2].messages[0].text == "part one"
    assert speakers(found[3]) == ["system", "customer"]


def test_csv_with_english_headers_and_a_semicolon(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text(
        "Ticket ID;Author;Message;Created At\n"
        't1;Customer;"Hello,\nit is broken";2024-01-01\n'
        "t1;Assistant;Try again;2024-01-01\n"
        "\n"
        "t2;client;Thanks;\n",
        encoding="utf-8",
    )
    found = read(path)
    assert [(c.key, c.line) for c in found] == [("t1", 2), ("t2", 5)]
    assert {(c.source, c.unit) for c in found} == {(str(path), "row")}
    assert found[0].messages[0].text == "Hello,\nit is broken" and found[0].messages[0].time == "2024-01-01"
    assert speakers(found[0]) == ["customer", "bot"] and found[1].messages[0].time is None


def test_tsv_with_japanese_headers_and_a_bom(tmp_path):
    path = tmp_path / "c.tsv"
    text = "会話ID\t話者\t内容\t日時\nJ1\tお客様\t届きません\t10:00\nJ1\tオペレーター\t確認します\t10:01\nJ1\t社内メモ\t対応中\t10:02\n"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    (conversation,) = read(path)
    assert conversation.key == "J1" and speakers(conversation) == ["customer", "agent", "system"]
    assert [m.role for m in conversation.messages] == ["お客様", "オペレーター", "社内メモ"]


def test_columns_are_named_with_the_columns_option(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("case,who,words,at\nk,user,hi,1\nk,bot,hello,2\n", encoding="utf-8")
    (conversation,) = read(path, columns={"id": "case", "role": "who", "text": "words", "time": "at"})
    assert [m.text for m in conversation.messages] == ["hi", "hello"] and conversation.messages[1].time == "2"


def test_role_words_are_matched_across_case_width_and_spacing_and_added_by_option(tmp_path):
    assert speaker_of("End User") == speaker_of("END-USER") == speaker_of("ｕｓｅｒ") == "customer"
    assert speaker_of("Human Agent") == "agent" and speaker_of("担当者") == "agent" and speaker_of("AI") == "bot"
    assert speaker_of("Kumo") is None and speaker_of("kumo", {"Kumo": "bot"}) == "bot"
    path = tmp_path / "c.csv"
    path.write_text("conversation_id,role,text\n1,Visitor,hi\n1,Kumo,hello\n", encoding="utf-8")
    assert speakers(read(path, roles={"Kumo": "bot"})[0]) == ["customer", "bot"]


HELPDESK = {
    "id": "55",
    "created_at": 1717232400,
    "source": {"author": {"type": "lead"}, "body": "<p>Hi &amp; hello</p><p>second<br>line</p>"},
    "conversation_parts": {
        "conversation_parts": [
            {"part_type": "assignment", "author": {"type": "bot"}, "body": None},
            {"part_type": "comment", "author": {"type": "bot"}, "body": "<p>Bot here</p>", "created_at": 1717232460},
            {"part_type": "note", "author": {"type": "admin"}, "body": "<p>internal</p>"},
            {"part_type": "comment", "author": {"type": "admin"}, "body": "<div>Agent here</div>"},
            {"part_type": "close", "author": {"type": "admin"}, "body": ""},
        ]
    },
}


@pytest.mark.parametrize(
    "document",
    [
        {"type": "conversation.list", "conversations": [HELPDESK], "pages": {"next": None}},
        [HELPDESK],
        HELPDESK,
    ],
    ids=["wrapped", "list", "single"],
)
def test_the_helpdesk_export_in_its_three_shapes(tmp_path, document):
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    (conversation,) = read(path)
    assert conversation.key == "55"
    assert speakers(conversation) == ["customer", "bot", "system", "agent"]
    assert conversation.messages[0].text == "Hi & hello\n\nsecond\nline"
    assert conversation.messages[1].time == "2024-06-01T09:01:00+00:00"
    assert [m.role for m in conversation.messages] == ["lead", "bot", "admin", "admin"]


def test_a_minified_helpdesk_export_with_many_conversations_is_read_in_order(tmp_path):
    items = [dict(HELPDESK, id=str(i)) for i in range(300)]
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"conversations": items}, separators=(",", ":")), encoding="utf-8")
    found = read(path)
    assert [c.key for c in found] == [str(i) for i in range(300)] and {c.line for c in found} == {1}


def test_html_bodies_become_plain_text():
    html = (
        "<p>Try:</p><ol><li>Open <b>Settings</b></li><li>Tap &quot;Reset&quot;</li></ol>"
        '<p>See <a href="https://help.example/x">the guide</a> or <a href="mailto:a@b.example">mail us</a>.</p>'
        "<script>alert(1)</script><style>p{}</style>"
    )
    assert (
        html_to_text(html)
        == 'Try:\n\n- Open Settings\n- Tap "Reset"\n\nSee the guide (https://help.example/x) or mail us.'
    )
    assert html_to_text("plain 1 < 2 text") == "plain 1 < 2 text"


def conversation(*said: tuple[str, str]) -> ImportedConversation:
    messages = tuple(ImportedMessage(speaker, text, speaker, i + 1) for i, (speaker, text) in enumerate(said))  # type: ignore[arg-type]
    return ImportedConversation("c", 1, messages)


def test_turns_pair_the_customer_with_the_answers_and_keep_every_message_as_a_part():
    rows = turn_messages(
        conversation(
            ("bot", "Welcome"),
            ("customer", "Hi"),
            ("customer", "my order is late"),
            ("system", "routed"),
            ("bot", "Sorry"),
            ("agent", "Agent here"),
            ("bot", "Anything else?"),
            ("customer", "no thanks"),
        )
    )
    assert [(r.turn, r.role, r.source) for r in rows] == [
        (0, "bot", "imported_bot"),
        (1, "user", "imported_customer"),
        (1, "note", "imported_note"),
        (1, "bot", "imported_bot"),
        (1, "agent", "imported_agent"),
        (2, "user", "imported_customer"),
    ]
    customer = rows[1]
    assert customer.text == "Hi\n\nmy order is late"
    assert [customer.text[p.start : p.end] for p in customer.parts] == ["Hi", "my order is late"]
    bot = rows[3]
    assert bot.text == "Sorry\n\nAnything else?" and [p.position for p in bot.parts] == [4, 6]
    assert sorted(p.position for r in rows for p in r.parts) == list(range(8))


def test_a_customer_message_after_only_a_note_stays_in_its_turn():
    rows = turn_messages(conversation(("customer", "a"), ("system", "n"), ("customer", "b"), ("bot", "x")))
    assert [(r.turn, r.role, r.text) for r in rows] == [(1, "user", "a\n\nb"), (1, "note", "n"), (1, "bot", "x")]


def test_a_plugin_format_is_read_like_a_built_in_one(tmp_path):
    def read_pipe(source):  # "who|text" lines, a blank line between conversations
        messages: list[RawMessage] = []
        start = 1
        for text in source.lines():
            if not text.strip():
                if messages:
                    yield RawConversation(None, start, tuple(messages))
                messages, start = [], source.line_number + 1
                continue
            who, _, said = text.rstrip("\n").partition("|")
            messages.append(RawMessage(who, said, source.line_number))
        if messages:
            yield RawConversation(None, start, tuple(messages))

    loader = register_conversation_loader(ConversationLoader("pipes", (".pipes",), read_pipe, "who|text lines"))
    assert loader in conversation_loaders() and loader_for_suffix(".PIPES") is loader
    path = tmp_path / "c.pipes"
    path.write_text("user|hi\nbot|hello\n\nuser|again\n", encoding="utf-8")
    found = read(path)
    assert [(c.key, speakers(c)) for c in found] == [("line-1", ["customer", "bot"]), ("line-4", ["customer"])]
    with pytest.raises(ValueError, match="already registered"):
        register_conversation_loader(ConversationLoader("pipes", (".pipes",), read_pipe))
