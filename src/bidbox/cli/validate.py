"""Checks of command-line values that argparse applies as the value's ``type``, and the
argument parser every ``bidbox`` command uses."""

from __future__ import annotations

import argparse
import re
from typing import Any, NoReturn

from bidbox.errors import shown

HAND_SHAPED = re.compile(r"-[-.AKQJTakqjtXx0-9]*\.[-.AKQJTakqjtXx0-9]*")
"""An argument that starts with '-' but is a hand (a void spade suit: ``-.AKQJT98765432.-.-``)
rather than an option: only cards, digits, voids and at least one dot, which no option of
bidbox has. Negative numbers with a decimal point match too, and are values either way."""

VOID_HINT = ("a hand starting with a void is written with its dots ('-.AKQJT98765432.-.-'), "
             "or put '--' before it")


class BidboxArgumentParser(argparse.ArgumentParser):
    """argparse, but a hand beginning with a void is a value, not an unknown option, and an
    unknown option says how to pass such a hand (issue 17: ``bidbox eval -.AKQJT98765432.-.-``
    was refused as an option). Sub-command parsers are of this class too (argparse makes
    them with the parent's class)."""

    def _parse_optional(self, arg_string: str) -> Any:
        if HAND_SHAPED.fullmatch(arg_string) and arg_string not in self._option_string_actions:
            return None  # a positional value (or an option's argument)
        return super()._parse_optional(arg_string)

    def error(self, message: str) -> NoReturn:
        message = shown(message, 200)  # argparse quotes the arguments whole (found by fuzzing)
        if ("unrecognized arguments: -" in message or "expected one argument" in message
                or "arguments are required: hand" in message):
            message = f"{message} ({VOID_HINT})"
        super().error(message)


def nonempty(text: str) -> str:
    """A value that may not be empty: ``--out ''`` or ``--where ''`` was silently ignored
    (issue 17), which hides a broken script's missing variable."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


__all__ = ["HAND_SHAPED", "BidboxArgumentParser", "nonempty"]
