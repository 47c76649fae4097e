"""A draft system file (.bbx) from another tool's notes (BML, BBOalert).

Other tools keep a call's meaning as free text. The draft keeps that text as the call's
description and infers a constraint where the text is plain enough: HCP ranges ("10-12
hcp", "15-17p", "12+ points"), suit lengths ("5+!h", "4+ spades", "=4S", "6 card suit" is
not read), "balanced", and forcing words ("game forcing", "invitational", "to play").
Text with "or" (alternative hand types, a loosened range) is not read as one hand. A
call whose text yields no hand term is written with ``any`` and a ``# draft:`` comment,
and reported, so that nobody mistakes a guess for the partnership's agreement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bidbox.core.auction import Auction
from bidbox.core.calls import Call
from bidbox.errors import BidboxError
from bidbox.errors import DraftError as DraftError

SUIT_WORDS = {"spade": "S", "heart": "H", "diamond": "D", "club": "C", "s": "S", "h": "H",
              "d": "D", "c": "C"}
WORD_NUMBERS = {"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
MARK = "# draft: meaning not inferred from the text"


@dataclass
class DraftCall:
    """One call of the imported tree: ours or the opponents', with its text."""

    call: Call
    ours: bool
    text: str
    line: int
    children: list[DraftCall] = field(default_factory=list)
    replaced: list[tuple[int, str]] = field(default_factory=list)
    """(line, text) of earlier definitions whose text a later one replaced: listed as
    left out, so that the notes' first text is not lost without a word."""

    def child(self, call: Call, ours: bool, text: str, line: int) -> DraftCall:
        """The child for ``call`` (the last text wins, as in BBOalert), created if new."""
        for existing in self.children:
            if existing.call == call and existing.ours == ours:
                if text:
                    if existing.text.strip() and existing.text.strip() != text.strip():
                        existing.replaced.append((existing.line, existing.text))
                    existing.text, existing.line = text, line
                return existing
        made = DraftCall(call, ours, text, line)
        self.children.append(made)
        return made


@dataclass(frozen=True)
class Meaning:
    constraint: str  # system-language text, "any" when nothing was inferred
    attributes: tuple[str, ...]
    inferred: bool


_NUMBER = r"(\d{1,2})"


def infer_meaning(text: str) -> Meaning:
    """The constraint and attributes that plain notes text states, as system-language
    text. Only what the text says in a recognised form is read."""
    lowered = text.lower().replace("–", "-")
    terms: list[str] = []
    span = _NUMBER + r"\s*-\s*" + _NUMBER
    not_suit = r"(?!\s*(?:!?[shdc]\b|cards?|spade|heart|diamond|club|\d))"
    hcp = re.search(span + r"\s*(?:hcp|p\b|pts?\b|points|tp\b)", lowered) or \
        re.search(r"(?<![\d.])" + span + not_suit, lowered)
    if hcp and int(hcp.group(1)) <= int(hcp.group(2)) <= 37:
        terms.append(f"hcp {int(hcp.group(1))}-{int(hcp.group(2))}")
    else:
        plus = re.search(_NUMBER + r"\s*\+\s*(?:hcp|p\b|pts?\b|points)", lowered) or \
            re.search(r"(?<![\d.-])" + _NUMBER + r"\+" + not_suit, lowered)
        if plus and 4 <= int(plus.group(1)) <= 37:
            terms.append(f"hcp {int(plus.group(1))}+")
    for m in re.finditer(r"\b(three|four|five|six|seven|eight) or more "
                         r"(spade|heart|diamond|club)s?\b", lowered):
        terms.append(f"{WORD_NUMBERS[m.group(1)]}+{SUIT_WORDS[m.group(2)]}")
    suit = r"(?:!([shdc])|([shdc])\b|(spade|heart|diamond|club)s?\b)"
    for m in re.finditer(r"(?<![\d-])(\d{1,2})\s*(\+|-\d{1,2})?\s*(?:cards?\s+|card\s+)?"
                         + suit, lowered):
        letter = SUIT_WORDS[m.group(3) or m.group(4) or m.group(5)]
        low = int(m.group(1))
        if low > 13:
            continue
        if m.group(2) == "+":
            terms.append(f"{low}+{letter}")
        elif m.group(2):
            high = int(m.group(2)[1:])
            if low <= high <= 13:
                terms.append(f"{low}-{high}{letter}")
        else:
            terms.append(f"={low}{letter}")
    if re.search(r"\bsemi[- ]?balanced\b", lowered):
        terms.append("semi_balanced")
    elif re.search(r"\bbal(anced)?\b", lowered):
        terms.append("balanced")
    attributes = []
    if re.search(r"\b(gf|game[- ]forc\w*|forcing to game)\b", lowered):
        attributes.append("gf")
    elif re.search(r"\b(non[- ]?forcing|nf)\b", lowered):
        attributes.append("nf")
    elif re.search(r"\b(inv\w*)\b", lowered):
        attributes.append("inv")
    elif re.search(r"\b(sign[- ]?off|to play)\b", lowered):
        attributes.append("signoff")
    elif re.search(r"\b(forcing|f1)\b", lowered):
        attributes.append("f1")
    for word, tag in (("relay", "relay"), ("transfer", "transfer"), ("texas", "transfer"),
                      ("stayman", "ask"), ("asks", "ask"), ("artificial", "artificial"),
                      ("conventional", "artificial"), ("blackwood", "blackwood"),
                      ("pre-?empt", "preempt"), ("weak", "weak")):
        if re.search(rf"\b{word}", lowered) and tag not in attributes:
            attributes.append(tag)
    unique = list(dict.fromkeys(terms))
    # "x, or y" lists alternative hand types (and "12+, or less with a good suit"
    # loosens a range): reading the terms as one hand would be a wrong meaning.
    if re.search(r"\bor\b(?! more\b)", lowered):
        unique = []
    return Meaning(", ".join(unique) if unique else "any", tuple(attributes), bool(unique))


@dataclass
class Draft:
    name: str
    source: str
    roots: list[DraftCall] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # input the draft cannot place

    def root(self, call: Call, ours: bool, text: str, line: int) -> DraftCall:
        holder = DraftCall(Call.parse("P"), True, "", 0, self.roots)
        made = holder.child(call, ours, text, line)
        self.roots = holder.children
        return made

    def calls(self) -> list[DraftCall]:
        out: list[DraftCall] = []

        def visit(calls: list[DraftCall]) -> None:
            for c in calls:
                out.append(c)
                visit(c.children)

        visit(self.roots)
        return out


def bbx_call(call: Call, ours: bool) -> str:
    return str(call) if ours else f"({call})"


def write_draft(draft: Draft) -> tuple[str, list[str]]:
    """The draft system file, and the calls whose meaning was not inferred (each as
    'source line: auction: text'). A call the Laws forbid where the notes put it is left
    out with its continuations and listed in ``draft.skipped``."""
    lines = [f"# A draft made by `bidbox import` from {draft.source}: every description is",
             "# the imported text; meanings were inferred from it where it is plain, and",
             f"# the calls marked '{MARK[2:]}' show any hand until written.",
             f"system {draft.name}", f'title "Draft from {_quote(draft.source)}"',
             f'source "imported from {_quote(draft.source)}"', ""]
    unknown: list[str] = []

    def visit(calls: list[DraftCall], depth: int, before: list[str], table: Auction,
              last_ours: bool | None) -> None:
        for c in calls:
            pad = "  " * depth
            auction = [*before, bbx_call(c.call, c.ours)]
            here = table
            try:
                if last_ours is True and c.ours:
                    here = here.add(Call.parse("P"))  # their pass, implicit
                here = here.add(c.call)
            except BidboxError as err:
                draft.skipped.append(f"{draft.source}:{c.line}: {' '.join(auction)}: left "
                                     f"out with its continuations: {err}")
                continue
            for line, text in c.replaced:
                draft.skipped.append(f"{draft.source}:{line}: {' '.join(auction)}: "
                                     f"'{text.strip()}' left out: line {c.line} gives the "
                                     "call again")
            if not c.ours:
                lines.append(f"{pad}{bbx_call(c.call, False)}")
            else:
                meaning = infer_meaning(c.text)
                # a call of any hand is tried last, so it never shadows an inferred one
                words = [*meaning.attributes, *([] if meaning.inferred else ["priority -1"])]
                attributes = f"  [{', '.join(words)}]" if words else ""
                text = f'  "{_quote(c.text)}"' if c.text.strip() else ""
                mark = "" if meaning.inferred else f"  {MARK}"
                lines.append(f"{pad}{c.call}  {meaning.constraint}{attributes}{text}{mark}")
                if not meaning.inferred:
                    unknown.append(f"{draft.source}:{c.line}: {' '.join(auction)}: "
                                   f"{c.text.strip() or '(no text)'}")
            visit(c.children, depth + 1, auction, here, c.ours)

    visit(draft.roots, 0, [], Auction(), None)
    return "\n".join(lines) + "\n", unknown


_UNWRITABLE = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")
"""Characters a line of a system file may not hold (the language refuses control
characters and the Unicode line separators): in imported text they stand for spaces."""


def _quote(text: str) -> str:
    """``text`` as the inside of a quoted string of the system language, on one line: its
    double quotes as single ones, control characters as spaces, and a space after a final
    backslash, which would escape the closing quote. Notes with either made a draft that
    did not compile ("unexpected character '\"'", "not text (byte 0x00 ...)")."""
    plain = _UNWRITABLE.sub(" ", text.replace('"', "'").replace("\\n", " "))
    quoted = " ".join(plain.split())
    return quoted + " " if quoted.endswith("\\") else quoted


__all__ = ["MARK", "Draft", "DraftCall", "DraftError", "Meaning", "bbx_call",
           "infer_meaning", "write_draft"]
