"""The benchmarks are scripts, not a package: their tests load them by path."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@cache
def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/NAME.py`` as a module, loaded once. It is registered under
    its name, since dataclasses look their module up, and the folder is put on the path
    for the scripts that import one another (the calibration reads ``bench_slams``)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
