"""The ``ragtui`` command line."""

try:
    from .main import main
except KeyboardInterrupt:  # Ctrl-C while Python still loads the command line: no traceback
    import sys

    sys.stderr.write("ragtui: interrupted\n")
    raise SystemExit(130) from None

__all__ = ["main"]
