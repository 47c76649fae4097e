"""The system language: parser, compiler and the compiled System."""

from bidbox.lang.compiler import OptionError, compile_text
from bidbox.lang.constraint_parser import parse_constraint
from bidbox.lang.diagnostics import Diagnostic, Location, SystemFileError
from bidbox.lang.loader import load_system, parse_options, shipped_systems, system_path
from bidbox.lang.system import CallEntry, Forcing, Node, System

__all__ = [
    "CallEntry", "Diagnostic", "Forcing", "Location", "Node", "OptionError", "System",
    "SystemFileError", "compile_text", "load_system", "parse_constraint", "parse_options",
    "shipped_systems", "system_path",
]
