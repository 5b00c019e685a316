"""How the dialogues added to ``sample_data/labelled/dialogues.jsonl`` in the judge-card release
were written: 13 fictional products per language (none of them Tsumugi), each a passage, two
questions it answers, one it does not and the contact it names; each product gives three
dialogues of the kinds below, in rotation. The kind fixes the labels before anything is judged.

    python bench/grow_labelled_dialogues.py >> sample_data/labelled/dialogues.jsonl   # once; never re-run

Kinds and their labels (resolution = share of the customer's intents the bot answered itself;
repetition 0 = every answer adds something, 1 = the same answer every turn):

- resolved: both questions answered from the passage — 1.0, resolved, repetition 0.0
- partly_resolved: the first answered, the second met with a generic reply — 0.5, repetition 0.1
- looped: the first answered, then the same answer twice to the second question — 0.5, partly_resolved, 0.8
- handed_over: the first answered, the one the passage lacks handed to the contact it names — 0.5, handed_over, 0.0
- unresolved: one question, two generic replies that answer nothing — 0.0, unresolved, 0.2
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

KINDS = ("resolved", "looped", "handed_over", "unresolved", "partly_resolved")


@dataclass(frozen=True)
class Product:
    name: str
    context: str
    q_a: str
    a_a: str
    i_a: str
    q_b: str
    a_b: str
    i_b: str
    q_missing: str
    i_missing: str
    contact: str


EN = [
    Product(
        "Brightleaf e-reader",
        "The Brightleaf e-reader's battery lasts about 4 weeks at 30 minutes of reading a day. To reset it to factory settings, hold the power button for 20 seconds until the logo appears; books bought in the store download again after you sign in. For repairs, write to repair@brightleaf.example.",
        "How long does the Brightleaf battery last on one charge?",
        "About 4 weeks if you read around 30 minutes a day.",
        "know the battery life",
        "And how do I reset it to factory settings?",
        "Hold the power button for 20 seconds until the logo appears. Your store books download again after you sign in.",
        "reset the e-reader",
        "How much does a screen replacement cost?",
        "know the price of a screen replacement",
        "repair@brightleaf.example",
    ),
    Product(
        "Velo bike share",
        "To unlock a Velo bike, scan the QR code on the handlebar in the Velo app. With a monthly pass the first 30 minutes of every ride are included; after that each minute costs 0.15 euros. Questions not covered here: call the Velo help desk on 0800 555 014.",
        "How do I unlock a Velo bike?",
        "Open the Velo app and scan the QR code on the handlebar.",
        "unlock a bike",
        "What do I pay per ride with the monthly pass?",
        "The first 30 minutes of every ride are included; after that it's 0.15 euros a minute.",
        "know the ride price with a pass",
        "I left my bag in a bike basket yesterday. Where do lost items go?",
        "find a lost item",
        "the Velo help desk on 0800 555 014",
    ),
    Product(
        "Mizu filter pitcher",
        "Replace the Mizu cartridge every 2 months or after 150 litres, whichever comes first. Used cartridges can be sent back for recycling in the free return envelope that comes with each new pack. Other questions: care@mizufilter.example.",
        "How often should I change the Mizu cartridge?",
        "Every 2 months or after 150 litres, whichever comes first.",
        "know when to replace the cartridge",
        "Can I recycle the old cartridges?",
        "Yes, send them back in the free return envelope that comes with each new pack.",
        "recycle used cartridges",
        "Do cartridges from other brands fit the Mizu pitcher?",
        "know whether other brands' cartridges fit",
        "care@mizufilter.example",
    ),
    Product(
        "Ledgerly invoicing",
        "Ledgerly can send a reminder automatically 3 days after an invoice's due date: turn it on under Settings > Reminders. To export invoices, open Reports > Export and choose CSV. Our chat in the app is open on weekdays from 9:00 to 18:00.",
        "Can Ledgerly remind my clients when they pay late?",
        "Yes, turn on Settings > Reminders and a reminder goes out automatically 3 days after the due date.",
        "set up late-payment reminders",
        "How do I get my invoices into a spreadsheet?",
        "Open Reports > Export and choose CSV.",
        "export invoices",
        "Does Ledgerly connect to Nordbank business accounts?",
        "know whether Nordbank is supported",
        "the in-app chat, weekdays 9:00–18:00",
    ),
    Product(
        "PawTrack GPS collar",
        "The PawTrack collar updates your pet's location every 2 minutes while it is on the move. You can cancel the subscription at any time under Account > Plan; it ends at the end of the current month. Support: support@pawtrack.example.",
        "How often does the PawTrack map update?",
        "Every 2 minutes while your pet is moving.",
        "know the update interval",
        "How do I cancel the subscription?",
        "Under Account > Plan, at any time; it ends at the end of the current month.",
        "cancel the subscription",
        "How deep can the collar go under water?",
        "know the collar's waterproof depth",
        "support@pawtrack.example",
    ),
    Product(
        "Solace meditation app",
        "In Solace, tap the download icon on a session's page to keep it for offline use; up to 20 sessions can be stored. The family plan covers up to 5 members, each with their own login. Write to hello@solace.example for anything else.",
        "Can I listen to Solace sessions without internet?",
        "Yes, tap the download icon on a session's page; you can keep up to 20 sessions offline.",
        "use sessions offline",
        "How many people can share the family plan?",
        "Up to 5 members, each with their own login.",
        "know the family plan size",
        "Does Solace work on an Apple Watch?",
        "know whether Apple Watch is supported",
        "hello@solace.example",
    ),
    Product(
        "Crumb bread subscription",
        "You can skip a week's Crumb delivery until Thursday 23:59 of the week before. A new delivery address is set under My deliveries > Address and applies from the following week. Phone: 03-5555-0199.",
        "Can I skip next week's bread delivery?",
        "Yes, until Thursday 23:59 of this week.",
        "skip a delivery",
        "I'm moving. How do I change the delivery address?",
        "Under My deliveries > Address; the new address applies from the following week.",
        "change the delivery address",
        "Do you have gluten-free loaves?",
        "know whether gluten-free bread is offered",
        "03-5555-0199",
    ),
    Product(
        "Orbit thermostat",
        "An Orbit thermostat schedule can hold up to 6 periods a day. Eco mode keeps the home at 17°C while nobody is in. Installers can be reached at installers@orbit.example.",
        "How many heating periods can I set per day on the Orbit?",
        "Up to 6 periods a day.",
        "know the schedule limit",
        "What temperature does Eco mode keep?",
        "17°C while nobody is home.",
        "know the Eco mode temperature",
        "Will the Orbit work with my Calder heat pump?",
        "know whether a Calder heat pump is compatible",
        "installers@orbit.example",
    ),
    Product(
        "Tessera photo books",
        "Tessera photo books ship within 5 business days. An order can be cancelled within 1 hour of ordering from the Orders page. Other questions: books@tessera.example.",
        "When will my Tessera photo book ship?",
        "Within 5 business days.",
        "know the shipping time",
        "Can I still cancel the order I placed 20 minutes ago?",
        "Yes, orders can be cancelled within 1 hour from the Orders page, so you still can.",
        "cancel an order",
        "What paper weight do the pages use?",
        "know the paper weight",
        "books@tessera.example",
    ),
    Product(
        "Nimbus cloud backup",
        "Nimbus keeps older versions of your files for 30 days; restore them from a file's History tab. Turn on 2-step verification under Security > 2-step. For anything else, open a ticket at nimbus.example/help.",
        "Can I get back yesterday's version of a file?",
        "Yes, Nimbus keeps versions for 30 days: open the file's History tab and restore it.",
        "restore an older version",
        "How do I turn on 2-step verification?",
        "Under Security > 2-step.",
        "turn on 2-step verification",
        "Is there a Nimbus client for Linux?",
        "know whether Linux is supported",
        "a ticket at nimbus.example/help",
    ),
    Product(
        "Hoppa language lessons",
        "Hoppa lessons can be rescheduled free of charge up to 12 hours before they start. Unused lessons expire 60 days after purchase. Contact: lessons@hoppa.example.",
        "Can I move tomorrow's Hoppa lesson?",
        "Yes, free of charge as long as it's more than 12 hours before the start.",
        "reschedule a lesson",
        "Do my unused lessons expire?",
        "Yes, 60 days after you bought them.",
        "know when lessons expire",
        "Are Hoppa teachers certified?",
        "know the teachers' certification",
        "lessons@hoppa.example",
    ),
    Product(
        "Glint car wash membership",
        "A Glint membership gives unlimited washes at every Glint site, one wash per day. Members can pause the membership for up to 2 months a year in the Glint app. Contact: members@glint.example.",
        "How many washes does the Glint membership include?",
        "Unlimited washes at every Glint site, one per day.",
        "know what the membership includes",
        "Can I pause it while I'm abroad?",
        "Yes, for up to 2 months a year in the Glint app.",
        "pause the membership",
        "Can I bring my pickup truck with a roof rack?",
        "know whether trucks with roof racks can be washed",
        "members@glint.example",
    ),
    Product(
        "Fernhouse plant sensor",
        "The Fernhouse sensor runs on a CR2032 battery that lasts about a year. Set the moisture alert for each plant under Plant > Alerts. Questions: hi@fernhouse.example.",
        "What battery does the Fernhouse sensor use?",
        "A CR2032; it lasts about a year.",
        "know the battery",
        "How do I get an alert when the soil is dry?",
        "Set the moisture alert for that plant under Plant > Alerts.",
        "set a dry-soil alert",
        "Can I leave the sensor outside in winter?",
        "know whether the sensor survives winter outdoors",
        "hi@fernhouse.example",
    ),
]

JA = [
    Product(
        "ブライトリーフ電子書籍リーダー",
        "ブライトリーフの電池は1日30分の読書で約4週間もちます。初期化するには、ロゴが表示されるまで電源ボタンを20秒押し続けてください。ストアで購入した本はサインイン後に再ダウンロードされます。修理のご相談は repair@brightleaf.example へ。",
        "ブライトリーフの電池は1回の充電でどれくらいもちますか？",
        "1日30分ほどの読書でしたら約4週間もちます。",
        "電池のもちを知りたい",
        "初期化の方法も教えてください。",
        "ロゴが表示されるまで電源ボタンを20秒押し続けてください。購入済みの本はサインイン後に再ダウンロードされます。",
        "端末を初期化したい",
        "画面の交換にはいくらかかりますか？",
        "画面交換の料金を知りたい",
        "repair@brightleaf.example",
    ),
    Product(
        "ベロ自転車シェア",
        "ベロの自転車は、ハンドルのQRコードをベロアプリで読み取ると解錠できます。月額パスでは毎回の乗車の最初の30分が含まれ、それを超えると1分15円です。ここにないご質問はベロヘルプデスク 0120-555-014 へお電話ください。",
        "ベロの自転車はどうやって解錠しますか？",
        "ベロアプリでハンドルのQRコードを読み取ってください。",
        "自転車を解錠したい",
        "月額パスだと1回いくらかかりますか？",
        "毎回最初の30分はパスに含まれ、それを超えると1分15円です。",
        "パスでの料金を知りたい",
        "昨日かごにかばんを忘れました。忘れ物はどこに届きますか？",
        "忘れ物を見つけたい",
        "ベロヘルプデスク 0120-555-014",
    ),
    Product(
        "ミズ浄水ポット",
        "ミズのカートリッジは2か月または150リットルのどちらか早いほうで交換してください。使用済みカートリッジは、新しいパックに同封の無料返送封筒でリサイクルに出せます。その他のお問い合わせは care@mizufilter.example へ。",
        "ミズのカートリッジはどのくらいで交換すればいいですか？",
        "2か月または150リットルのどちらか早いほうで交換してください。",
        "交換時期を知りたい",
        "古いカートリッジはリサイクルできますか？",
        "はい、新しいパックに同封の無料返送封筒で送り返してください。",
        "カートリッジをリサイクルしたい",
        "他社のカートリッジはミズのポットに使えますか？",
        "他社カートリッジが使えるか知りたい",
        "care@mizufilter.example",
    ),
    Product(
        "レジャリー請求書",
        "レジャリーでは、支払期日の3日後に督促メールを自動で送れます。設定 > リマインダー でオンにしてください。請求書は レポート > エクスポート でCSVを選ぶと書き出せます。アプリ内チャットは平日9時から18時まで対応しています。",
        "支払いが遅れた取引先に自動で連絡できますか？",
        "はい、設定 > リマインダー をオンにすると、期日の3日後に自動で督促メールが送られます。",
        "支払い督促を設定したい",
        "請求書を表計算ソフトに取り込むには？",
        "レポート > エクスポート でCSVを選んでください。",
        "請求書を書き出したい",
        "ノルド銀行の法人口座と連携できますか？",
        "ノルド銀行に対応しているか知りたい",
        "アプリ内チャット（平日9時〜18時）",
    ),
    Product(
        "パウトラックGPS首輪",
        "パウトラックの首輪は、ペットが動いている間、2分ごとに位置を更新します。サブスクリプションは アカウント > プラン からいつでも解約でき、その月の末日に終了します。サポート: support@pawtrack.example",
        "パウトラックの地図はどのくらいの間隔で更新されますか？",
        "ペットが動いている間は2分ごとに更新されます。",
        "更新間隔を知りたい",
        "サブスクリプションを解約するには？",
        "アカウント > プラン からいつでも解約でき、その月の末日に終了します。",
        "解約したい",
        "首輪は水深何メートルまで大丈夫ですか？",
        "防水の深さを知りたい",
        "support@pawtrack.example",
    ),
    Product(
        "ソラス瞑想アプリ",
        "ソラスでは、セッションのページにあるダウンロードアイコンを押すとオフラインで聴けます。保存できるのは20セッションまでです。ファミリープランは最大5人まで、それぞれ自分のログインで使えます。その他は hello@solace.example へ。",
        "ネットがなくてもソラスのセッションを聴けますか？",
        "はい、セッションのページでダウンロードアイコンを押してください。20セッションまで保存できます。",
        "オフラインで聴きたい",
        "ファミリープランは何人まで使えますか？",
        "最大5人まで、それぞれ自分のログインで使えます。",
        "ファミリープランの人数を知りたい",
        "Apple Watchでも使えますか？",
        "Apple Watch対応か知りたい",
        "hello@solace.example",
    ),
    Product(
        "クラムパン定期便",
        "クラムの配送は、前の週の木曜23時59分までならスキップできます。お届け先の変更は マイ配送 > お届け先 から行い、翌週の配送から反映されます。お電話: 03-5555-0199",
        "来週のパンの配送を休めますか？",
        "はい、今週の木曜23時59分までならスキップできます。",
        "配送をスキップしたい",
        "引っ越すので届け先を変えたいです。",
        "マイ配送 > お届け先 から変更できます。翌週の配送から反映されます。",
        "届け先を変えたい",
        "グルテンフリーのパンはありますか？",
        "グルテンフリーがあるか知りたい",
        "03-5555-0199",
    ),
    Product(
        "オービット温度調節器",
        "オービットのスケジュールは1日に6つの時間帯まで設定できます。エコモードでは不在の間、室温を17℃に保ちます。設置業者向け窓口は installers@orbit.example です。",
        "オービットでは1日にいくつ暖房の時間帯を設定できますか？",
        "1日に6つの時間帯まで設定できます。",
        "スケジュールの上限を知りたい",
        "エコモードは何度に保ちますか？",
        "不在の間、17℃に保ちます。",
        "エコモードの温度を知りたい",
        "カルダー社のヒートポンプでも使えますか？",
        "カルダー社のヒートポンプに対応しているか知りたい",
        "installers@orbit.example",
    ),
    Product(
        "テッセラのフォトブック",
        "テッセラのフォトブックは5営業日以内に発送します。注文から1時間以内なら注文履歴ページからキャンセルできます。その他のお問い合わせは books@tessera.example へ。",
        "テッセラのフォトブックはいつ発送されますか？",
        "5営業日以内に発送します。",
        "発送時期を知りたい",
        "20分前にした注文をまだキャンセルできますか？",
        "はい、注文から1時間以内なら注文履歴ページからキャンセルできますので、まだ間に合います。",
        "注文をキャンセルしたい",
        "ページの紙の厚さはどれくらいですか？",
        "紙の厚さを知りたい",
        "books@tessera.example",
    ),
    Product(
        "ニンバスクラウドバックアップ",
        "ニンバスはファイルの過去の版を30日間保存します。ファイルの「履歴」タブから復元できます。2段階認証は セキュリティ > 2段階認証 でオンにしてください。その他は nimbus.example/help からお問い合わせください。",
        "昨日の版のファイルに戻せますか？",
        "はい、30日分の版が残っています。ファイルの「履歴」タブから復元してください。",
        "過去の版を復元したい",
        "2段階認証をオンにするには？",
        "セキュリティ > 2段階認証 でオンにしてください。",
        "2段階認証を設定したい",
        "Linux版のクライアントはありますか？",
        "Linux対応か知りたい",
        "nimbus.example/help のお問い合わせ",
    ),
    Product(
        "ホッパ語学レッスン",
        "ホッパのレッスンは開始12時間前までなら無料で日程を変更できます。未使用のレッスンは購入から60日で失効します。お問い合わせ: lessons@hoppa.example",
        "明日のホッパのレッスンを別の日にできますか？",
        "はい、開始の12時間前までなら無料で変更できます。",
        "レッスンの日程を変えたい",
        "使っていないレッスンに期限はありますか？",
        "はい、購入から60日で失効します。",
        "レッスンの期限を知りたい",
        "ホッパの講師は資格を持っていますか？",
        "講師の資格を知りたい",
        "lessons@hoppa.example",
    ),
    Product(
        "グリント洗車会員",
        "グリント会員はすべてのグリント店舗で洗車し放題です（1日1回まで）。会員は年に2か月までアプリで休会できます。お問い合わせ: members@glint.example",
        "グリント会員だと何回洗車できますか？",
        "すべての店舗で1日1回まで洗車し放題です。",
        "会員の内容を知りたい",
        "海外にいる間は休会できますか？",
        "はい、年に2か月までアプリから休会できます。",
        "休会したい",
        "ルーフキャリア付きのピックアップトラックでも洗車できますか？",
        "トラックが洗車できるか知りたい",
        "members@glint.example",
    ),
    Product(
        "ファーンハウス植物センサー",
        "ファーンハウスのセンサーはCR2032電池で動き、約1年もちます。土の乾燥アラートは 植物 > アラート で植物ごとに設定できます。お問い合わせ: hi@fernhouse.example",
        "ファーンハウスのセンサーの電池は何ですか？",
        "CR2032で、約1年もちます。",
        "電池を知りたい",
        "土が乾いたら通知を受けるには？",
        "植物 > アラート でその植物の乾燥アラートを設定してください。",
        "乾燥アラートを設定したい",
        "冬の屋外にセンサーを置いたままでも大丈夫ですか？",
        "冬の屋外で使えるか知りたい",
        "hi@fernhouse.example",
    ),
]

WORDS = {
    "en": {
        "generic": [
            "Thanks for reaching out! Please make sure the app is up to date and try again.",
            "Sorry about that. Restarting your device often helps with issues like this.",
            "You can find more details in the app's settings. Let me know if anything else comes up.",
        ],
        "again": "That doesn't answer my question. {q}",
        "loop_prefix": "As I mentioned, ",
        "not_asked": "That's not what I asked. {q}",
        "handover": "I couldn't find that in our help articles, so I can't answer it myself. Please contact {contact} — they can help with that.",
    },
    "ja": {
        "generic": [
            "お問い合わせありがとうございます。アプリを最新版に更新してから、もう一度お試しください。",
            "ご不便をおかけしてすみません。端末を再起動すると解決することがあります。",
            "詳しくはアプリの設定画面をご確認ください。ほかにもご不明な点があればお知らせください。",
        ],
        "again": "それでは質問の答えになっていません。{q}",
        "loop_prefix": "先ほどもお伝えしたとおり、",
        "not_asked": "それは聞いていません。{q}",
        "handover": "その件はヘルプ記事に記載がなく、こちらではお答えできません。{contact} にお問い合わせいただければご案内できます。",
    },
}


def dialogue(p: Product, kind: str, language: str, n: int) -> dict:
    w = WORDS[language]
    generic = w["generic"]
    if kind == "resolved":
        msgs = [p.q_a, p.a_a, p.q_b, p.a_b]
        intents, labels = [p.i_a, p.i_b], (1.0, "resolved", 0.0)
        note = "Both questions answered from the passage."
    elif kind == "partly_resolved":
        msgs = [p.q_a, p.a_a, p.q_b, generic[n % 3]]
        intents, labels = [p.i_a, p.i_b], (0.5, "partly_resolved", 0.1)
        note = "The first question answered; the second met with a generic reply though the passage answers it."
    elif kind == "looped":
        msgs = [p.q_a, p.a_a, p.q_b, w["loop_prefix"] + p.a_a, w["not_asked"].format(q=p.q_b), p.a_a]
        intents, labels = [p.i_a, p.i_b], (0.5, "partly_resolved", 0.8)
        note = "The first answer repeated twice instead of answering the second question, which the passage answers."
    elif kind == "handed_over":
        msgs = [p.q_a, p.a_a, p.q_missing, w["handover"].format(contact=p.contact)]
        intents, labels = [p.i_a, p.i_missing], (0.5, "handed_over", 0.0)
        note = "The first question answered; the one the passage lacks handed to the contact the passage names."
    else:  # unresolved
        msgs = [p.q_a, generic[n % 3], w["again"].format(q=p.q_a), generic[(n + 1) % 3]]
        intents, labels = [p.i_a], (0.0, "unresolved", 0.2)
        note = "Two generic replies; the passage answers the question but the bot never does."
    roles = ["user", "assistant"] * 3
    return {
        "id": f"dlg-{language}-{n:03d}",
        "language": language,
        "kind": kind,
        "product": p.name,
        "messages": [{"role": r, "content": c} for r, c in zip(roles[: len(msgs)], msgs, strict=True)],
        "context": [p.context],
        "intents": intents,
        "labels": {"resolution": labels[0], "outcome": labels[1], "retention": 1.0, "repetition": labels[2]},
        "note": note,
    }


def main() -> None:
    out = []
    for language, products, first in (("en", EN, 23), ("ja", JA, 23)):
        n = first
        for index, product in enumerate(products):
            for k in range(3):
                out.append(dialogue(product, KINDS[(3 * index + k) % len(KINDS)], language, n))
                n += 1
    for row in out:
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
