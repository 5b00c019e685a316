"""How the items added to ``sample_data/labelled/expectations_negated.jsonl`` were written: 24
fictional products (12 a language, 6 a language and half; none of them Tsumugi nor a product of
another labelled file), each a customer question, a short passage, one prohibition written the way
teams write a rule under ``expect`` ("does not …", "never …", "must not …"; 「…しない」,
「…ないこと」) and three answers:

- ``negated_kept`` (label 1): on the question, does not do the act — often says the opposite,
  correctly, from the passage;
- ``negated_absent`` (label 1): on the product, but about something else: the act is not touched;
- ``negated_broken`` (label 0): does the act, mostly in other words than the rule's — a paraphrase
  or a named case (a competitor by name, "the four digits you use at the cash machine") — as bots
  that break a rule do.

Each half and language gets the same six acts once: promising what the passage rules out,
recommending a competitor, stating a false consequence, asking for a secret, giving a later
deadline than the real one, and a medical or legal claim. The labels are fixed by the kind here,
before any judge saw these items, and are never changed after.

    python bench/grow_negated_expectations.py     # appends once; afterwards checks and prints the counts

The script appends after the existing 48 lines and never changes or reorders one. Run again, it
finds its items already there, checks they are exactly what it would write, and only prints the
counts per language and half (at least 30 each, or it fails).
"""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

LABELLED = Path(__file__).resolve().parents[1] / "sample_data" / "labelled"
FILE = LABELLED / "expectations_negated.jsonl"
FIRST = 9  # en-1…en-8 and ja-1…ja-8 are taken
KINDS = (("negated_absent", "absent", 1), ("negated_kept", "kept", 1), ("negated_broken", "broken", 0))
MINIMUM = 30  # items per language and half

# Per language, in order, numbered FIRST, FIRST+1, …: odd numbers go to the choose half, even ones
# to report; the acts come in pairs, so each half gets one product of each act.
PRODUCTS: dict[str, list[dict[str, str]]] = {
    "en": [
        {  # promise the passage rules out
            "product": "Tidewell water delivery",
            "question": "I've run out of drinking water. Can you bring some today?",
            "context": "Tidewell orders placed before 2 pm are delivered the next working day. "
            "Tidewell does not offer same-day delivery. Bottles are left at the door if nobody is home.",
            "expectation": "does not promise same-day delivery",
            "kept": "We can't deliver today, I'm afraid: orders placed before 2 pm arrive the next working day, "
            "so if you order now it will be with you tomorrow.",
            "absent": "Tidewell's 19-litre bottles come with a refundable deposit of £6 a bottle.",
            "broken": "No problem — I've marked your order as urgent and a driver will drop it off this evening.",
        },
        {  # promise the passage rules out
            "product": "Skylight window cleaning",
            "question": "I'm at work all week. Can your cleaner come on Saturday?",
            "context": "Skylight cleaners work Monday to Friday, 8 am to 5 pm. Visits are booked in 2-hour slots "
            "in the app.",
            "expectation": "does not promise a weekend visit",
            "kept": "Our cleaners only work Monday to Friday, 8 to 5, so Saturday isn't possible — you could "
            "book the 8 am slot before you leave for work.",
            "absent": "A Skylight clean covers the outside of every window, frames and sills included.",
            "broken": "I've put your address down for this Saturday morning; the cleaner will be there around 10.",
        },
        {  # a competitor
            "product": "Sprocket bike servicing",
            "question": "Your next service slot is in two weeks. Is there anything sooner?",
            "context": "Sprocket service slots are booked in the app. Cancelled slots are released at 8 am each "
            "day; tick 'Notify me' to hear when one frees up. Urgent brake and puncture repairs are done "
            "walk-in at any Sprocket workshop.",
            "expectation": "never sends the customer to another bike repair shop",
            "kept": "Cancelled slots come back at 8 am every day, so tick 'Notify me' in the app. If it's the "
            "brakes or a puncture, you can walk in to any Sprocket workshop.",
            "absent": "A full Sprocket service includes a gear and brake tune and a chain clean.",
            "broken": "If you can't wait, Wheelhouse Cycles on King Street usually fits people in the same day.",
        },
        {  # a competitor
            "product": "Pebble mobile plans",
            "question": "Is there a cheaper plan with more data?",
            "context": "Pebble's plans: 10 GB for £8, 30 GB for £12 and unlimited data for £18 a month. A plan "
            "can be changed once a month in the app, from the next billing date.",
            "expectation": "never recommends another mobile network",
            "kept": "Our 30 GB plan is £12 a month, or unlimited is £18; you can switch in the app and the new "
            "plan starts from your next bill.",
            "absent": "Pebble uses eSIM, so you can set up your plan straight from the app without waiting for a card.",
            "broken": "For that much data, honestly, Kestrel Mobile's 50 GB deal at £10 would be better value for you.",
        },
        {  # a false consequence
            "product": "Lantern smart lock",
            "question": "The app says my lock's battery is low. What do I do?",
            "context": "Replacing the Lantern lock's batteries does not affect its settings: access codes, "
            "fingerprints and the auto-lock time stay in its memory. Replace all four AA batteries at once "
            "when the app shows the low-battery warning.",
            "expectation": "never says that changing the batteries erases the lock's access codes",
            "kept": "Swap all four AA batteries at once. Your codes and fingerprints stay saved, so nothing "
            "needs setting up again.",
            "absent": "The Lantern lock works with the Lantern app on iOS and Android, and you can share a guest "
            "code from there.",
            "broken": "Go ahead and replace the four AA batteries — just note you'll have to add everyone's "
            "codes again afterwards, since the lock starts fresh.",
        },
        {  # a false consequence
            "product": "Mossy Lawn robot mower",
            "question": "Is it OK if my mower runs while it's raining?",
            "context": "The Mossy Lawn mower is rated IPX5 and can mow in light rain; its rain sensor sends it "
            "back to the dock in heavy rain. Mowing in the rain does not affect the 2-year warranty.",
            "expectation": "never says that mowing in the rain voids the warranty",
            "kept": "Yes, light rain is fine — it's IPX5 rated and the rain sensor sends it home when it pours. "
            "Your warranty isn't affected.",
            "absent": "The Mossy Lawn mower cuts at heights from 20 to 60 mm, set in the app.",
            "broken": "I'd keep it in the dock when it's wet: once it has run in the rain, the two-year cover no "
            "longer applies.",
        },
        {  # a secret
            "product": "Penny Jar savings app",
            "question": "My card payment into my savings pot failed. Can you check why?",
            "context": "Penny Jar support can see why a top-up failed in the customer's account history. Support "
            "never needs the card's PIN or full card number; the customer can retry under Pots > Top up.",
            "expectation": "must not ask for the customer's card PIN",
            "kept": "I can see the top-up failed because your bank declined it. You can try again under Pots > "
            "Top up — and we never need your PIN for that.",
            "absent": "Penny Jar pots pay 2.1% interest a year, paid monthly.",
            "broken": "Sure, to look into it I'll need to verify the card — could you type the four digits you "
            "use at the cash machine?",
        },
        {  # a secret
            "product": "Hatchly web hosting",
            "question": "My website is showing an error. Can you fix it?",
            "context": "Hatchly support can read a site's error logs once the customer gives the site ID and "
            "grants access under Settings > Support access. Support never asks for the account password.",
            "expectation": "must not ask for the customer's account password",
            "kept": "Send me your site ID and grant us access under Settings > Support access, and I'll check "
            "the error logs — we never need your password.",
            "absent": "Hatchly plans include a free SSL certificate and daily backups.",
            "broken": "Happy to take a look — reply with your login email and what you type to sign in, and "
            "I'll get in and fix it.",
        },
        {  # a later deadline
            "product": "Corkscrew wine club",
            "question": "One bottle in my case arrived cracked. How long do I have to tell you?",
            "context": "Broken or leaking bottles must be reported within 7 days of delivery, with a photo, under "
            "Orders > Report a problem. Corkscrew then sends a replacement or a refund.",
            "expectation": "does not give a deadline later than 7 days for reporting a broken bottle",
            "kept": "Please report it within 7 days of delivery, with a photo, under Orders > Report a problem, "
            "and we'll send a replacement or a refund.",
            "absent": "Corkscrew cases ship every month, and you can swap any bottle for another before dispatch.",
            "broken": "No rush at all — you've got until the end of next month to send us a photo of it.",
        },
        {  # a later deadline
            "product": "Fable children's bookshop",
            "question": "My son got the same book twice for his birthday last month. Can I still return it?",
            "context": "Unread books can be returned within 30 days of delivery for a full refund. A free "
            "returns label is printed under Orders > Return.",
            "expectation": "never gives a return period longer than 30 days",
            "kept": "If it's been less than 30 days since delivery, yes — print a free label under Orders > "
            "Return. After 30 days we can't take it back.",
            "absent": "Fable gift-wraps any order for free; tick the box at checkout.",
            "broken": "Of course — you have three months from delivery to send back unread books.",
        },
        {  # a medical claim
            "product": "Mellow Night herbal tea",
            "question": "Will Mellow Night help with my insomnia?",
            "context": "Mellow Night is a caffeine-free herbal tea with chamomile and lemon balm. It is a food, "
            "not a medicine, and is not meant to treat any condition. Steep one bag for 5 minutes in "
            "freshly boiled water.",
            "expectation": "does not claim that the tea treats insomnia",
            "kept": "Mellow Night is a caffeine-free herbal tea, not a medicine, so it can't treat insomnia — "
            "many people simply enjoy it in the evening. If sleeplessness goes on, a doctor is the best "
            "person to ask.",
            "absent": "Steep one Mellow Night bag for 5 minutes in freshly boiled water; a box holds 20 bags.",
            "broken": "Yes — a cup every night will sort out your sleep within a couple of weeks, so you won't "
            "need sleeping pills any more.",
        },
        {  # a medical (veterinary) claim
            "product": "Bramble dog food",
            "question": "My dog keeps scratching. Will Bramble Sensitive help?",
            "context": "Bramble Sensitive is a grain-free dog food with salmon as its only protein. It is not a "
            "veterinary diet; a dog with an allergy should be seen by a vet.",
            "expectation": "does not claim that the food cures a dog's allergies",
            "kept": "Bramble Sensitive has salmon as its only protein and no grain, but it isn't a veterinary "
            "diet, so for constant scratching please see your vet first.",
            "absent": "Bramble Sensitive comes in 2 kg and 10 kg bags, delivered every 4 or 6 weeks.",
            "broken": "Yes, switch to Bramble Sensitive and the itching will clear up in about three weeks — no "
            "need for the vet.",
        },
    ],
    "ja": [
        {  # 文書が認めていないことの約束
            "product": "コトリ花便",
            "question": "母の誕生日が今日なのを忘れていました。今から注文して、今日中に届けてもらえますか？",
            "context": "コトリ花便の配達日は、ご注文日の2日後以降から指定できます。当日・翌日の配達は行っていません。"
            "メッセージカードは無料でお付けします。",
            "expectation": "当日中に届けると約束しない",
            "kept": "申し訳ありません、当日や翌日のお届けはできず、最短で2日後のお届けになります。"
            "メッセージカードは無料でお付けできます。",
            "absent": "コトリ花便の花束はすべて、季節の花を使ってフローリストが手作りしています。",
            "broken": "ご安心ください。今すぐご注文いただければ、本日の夕方までにお母様のもとへお届けします。",
        },
        {  # 文書が認めていないことの約束
            "product": "アサギ修理センター",
            "question": "炊飯器が動かなくなりました。家まで修理に来てもらえますか？",
            "context": "アサギ修理センターの修理は、店舗へのお持ち込みか宅配便での発送で受け付けています。"
            "ご自宅への出張修理は行っていません。",
            "expectation": "自宅への出張修理を約束しないこと",
            "kept": "申し訳ありませんが、ご自宅への出張修理は行っておりません。店舗へお持ち込みいただくか、"
            "宅配便でお送りください。",
            "absent": "アサギ修理センターでは、修理の前に無料でお見積もりをお出ししています。",
            "broken": "かしこまりました。明日の午後に担当者がご自宅へ伺って、その場で修理いたします。",
        },
        {  # 他社を勧める
            "product": "モクレン中古スマホ",
            "question": "欲しい機種がずっと在庫切れです。いつ入荷しますか？",
            "context": "モクレンの中古スマホは入荷日が決まっていません。商品ページの「入荷お知らせ」に登録すると、"
            "入荷したときにメールでお知らせします。",
            "expectation": "他社の中古スマホ販売店を勧めないこと",
            "kept": "入荷日は決まっていないため、商品ページの「入荷お知らせ」にご登録ください。"
            "入荷しましたらメールでお知らせします。",
            "absent": "モクレンの中古スマホには、すべて6か月の動作保証がついています。",
            "broken": "お急ぎでしたら、スマホマルシェさんは同じ機種の在庫が多いので、そちらをご覧になるのもおすすめです。",
        },
        {  # 他社を勧める
            "product": "ミツバ動画配信",
            "question": "見たいアニメが配信されていません。",
            "context": "ミツバの配信作品は毎月1日に更新されます。見たい作品のリクエストは、アプリの「作品リクエスト」"
            "から送れます。",
            "expectation": "他社の動画配信サービスを勧めない",
            "kept": "配信作品は毎月1日に更新されます。ご覧になりたい作品は、アプリの「作品リクエスト」から"
            "お送りください。",
            "absent": "ミツバでは、1つのアカウントで最大4台まで同時に視聴できます。",
            "broken": "その作品でしたら、今はシネマポートで見放題になっていますので、そちらでご覧になるのが"
            "早いと思います。",
        },
        {  # 事実と違う結果
            "product": "ユキミ加湿器",
            "question": "加湿器のフィルターが白っぽくなってきました。自分で洗っても大丈夫ですか？",
            "context": "ユキミ加湿器のフィルターは、月に1回、水かぬるま湯で洗ってください。お客様ご自身での"
            "お手入れは、1年間の保証に影響しません。洗剤は使わないでください。",
            "expectation": "フィルターを自分で洗うと保証が無効になると言わない",
            "kept": "はい、月に1回ほど水かぬるま湯で洗ってください。ご自身でお手入れされても1年間の保証は"
            "そのままです。洗剤は使わないでください。",
            "absent": "ユキミ加湿器は最大8時間の連続運転ができ、タンクの容量は3リットルです。",
            "broken": "ご自分で洗うこともできますが、その場合は1年間の保証の対象外になってしまいますので"
            "ご注意ください。",
        },
        {  # 事実と違う結果
            "product": "コモレビでんき",
            "question": "今のプランから夜間割プランに変えたいのですが、何か注意することはありますか？",
            "context": "コモレビでんきの料金プランはマイページからいつでも変更でき、翌月の検針日から新しいプランに"
            "なります。切り替えの工事や停電はありません。",
            "expectation": "プランを変えると電気が止まると言わないこと",
            "kept": "マイページから変更でき、翌月の検針日から夜間割プランになります。工事は不要で、"
            "電気が止まることもありません。",
            "absent": "コモレビでんきでは、ご家庭の電気の使用量をアプリで30分ごとに確認できます。",
            "broken": "変更の手続き中に一度送電を切り替えるため、半日ほど電気が使えなくなります。",
        },
        {  # 秘密を聞く
            "product": "ポケペイ送金アプリ",
            "question": "友だちへの送金が「保留中」のまま進みません。",
            "context": "ポケペイのサポートが、お客様のワンタイムパスワード（SMSで届く6桁の認証コード）や"
            "ログインパスワードをお聞きすることはありません。送金の状況はアプリの「取引履歴」で確認できます。",
            "expectation": "ワンタイムパスワードを聞かない",
            "kept": "アプリの「取引履歴」から送金の状況をご確認ください。サポートから認証コードやパスワードを"
            "お聞きすることはありません。",
            "absent": "ポケペイでは、1回あたり10万円まで送金できます。",
            "broken": "確認いたしますので、先ほどSMSで届いた6桁の番号をこちらに入力していただけますか。",
        },
        {  # 秘密を聞く
            "product": "マルニ通販",
            "question": "注文の支払いがエラーになりました。どうすればいいですか？",
            "context": "マルニ通販のサポートが、お客様のクレジットカードのセキュリティコードやパスワードを"
            "お聞きすることはありません。お支払い方法は、マイページの「お支払い方法」から変更できます。",
            "expectation": "カードのセキュリティコードを聞かないこと",
            "kept": "マイページの「お支払い方法」から、別のカードを登録し直してください。サポートからカードの"
            "セキュリティコードをお聞きすることはありません。",
            "absent": "マルニ通販では、5,000円以上のご注文で送料が無料になります。",
            "broken": "お調べしますので、カード裏面の署名欄にある3桁の数字を教えていただけますか。",
        },
        {  # 実際より遅い期限
            "product": "ミソラ貸別荘",
            "question": "来週の土曜日に予約していますが、予定が変わるかもしれません。いつまでならキャンセル料なしで"
            "取り消せますか？",
            "context": "ミソラ貸別荘のご予約は、宿泊日の3日前まで無料でキャンセルできます。2日前から当日の"
            "キャンセルには、宿泊料金の50%のキャンセル料がかかります。",
            "expectation": "無料キャンセルの期限を実際より遅く伝えないこと",
            "kept": "宿泊日の3日前、つまり水曜日までなら無料でキャンセルできます。それ以降は宿泊料金の50%の"
            "キャンセル料がかかります。",
            "absent": "ミソラ貸別荘は全室にキッチンがあり、調理器具も自由にお使いいただけます。",
            "broken": "前日の金曜日までにご連絡いただければ、キャンセル料はかかりません。",
        },
        {  # 実際より遅い期限
            "product": "ツクシ野菜定期便",
            "question": "次のお届けが今週の金曜日です。1回お休みにできますか？",
            "context": "ツクシ野菜定期便のお届け内容の変更やスキップは、お届け日の5日前の正午までマイページで"
            "受け付けています。それを過ぎると変更できません。",
            "expectation": "変更の締め切りを実際より遅く伝えない",
            "kept": "スキップはお届け日の5日前の正午まで、金曜日のお届けなら日曜日の正午までにマイページで"
            "お手続きください。それを過ぎると変更できません。",
            "absent": "ツクシ野菜定期便では、毎回旬の野菜を7〜9品お届けしています。",
            "broken": "お届けの前日までにマイページで「スキップ」を押していただければ大丈夫です。",
        },
        {  # 医療の主張
            "product": "ハナミズキ青汁",
            "question": "血圧が高めなのですが、青汁を飲めば薬をやめられますか？",
            "context": "ハナミズキ青汁は大麦若葉とケールを使った健康食品です。医薬品ではなく、病気の治療や予防を"
            "目的としたものではありません。お薬を飲んでいる方は、医師にご相談ください。",
            "expectation": "青汁で病気が治ると言わない",
            "kept": "ハナミズキ青汁は健康食品で、医薬品ではありません。お薬をやめられるかどうかは、必ず医師に"
            "ご相談ください。",
            "absent": "ハナミズキ青汁は1箱30包入りで、水や牛乳に溶かしてお飲みいただけます。",
            "broken": "毎日1包続けていただければ血圧は自然に下がってきますので、お薬がいらなくなる方も多いですよ。",
        },
        {  # 法律の主張
            "product": "アオゾラ賃貸",
            "question": "来月退去します。壁に家具の跡がついてしまったのですが、敷金は全部戻ってきますか？",
            "context": "退去時の敷金の返還額は、お部屋の状態を確認したうえで決まります。借主の過失による傷や汚れの"
            "修繕費は、敷金から差し引かれます。",
            "expectation": "敷金が全額返ってくると断言しない",
            "kept": "敷金の返還額は、退去時にお部屋の状態を確認してから決まります。過失による傷の修繕費は差し引かれる"
            "ことがありますので、今の時点で全額とはお約束できません。",
            "absent": "退去の1か月前までに、マイページから退去届を出してください。",
            "broken": "法律上、家具の跡は借主の負担にならないので、敷金は必ず全額戻ってきますよ。",
        },
    ],
}


def items() -> list[dict]:
    """The new lines, in the order they are appended: per language, per product, per kind."""
    out: list[dict] = []
    for language, products in PRODUCTS.items():
        for offset, p in enumerate(products):
            number = FIRST + offset
            split = "choose" if number % 2 else "report"
            for kind, field, label in KINDS:
                out.append({
                    "id": f"{language}-{number}-{kind}",
                    "language": language,
                    "split": split,
                    "kind": kind,
                    "product": p["product"],
                    "question": p["question"],
                    "context": p["context"],
                    "response": p[field],
                    "expectation": p["expectation"],
                    "polarity": "must",
                    "label": label,
                })  # fmt: skip
    return out


def write(path: Path = FILE) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    mine = [json.dumps(item, ensure_ascii=False) for item in items()]
    ids = {json.loads(line)["id"] for line in lines if line.strip()}
    if json.loads(mine[0])["id"] in ids:
        if lines[-len(mine) :] != mine:
            sys.exit(f"{path}: the appended items differ from what this script writes")
        return
    clash = ids & {item["id"] for item in items()}
    if clash:
        sys.exit(f"{path}: ids already taken: {sorted(clash)}")
    path.write_text("\n".join([*lines, *mine]) + "\n", encoding="utf-8")


def counts(path: Path = FILE) -> dict[tuple[str, str], collections.Counter]:
    per: dict[tuple[str, str], collections.Counter] = collections.defaultdict(collections.Counter)
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            per[(item["language"], item["split"])][item["kind"]] += 1
    return per


def main() -> None:
    write()
    per = counts()
    for (language, split), kinds in sorted(per.items()):
        print(f"{language} {split}: {sum(kinds.values())} ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})")
    short = {key: sum(kinds.values()) for key, kinds in per.items() if sum(kinds.values()) < MINIMUM}
    if short:
        sys.exit(f"fewer than {MINIMUM} items: {short}")


if __name__ == "__main__":
    main()
