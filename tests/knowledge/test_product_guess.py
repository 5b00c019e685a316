"""What ``ragtui init`` offers as the product and the support address: the name written
mid-sentence in the most documents, the customer-facing address in the most documents."""

from __future__ import annotations

from ragtui.core.knowledge.product_guess import guess_product, guess_support
from ragtui.core.types.knowledge import Document


def doc(text: str) -> Document:
    return Document("a.md", "markdown", "", text, ())


def test_the_product_is_the_name_most_documents_use_mid_sentence():
    documents = [
        doc("Orders ship daily. Beans from Kumo Coffee are roasted weekly. Open Settings to pay."),
        doc("Returns: write to Kumo Coffee Support within 14 days. Tap Settings, then Orders."),
        doc("Paying with Google Pay at Kumo Coffee works. You can open Settings."),
        doc("We ship to Japan. Sign in with Google."),
    ]
    assert guess_product(documents) == "Kumo Coffee"  # "Support" is not part of it; "Settings" is a screen


def test_no_guess_without_a_name_in_enough_documents():
    assert guess_product([doc("Ship with Acme."), doc("Pay with Acme."), doc("Nothing here.")]) == ""
    assert guess_product([]) == ""


def test_the_support_address_is_a_customer_facing_one():
    documents = [doc("Write to privacy@acme.example or help@acme.example."), doc("Mail help@acme.example.")]
    assert guess_support(documents) == "help@acme.example"
    assert guess_support([doc("Mail privacy@acme.example or no-reply@acme.example.")]) == ""
