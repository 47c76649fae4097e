"""Checks of command-line values that argparse applies as the value's ``type``."""

from __future__ import annotations

import argparse


def nonempty(text: str) -> str:
    """A value that may not be empty: ``--out ''`` or ``--where ''`` was silently ignored
    (issue 17), which hides a broken script's missing variable."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


__all__ = ["nonempty"]
