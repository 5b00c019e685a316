"""ragtui: simulate customers, run a support bot, judge every turn."""

__version__ = "0.1.0"
