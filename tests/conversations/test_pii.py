"""Personal data redaction (core/text/pii.py) on hostile text: values split across lines,
full-width digits and @, inside URLs, against punctuation, in Japanese without spaces — and the
near misses it must leave alone (order numbers failing Luhn, dates, bare postcode-like numbers)."""

from __future__ import annotations

import pytest

from ragtui.core.config.settings import load_config
from ragtui.core.text.pii import RedactionRules, Redactor, check_pattern, find_spans, fold, luhn_ok
from ragtui.core.types.errors import ConfigError


def redact(text: str, rules: RedactionRules | None = None) -> str:
    return Redactor(rules or RedactionRules()).redact(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("write to taro@example.com.", "write to <email-1>."),
        ("(taro@example.com), <hana@example.org>;", "(<email-1>), <<email-2>>;"),
        ("メールはtaro@example.comです。", "メールは<email-1>です。"),
        ("ｔａｒｏ＠ｅｘａｍｐｌｅ．ｃｏｍに送って", "<email-1>に送って"),
        ("taro@example.com、hana@example.jpへ", "<email-1>、<email-2>へ"),
        ("mailto:taro@example.com", "mailto:<email-1>"),
        ("https://x.example/u?email=taro%40example.com&x=1", "https://x.example/u?email=<email-1>&x=1"),
        ("https://x.example/u?email=taro@example.com", "https://x.example/u?email=<email-1>"),
        ("r.obrien+shop@mail.example.co.uk!", "<email-1>!"),
        ("taro.yamada@\nexample.co.jp", "<email-1>"),
        ("taro.yamada\n@example.co.jp", "<email-1>"),
        ("Email me at taro@example.com.\nThanks", "Email me at <email-1>.\nThanks"),  # a sentence's dot
    ],
)
def test_email_addresses(text, expected):
    assert redact(text) == expected


def test_the_same_address_is_the_same_placeholder_however_it_is_written():
    redactor = Redactor()
    said = [
        redactor.redact("I am taro@example.com"),
        redactor.redact("TARO@EXAMPLE.COM again"),
        redactor.redact("ｔａｒｏ＠ｅｘａｍｐｌｅ．ｃｏｍ"),
        redactor.redact("?email=taro%40example.com"),
        redactor.redact("and hana@example.com"),
    ]
    assert said == ["I am <email-1>", "<email-1> again", "<email-1>", "?email=<email-1>", "and <email-2>"]
    assert redactor.counts["email"] == 5
    assert Redactor().redact("hana@example.com") == "<email-1>"  # a new conversation numbers anew


@pytest.mark.parametrize(
    "phone",
    [
        "+81 90-1234-5678",
        "+81-90-1234-5678",
        "+819012345678",
        "+81 (0)3-1234-5678",
        "+44 20 7946 0958",
        "+1 (415) 555-0134",
        "03-1234-5678",
        "090-1234-5678",
        "(03)1234-5678",
        "03(1234)5678",
        "0120-123-456",
        "09012345678",
        "020 7946 0958",
        "07700 900123",
        "(415) 555-0134",
        "415-555-0134",
        "415.555.0134",
        "1-800-555-0199",
        "０９０ー１２３４ー５６７８",
        "０３－１２３４－５６７８",
        "090-1234-\n5678",
    ],
)
def test_phone_numbers(phone):
    assert redact(f"call {phone} today") == "call <phone-1> today"
    assert redact(f"電話は{phone}です") == "電話は<phone-1>です"


def test_a_number_after_a_phone_cue_and_one_phone_written_two_ways():
    assert redact("TEL:0312345678") == "TEL:<phone-1>"
    assert redact("携帯 09011112222 / 自宅0312345678") == "携帯 <phone-1> / 自宅<phone-2>"
    redactor = Redactor()
    assert redactor.redact("+81 90-1234-5678 or 090-1234-5678") == "<phone-1> or <phone-1>"


@pytest.mark.parametrize(
    "text",
    [
        "on 2024-05-01 at 10:00",
        "version 1.2.3 and 2.0.11",
        "it cost 12,800 yen for 3 items",
        "ticket 12345 and 2 units",
        "room 101, floor 3",
        "a 4-digit PIN: 1234",
        "0.5 mm, 1/2 inch",
        "call me on weekdays, not at 3",
    ],
)
def test_ordinary_numbers_are_left_alone(text):
    assert redact(text) == text


@pytest.mark.parametrize(
    "card",
    [
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "4111111111111111",
        "３７８２ ８２２４６３ １０００５",
        "４１１１ー１１１１ー１１１１ー１１１１",
        "5555 5555 5555 4444",
        "4111 1111\n1111 1111",
        "6011 0009 9013 9424",
    ],
)
def test_card_numbers(card):
    assert redact(f"card {card}, thanks") == "card <card-1>, thanks"
    assert redact(f"カード番号は{card}です") == "カード番号は<card-1>です"


def test_numbers_failing_luhn_or_outside_card_ranges_are_not_cards():
    assert not luhn_ok("4111111111111112") and luhn_ok("4111111111111111")
    for text in (
        "ref 4111 1111 1111 1112",  # fails Luhn: an order number, not a card
        "ref 1234 5678 9012 3452",  # passes Luhn, but no card starts with 1
        "tracking 12345678901234567890123",  # longer than any card
    ):
        assert "<card" not in redact(text), text
    assert redact("card 4111 1111 1111 1111 exp 12/25") == "card <card-1> exp 12/25"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("〒150-0002 東京都渋谷区", "<postcode-1> 東京都渋谷区"),
        ("〒1500002", "<postcode-1>"),
        ("〒１５０－０００２", "<postcode-1>"),
        ("住所は150-0002 東京都渋谷区です", "住所は<postcode-1> 東京都渋谷区です"),
        ("郵便番号：530-0001", "郵便番号：<postcode-1>"),
        ("London SW1A 1AA, UK", "London <postcode-1>, UK"),
        ("Manchester M1 1AE", "Manchester <postcode-1>"),
        ("San Francisco, CA 94103-1234", "San Francisco, CA <postcode-1>"),
        ("zip code 94103", "zip code <postcode-1>"),
    ],
)
def test_postcodes(text, expected):
    assert redact(text) == expected


@pytest.mark.parametrize("text", ["item 123-4567 is out of stock", "we shipped 94103 units", "model sw1a 1aa"])
def test_postcode_lookalikes_without_a_cue_are_left_alone(text):
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("order #A12345 is late", "order #<order-1> is late"),
        ("my order number: 1234 5678 9012", "my order number: <order-1>"),
        ("注文番号は12345678です", "注文番号は<order-1>です"),
        ("invoice INV-2024-0091", "invoice <order-1>"),
        ("account no. 987654", "account no. <account-1>"),
        ("会員番号：TM-884201", "会員番号：<account-1>"),
        ("my order arrived late", "my order arrived late"),
        ("order of 2 items", "order of 2 items"),
    ],
)
def test_order_and_account_ids_after_their_cue(text, expected):
    assert redact(text) == expected


def test_the_configs_patterns_add_kinds_and_replace_defaults():
    rules = RedactionRules.from_config({"member": r"MB-\d{6}", "order": r"ORD-(\d{5})"}, [])
    assert redact("member MB-123456 and ORD-20931 and order #A12345", rules) == (
        "member <member-1> and ORD-<order-1> and order #A12345"
    )
    # the team's pattern is looked for before cards and phones: it knows its own ids
    rules = RedactionRules.from_config({"contract": r"C-\d{3}-\d{4}-\d{4}"}, [])
    assert redact("contract C-090-1234-5678", rules) == "contract <contract-1>"


def test_bad_patterns_are_named():
    assert check_pattern("order", "ORD-[0-9") is not None and "regular expression" in check_pattern("order", "(")
    assert "built in" in (check_pattern("email", "x") or "")
    assert "lower-case" in (check_pattern("Order", "x") or "")
    assert "empty" in (check_pattern("order", "x*") or "")
    assert check_pattern("member_id", r"MB-\d+") is None


def test_names_from_the_list():
    rules = RedactionRules.from_config({}, ["Ann Lee", "Sato", "山田", "Ann"])
    assert redact("Hi, I'm Ann Lee. ANN LEE here.", rules) == "Hi, I'm <name-1>. <name-1> here."
    assert redact("ann\nlee wrote", rules) == "<name-1> wrote"
    assert redact("Annual report by Sato-san", rules) == "Annual report by <name-1>-san"
    assert redact("山田様、山田太郎です", rules) == "<name-1>様、<name-1>太郎です"
    assert redact("Ｓａｔｏ", rules) == "<name-1>"


def test_kinds_never_overlap_and_are_counted():
    redactor = Redactor(RedactionRules.from_config({}, ["Taro"]))
    text = "Taro: taro@example.com, +81 90-1234-5678, card 4111111111111111, 〒150-0002, order #Z9912"
    assert redactor.redact(text) == "<name-1>: <email-1>, <phone-1>, card <card-1>, <postcode-1>, order #<order-1>"
    assert dict(redactor.counts) == {"name": 1, "email": 1, "phone": 1, "card": 1, "postcode": 1, "order": 1}
    spans = find_spans(text, redactor.rules)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))


def test_fold_keeps_every_offset():
    text = "ｔａｒｏ＠ｅｘａｍｐｌｅ．ｃｏｍ　０９０ー１２３４ー５６７８　カード"
    folded = fold(text)
    assert len(folded) == len(text) and folded.startswith("taro@example.com 090-1234-5678 ")
    assert folded.endswith("カード")  # ー between katakana is a long vowel, kept


def test_text_without_anything_personal_is_returned_as_it_is():
    text = "Settings > Purchases shows every purchase of the account.\n設定画面からご確認ください。"
    redactor = Redactor()
    assert redactor.redact(text) is text and not redactor.counts


@pytest.mark.parametrize(
    ("table", "words"),
    [
        (
            'patterns = { order = "ORD-[0-9" }',
            "[redact.patterns] has a bad pattern: order: not a valid regular expression",
        ),
        ('patterns = { phone = "x" }', "kind 'phone' is built in"),
        ('patterns = { member = "x?" }', "matches an empty text"),
        ('names = "Yamada"', "[redact] names must be list"),
        ("nmes = []", "[redact]: unknown key 'nmes'"),
    ],
)
def test_the_redact_table_is_checked_when_the_config_is_read(tmp_path, table, words):
    path = tmp_path / "ragtui.toml"
    path.write_text(f"[redact]\n{table}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert words in str(caught.value)


def test_the_redact_table_makes_the_rules(tmp_path):
    path = tmp_path / "ragtui.toml"
    path.write_text('[redact]\npatterns = { member = "MB-[0-9]+" }\nnames = ["Yamada", " "]\n', encoding="utf-8")
    rules = load_config(path).redact
    assert ("member", "MB-[0-9]+") in rules.patterns and rules.names == ("Yamada",)
    assert [kind for kind, _ in rules.patterns] == ["order", "account", "member"]
