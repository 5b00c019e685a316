"""What a knowledge base calls its product and where it sends customers for help, guessed from its
text for ``ragtui init`` to offer as defaults (a person confirms or corrects them).

The product is the name written mid-sentence in the most documents: a help centre names its own
product on almost every page ("on Tsumugi", "Kumo Coffee ships…", 「Tsumugiのすべての機能」), and
other companies' names ("Google") only on a few. The support channel is the email address given
in the most documents.

Japanese writes no spaces between words, so a name is found by its script: a Latin name
straight against Japanese text or set off from it by single spaces (「Kumo Coffeeの」, 「ご利用の
Kumo Coffee では」, full-width Ｋｕｍｏ alike), or a katakana word (「クモコーヒー」) that is
neither a loanword every help centre uses (アカウント, パスワード) nor ever a verb
(ログインする, タップして): screens and actions are not the product."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from ..types.knowledge import Document

# A capitalised Latin word (with a lower-case letter, so "ID" and "FAQ" are not names), optionally
# followed by more capitalised words ("Kumo Coffee"). Counted only mid-sentence — after a
# lower-case word, a comma or a character of a script without case — or straight before such a
# character (「Kumoの配送」 starts a Japanese paragraph), never as an English sentence's first word.
_NAME = re.compile(r"(?<![A-Za-z0-9])[A-Z][a-z0-9]+[A-Za-z0-9]*(?: [A-Z][a-z0-9]+)*")
_MID_SENTENCE = re.compile(r"(?:[a-z,;] |[^\x00-\x7f] ?)$")
# A katakana word (with its long-vowel mark and middle dot), and the verb endings after which
# it is an action, not a name.
_KATAKANA = re.compile(r"[ァ-ヺー・]{2,}")
_VERB = re.compile(r"[ァ-ヺー・]{2,}(?=(?:する|して|した|します|しない|され|させ|できる|でき|を(?:する|して)))")
# Loanwords any Japanese help centre writes on page after page: never its product's name.
_LOANWORD_LIST = (
    "アカウント パスワード メール メールアドレス アドレス アプリ アプリケーション サービス サポート "
    "サポートセンター ヘルプ ヘルプセンター センター ログイン ログアウト サインイン サインアウト ユーザー "
    "プロフィール プラン プレミアム サブスクリプション カード クレジットカード デビットカード "
    "ポイント クーポン キャンペーン ギフト ギフトカード ショップ ストア オンライン ページ マイページ ボタン "
    "メニュー ホーム リンク フォーム チャット メッセージ コメント フォロー フォロワー ブログ コミュニティ "
    "スマートフォン スマホ パソコン ブラウザ ブラウザー デバイス アップデート バージョン エラー トラブル "
    "データ ファイル フォルダ ストレージ コード リクエスト セキュリティ プライバシー ポリシー ルール ガイド "
    "ガイドライン ダウンロード アップロード エクスポート インポート タップ クリック チェック キャンセル "
    "リセット オン オフ サイト ウェブ ウェブサイト インターネット ネットワーク サーバー システム "
    "メンテナンス アクセス コンテンツ ツール オプション タブ リスト カテゴリ カテゴリー ステータス "
    "オーダー カート レシート インボイス コンビニ ニュースレター メンバー グループ チーム オーナー "
    "ゲスト コース テキスト ビデオ フォト シェア ニックネーム アイコン"
)
_LOANWORDS = frozenset(_LOANWORD_LIST.split())
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_SUPPORT = re.compile(r"(?:support|help|hello|contact|care|service|info|customer)[\w.+-]*@")
MIN_SHARE = 0.3  # the name must be in at least this share of the documents
MIN_DOCUMENTS = 3  # and in this many: two pages that both say "My orders" name no product
# Capitalised mid-sentence, but a screen or a button of the product, not its name.
_INTERFACE = frozenset(
    ("My", "Settings", "Menu", "Account", "Accounts", "Home", "Help", "Profile", "Orders", "Sign", "Log", "Save")
    + ("Cancel", "Next", "Back", "Done", "Yes", "No", "Search", "Cart", "Checkout", "Billing", "Privacy")
    + ("Security", "Notifications", "Premium", "Contact", "Support")
)
# Words that follow the product in a name a help centre gives itself, not part of the product.
_TRAILING = ("Help Centre", "Help Center", "Support", "Help", "Team", "Premium", "Plus", "Pro", "App", "ID")


def guess_product(documents: Sequence[Document]) -> str:
    """The name written mid-sentence in the most documents, or "" when none is in enough."""
    seen: Counter[str] = Counter()
    texts = [unicodedata.normalize("NFKC", d.text) for d in documents]  # full-width Ｋｕｍｏ is Kumo
    verbs = {m.group(0).strip("・") for text in texts for m in _VERB.finditer(text)}
    for text in texts:
        names = {_trim(m.group(0)) for m in _NAME.finditer(text) if _named(text, m)}
        names |= {w.strip("・") for w in _KATAKANA.findall(text)} - _LOANWORDS - verbs
        seen.update(n for n in names if n and n.split()[0] not in _INTERFACE and len(n) > 1)
    if not seen:
        return ""
    enough = max(MIN_DOCUMENTS, MIN_SHARE * len(documents))
    ranked = sorted(seen.items(), key=lambda item: (-item[1], len(item[0])))
    best, count = ranked[0]
    return best if count >= enough else ""


def guess_support(documents: Sequence[Document]) -> str:
    """The support address given in the most documents, or "": an address whose name says it
    is for customers (support@, help@, hello@, contact@…), never a privacy or no-reply one."""
    seen: Counter[str] = Counter()
    for document in documents:
        addresses = {m.group(0).rstrip(".").lower() for m in _EMAIL.finditer(document.text)}
        seen.update(a for a in addresses if _SUPPORT.match(a))
    return seen.most_common(1)[0][0] if seen else ""


def _named(text: str, match: re.Match[str]) -> bool:
    after = text[match.end() : match.end() + 2].removeprefix(" ")[:1]  # 「Kumo の」: a space, then Japanese
    return bool(_MID_SENTENCE.search(text[max(0, match.start() - 2) : match.start()])) or (
        bool(after) and not after.isascii()
    )


def _trim(name: str) -> str:
    """``name`` without the words a help centre adds after its product's name."""
    words = name.split()
    while len(words) > 1 and any(" ".join(words[-len(t.split()) :]) == t for t in _TRAILING):
        trailing = next(t for t in _TRAILING if " ".join(words[-len(t.split()) :]) == t)
        words = words[: -len(trailing.split())]
    return " ".join(words)
