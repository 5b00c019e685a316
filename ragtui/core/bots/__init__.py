"""The bot under test. ``Bot`` is the contract every adapter fulfils."""

from .base import Bot, BotAnswer

__all__ = ["Bot", "BotAnswer"]
