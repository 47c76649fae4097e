"""Write the HTML notes of the shipped systems and the README's screenshots of them.

    .venv/bin/python tools/publish_notes.py [--out out/notes] [--shots docs/screenshots]

The notes are `bidbox publish --format html` for each shipped system (the whole tree;
tosr's 16,000 calls take a few minutes, most of it the alert decisions). Each screenshot
is the same page opened at one auction, taken by headless Chromium.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import bidbox
from bidbox.api import get_regulation
from bidbox.formats.html import find_browser, notes_html, screenshot
from bidbox.formats.tree import read_tree

OPENED_AT = {"sbu-level1": "1NT P 2C", "tosr": "1C P 1H P 1S"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/notes", help="folder for the HTML notes")
    parser.add_argument("--shots", default="docs/screenshots", help="folder for the PNGs")
    parser.add_argument("--systems", nargs="*", default=list(OPENED_AT))
    args = parser.parse_args()
    out, shots = Path(args.out), Path(args.shots)
    out.mkdir(parents=True, exist_ok=True)
    shots.mkdir(parents=True, exist_ok=True)
    for name in args.systems:
        start = time.perf_counter()
        tree = read_tree(bidbox.load_system(name).compiled, get_regulation("sbu"))
        page = notes_html(tree)
        (out / f"{name}.html").write_text(page, encoding="utf-8")
        shot = shots / f"notes-{name}.png"
        if find_browser() is not None:
            screenshot(notes_html(tree, expand=OPENED_AT.get(name)), shot, 1200, 900)
        else:
            shot = Path("(no screenshot: headless Chromium is not installed)")
        print(f"{name}: {out / (name + '.html')}, {shot} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
