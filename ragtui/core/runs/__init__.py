"""Runs as a whole: list them, resolve ``last`` / ``previous``, compare two, report to CI."""
