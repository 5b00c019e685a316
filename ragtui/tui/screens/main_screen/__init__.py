"""The main screen: header, the Customer / Bot / Judge panes, and the dialogue controls — put
together in ``screen`` from small parts, one job each, in this folder."""

from __future__ import annotations

from .screen import MainScreen

__all__ = ["MainScreen"]
