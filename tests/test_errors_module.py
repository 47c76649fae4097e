"""Every user-facing error class is defined in bidbox.errors, which loads no other layer."""

from __future__ import annotations

import inspect
import pkgutil
import subprocess
import sys
from importlib import import_module

import bidbox
from bidbox.errors import BidboxError


def test_errors_imports_no_other_layer() -> None:
    # A caller catches any bidbox error by importing bidbox.errors alone: it must not load
    # the language, the engine or anything else of bidbox.
    code = ("import sys, bidbox.errors; "
            "print(sorted(m for m in sys.modules if m.startswith('bidbox.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['bidbox.errors']"


def test_every_bidbox_error_class_lives_in_errors() -> None:
    defined_elsewhere = []
    for info in pkgutil.walk_packages(bidbox.__path__, "bidbox."):
        if info.name == "bidbox.__main__":
            continue  # running it is the command line
        module = import_module(info.name)
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, BidboxError)
                    and obj.__module__ != "bidbox.errors"):
                defined_elsewhere.append(f"{info.name}.{name}")
    assert defined_elsewhere == []


def test_the_language_re_exports_its_errors() -> None:
    # Old imports keep working: the language's modules hand out the same classes.
    from bidbox import errors
    from bidbox.lang.compiler import OptionError
    from bidbox.lang.diagnostics import ConstraintSyntaxError, SystemFileError
    from bidbox.lang.loader import UnknownSystemError

    assert OptionError is errors.OptionError
    assert SystemFileError is errors.SystemFileError
    assert ConstraintSyntaxError is errors.ConstraintSyntaxError
    assert UnknownSystemError is errors.UnknownSystemError
