"""Stand-ins shared by the tests and the benchmarks: the fake OpenAI-compatible server,
synthetic runs written straight into a store, and a noise simulation for compare.

A package of its own at the top of the checkout, beside ``tests/`` and ``bench/``: the
benchmarks import it without importing any test code, and the wheel (``packages = ["ragtui"]``)
never carries it (``.ci/run`` checks that). The sdist, like the tests, keeps it."""
