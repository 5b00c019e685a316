"""A conversation file read into ``ImportedConversation`` records, one at a time, checked: every
role known, every conversation with a customer message and an id of its own. Any problem is one
``ConversationFileError`` naming the file and the line or row — the importer reads each file
through here once to check it before it stores anything, and once more to store it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..registry.conversation_loaders import (
    ConversationLoader,
    conversation_loader,
    conversation_loaders,
    loader_for_suffix,
)
from ..text.text_safety import visible
from ..types.conversations import (
    ConversationFileError,
    ImportedConversation,
    ImportedMessage,
    ImportProblem,
    RawConversation,
    Speaker,
)
from .roles import known_words, speaker_of
from .text_input import FileInput

log = logging.getLogger("ragtui")
MAX_KEY = 120  # a conversation id longer than this is cut: it names a session, it is not data


@dataclass(frozen=True)
class ReadOptions:
    format: str | None = None  # a loader's name (--format); None: by the file's suffix
    columns: Mapping[str, str] = field(default_factory=dict)  # --columns
    roles: Mapping[str, Speaker] = field(default_factory=dict)  # --role WORD=SPEAKER
    encoding: str | None = None  # --encoding; None: UTF-8


def formats_line() -> str:
    return ", ".join(f"{loader.name} ({' '.join(loader.suffixes)})" for loader in conversation_loaders())


def loader_of(path: Path, format_name: str | None) -> ConversationLoader:
    if format_name:
        loader = conversation_loader(format_name)
        if loader is None:
            raise ConversationFileError(
                f"--format {format_name!r} is not a conversation format", f"known: {formats_line()}"
            )
        return loader
    loader = loader_for_suffix(path.suffix)
    if loader is None:
        raise ConversationFileError(
            f"{path}: ragtui does not know the conversation format of a {path.suffix or 'suffix-less'} file",
            f"name it with --format; known: {formats_line()}",
        )
    return loader


def read_conversations(
    path: Path, options: ReadOptions, on_bytes: Callable[[bytes], None] | None = None
) -> Iterator[ImportedConversation]:
    """The file's conversations in order; ``ConversationFileError`` for the first problem."""
    loader = loader_of(path, options.format)
    seen: dict[str, int] = {}
    line: int | None = None
    try:
        source = FileInput(path, columns=options.columns, encoding=options.encoding, on_bytes=on_bytes)
        for raw in loader.read(source):
            line = raw.line
            conversation = checked(raw, options.roles, loader.unit, str(path))
            if conversation.key in seen:
                raise ImportProblem(
                    f"conversation {conversation.key!r} again (it first appears at {loader.unit} {seen[conversation.key]})",
                    raw.line,
                    "each conversation needs an id of its own",
                )
            seen[conversation.key] = raw.line
            yield conversation
    except ImportProblem as problem:
        where = f"{path} {loader.unit} {problem.line}" if problem.line is not None else str(path)
        raise ConversationFileError(f"{where}: {visible(problem.what, keep_newlines=False)}", problem.hint) from None
    except OSError as exc:
        raise ConversationFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ConversationFileError:
        raise
    except Exception as exc:  # a plugin's loader: one line, its traceback in the log
        log.exception("conversation loader %s failed on %s", loader.name, path)
        near = f" near {loader.unit} {line}" if line is not None else ""
        raise ConversationFileError(
            f"{path}: the {loader.name} loader failed{near}: {type(exc).__name__}: {exc}", "details in ragtui's log"
        ) from None


def checked(raw: RawConversation, roles: Mapping[str, Speaker], unit: str, source: str = "") -> ImportedConversation:
    """Roles mapped, texts tidied, empty messages left out; ImportProblem for an unknown role or a
    conversation in which the customer never speaks."""
    messages: list[ImportedMessage] = []
    for message in raw.messages:
        speaker = message.speaker or speaker_of(message.role, roles)
        if speaker is None:
            raise ImportProblem(
                f"unknown role {message.role!r}",
                message.line,
                f"roles read: customer ({known_words('customer')} …), bot ({known_words('bot')} …), agent "
                f"({known_words('agent')} …), system ({known_words('system')} …); add one with --role WORD=customer",
            )
        text = message.text.replace("\r\n", "\n").replace("\r", "\n").strip()
        if text:
            messages.append(ImportedMessage(speaker, text, message.role.strip(), message.line, message.time))
    key = visible(" ".join((raw.key or "").split()), keep_newlines=False)[:MAX_KEY] or f"{unit}-{raw.line}"
    if not any(m.speaker == "customer" for m in messages):
        name = f"conversation {key!r}" if raw.key else "this conversation"
        raise ImportProblem(f"{name} has no customer message", raw.line, "every imported conversation needs one")
    return ImportedConversation(key, raw.line, tuple(messages), source, unit)
