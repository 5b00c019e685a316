"""Rules a value's type cannot say, written beside the field they check: ``Annotated[float,
between(0, 1)]``. Each raises ``invalid(...)`` in the words the user reads.

Nothing here imports pydantic: a declaration that uses these rules costs no more to import than
its dataclass, and ``reader.py`` runs them when a file is read. A rule is also valid pydantic
metadata (``__get_pydantic_core_schema__``), so the tables still written as pydantic models (a
persona, the bot types' settings) use the same rules, in the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .limits import count_text

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema, PydanticCustomError

RAGTUI = "ragtui"  # the error type of ``invalid``: its message is the user's wording


def invalid(problem: str, hint: str = "") -> PydanticCustomError:
    """A rule broken, in the user's words, said after the key: ``"must be positive, got 0"``.
    A problem that starts with ``:`` or ``.`` is joined to the key without a space."""
    from pydantic_core import PydanticCustomError  # only when a rule is broken, so validation runs

    return PydanticCustomError(RAGTUI, "{problem}", {"problem": problem, "hint": hint})


def got(value: object) -> str:
    """A value as a message shows it: numbers short (``3``, ``0.5``), anything else quoted."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return repr(value)
    if isinstance(value, int):
        return count_text(value)  # whole when it fits: `:g` would show 999999999 as 1e+09
    return f"{value:g}"


@dataclass(frozen=True)
class Rule:
    """``check`` run on a field's value after its type is checked (``before``: on the value as
    the file has it, before its type is). ``with_context``: ``check(value, context)``, where the
    context is what the reader passes (the file's folder, its language)."""

    check: Callable[..., Any]
    before: bool = False
    with_context: bool = False

    def wrap(self, schema: CoreSchema) -> CoreSchema:
        """A pydantic model's ``schema`` with this rule run after (or before) it."""
        from pydantic_core import core_schema

        if self.with_context:
            check = self.check

            def with_info(value: Any, info: core_schema.ValidationInfo) -> Any:
                return check(value, info.context or {})

            if self.before:
                return core_schema.with_info_before_validator_function(with_info, schema)
            return core_schema.with_info_after_validator_function(with_info, schema)
        if self.before:
            return core_schema.no_info_before_validator_function(self.check, schema)
        return core_schema.no_info_after_validator_function(self.check, schema)

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return self.wrap(handler(source))


def after(check: Callable[[Any], Any]) -> Rule:
    return Rule(check)


def before(check: Callable[[Any], Any]) -> Rule:
    return Rule(check, before=True)


def with_context(check: Callable[[Any, dict[str, Any]], Any], *, run_before: bool = False) -> Rule:
    return Rule(check, before=run_before, with_context=True)


def between(low: float, high: float, hint: str = "") -> Rule:
    def check(value: float) -> float:
        if not low <= value <= high:
            raise invalid(f"must be between {low:g} and {high:g}, got {got(value)}", hint)
        return value

    return Rule(check)


def at_least(low: int, words: str = "", hint: str = "") -> Rule:
    """``words`` replaces "at least N" (``"0 or more"``, ``"0 (automatic) or more"``)."""

    def check(value: int) -> int:
        if value < low:
            raise invalid(f"must be {words or f'at least {low}'}, got {got(value)}", hint)
        return value

    return Rule(check)


def at_most(high: int) -> Rule:
    """A count with a ceiling (``limits.py``): past it the value is a typo, not a plan."""

    def check(value: int) -> int:
        if value > high:
            raise invalid(f"must be at most {high}, got {got(value)}", f"set {high} or fewer")
        return value

    return Rule(check)


def positive() -> Rule:
    def check(value: float) -> float:
        if value <= 0:
            raise invalid(f"must be positive, got {got(value)}")
        return value

    return Rule(check)


def stripped(value: str) -> str:
    return value.strip()
