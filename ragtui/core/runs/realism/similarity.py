"""How alike every opening of one side is to every opening of the other: ragtui's character
trigram Dice (``text.text_similarity.dice``), each text's trigrams made once, so an import of
thousands of conversations against a run of dozens is a matter of a second."""

from __future__ import annotations

from ...text.text_similarity import trigrams


def dice_matrix(left: list[str], right: list[str]) -> list[list[float]]:
    """``[i][j]``: Dice of ``left[i]`` and ``right[j]``, as ``dice`` gives it (0 for an empty text)."""
    right_sets = [trigrams(t) for t in right]
    rows = []
    for text in left:
        x = trigrams(text)
        rows.append([2 * len(x & y) / (len(x) + len(y)) if x and y else 0.0 for y in right_sets])
    return rows
