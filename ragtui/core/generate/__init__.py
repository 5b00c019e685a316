"""Scenarios generated from the knowledge base, verified in code: the plan across documents,
headings and kinds; the checks that a reference's quote is in its passage, that a question is in
the right language and not a near-copy of another, and that an out-of-scope probe's terms are in
no passage; the facts a quote pins down as deterministic expectations."""
