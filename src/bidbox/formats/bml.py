"""BML (Bridge Markup Language, github Kungsgeten/bml; maintained on PyPI as
``bridge-markup``): the system as indented bidding tables that ``bml2html``,
``bml2latex`` and ``bml2bss`` read.

A table is a paragraph: one call a line, its description after it, each continuation
indented two spaces under the call it answers. Our calls are written bare, the
opponents' in parentheses, and an opponents' pass is left out (BML puts it back). ``#SEAT``
and ``#VUL`` paragraphs set the seat (of our first caller) and the vulnerability (ours,
then theirs) of the tables after them; where the notes differ by seat or vulnerability a
table is written once for each group of table contexts that shows the same calls.
BML has no wildcard for the opponents' calls: the calls a wildcard of the notes stands
for ("any call", "any bid" of theirs) are written as BML writes several bids with one
meaning, a bid with several strains level by level ((2CDHSN)), followed once per row by
the continuation they share; bml2bss expands them into a record per call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bidbox.core.calls import Call, CallKind
from bidbox.formats.draft import Draft, DraftCall
from bidbox.formats.tree import (
    ALL_CONTEXTS,
    Context,
    PublishedCall,
    PublishedTree,
    Token,
    call_order,
)

INDENT = 2
SEAT_CODES = {frozenset({1, 2, 3, 4}): "0", frozenset({1}): "1", frozenset({2}): "2",
              frozenset({3}): "3", frozenset({4}): "4", frozenset({1, 2}): "12",
              frozenset({3, 4}): "34"}


def bml_call(call: Call, ours: bool = True) -> str:
    """A call as BML writes it: ``1N``, ``P``, ``D``, ``R``; the opponents' in parentheses."""
    text = {CallKind.PASS: "P", CallKind.DOUBLE: "D", CallKind.REDOUBLE: "R"}.get(call.kind)
    if text is None:
        text = str(call)[:2]
    return text if ours else f"({text})"


def description(published: PublishedCall) -> str:
    """The call's meaning on one line, with its forcing status and alert decision."""
    text = published.meaning_line
    if published.alert:
        text += f" (alert: {published.decision.rule})"
    return text


def seat_groups(openers: frozenset[Context]) -> list[tuple[str, str, frozenset[Context]]]:
    """``openers`` as BML (SEAT, VUL) products: each with the contexts it covers."""
    out = []
    cells: dict[tuple[bool, bool], set[int]] = {}
    for seat, vul, they in openers:
        cells.setdefault((vul, they), set()).add(seat)
    by_seats: dict[frozenset[int], set[tuple[bool, bool]]] = {}
    for cell, cell_seats in cells.items():
        by_seats.setdefault(frozenset(cell_seats), set()).add(cell)
    for seats, vuls in by_seats.items():
        seat_parts: list[frozenset[int]] = (
            [seats] if seats in SEAT_CODES else [frozenset({s}) for s in sorted(seats)])
        ours = {v for v, _ in vuls}
        theirs = {t for _, t in vuls}
        if len(vuls) == len(ours) * len(theirs):
            vul_parts = [(_vul_code(ours), _vul_code(theirs), vuls)]
        else:
            vul_parts = [(_vul_code({v}), _vul_code({t}), {(v, t)}) for v, t in sorted(vuls)]
        for part in seat_parts:
            for ours_code, theirs_code, covered in vul_parts:
                contexts = frozenset((s, v, t) for s in part for v, t in covered)
                out.append((SEAT_CODES[part], ours_code + theirs_code, contexts))
    return out


def _vul_code(values: set[bool]) -> str:
    if len(values) == 2:
        return "0"
    return "Y" if True in values else "N"


def _first_caller_seat(published: PublishedCall, opener_seat: int) -> int:
    """The seat of our side's first caller when the path's first call is in ``opener_seat``
    (the opponents' when they opened)."""
    theirs_first = bool(published.path) and not published.path[0].ours
    return opener_seat % 4 + 1 if theirs_first else opener_seat


def _row(published: PublishedCall) -> str:
    """A call and its description; one-letter calls get two spaces, so that the
    description never starts in the column of the next row (BML would read that row as
    more description)."""
    call = bml_call(published.call)
    return f"{call}{'  ' if len(call) == 1 else ' '}{description(published)}"


def _rows(calls: Iterable[PublishedCall], context: Context, depth: int,
          skipped: list[str]) -> list[str]:
    """The lines of a table below one place, for the calls that exist in ``context``."""
    groups: dict[Token | None, list[PublishedCall]] = {}
    for published in calls:
        if context not in published.openers:
            continue
        last = published.path[-1] if published.path else None
        groups.setdefault(last if last is not None and not last.ours else None, []).append(
            published)
    blocks: list[tuple[Token | None, list[str]]] = []
    for token, members in groups.items():
        level = depth
        header = None
        if token is not None and not token.implicit:
            if token.call is None:
                skipped.extend(f"{m.auction_text} (after their {token.pattern})"
                               for m in members)
                continue
            header = token
            level += 1
        body = []
        for published in sorted(members, key=lambda m: call_order(m.call)):
            body.append(" " * (INDENT * level) + _row(published))
            body.extend(_rows(published.children, context, level + 1, skipped))
        blocks.append((header, body))
    # The calls a wildcard of theirs stands for share what follows them: written as BML
    # writes several bids with one meaning, a bid with all its strains, (2CDHSN), level
    # by level, after the calls named on their own lines (in BML the first definition of
    # a call stands, as in the tree a named call wins over the wildcard).
    lines: list[str] = []
    shared: dict[tuple[str, tuple[str, ...]], list[Call]] = {}
    for header, body in blocks:
        if header is not None and header.wildcard and header.call is not None:
            shared.setdefault((header.wildcard, tuple(body)), []).append(header.call)
            continue
        if header is not None and header.call is not None:
            lines.append(" " * (INDENT * depth) + bml_call(header.call, ours=False))
        lines.extend(body)
    for (_, rows), their_calls in shared.items():
        for text in opponents_shorthand(their_calls):
            lines.append(" " * (INDENT * depth) + text)
            lines.extend(rows)
    return lines


def opponents_shorthand(calls: Iterable[Call]) -> list[str]:
    """Opponents' calls that share one continuation, as few BML rows as BML can write:
    a double or redouble alone, the bids of one level as one bid with their strains
    ((2CDHSN) is 2C, 2D, 2H, 2S and 2NT)."""
    rows: list[str] = []
    levels: dict[int, list[str]] = {}
    for call in sorted(set(calls), key=call_order):
        if call.is_bid:
            levels.setdefault(call.level, []).append(bml_call(call)[1])
        else:
            rows.append(bml_call(call, ours=False))
    rows[:0] = [f"({level}{''.join(strains)})" for level, strains in sorted(levels.items())]
    return rows


def write_bml(tree: PublishedTree) -> str:
    """The BML document of the tree: a title, the options chosen, one bidding table per
    opening (and per opening of theirs we defend against)."""
    system = tree.system
    chosen = ", ".join(f"{k}={v}" for k, v in system.selected.items() if v) or "none"
    parts = [f"#+TITLE: {system.title}", f"#+DESCRIPTION: {system.name}, generated by bidbox",
             f"Source: {system.source}. Options: {chosen}. Alerts as the "
             f"{tree.regulation.name.upper()} rules decide them."]
    current = ("0", "00")
    skipped: list[str] = []
    for root in sorted(tree.roots, key=_root_order):
        theirs = root.path[0] if root.path else None
        for seat_code, vul_code, contexts in table_groups(root):
            if (seat_code, vul_code) != current:
                parts.append(f"#SEAT {seat_code}")
                parts.append(f"#VUL {vul_code}")
                current = (seat_code, vul_code)
            context = min(contexts)
            lines = []
            depth = 0
            if theirs is not None and theirs.call is not None:
                lines.append(bml_call(theirs.call, ours=False) + " their opening")
                depth = 1
            lines.append(" " * (INDENT * depth) + _row(root))
            lines.extend(_rows(root.children, context, depth + 1, skipped))
            parts.append("\n".join(lines))
    if skipped:
        parts.append("Continuations after a wildcard call of the opponents (BML cannot "
                     "write one): " + "; ".join(sorted(set(skipped))[:200]) + ".")
    return "\n\n".join(parts) + "\n"


def _root_order(root: PublishedCall) -> tuple[int, int, int]:
    """Our openings first, then our calls over theirs, each upwards."""
    first = root.path[0].call if root.path and root.path[0].call is not None else None
    return (0 if first is None else 1, call_order(first) if first else 0,
            call_order(root.call))


def table_groups(root: PublishedCall) -> list[tuple[str, str, frozenset[Context]]]:
    """Groups of contexts of our first caller in which the table below ``root`` shows the
    same calls, each as BML's (SEAT, VUL)."""
    signatures: dict[tuple[int, ...], set[Context]] = {}
    calls = list(root.walk())
    for context in sorted(root.openers):
        signature = tuple(i for i, c in enumerate(calls) if context in c.openers)
        signatures.setdefault(signature, set()).add(context)
    out = []
    for contexts in signatures.values():
        # BML's seat is our first caller's: translate the path's first seat
        ours = frozenset((_first_caller_seat(root, s), v, t) for s, v, t in contexts)
        for seat_code, vul_code, covered in seat_groups(ours):
            back = frozenset(c for c in contexts
                             if (_first_caller_seat(root, c[0]), c[1], c[2]) in covered)
            out.append((seat_code, vul_code, back))
    if not out:
        out.append(("0", "00", ALL_CONTEXTS))
    return out


# --- reading BML into a draft system ---------------------------------------------------
_BML_ROW = re.compile(r"^( *)(\(?(?:[1-7](?:NT|N|C|D|H|S)|P|D|R|X|XX)\)?"
                      r"(?:-\(?(?:[1-7](?:NT|N|C|D|H|S)|P|D|R|X|XX)\)?)*)(?:\s+(.*))?$")
_BML_SPECIAL = re.compile(r"^( *)(\(?\d+[A-Za-z]+\)?)(?:\s+(.*))?$")


def _bml_to_call(token: str) -> tuple[Call, bool]:
    ours = not token.startswith("(")
    bare = token.strip("()")
    word = {"D": "X", "R": "XX"}.get(bare, bare)
    return Call.parse(word), ours


_SEVERAL = re.compile(r"^(\s*)\(([1-7])([CDHSN]{2,})\)(.*)$")


def expand_several_strains(lines: list[str]) -> list[str]:
    """The opponents' several-strain rows ((2CDHSN), as :func:`write_bml` writes the calls
    a wildcard stands for) spelt out, one row per call with a copy of the rows indented
    under it, as bml2bss expands them."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _SEVERAL.match(lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        indent = len(m.group(1))
        end = i + 1
        while end < len(lines) and lines[end].strip() and \
                len(lines[end]) - len(lines[end].lstrip()) > indent:
            end += 1
        block = expand_several_strains(lines[i + 1:end])
        for strain in m.group(3):
            out.append(f"{m.group(1)}({m.group(2)}{strain}){m.group(4)}")
            out.extend(block)
        i = end
    return out


def read_bml_draft(text: str, source: str = "<bml>") -> Draft:
    """The bidding tables of a BML document as a draft tree; rows BML can write but a
    system file cannot (``2M``, ``1X``, steps) are reported with their subtrees. The
    opponents' several-strain bids bidbox writes ((2CDHSN)) are read as their calls."""
    draft = Draft(_draft_name(source), source)
    text = "\n".join(expand_several_strains(text.splitlines()))
    stack: list[tuple[int, DraftCall]] = []  # (indentation, the row's last call)
    skipping: int | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or (raw.lstrip().startswith(("#", "//", "*", "-", "|"))
                               and not _BML_ROW.match(raw)):
            if not raw.strip():
                stack = []
            continue
        row = _BML_ROW.match(raw)
        indent = len(raw) - len(raw.lstrip())
        if skipping is not None:
            if indent > skipping:
                continue
            skipping = None
        if row is None:
            special = _BML_SPECIAL.match(raw)
            if special and (stack or indent == 0):
                draft.skipped.append(f"{source}:{number}: '{special.group(2)}' (a BML "
                                     "pattern bid): left out with its continuations")
                skipping = indent
            elif stack and indent > stack[-1][0]:
                stack[-1][1].text += " " + raw.strip().lstrip("= ")  # more description
            else:
                stack = []
            continue
        description = (row.group(3) or "").strip()
        description = re.sub(r"^=\s*", "", description)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        tokens = row.group(2).split("-")
        parent = stack[-1][1] if stack else None
        for i, token in enumerate(tokens):
            call, ours = _bml_to_call(token)
            text_here = description if i == len(tokens) - 1 else ""
            if parent is not None and not parent.ours and not ours:
                parent = parent.child(Call.parse("P"), True, "", number)  # our pass between
            if parent is None:
                parent = draft.root(call, ours, text_here, number)
            else:
                parent = parent.child(call, ours, text_here, number)
        assert parent is not None
        stack.append((indent, parent))
    return draft


def _draft_name(source: str) -> str:
    stem = re.sub(r"[^a-z0-9-]+", "-", source.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower())
    return "draft-" + (stem.strip("-") or "notes")


__all__ = ["bml_call", "description", "expand_several_strains", "opponents_shorthand",
           "read_bml_draft", "seat_groups", "table_groups", "write_bml"]
