"""How the items added to the turn-metric labelled sets in ``sample_data/labelled/`` were written:
18 fictional products per language (none of them Tsumugi), each a short passage of facts, a
two-part question the passage answers (with its reference answer in two sentences), a second
question it answers in one sentence, a near-topic question it does not answer, and responses of
the kinds below. The kind fixes the label before anything is judged.

    python bench/grow_labelled_turns.py            # appends once; afterwards checks and prints the halves

The script appends to ``answer_correctness.jsonl``, ``answer_relevancy.jsonl``,
``answerability.jsonl``, ``faithfulness.jsonl`` and ``rubric.jsonl`` and never changes or reorders
an existing line. Run again, it finds its items already there, checks they are exactly what it
would write, and only prints the per-half counts. The halves alternate the items of each language
(``alternate_halves``), so each product's two items of a file fall in different halves and the
kinds rotate so that each half gets every kind.

Kinds and their labels:

- answer_correctness (0–1: how much of the two-part reference the response says, without
  contradicting it; a claim the reference does not make costs a quarter): ``correct`` both parts
  in other words 1.0, ``half`` the first part only 0.5, ``wrong_number`` the first part with a
  wrong number 0.0, ``contradicting`` the opposite of the reference 0.0, ``invented_extra`` the
  correct answer plus one claim the reference and passage do not make 0.75.
- answer_relevancy (0–1: share of the response's sentences that address the question):
  ``on_point`` 1.0 (either question), ``two_thirds`` the two-sentence answer plus one sentence on
  another subject 0.67, ``half`` the one-sentence answer plus one sentence on another subject 0.5,
  ``quarter`` a thank-you, the answer and two sentences on another subject 0.25, ``off_topic`` the
  answer to the product's other question 0.0.
- answerability (1 if the context states the answer, else 0): ``answerable`` 1, ``unanswerable``
  (a near-topic question the passage is silent on) 0; one of each per product.
- faithfulness (0–1: share of the response's claims the context supports): ``supported`` 1.0
  (either question), ``two_of_three`` the reference's two sentences plus one invented claim 0.67,
  ``one_invented`` one supported and one invented claim 0.5, ``all_invented`` a made-up answer to
  the question the passage does not answer 0.0, ``contradicting`` 0.0.
- rubric (1–5 by the seed's guidelines, ``good`` = 4 or 5): ``correct`` 5, ``incomplete`` (one
  of two asked parts) 3, ``invented`` (correct plus one invented claim) 2, ``contradicts`` 1,
  ``made_up_unknown`` (the passage lacks the answer, the bot invents one) 1, ``honest_unknown``
  (the passage lacks the answer, the bot says so and gives the passage's contact) 5,
  ``competitor`` (the right answer plus a recommendation of another company) 2, ``off_topic`` (the
  answer to the other question) 1, ``rude_but_right`` 3; every third item has an earlier exchange
  in ``history``.

Labels were fixed here before any judge saw these items and are never changed after; they are
templated from the kinds, so they test whether a judge tells the kinds apart, not whether it
reads subtle answers.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from ragtui.core.judge_quality.labelled import alternate_halves, load_labelled, parse_field_options

LABELLED = Path(__file__).resolve().parents[1] / "sample_data" / "labelled"
PER_PRODUCT = 2  # items per product in each of the four 0–1 files
FIRST_NUMBER = 49  # the four 0–1 files number their items across languages: 01–48 taken
RUBRIC_FIRST = 38  # rubric numbers each language on its own: 001–037 taken
RUBRIC_ITEMS = 23  # 37 + 23 = 60 a language: 30 a half
# file: (metric, binary label, label scale)
FILES = {
    "answer_correctness.jsonl": ("answer_correctness", False, 1.0),
    "answer_relevancy.jsonl": ("answer_relevancy", False, 1.0),
    "answerability.jsonl": ("answerability", True, 1.0),
    "faithfulness.jsonl": ("faithfulness", False, 1.0),
    "rubric.jsonl": ("rubric", False, 5.0),
}


@dataclass(frozen=True)
class Product:
    name: str
    context: str  # the passage
    contact: str  # as the passage names it, read after "contact" / 「…にお問い合わせください」
    q_a: str  # a two-part question the passage answers
    ref_1: str  # the reference's first part, one sentence, one claim
    ref_2: str  # its second part
    answer: str  # both parts, in other words
    half: str  # the first part only, in the answer's words
    wrong: str  # the first part with a wrong number
    contra: str  # the opposite of the reference, every claim contradicted by the passage
    invented: str  # one claim near the question that the passage does not make
    q_b: str  # a second question the passage answers
    a_b: str  # its answer, one self-contained sentence
    q_missing: str  # a near-topic question the passage does not answer
    made_up: str  # a confident answer to it, every claim invented
    competitor: str  # a sentence recommending another company

    @property
    def reference(self) -> str:
        return f"{self.ref_1} {self.ref_2}"


EN = [
    Product(
        name="Stampa L1 label printer",
        context="The Stampa L1 label printer prints on tapes from 6 mm to 24 mm wide. It connects to phones and computers by Bluetooth or USB-C. A full charge prints about 300 labels. Tapes are sold in packs of three in the Stampa app's shop. Support: help@stampa.example.",
        contact="help@stampa.example",
        q_a="What tape widths does the Stampa L1 take, and how do I connect it?",
        ref_1="The Stampa L1 takes tapes from 6 mm to 24 mm wide.",
        ref_2="It connects by Bluetooth or USB-C.",
        answer="It handles any tape between 6 and 24 mm, and you can pair it over Bluetooth or plug it in with a USB-C cable.",
        half="It handles any tape between 6 and 24 mm wide.",
        wrong="The Stampa L1 takes tapes from 6 mm up to 36 mm wide.",
        contra="It only takes 12 mm tape, and it has to be connected with a USB-A cable.",
        invented="It can also print on heat-shrink tubing for labelling cables.",
        q_b="How many labels can I print on one charge?",
        a_b="A full charge prints about 300 labels.",
        q_missing="Can the Stampa L1 print in colour?",
        made_up="Yes, the L1 prints in full colour on Stampa Color tapes. Colour labels use about twice as much battery as black ones.",
        competitor="If you print a lot, though, Markwell's LP-200 is worth a look, since it takes wider tape.",
    ),
    Product(
        name="Liftly gym booking app",
        context="In the Liftly app you can book a class up to 7 days ahead. Cancel at least 2 hours before the class starts, or it counts as attended. Members on the Basic plan can book 8 classes a month; Unlimited members have no limit. Questions: the Liftly front desk on 020 7946 0321.",
        contact="the Liftly front desk on 020 7946 0321",
        q_a="How far ahead can I book a class, and how late can I cancel?",
        ref_1="Classes can be booked up to 7 days ahead.",
        ref_2="A booking can be cancelled up to 2 hours before the class starts.",
        answer="You can book as early as a week before the class, and you can cancel until two hours before it begins.",
        half="You can book as early as a week before the class.",
        wrong="Classes can be booked up to 14 days ahead.",
        contra="Bookings open only on the day of the class, and once you've booked, you can't cancel.",
        invented="If a class is full, the app puts you on a waiting list automatically.",
        q_b="How many classes a month does the Basic plan include?",
        a_b="The Basic plan includes 8 classes a month.",
        q_missing="Can I bring a friend to a class as a guest?",
        made_up="Yes, each member can bring one guest a month for free. Just add their name when you book.",
        competitor="If you'd like more class times, FitHub's app lets you book at over 200 partner gyms.",
    ),
    Product(
        name="Seedwell seed library",
        context="A Seedwell membership costs 12 euros a year. Members may borrow up to 10 seed packets per season. At the end of the season, we ask members to return seeds saved from at least one of their plants. Seeds are picked up at the Seedwell counter in the Eastfield Library, open Tuesday to Saturday. Contact: seeds@seedwell.example.",
        contact="seeds@seedwell.example",
        q_a="How much is a Seedwell membership, and how many packets can I borrow?",
        ref_1="Membership costs 12 euros a year.",
        ref_2="Members can borrow up to 10 seed packets per season.",
        answer="It's 12 euros for the year, and you can take out as many as 10 packets each season.",
        half="It's 12 euros for the year.",
        wrong="Membership costs 20 euros a year.",
        contra="Membership is free, and there's no limit on how many packets you borrow.",
        invented="Members also get 10% off at the Eastfield garden centre.",
        q_b="Where do I pick up the seeds?",
        a_b="Seeds are picked up at the Seedwell counter in the Eastfield Library, open Tuesday to Saturday.",
        q_missing="Do you have tomato seeds that grow well in pots?",
        made_up="Yes, we stock three balcony tomato varieties, and Tiny Tim is the most popular one for pots.",
        competitor="For rarer varieties you could also order from the GreenRow seed catalogue.",
    ),
    Product(
        name="Tramline monthly pass",
        context="The Tramline monthly pass costs 49 euros and is valid on all trams and night buses in zone A. It runs for 30 days from the first time you tap it on a validator, not from the day you bought it. Children under 6 ride free with an adult. Lost your pass? Visit a Tramline service point or call 0900 8726.",
        contact="a Tramline service point or 0900 8726",
        q_a="What does the monthly pass cost, and when do its 30 days start?",
        ref_1="The monthly pass costs 49 euros.",
        ref_2="Its 30 days start the first time it is tapped on a validator.",
        answer="It's 49 euros, and the 30 days begin when you first tap it on a validator rather than on the day you buy it.",
        half="It's 49 euros.",
        wrong="The monthly pass costs 59 euros.",
        contra="It costs 29 euros and starts on the day you buy it, whether you use it or not.",
        invented="You can also take a bicycle on the tram for free with the pass.",
        q_b="Does my 4-year-old need a ticket?",
        a_b="Children under 6 ride free with an adult.",
        q_missing="If I lose my pass, is the replacement free?",
        made_up="Yes, your first replacement each year is free; after that it costs 5 euros.",
        competitor="If you only ride now and then, the CityGo app's pay-per-ride fares may work out cheaper.",
    ),
    Product(
        name="Foldline laundry pickup",
        context="Foldline picks up your laundry between 7:00 and 21:00 on the day you choose and brings it back washed and folded within 48 hours. Wash and fold costs 2.50 euros per kilo, with a minimum order of 6 kilos. Shirts can be ironed for 1.80 euros each. Questions: hello@foldline.example.",
        contact="hello@foldline.example",
        q_a="When do you pick up my laundry, and when do I get it back?",
        ref_1="Pickup is between 7:00 and 21:00 on the day you choose.",
        ref_2="The laundry comes back washed and folded within 48 hours.",
        answer="A driver comes by any time from 7 in the morning to 9 at night on your chosen day, and you'll have everything back, washed and folded, within two days.",
        half="A driver comes by any time from 7 in the morning to 9 at night on your chosen day.",
        wrong="Pickup is between 7:00 and 12:00 on the day you choose.",
        contra="We don't pick up: you drop your laundry off at a Foldline shop, and it's ready after a week.",
        invented="If you're out, you can leave the bag with a neighbour for the driver.",
        q_b="What does it cost to have a shirt ironed?",
        a_b="Ironing costs 1.80 euros per shirt.",
        q_missing="Do you clean duvets?",
        made_up="Yes, duvets are 15 euros each and come back within 3 days.",
        competitor="For dry cleaning, Pressto on the high street is quicker than most.",
    ),
    Product(
        name="Pantry Box recipe box",
        context="Each Pantry Box holds three recipes for two people, with every ingredient measured out. You can change your recipes until Friday at noon for the following week's box. Boxes arrive on Tuesdays between 8:00 and 18:00, in an insulated bag that keeps the food cold for 12 hours. Contact: the Pantry Box team on 0800 412 889.",
        contact="the Pantry Box team on 0800 412 889",
        q_a="Until when can I change my recipes, and on which day does the box come?",
        ref_1="Recipes can be changed until Friday at noon for the following week's box.",
        ref_2="Boxes arrive on Tuesdays between 8:00 and 18:00.",
        answer="You've got until noon on Friday to swap recipes for next week's box, and it's delivered on Tuesday, some time from 8 am to 6 pm.",
        half="You've got until noon on Friday to swap recipes for next week's box.",
        wrong="You can change your recipes until Sunday at noon for the following week's box.",
        contra="Recipes are fixed once you subscribe and can't be changed, and boxes come on Saturday mornings.",
        invented="Each box also comes with a free dessert.",
        q_b="How long does the food stay cold if I'm not home?",
        a_b="The insulated bag keeps the food cold for 12 hours.",
        q_missing="Do you have vegetarian recipes?",
        made_up="Yes, there are four vegetarian recipes to choose from every week, marked with a green leaf.",
        competitor="If you want more variety, Freshly Plated offers 30 recipes a week.",
    ),
    Product(
        name="Parkwise parking app",
        context="With Parkwise you pay for street parking from your phone: enter the zone number shown on the nearest sign and choose how long you'll stay. You can extend a session from the app without going back to the car, up to the zone's maximum time. Each session has a 0.30 euro service fee. Receipts are emailed after every session. Support: support@parkwise.example.",
        contact="support@parkwise.example",
        q_a="What does Parkwise charge on top of the parking, and can I add time without going back to the car?",
        ref_1="Each session has a 0.30 euro service fee.",
        ref_2="A session can be extended from the app, up to the zone's maximum time.",
        answer="There's a 30-cent service fee for every session, and you can add time from the app wherever you are, as long as you stay within the zone's time limit.",
        half="There's a 30-cent service fee for every session.",
        wrong="Each session has a 0.50 euro service fee.",
        contra="There's no service fee, and to add time you have to start a new session at the car.",
        invented="You'll also get a reminder 10 minutes before your time runs out.",
        q_b="How do I start a parking session?",
        a_b="To start a session, enter the zone number from the nearest sign and choose how long you'll stay.",
        q_missing="Does Parkwise work in other cities too?",
        made_up="Yes, Parkwise works in over 40 cities, and the zone numbers on the signs work the same way everywhere.",
        competitor="In some cities the Kerbly app covers more zones, so it's handy to have both.",
    ),
    Product(
        name="Alpina ski rental",
        context="Alpina Ski Rental at Hochfeld rents skis, boots and poles as a set for 38 euros a day, or 190 euros for six days. Book online by 18:00 the day before to have your set ready at the shop. Helmets are rented separately for 6 euros a day. If your boots aren't comfortable, you can swap them at any time during the rental. Contact: rent@alpina.example.",
        contact="rent@alpina.example",
        q_a="How much is a ski set for one day, and for six days?",
        ref_1="A set of skis, boots and poles costs 38 euros a day.",
        ref_2="Six days cost 190 euros.",
        answer="One day with skis, boots and poles is 38 euros, and six days come to 190 euros altogether.",
        half="One day with skis, boots and poles is 38 euros.",
        wrong="A set of skis, boots and poles costs 45 euros a day.",
        contra="There's no daily price: sets are only rented by the week, for 260 euros.",
        invented="The skis are waxed every evening at no extra charge.",
        q_b="My boots hurt. Can I change them?",
        a_b="Boots can be swapped at any time during the rental.",
        q_missing="Can I leave my own skis with you overnight?",
        made_up="Yes, overnight ski storage is 5 euros a night, and we dry your boots too.",
        competitor="If you're staying down in the valley, SkiPoint in the village is usually cheaper for children's sets.",
    ),
    Product(
        name="Riverbend Kayaks",
        context="Riverbend Kayaks rents single kayaks for 15 euros an hour and double kayaks for 25 euros an hour. Every rental includes a life jacket and a waterproof bag. Paddlers must be at least 12 years old, and under-16s must paddle with an adult. From April to October the last kayaks go out at 17:00. Bookings and questions: the Riverbend office on 0612 338 410.",
        contact="the Riverbend office on 0612 338 410",
        q_a="What do single and double kayaks cost?",
        ref_1="A single kayak costs 15 euros an hour.",
        ref_2="A double kayak costs 25 euros an hour.",
        answer="Singles are 15 euros per hour and doubles are 25 euros per hour.",
        half="Singles are 15 euros per hour.",
        wrong="A single kayak costs 20 euros an hour.",
        contra="All kayaks cost the same: 40 euros for a half-day.",
        invented="Both prices include a free map of the river route.",
        q_b="Can my 10-year-old paddle?",
        a_b="Paddlers must be at least 12 years old.",
        q_missing="Can I bring my dog in the kayak?",
        made_up="Yes, dogs are welcome in double kayaks, and we lend dog life jackets for free.",
        competitor="For a longer trip, Lakeside Paddle Co. rents kayaks by the day.",
    ),
    Product(
        name="Tinker tool library",
        context="Tinker Tool Library members borrow tools for up to 7 days and can renew a loan once online if nobody else has reserved the tool. Membership is 30 euros a year, or 15 euros for students. Late returns cost 1 euro per tool per day. Pick-ups and returns are at the Mill Street shed, Saturdays 10:00–14:00. Contact: borrow@tinker.example.",
        contact="borrow@tinker.example",
        q_a="How long can I keep a tool, and can I extend the loan?",
        ref_1="Tools can be borrowed for up to 7 days.",
        ref_2="A loan can be renewed once online if nobody else has reserved the tool.",
        answer="You can keep a tool for a week, and you can renew it online one time as long as no one else has reserved it.",
        half="You can keep a tool for a week.",
        wrong="Tools can be borrowed for up to 14 days.",
        contra="Loans have no time limit, so there's nothing to renew.",
        invented="Power tools come with a free safety briefing at pick-up.",
        q_b="What does membership cost for students?",
        a_b="Student membership is 15 euros a year.",
        q_missing="Do you lend ladders?",
        made_up="Yes, we lend ladders up to 4 metres, but they have to be collected by car.",
        competitor="If we don't have the tool you need, the DIY chain Hammerly rents tools out by the hour.",
    ),
    Product(
        name="Whisker pet insurance",
        context="Whisker pet insurance covers vet bills for illness and accidents up to 5,000 euros a year. You pay the first 100 euros of each claim yourself. Illness is covered once the policy has run for 14 days; accidents are covered from the first day. Claims are sent with a photo of the vet's invoice in the Whisker app. Questions: claims@whisker.example.",
        contact="claims@whisker.example",
        q_a="How much does Whisker pay a year, and how much do I pay myself?",
        ref_1="Whisker covers vet bills up to 5,000 euros a year.",
        ref_2="The policyholder pays the first 100 euros of each claim.",
        answer="The policy pays up to 5,000 euros of vet bills each year, and the first 100 euros of every claim is yours to cover.",
        half="The policy pays up to 5,000 euros of vet bills each year.",
        wrong="Whisker covers vet bills up to 2,000 euros a year.",
        contra="There's no yearly limit, and Whisker pays every claim in full from the first euro.",
        invented="A yearly dental check is covered as well.",
        q_b="When does cover for illness start?",
        a_b="Illness is covered once the policy has run for 14 days.",
        q_missing="Is my 9-year-old cat too old to sign up?",
        made_up="No, cats can join up to the age of 12, though the premium goes up by 20% after age 8.",
        competitor="If you want routine care included, PetShield's premium plan covers vaccinations too.",
    ),
    Product(
        name="Quill e-signature",
        context="With Quill you can send a document for signature to up to 10 signers at once. Signers don't need a Quill account; they sign from the link in the email. Requests that aren't signed expire after 30 days. The free plan includes 3 documents a month; the Pro plan has no limit. Help: quill.example/support.",
        contact="Quill support at quill.example/support",
        q_a="How many people can sign one document, and do they need a Quill account?",
        ref_1="A document can go to up to 10 signers at once.",
        ref_2="Signers don't need a Quill account; they sign from the link in the email.",
        answer="You can add as many as ten signers to one document, and none of them has to create an account — they open the link in their email and sign.",
        half="You can add as many as ten signers to one document.",
        wrong="A document can go to up to 25 signers at once.",
        contra="Only one person can sign each document, and every signer needs a Quill account.",
        invented="Everyone also gets a signed PDF copy by email once the last person has signed.",
        q_b="How long does a signature request stay open?",
        a_b="Requests that aren't signed expire after 30 days.",
        q_missing="Are Quill signatures legally valid in Japan?",
        made_up="Yes, Quill signatures meet Japan's Electronic Signature Act, so contracts signed with Quill are binding there.",
        competitor="If your clients already use DocuStamp, it may be simpler to send it from there.",
    ),
    Product(
        name="Hearth pellet delivery",
        context="Hearth delivers wood pellets in 15 kg bags, with a minimum order of 33 bags (half a pallet). Delivery is free within 50 km of our Kestrel depot; beyond that it costs 40 euros. The driver carries the bags to a spot you choose on the ground floor. Orders placed by Wednesday are delivered the following week. Questions: the Hearth order line on 0845 220 7714.",
        contact="the Hearth order line on 0845 220 7714",
        q_a="What's the minimum order, and what does delivery cost?",
        ref_1="The minimum order is 33 bags of 15 kg.",
        ref_2="Delivery is free within 50 km of the Kestrel depot and costs 40 euros beyond that.",
        answer="You need to order at least 33 of the 15 kg bags, and delivery costs nothing within 50 km of the Kestrel depot or 40 euros if you live further away.",
        half="You need to order at least 33 of the 15 kg bags.",
        wrong="The minimum order is 50 bags of 15 kg.",
        contra="There's no minimum order, and delivery is always 40 euros wherever you live.",
        invented="All our pellets are certified ENplus A1.",
        q_b="Will the driver bring the bags down to my basement?",
        a_b="The driver carries the bags to a spot you choose on the ground floor.",
        q_missing="Can I pay in instalments?",
        made_up="Yes, any order over 300 euros can be split into three monthly payments at no extra cost.",
        competitor="If you need pellets this week, the Brico Plus DIY store usually has them in stock.",
    ),
    Product(
        name="Tandem co-working",
        context="A Tandem day pass costs 18 euros and gives you a hot desk from 8:00 to 20:00, coffee included. The 10-day card costs 150 euros and is valid for 6 months. Members can book meeting rooms for 12 euros an hour. Lockers are available with a monthly membership only. Contact: desk@tandem.example.",
        contact="desk@tandem.example",
        q_a="What do the day pass and the 10-day card cost?",
        ref_1="A day pass costs 18 euros.",
        ref_2="The 10-day card costs 150 euros.",
        answer="A single day is 18 euros, and the card for ten days is 150 euros.",
        half="A single day is 18 euros.",
        wrong="A day pass costs 25 euros.",
        contra="There's no day pass: you have to buy the 10-day card, which costs 180 euros.",
        invented="Both include up to 20 pages of free printing a day.",
        q_b="Can I rent a locker?",
        a_b="Lockers are only available with a monthly membership.",
        q_missing="Can I bring my dog to the co-working space?",
        made_up="Yes, well-behaved dogs are welcome on the ground floor; just register them at the desk.",
        competitor="If you need a desk late at night, WorkNest at the station is open 24 hours.",
    ),
    Product(
        name="Kettlo smart kettle",
        context="The Kettlo kettle holds 1.7 litres and can keep water at a set temperature for up to 30 minutes. Choose one of five presets between 40°C and 100°C, or set any temperature in the app. The kettle must be descaled once a month with the Kettlo descaler. Warranty: 2 years; claims via care@kettlo.example.",
        contact="care@kettlo.example",
        q_a="How much water does the Kettlo hold, and how long will it keep it warm?",
        ref_1="The Kettlo holds 1.7 litres.",
        ref_2="It keeps water at a set temperature for up to 30 minutes.",
        answer="It takes up to 1.7 litres and will hold your chosen temperature for as long as half an hour.",
        half="It takes up to 1.7 litres.",
        wrong="The Kettlo holds 1.2 litres.",
        contra="It holds 2.5 litres and has no keep-warm function.",
        invented="It also switches itself off when you lift it off the base.",
        q_b="How often do I need to descale it?",
        a_b="The kettle needs descaling once a month with the Kettlo descaler.",
        q_missing="Is the inside of the kettle plastic or steel?",
        made_up="The inside is brushed stainless steel, so no plastic touches the water.",
        competitor="If you mostly make tea, the Brewmaster kettle from Hausgold has more presets.",
    ),
    Product(
        name="Trailmap hiking app",
        context="Trailmap Premium lets you download maps for offline use; free users can only view maps online. Premium costs 29 euros a year after a 7-day free trial. Recorded hikes are saved in your profile, and you can export them as GPX files. Questions: team@trailmap.example.",
        contact="team@trailmap.example",
        q_a="Can I use the maps offline, and what does that cost?",
        ref_1="Offline maps need Trailmap Premium.",
        ref_2="Premium costs 29 euros a year after a 7-day free trial.",
        answer="Offline maps are a Premium feature, and Premium is 29 euros a year once the 7-day free trial ends.",
        half="Offline maps are a Premium feature.",
        wrong="Premium costs 49 euros a year after a 7-day free trial.",
        contra="Offline maps are free for everyone, so you don't need to pay anything.",
        invented="Downloaded maps also show mobile coverage along the trail.",
        q_b="Can I export my hikes?",
        a_b="Recorded hikes can be exported as GPX files.",
        q_missing="Does Trailmap work on Garmin watches?",
        made_up="Yes, Trailmap syncs with Garmin watches: connect the watch under Settings > Devices and your route appears on it.",
        competitor="For ski touring, many people prefer the maps in Alpenpfad.",
    ),
    Product(
        name="FixPoint phone repair",
        context="FixPoint replaces cracked phone screens in about 45 minutes while you wait. Every repair comes with a 6-month warranty on the part and the work. Book a time online or walk in; on Saturdays walk-ins may wait up to 2 hours. We don't back up anything on your phone, so please back it up yourself first. Contact: the FixPoint shop on 030 5512 8800.",
        contact="the FixPoint shop on 030 5512 8800",
        q_a="How long does a screen repair take, and is there a warranty?",
        ref_1="A screen replacement takes about 45 minutes.",
        ref_2="Each repair has a 6-month warranty on the part and the work.",
        answer="Swapping a screen takes roughly three quarters of an hour, and both the part and the work are guaranteed for six months.",
        half="Swapping a screen takes roughly three quarters of an hour.",
        wrong="A screen replacement takes about 3 hours.",
        contra="Screen repairs take a few days because we send phones away, and they carry no warranty.",
        invented="We only fit original manufacturer screens.",
        q_b="Will you back up my phone before the repair?",
        a_b="We don't back up anything on your phone, so please back it up yourself first.",
        q_missing="Do you repair water-damaged phones?",
        made_up="Yes, water-damage repairs cost 79 euros and take 2 days.",
        competitor="If you're not in a hurry, QuickFix across the road is often cheaper.",
    ),
    Product(
        name="Meeple Box game rental",
        context="Meeple Box rents board games for 14 days at a time; each rental costs 5 to 9 euros depending on the game. Games are posted free in a reusable box, which you send back with the prepaid label inside. If a piece is missing when a game comes back, we charge 3 euros per piece. Questions: play@meeplebox.example.",
        contact="play@meeplebox.example",
        q_a="How long can I keep a game, and how do I send it back?",
        ref_1="Games are rented for 14 days.",
        ref_2="Games go back in the reusable box with the prepaid label.",
        answer="Each rental lasts two weeks, and to return it you pack it into the same box and stick on the prepaid label.",
        half="Each rental lasts two weeks.",
        wrong="Games are rented for 7 days.",
        contra="You can keep a game as long as you like, and returns have to be dropped off at our shop.",
        invented="You can extend a rental once by another week from your account.",
        q_b="How much does a rental cost?",
        a_b="Each rental costs between 5 and 9 euros, depending on the game.",
        q_missing="Can I buy a game I've rented?",
        made_up="Yes, you can keep it for 70% of the shop price if you tell us before the rental ends.",
        competitor="If you want the newest releases, Dicely rents those from the day they come out.",
    ),
]

JA = [
    Product(
        name="せんたく便",
        context="せんたく便は、ご指定の日の9時から20時のあいだにお洗濯物を集荷し、洗ってたたんだ状態で3日以内にお届けします。料金は1袋（約5kg）1,980円です。ワイシャツのアイロン仕上げは1枚250円で追加できます。お問い合わせ: せんたく便サポートセンター 0120-38-1124",
        contact="せんたく便サポートセンター（0120-38-1124）",
        q_a="集荷は何時ごろ来てもらえますか？戻ってくるのはいつですか？",
        ref_1="集荷はご指定日の9時から20時のあいだです。",
        ref_2="洗ってたたんだ状態で3日以内に届きます。",
        answer="ご指定いただいた日の朝9時から夜8時までのあいだに伺い、3日以内に、洗ってたたんだ状態でお返しします。",
        half="ご指定いただいた日の朝9時から夜8時までのあいだに伺います。",
        wrong="集荷はご指定日の9時から12時のあいだです。",
        contra="集荷は行っておらず、店舗へお持ち込みいただく必要があります。仕上がりは1週間後です。",
        invented="お留守の場合は、宅配ボックスに入れておいていただければ集荷できます。",
        q_b="ワイシャツにアイロンをかけてもらえますか？",
        a_b="ワイシャツのアイロン仕上げは1枚250円で追加できます。",
        q_missing="布団も洗ってもらえますか？",
        made_up="はい、布団は1枚3,300円で、1週間ほどでお返しします。",
        competitor="お急ぎでしたら、駅前のハヤテクリーニングさんなら当日仕上げもできますよ。",
    ),
    Product(
        name="まちりん駐輪場",
        context="まちりん駐輪場の定期利用は、自転車が月2,000円、原付が月3,000円です。翌月分の定期券は、毎月25日から駐輪場の精算機で購入できます。一時利用は最初の2時間が無料で、その後は1日100円です。お問い合わせ: まちりん管理事務所 03-3987-2210",
        contact="まちりん管理事務所（03-3987-2210）",
        q_a="定期はいくらですか？自転車と原付で違いますか？",
        ref_1="自転車の定期利用は月2,000円です。",
        ref_2="原付の定期利用は月3,000円です。",
        answer="自転車でしたら月2,000円、原付でしたら月3,000円です。",
        half="自転車でしたら月2,000円です。",
        wrong="自転車の定期利用は月2,500円です。",
        contra="自転車も原付も同じ料金で、月1,500円です。",
        invented="定期利用の方には、屋根付きの専用スペースをご用意しています。",
        q_b="定期券はいつから買えますか？",
        a_b="翌月分の定期券は、毎月25日から駐輪場の精算機で購入できます。",
        q_missing="電動アシスト自転車の充電はできますか？",
        made_up="はい、2階に充電スペースがあり、1回100円で充電できます。",
        competitor="駅の反対側にあるサイクルポート北口のほうが、定期は少しお安いですよ。",
    ),
    Product(
        name="ことのは朗読アプリ",
        context="ことのはは、月額980円で対象のオーディオブックが聴き放題になるアプリです。作品は最大10冊までダウンロードして、オフラインで聴けます。再生速度は0.5倍から3倍まで変えられます。初めての方は30日間無料でお試しいただけます。お問い合わせ: support@kotonoha.example",
        contact="support@kotonoha.example",
        q_a="月額はいくらですか？無料で試せますか？",
        ref_1="月額は980円です。",
        ref_2="初めての方は30日間無料で試せます。",
        answer="月々980円で、はじめてご利用の方は最初の30日間を無料でお試しいただけます。",
        half="月々980円です。",
        wrong="月額は1,480円です。",
        contra="月額料金はなく、作品を1冊ずつ購入していただく仕組みです。お試し期間もありません。",
        invented="解約はいつでもでき、残りの日数分は日割りで返金されます。",
        q_b="再生速度は変えられますか？",
        a_b="再生速度は0.5倍から3倍まで変えられます。",
        q_missing="家族で1つのアカウントを共有できますか？",
        made_up="はい、ファミリー設定で最大4人まで同じアカウントを使えます。",
        competitor="品ぞろえを重視されるなら、キクヨムさんのオーディオブックも検討してみてください。",
    ),
    Product(
        name="はたけ日和",
        context="はたけ日和の貸し農園は1区画10平方メートルで、年間契約は24,000円です。種や苗、農具は無料で使えます。毎週土曜の10時からは、菜園アドバイザーによる無料講習があります。水やりは各自で行い、園内の水道は6時から19時まで使えます。お問い合わせ: hatake@hatakebiyori.example",
        contact="hatake@hatakebiyori.example",
        q_a="1区画の広さと、1年間の料金を教えてください。",
        ref_1="1区画は10平方メートルです。",
        ref_2="年間契約は24,000円です。",
        answer="1区画あたり10平方メートルで、1年間のご契約で24,000円です。",
        half="1区画あたり10平方メートルです。",
        wrong="1区画は20平方メートルです。",
        contra="1区画は5平方メートルで、料金は月3,000円の月払いのみです。",
        invented="農園の近くに無料の駐車場もあります。",
        q_b="道具は自分で持っていく必要がありますか？",
        a_b="農具は種や苗と同じく、無料で使えます。",
        q_missing="途中で解約したら返金はありますか？",
        made_up="はい、残りの月数分を月割りで返金します。解約の1か月前までにご連絡ください。",
        competitor="もっと広い区画をお探しなら、となり町のグリーンライフ農園さんもおすすめです。",
    ),
    Product(
        name="ピコラボ",
        context="ピコラボは小学1年生から6年生向けのプログラミング教室です。授業は週1回60分で、月謝は8,800円（教材費込み）です。ノートパソコンは教室で貸し出すので、持参は不要です。振替は同じ月のうちなら2回までできます。お問い合わせ: ピコラボ事務局 06-6312-0458",
        contact="ピコラボ事務局（06-6312-0458）",
        q_a="授業の時間と月謝を教えてください。",
        ref_1="授業は週1回60分です。",
        ref_2="月謝は教材費込みで8,800円です。",
        answer="毎週1回、60分の授業で、月謝は教材費を含めて8,800円です。",
        half="毎週1回、60分の授業です。",
        wrong="授業は週1回90分です。",
        contra="授業は週2回で、月謝とは別に教材費が毎月かかります。",
        invented="兄弟で通う場合は、入会金が無料になります。",
        q_b="パソコンは買わないといけませんか？",
        a_b="ノートパソコンは教室で貸し出すので、持参は不要です。",
        q_missing="オンラインで受講することはできますか？",
        made_up="はい、オンラインコースもあり、ご自宅からZoomで同じ授業を受けられます。",
        competitor="ロボット作りに興味があるなら、テックキッズ塾さんのコースも人気ですよ。",
    ),
    Product(
        name="まごころ弁当",
        context="まごころ弁当は、管理栄養士が献立を考えた日替わり弁当を平日のお昼にお届けします。1食650円で、5食以上からご注文いただけます。注文や変更はお届けの前日15時まで受け付けます。容器は使い捨てなので、返却は不要です。お問い合わせ: まごころ弁当お客さま窓口 0120-556-710",
        contact="まごころ弁当お客さま窓口（0120-556-710）",
        q_a="1食いくらで、何食から頼めますか？",
        ref_1="1食650円です。",
        ref_2="5食以上から注文できます。",
        answer="お値段は1食650円で、ご注文は5食からお受けしています。",
        half="お値段は1食650円です。",
        wrong="1食850円です。",
        contra="1食から注文でき、料金は毎月の定額制です。",
        invented="ご飯の量は無料で大盛りに変更できます。",
        q_b="注文の変更はいつまでできますか？",
        a_b="注文の変更はお届けの前日15時まで受け付けています。",
        q_missing="アレルギーに対応したお弁当はありますか？",
        made_up="はい、卵・乳・小麦を使わないアレルギー対応弁当を1食750円でご用意しています。",
        competitor="夜ご飯も必要でしたら、ゆうげ便さんの夕食宅配とあわせて使うと便利です。",
    ),
    Product(
        name="ひかりライナー",
        context="ひかりライナーの東京―仙台便は1日6往復運行しています。乗車券はWebで、乗車日の1か月前の10時から予約できます。払い戻し手数料は、出発の2時間前までなら200円、それ以降は運賃の50%です。スーツケースなど大きな荷物は、1人2個までトランクに預けられます。お問い合わせ: ひかりライナー予約センター 022-715-3390",
        contact="ひかりライナー予約センター（022-715-3390）",
        q_a="払い戻しの手数料はいくらですか？出発の直前だと変わりますか？",
        ref_1="出発の2時間前までなら、払い戻し手数料は200円です。",
        ref_2="それ以降は運賃の50%がかかります。",
        answer="出発の2時間前までのお手続きなら200円、それを過ぎると運賃の半額が手数料になります。",
        half="出発の2時間前までのお手続きなら200円です。",
        wrong="出発の2時間前までなら、払い戻し手数料は500円です。",
        contra="払い戻しは出発直前まで無料で、手数料はかかりません。",
        invented="払い戻した金額は3営業日以内に口座へ振り込まれます。",
        q_b="荷物はいくつまで預けられますか？",
        a_b="スーツケースなどの大きな荷物は、1人2個までトランクに預けられます。",
        q_missing="車内でWi-Fiは使えますか？",
        made_up="はい、全車両で無料Wi-Fiが使え、各席にコンセントもあります。",
        competitor="安さ重視なら、同じ区間を走るみちのくエクスプレスのほうがお得な日もあります。",
    ),
    Product(
        name="はなごろも着物レンタル",
        context="はなごろもの着物レンタルは、着付けと帯・草履などの小物込みで1日4,400円です。返却は当日18時までに店舗へお持ちください。翌日返却は1,100円の追加で承ります。ヘアセットは2,200円で追加できます。雨の日も店内で着付けを行います。ご予約・お問い合わせ: はなごろも四条店 075-561-2287",
        contact="はなごろも四条店（075-561-2287）",
        q_a="料金はいくらで、何が含まれていますか？",
        ref_1="料金は1日4,400円です。",
        ref_2="着付けと、帯・草履などの小物が含まれます。",
        answer="1日4,400円で、着付けのほか、帯や草履などの小物もすべて含まれています。",
        half="1日4,400円でご利用いただけます。",
        wrong="料金は1日6,600円です。",
        contra="お貸しするのは着物だけで、着付けと小物はそれぞれ別料金です。",
        invented="撮影用の和傘も無料でお貸しします。",
        q_b="次の日に返してもいいですか？",
        a_b="1,100円を追加していただければ、翌日返却もできます。",
        q_missing="男性用の着物もありますか？",
        made_up="はい、男性用の着物と袴もご用意しており、料金は女性用と同じです。",
        competitor="柄の種類で選ぶなら、祇園の雅屋さんは500種類以上あって人気です。",
    ),
    Product(
        name="くつ工房ミナト",
        context="くつ工房ミナトでは、かかとの修理（ヒール交換）を2,200円から承っており、お預かりから最短30分で仕上がります。靴底全体の張り替えは6,600円からで、1週間ほどお預かりします。仕上がった靴の保管期間は3か月です。お問い合わせ: くつ工房ミナト 045-223-9871",
        contact="くつ工房ミナト（045-223-9871）",
        q_a="かかとの修理はいくらで、どのくらいかかりますか？",
        ref_1="かかとの修理は2,200円からです。",
        ref_2="最短30分で仕上がります。",
        answer="ヒール交換は2,200円からお受けしていて、早ければ30分ほどでお渡しできます。",
        half="ヒール交換は2,200円からお受けしています。",
        wrong="かかとの修理は3,800円からです。",
        contra="かかとの修理は工場に送るため、お渡しは2週間後になります。",
        invented="スニーカーのかかとも同じ料金で修理できます。",
        q_b="仕上がった靴はいつまで預かってもらえますか？",
        a_b="仕上がった靴は3か月間保管しています。",
        q_missing="バッグの修理もできますか？",
        made_up="はい、バッグの持ち手の交換を3,300円から承っています。",
        competitor="ブランド靴でしたら、銀座のリペア工房シュウさんが専門です。",
    ),
    Product(
        name="ミーティングスペース縁",
        context="ミーティングスペース縁の会議室は、6人用が1時間1,500円、12人用が1時間2,800円です。予約は30分単位で、利用日の3日前までのキャンセルは無料、それ以降は料金の全額がかかります。プロジェクターとホワイトボードは無料で使えます。お問い合わせ: info@space-en.example",
        contact="info@space-en.example",
        q_a="6人用と12人用の会議室の料金を教えてください。",
        ref_1="6人用は1時間1,500円です。",
        ref_2="12人用は1時間2,800円です。",
        answer="6人までのお部屋は1時間1,500円、12人までのお部屋は1時間2,800円です。",
        half="6人までのお部屋は1時間1,500円です。",
        wrong="6人用は1時間2,000円です。",
        contra="お部屋の広さにかかわらず、料金は1時間2,000円で一律です。",
        invented="平日の午前中は2割引きでご利用いただけます。",
        q_b="キャンセル料はかかりますか？",
        a_b="利用日の3日前までのキャンセルは無料で、それ以降は料金の全額がかかります。",
        q_missing="会議室で飲食はできますか？",
        made_up="はい、軽食やお弁当は自由に召し上がっていただけます。ゴミはお持ち帰りください。",
        competitor="大人数でしたら、駅ビルの会議室ひろばさんのほうが広いお部屋があります。",
    ),
    Product(
        name="ぽちたま訪問シッター",
        context="ぽちたま訪問シッターは、ご自宅に伺って犬や猫のお世話をします。1回30分2,500円で、2匹目からは1匹につき500円を加算します。初回は必ず無料の事前面談を行い、合い鍵をお預かりします。ご予約は利用日の5日前までにお願いします。お問い合わせ: ぽちたま予約センター 0120-41-8803",
        contact="ぽちたま予約センター（0120-41-8803）",
        q_a="料金はいくらですか？うちは2匹いるんですが。",
        ref_1="1回30分2,500円です。",
        ref_2="2匹目からは1匹につき500円が加算されます。",
        answer="30分のお世話1回で2,500円、2匹目からは1匹につき500円をプラスしていただきます。",
        half="30分のお世話1回で2,500円です。",
        wrong="1回30分3,500円です。",
        contra="料金は1匹ごとに同じ額がかかりますので、2匹ですと倍の料金になります。",
        invented="お世話の様子は、写真つきでLINEにお送りします。",
        q_b="予約はいつまでにすればいいですか？",
        a_b="ご予約は利用日の5日前までにお願いしています。",
        q_missing="旅行中、夜に泊まってもらうことはできますか？",
        made_up="はい、夜20時から翌朝8時までのお泊まりプランを1泊12,000円でご用意しています。",
        competitor="長いご旅行なら、ペットホテルのわんにゃんハウスさんに預けるほうが割安です。",
    ),
    Product(
        name="ゆけむり温泉",
        context="ゆけむり温泉の回数券は11枚つづりで8,000円です。有効期限は購入日から1年間で、ご家族やご友人と共有できます。タオルは回数券に含まれず、貸しタオルは1回200円です。営業時間は10時から23時（最終受付22時）、毎月第2火曜日は休館です。お問い合わせ: ゆけむり温泉フロント 0460-85-2631",
        contact="ゆけむり温泉フロント（0460-85-2631）",
        q_a="回数券はいくらで、いつまで使えますか？",
        ref_1="回数券は11枚つづりで8,000円です。",
        ref_2="有効期限は購入日から1年間です。",
        answer="11回分のつづりで8,000円、お買い上げの日から1年間お使いいただけます。",
        half="11回分のつづりで8,000円です。",
        wrong="回数券は11枚つづりで10,000円です。",
        contra="回数券に有効期限はなく、ご本人さま以外はお使いいただけません。",
        invented="回数券をお持ちの方は、館内のお食事処が1割引きになります。",
        q_b="タオルは借りられますか？",
        a_b="貸しタオルは1回200円でご用意しています。",
        q_missing="タトゥーがあっても入れますか？",
        made_up="はい、シールで隠せる大きさのタトゥーでしたらご入浴いただけます。",
        competitor="露天風呂を重視されるなら、近くのはこね湯の里さんのほうが広いですよ。",
    ),
    Product(
        name="カメレン",
        context="カメレンでは、カメラやレンズを3泊4日から借りられます。料金は機材ごとに決まっていて、往復の送料は無料です。返却は、付属の伝票を貼ってコンビニから発送してください。期限を過ぎると、延滞料として1日あたり基本料金の20%がかかります。お問い合わせ: support@cameren.example",
        contact="support@cameren.example",
        q_a="最短で何日から借りられますか？送料はかかりますか？",
        ref_1="最短3泊4日から借りられます。",
        ref_2="往復の送料は無料です。",
        answer="いちばん短いプランは3泊4日で、行きも帰りも送料はかかりません。",
        half="いちばん短いプランは3泊4日です。",
        wrong="最短1泊2日から借りられます。",
        contra="レンタルは1週間単位で、送料は往復ともお客さまのご負担です。",
        invented="延長したい場合は、マイページから1日単位で延ばせます。",
        q_b="返却が遅れるといくらかかりますか？",
        a_b="返却が遅れると、1日あたり基本料金の20%が延滞料としてかかります。",
        q_missing="学生割引はありますか？",
        made_up="はい、学生証をご提示いただくと全品15%引きになります。",
        competitor="プロ向けの機材なら、レンズワークスさんのレンタルのほうが種類が多いです。",
    ),
    Product(
        name="ふみ年賀状印刷",
        context="ふみ年賀状印刷では、Webで選んだデザインに写真や文面を入れて注文できます。料金は10枚1,650円からで、11枚目以降は1枚110円です。12月20日までのご注文は、12月25日までにお届けします。宛名印刷は無料で、住所録はCSVで取り込めます。お問い合わせ: ふみ年賀状印刷サポート 0120-24-5151",
        contact="ふみ年賀状印刷サポート（0120-24-5151）",
        q_a="年賀状の印刷代はいくらからですか？枚数が増えるとどうなりますか？",
        ref_1="料金は10枚1,650円からです。",
        ref_2="11枚目以降は1枚110円です。",
        answer="最初の10枚が1,650円で、それより多い分は1枚につき110円ずつ加わります。",
        half="最初の10枚が1,650円です。",
        wrong="料金は10枚2,200円からです。",
        contra="枚数が増えても割安にはならず、1枚200円の一律料金です。",
        invented="100枚以上のご注文は送料が無料になります。",
        q_b="宛名も印刷してもらえますか？",
        a_b="宛名印刷は無料で、住所録はCSVで取り込めます。",
        q_missing="喪中はがきも作れますか？",
        made_up="はい、喪中はがきのデザインも30種類ご用意しており、料金は年賀状と同じです。",
        competitor="デザインの数で選ぶなら、年賀ネット工房さんも種類が豊富です。",
    ),
    Product(
        name="ヨガスタジオなごみ",
        context="ヨガスタジオなごみの体験レッスンは1回1,000円で、お一人さま1回限りです。月4回コースは月額7,700円、通い放題は月額11,000円です。ヨガマットは無料で貸し出していますが、タオルとお水はご持参ください。キャンセルはレッスン開始の3時間前までにアプリからお願いします。お問い合わせ: info@nagomi-yoga.example",
        contact="info@nagomi-yoga.example",
        q_a="体験レッスンはいくらですか？何回か受けてみてもいいですか？",
        ref_1="体験レッスンは1回1,000円です。",
        ref_2="体験はお一人さま1回限りです。",
        answer="体験は1,000円で、お一人につき1度だけ受けていただけます。",
        half="体験は1,000円です。",
        wrong="体験レッスンは1回3,000円です。",
        contra="体験レッスンは無料で、何度でも受けていただけます。",
        invented="体験の当日にご入会いただくと、入会金が無料になります。",
        q_b="マットは持っていく必要がありますか？",
        a_b="ヨガマットは無料で貸し出しています。",
        q_missing="妊娠中でも参加できますか？",
        made_up="はい、安定期に入っていれば、どのレッスンにもご参加いただけます。",
        competitor="ホットヨガをご希望でしたら、駅前のホットスタジオ・ルナさんがおすすめです。",
    ),
    Product(
        name="はこぶ引越し",
        context="はこぶ引越しの見積もりは無料で、Webかお電話で申し込めます。単身パックは同じ市内なら29,800円からで、段ボールは20箱まで無料でお届けします。土日祝日は平日料金の2割増しです。予約の変更やキャンセルは、引越しの3日前まで無料です。お問い合わせ: はこぶ引越し受付センター 0120-88-2950",
        contact="はこぶ引越し受付センター（0120-88-2950）",
        q_a="単身パックはいくらからですか？段ボールはもらえますか？",
        ref_1="単身パックは同じ市内なら29,800円からです。",
        ref_2="段ボールは20箱まで無料で届けてもらえます。",
        answer="市内のお引越しなら単身パックは29,800円からで、段ボールも20箱までは無料でお届けします。",
        half="市内のお引越しなら単身パックは29,800円からです。",
        wrong="単身パックは市内で39,800円からです。",
        contra="段ボールはご自身でご用意いただく必要があり、単身パックは距離にかかわらず一律49,800円です。",
        invented="エアコンの取り外しも無料で承ります。",
        q_b="キャンセルはいつまで無料ですか？",
        a_b="予約の変更やキャンセルは、引越しの3日前まで無料です。",
        q_missing="ピアノも運んでもらえますか？",
        made_up="はい、アップライトピアノは1台15,000円で一緒にお運びします。",
        competitor="長距離でしたら、ツバメ引越便さんのほうがお安くなることもあります。",
    ),
    Product(
        name="田んぼ直送米",
        context="田んぼ直送米の定期便は、精米したてのお米を毎月お届けします。5kgコースは月3,240円、10kgコースは月6,210円で、送料込みです。お届け日は毎月1日から28日のあいだで選べます。お休みや変更は、お届け日の7日前までにマイページから手続きしてください。お問い合わせ: kome@tanbo-choku.example",
        contact="kome@tanbo-choku.example",
        q_a="5kgと10kgのコースは、それぞれいくらですか？",
        ref_1="5kgコースは月3,240円です。",
        ref_2="10kgコースは月6,210円です。",
        answer="5kgでしたら月々3,240円、10kgでしたら月々6,210円です。",
        half="5kgでしたら月々3,240円です。",
        wrong="5kgコースは月3,980円です。",
        contra="コースは10kgのみで、料金は月5,000円です。",
        invented="新米の時期には、追加料金なしで新米に切り替えてお届けします。",
        q_b="お届け日は選べますか？",
        a_b="お届け日は毎月1日から28日のあいだで選べます。",
        q_missing="お米の産地はどこですか？",
        made_up="新潟県魚沼産のコシヒカリを、契約農家から直接お届けしています。",
        competitor="いろいろな産地を試したいなら、お米のデパートさんの食べ比べセットも楽しいですよ。",
    ),
    Product(
        name="カギマル",
        context="カギマルは、今あるドアの内側のつまみに両面テープで取り付けるスマートロックです。電池はCR123Aを2本使い、1日10回の開け閉めで約1年もちます。電池の残りが20%を切ると、アプリに通知が届きます。合い鍵はアプリで最大20人に送れます。お問い合わせ: help@kagimaru.example",
        contact="help@kagimaru.example",
        q_a="電池は何を使いますか？どのくらいもちますか？",
        ref_1="電池はCR123Aを2本使います。",
        ref_2="1日10回の開け閉めで約1年もちます。",
        answer="CR123A電池が2本必要で、1日に10回ほど開け閉めする使い方なら1年くらいもちます。",
        half="CR123A電池が2本必要です。",
        wrong="電池はCR123Aを4本使います。",
        contra="電池は使わず、コンセントから給電するタイプです。",
        invented="電池が切れても、付属の非常用キーで外から開けられます。",
        q_b="家族にも鍵を渡せますか？",
        a_b="合い鍵はアプリで最大20人に送れます。",
        q_missing="賃貸のマンションでも取り付けて大丈夫ですか？",
        made_up="はい、はがしても跡が残らないテープなので、賃貸でも管理会社の許可なく取り付けられます。",
        competitor="オートロックとの連携が必要なら、ロックマンさんのほうが対応機種が多いです。",
    ),
]

WORDS = {
    "en": {
        "honest": [
            "I'm sorry, I can't find anything about that in the information I have, so I'd rather not guess. Please contact {contact} — they can tell you for sure.",
            "I don't know: what I have doesn't cover that, and I don't want to give you a wrong answer. Please ask {contact}.",
        ],
        "rude": [
            "That's in the help pages, you know. {a} Please read them before asking next time.",
            "Honestly, this is pretty basic. {a}",
            "You could have looked this up yourself. {a} It's not complicated.",
        ],
        "thanks": "Thanks so much for your message, and for being with us — we really appreciate it!",
    },
    "ja": {
        "honest": [
            "申し訳ありません、その点は手元の案内に記載がなく、確かなことをお答えできません。お手数ですが、{contact}にお問い合わせください。",
            "ご案内できる情報にその記載がないため、推測でお答えするのは控えます。{contact}にお問い合わせいただければ、確実にお答えできます。",
        ],
        "rude": [
            "それ、よくある質問に書いてありますよ。{a}次からはまず確認してください。",
            "基本的なことなんですけどね。{a}",
            "ご自分で調べればすぐ分かることですよ。{a}難しい話ではありません。",
        ],
        "thanks": "いつも{name}をご利用いただき、本当にありがとうございます。",
    },
}

CORRECTNESS = ("correct", "half", "wrong_number", "contradicting", "invented_extra")  # 5 kinds: step 2
RELEVANCY = ("on_point", "two_thirds", "half", "quarter", "off_topic", "on_point_b")  # 6 kinds: +3
FAITHFULNESS = ("supported", "two_of_three", "one_invented", "supported_b", "all_invented", "contradicting")
RUBRIC = (
    "correct",
    "incomplete",
    "invented",
    "contradicts",
    "made_up_unknown",
    "honest_unknown",
    "competitor",
    "off_topic",
    "rude_but_right",
)
RUBRIC_LABELS = {
    "correct": 5,
    "incomplete": 3,
    "invented": 2,
    "contradicts": 1,
    "made_up_unknown": 1,
    "honest_unknown": 5,
    "competitor": 2,
    "off_topic": 1,
    "rude_but_right": 3,
}
NOTES = {
    "en": {
        "correct": "Answers both parts from the passage, in its own words.",
        "incomplete": "The first part is right, but the second part of the question is left out.",
        "invented": "Right, but adds a claim the passage does not make.",
        "contradicts": "Says the opposite of the passage.",
        "made_up_unknown": "The passage does not answer this; the reply makes up an answer.",
        "honest_unknown": "The passage does not answer this; the reply says so and gives the contact the passage names.",
        "competitor": "The answer is right, but it recommends another company.",
        "off_topic": "Answers a different question about the product.",
        "rude_but_right": "The answer is right, but the tone is rude.",
    },
    "ja": {
        "correct": "資料どおりに、質問の両方の点に自分の言葉で答えている。",
        "incomplete": "1つ目の点は正しいが、質問の2つ目の点に答えていない。",
        "invented": "内容は正しいが、資料にないことを付け加えている。",
        "contradicts": "資料と反対のことを言っている。",
        "made_up_unknown": "資料に答えがないのに、答えを作り上げている。",
        "honest_unknown": "資料に答えがないことを認め、資料にある問い合わせ先を案内している。",
        "competitor": "答えは正しいが、他社を勧めている。",
        "off_topic": "同じ商品の別の質問に答えている。",
        "rude_but_right": "内容は正しいが、お客さまに失礼な言い方をしている。",
    },
}


def sentences(*parts: str, language: str) -> str:
    return ("" if language == "ja" else " ").join(parts)


def correctness(p: Product, kind: str, language: str) -> tuple[str, float]:
    return {
        "correct": (p.answer, 1.0),
        "half": (p.half, 0.5),
        "wrong_number": (p.wrong, 0.0),
        "contradicting": (p.contra, 0.0),
        "invented_extra": (sentences(p.answer, p.invented, language=language), 0.75),
    }[kind]


def relevancy(p: Product, kind: str, language: str) -> tuple[str, str, float]:
    thanks = WORDS[language]["thanks"].format(name=p.name)
    return {
        "on_point": (p.q_a, p.answer, 1.0),
        "two_thirds": (p.q_a, sentences(p.ref_1, p.ref_2, p.a_b, language=language), 0.67),
        "half": (p.q_b, sentences(p.a_b, p.ref_1, language=language), 0.5),
        "quarter": (p.q_b, sentences(thanks, p.a_b, p.ref_1, p.ref_2, language=language), 0.25),
        "off_topic": (p.q_b, p.answer, 0.0),
        "on_point_b": (p.q_b, p.a_b, 1.0),
    }[kind]


def faithfulness(p: Product, kind: str, language: str) -> tuple[str, str, float]:
    return {
        "supported": (p.q_a, p.answer, 1.0),
        "two_of_three": (p.q_a, sentences(p.ref_1, p.ref_2, p.invented, language=language), 0.67),
        "one_invented": (p.q_a, sentences(p.half, p.invented, language=language), 0.5),
        "supported_b": (p.q_b, p.a_b, 1.0),
        "all_invented": (p.q_missing, p.made_up, 0.0),
        "contradicting": (p.q_a, p.contra, 0.0),
    }[kind]


def rubric(p: Product, kind: str, language: str, j: int) -> dict:
    w = WORDS[language]
    question, response = {
        "correct": (p.q_a, p.answer),
        "incomplete": (p.q_a, p.half),
        "invented": (p.q_a, sentences(p.answer, p.invented, language=language)),
        "contradicts": (p.q_a, p.contra),
        "made_up_unknown": (p.q_missing, p.made_up),
        "honest_unknown": (p.q_missing, w["honest"][j % 2].format(contact=p.contact)),
        "competitor": (p.q_b, sentences(p.a_b, p.competitor, language=language)),
        "off_topic": (p.q_b, p.answer),
        "rude_but_right": (p.q_b, w["rude"][(j // 9) % 3].format(a=p.a_b)),
    }[kind]
    history: list[dict[str, str]] = []
    if j % 3 == 2:  # an earlier exchange about the product's other question
        earlier = (p.q_b, p.a_b) if question == p.q_a else (p.q_a, p.answer)
        history = [{"role": "user", "content": earlier[0]}, {"role": "assistant", "content": earlier[1]}]
    label = RUBRIC_LABELS[kind]
    return {
        "kind": kind,
        "product": p.name,
        "question": question,
        "history": history,
        "context": [p.context],
        "response": response,
        "label": label,
        "good": label >= 4,
        "note": NOTES[language][kind],
    }


def rubric_product(j: int) -> int:
    """Products 0–17 in order, then 1, 3, 5, 7, 9 (each with a kind it did not have the first time)."""
    return j if j < 18 else 2 * (j - 18) + 1


def rows() -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {name: [] for name in FILES}
    number = FIRST_NUMBER
    for language, products in (("en", EN), ("ja", JA)):
        for i, p in enumerate(products):
            # Two items a product in each file: the first lands in one half, the second in the other
            # (each language's existing count is even). The kinds rotate so both halves get them all.
            kinds_c = (CORRECTNESS[(2 * i) % 5], CORRECTNESS[(2 * i + 1) % 5])
            kinds_r = (RELEVANCY[i % 6], RELEVANCY[(i + 3) % 6])
            kinds_f = (FAITHFULNESS[i % 6], FAITHFULNESS[(i + 3) % 6])
            answerable = (p.q_a, 1, "answerable") if i % 2 == 0 else (p.q_b, 1, "answerable")
            missing = (p.q_missing, 0, "unanswerable")
            kinds_a = (answerable, missing) if i % 2 == 0 else (missing, answerable)
            for k in range(PER_PRODUCT):
                key = f"{language}-{number:02d}"
                response, label = correctness(p, kinds_c[k], language)
                out["answer_correctness.jsonl"].append(
                    {
                        "id": f"answ-{key}",
                        "language": language,
                        "kind": kinds_c[k],
                        "product": p.name,
                        "question": p.q_a,
                        "reference": p.reference,
                        "response": response,
                        "label": label,
                    }
                )
                question, response, label = relevancy(p, kinds_r[k], language)
                out["answer_relevancy.jsonl"].append(
                    {
                        "id": f"answ-{key}",
                        "language": language,
                        "kind": kinds_r[k],
                        "product": p.name,
                        "question": question,
                        "response": response,
                        "label": label,
                    }
                )
                question, answer_label, answer_kind = kinds_a[k]
                out["answerability.jsonl"].append(
                    {
                        "id": f"answ-{key}",
                        "language": language,
                        "kind": answer_kind,
                        "product": p.name,
                        "question": question,
                        "context": p.context,
                        "label": answer_label,
                    }
                )
                question, response, label = faithfulness(p, kinds_f[k], language)
                out["faithfulness.jsonl"].append(
                    {
                        "id": f"fait-{key}",
                        "language": language,
                        "kind": kinds_f[k],
                        "product": p.name,
                        "question": question,
                        "context": p.context,
                        "response": response,
                        "label": label,
                    }
                )
                number += 1
        for j in range(RUBRIC_ITEMS):
            item = rubric(products[rubric_product(j)], RUBRIC[j % len(RUBRIC)], language, j)
            out["rubric.jsonl"].append({"id": f"rub-{language}-{RUBRIC_FIRST + j:03d}", "language": language, **item})
    return out


def line(row: dict) -> str:
    return json.dumps(row, ensure_ascii=False)


def write(directory: Path) -> None:
    """Append each file's new items once; when they are there already, check they are unchanged."""
    for name, new in rows().items():
        path = directory / name
        existing = path.read_text(encoding="utf-8").splitlines()
        ids = {json.loads(text)["id"] for text in existing if text.strip()}
        wanted = [line(row) for row in new]
        if new[0]["id"] in ids:
            if existing[-len(wanted) :] != wanted:
                sys.exit(f"{name}: the added items differ from what this script writes; labels are never changed")
            continue
        clash = ids & {row["id"] for row in new}
        if clash:
            sys.exit(f"{name}: ids already taken: {sorted(clash)[:3]}")
        with path.open("a", encoding="utf-8") as handle:
            handle.write("".join(text + "\n" for text in wanted))
        print(f"{name}: appended {len(wanted)} items")


def halves(directory: Path) -> dict[tuple[str, str, str], int]:
    """Items per (file, language, half), with ragtui's own loader and split."""
    counts = {}
    for name, (metric, binary, label_max) in FILES.items():
        data = load_labelled(directory / name, metric, parse_field_options([]), binary=binary, label_max=label_max)
        if data.problems:
            sys.exit(f"{name}: {data.problems[0]}")
        for split in ("choose", "report"):
            for language in ("en", "ja"):
                items = [i for i in alternate_halves(data.items, split) if i.language == language]
                counts[(name, language, split)] = len(items)
                mean = sum(i.label for i in items) / len(items)
                print(f"{name:26} {language} {split:6} {len(items):3} items, mean label {mean:.2f}")
    return counts


def main() -> None:
    write(LABELLED)
    short = {key: n for key, n in halves(LABELLED).items() if n < 30}
    if short:
        sys.exit(f"fewer than 30 items: {short}")


if __name__ == "__main__":
    main()
