"""Static checks of a compiled system, each finding with a witness hand."""

from bidbox.verify.lint import Finding, lint_system

__all__ = ["Finding", "lint_system"]
