"""Static checks of a compiled system, each finding with a witness hand."""

from bidbox.core.findings import Finding
from bidbox.verify.lint import lint_system

__all__ = ["Finding", "lint_system"]
