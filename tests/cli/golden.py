"""The golden explain texts (tests/data/explain_golden): reading the auction list,
rendering an auction as `bidbox explain` prints it, and writing the files anew."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import bidbox
from bidbox.cli.main import format_explanation

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "explain_golden"
AUCTIONS = GOLDEN / "auctions.txt"
UPDATE_ENV = "BIDBOX_UPDATE_GOLDEN"


@dataclass(frozen=True)
class GoldenAuction:
    system: str
    auction: str
    options: tuple[str, ...]

    @property
    def command(self) -> str:
        opts = "".join(f" --option {o}" for o in self.options)
        return f'$ bidbox explain --system {self.system} --auction "{self.auction}"{opts}'


def golden_auctions() -> list[GoldenAuction]:
    out = []
    for number, raw in enumerate(AUCTIONS.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(" | ")]
        if len(fields) < 2:
            raise ValueError(f"{AUCTIONS}:{number}: expected SYSTEM | AUCTION [| OPTIONS]")
        options = tuple(o.strip() for o in fields[2].split(",")) if len(fields) > 2 else ()
        out.append(GoldenAuction(fields[0], fields[1], options))
    return out


@cache
def _system(name: str, options: tuple[str, ...]) -> bidbox.System:
    return bidbox.load_system(name, list(options))


def render(item: GoldenAuction) -> str:
    """The command and what `bidbox explain` prints for it."""
    explanation = _system(item.system, item.options).explain(item.auction)
    return f"{item.command}\n{format_explanation(explanation)}\n"


def golden_file(system: str) -> Path:
    return GOLDEN / f"{system}.txt"


def read_golden(system: str) -> dict[str, str]:
    """command line -> its block, from one system's golden file."""
    path = golden_file(system)
    if not path.exists():
        return {}
    blocks: dict[str, str] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        if block.strip():
            text = block.strip("\n") + "\n"
            blocks[text.splitlines()[0]] = text
    return blocks


def write_golden() -> list[Path]:
    """Render every listed auction and write one file per system."""
    by_system: dict[str, list[str]] = {}
    for item in golden_auctions():
        by_system.setdefault(item.system, []).append(render(item))
    paths = []
    for system, blocks in by_system.items():
        path = golden_file(system)
        path.write_text("\n".join(blocks), encoding="utf-8")
        paths.append(path)
    return paths
