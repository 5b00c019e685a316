"""Content words by stem: what two English texts share when they speak of the same thing."""

from ragtui.core.text.content_words import content_stems


def test_function_words_and_negations_are_not_content():
    assert content_stems("If you cannot remember your password, you can't log in.") == {"remem", "passw", "log"}


def test_forms_of_one_word_share_a_stem():
    assert content_stems("I cancelled my notifications") & content_stems("Cancel the notification") == {
        "cance",
        "notif",
    }


def test_a_closing_quote_is_no_part_of_a_word():
    assert content_stems("Tap 'Change' and the users' list") == {"tap", "chang", "users", "list"}
