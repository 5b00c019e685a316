"""The team's product as its prompts name it: the product's name and its support channel, from
``[product]`` in ragtui.toml. Empty means not set: the prompt files say how to speak of an unnamed
product or channel (``unnamed_product``, ``unnamed_support``), so no wording lives in code."""

from __future__ import annotations

from dataclasses import dataclass

# The bundled sample knowledge base is the help centre of a fictional service of this name.
SAMPLE_PRODUCT = "Tsumugi"


@dataclass(frozen=True)
class Product:
    name: str = ""
    support: str = ""  # e.g. "support@acme.example or the chat in the app"
