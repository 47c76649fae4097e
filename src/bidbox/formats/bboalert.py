"""BBOalert: the auto-alert records of the BBOalert browser extension for BBO.

The record grammar follows BBOalert's README (github stanmaz/BBOalert, section "Data
file format"): a header line ``BBOalert[,text]``, then ``context,call,explanation``
records whose context and call are written in two-character tokens (``1C``..``7N``,
``--`` for pass, ``Db``, ``Rd``); ``_`` or ``*`` matches any one character; a context
that is not a plain token string is read as a regular expression matched in full;
``Option,NAME`` starts a block (ended by a bare ``Option``) that BBOalert enables by the
``@1``-``@4`` seat and ``@n``/``@v`` (ours), ``@N``/``@V`` (theirs) vulnerability tags in
its name; text after ``#`` in an explanation goes to the chat (the bidding box takes 69
characters). When several records match, the last one counts.

:func:`write_bboalert` writes every alertable call of our side, its explanation from the
meaning. An opponents' call is written as a wildcard only where the tree gives the same
explanation after every opponents' call that position allows (their pass and every
other call), and as a group ``(--|Db)`` where a few named calls share it; calls that
differ come later in the file, so that they win. :func:`read_bboalert` and
:meth:`BBOalertFile.lookup` read such files back the way the extension matches them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bidbox.core.calls import Call, CallKind
from bidbox.errors import BBOalertError as BBOalertError
from bidbox.formats.draft import Draft, DraftCall
from bidbox.formats.tree import ALL_CONTEXTS, Context, PublishedCall, PublishedTree, Token

BOX_LIMIT = 69
"""Characters BBOalert puts in the bidding box's explanation; the rest goes to chat."""

ANY_CALL = "([1-7].|Db|Rd)"  # every call but pass
ANY_BID = "[1-7]."
WILDCARD = "__"
PASS_TOKEN = "--"


def call_token(call: Call) -> str:
    """A call in BBOalert's two characters: ``1N``, ``--``, ``Db``, ``Rd``."""
    if call.kind is CallKind.PASS:
        return PASS_TOKEN
    if call.kind is CallKind.DOUBLE:
        return "Db"
    if call.kind is CallKind.REDOUBLE:
        return "Rd"
    return str(call)[:2]


def _token(t: Token) -> str:
    if t.call is not None:
        return call_token(t.call)
    return ANY_CALL if t.pattern == "any" else ANY_BID


def explanation(published: PublishedCall) -> str:
    """What the opponents read: the meaning, its forcing status when the text does not
    say it, commas turned into semicolons (a comma ends the field), and text beyond the
    bidding box's 69 characters sent to chat after ``#``."""
    text = published.meaning_line
    text = re.sub(r"\s*,\s*", "; ", text).replace("#", "no.")
    text = re.sub(r"\s+", " ", text)
    return split_long(text)


def split_long(text: str, limit: int = BOX_LIMIT) -> str:
    """``text`` with ``#`` before the first word that does not fit the bidding box."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit + 1)
    if cut <= 0:
        cut = limit
    return text[:cut].rstrip() + "#" + text[cut:].lstrip()


@dataclass
class _Row:
    tokens: list[str]  # the context, one token (or group) per call
    ours: list[bool]
    call: str
    text: str
    contexts: frozenset[Context]
    order: int

    def key(self, skip: int) -> tuple[object, ...]:
        return (tuple(t for i, t in enumerate(self.tokens) if i != skip), self.call,
                self.text, self.contexts, len(self.tokens))


def _alternatives(token: str) -> set[str]:
    if token == WILDCARD:
        return {PASS_TOKEN, ANY_CALL}
    if token.startswith("(") and token != ANY_CALL:
        return set(_split_group(token))
    return {token}


def _split_group(token: str) -> list[str]:
    inner, depth, parts, cur = token[1:-1], 0, [], ""
    for ch in inner:
        if ch == "|" and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    return [*parts, cur]


def _join(alternatives: set[str]) -> str:
    if {PASS_TOKEN, ANY_CALL} <= alternatives:
        return WILDCARD
    if {ANY_CALL} <= alternatives:
        return ANY_CALL
    order = sorted(alternatives, key=lambda a: (a == ANY_CALL, a == ANY_BID, a))
    return order[0] if len(order) == 1 else "(" + "|".join(order) + ")"


def _merge_opponents(rows: list[_Row]) -> list[_Row]:
    """Rows that differ only in one opponents' call and say the same, as one row."""
    width = max((len(r.tokens) for r in rows), default=0)
    for position in reversed(range(width)):
        groups: dict[tuple[object, ...], list[_Row]] = {}
        for row in rows:
            if position < len(row.tokens) and not row.ours[position]:
                groups.setdefault(row.key(position), []).append(row)
        merged: list[_Row] = []
        gone: set[int] = set()
        for group in groups.values():
            if len(group) < 2:
                continue
            alternatives: set[str] = set()
            for row in group:
                alternatives |= _alternatives(row.tokens[position])
                gone.add(id(row))
            first = min(group, key=lambda r: r.order)
            tokens = list(first.tokens)
            tokens[position] = _join(alternatives)
            merged.append(_Row(tokens, first.ours, first.call, first.text, first.contexts,
                               first.order))
        rows = [r for r in rows if id(r) not in gone] + merged
    return rows


def _precedence(row: _Row) -> tuple[object, ...]:
    """Earlier in the file the rows whose opponents' calls are wildcards at an earlier
    position: a named call of theirs overrides the wildcard, as in the tree."""
    generality = tuple(0 if not ours and (t in (WILDCARD, ANY_CALL, ANY_BID)
                                          or t.startswith("(")) else 1
                       for t, ours in zip(row.tokens, row.ours, strict=True))
    return (generality, row.order)


def option_tags(contexts: frozenset[Context]) -> list[str]:
    """The option blocks that cover ``contexts`` exactly: each a product of seats, our
    vulnerability and theirs, named by BBOalert's tags (no tag where all are allowed)."""
    if contexts == ALL_CONTEXTS:
        return [""]
    blocks: list[str] = []
    by_seat: dict[int, frozenset[tuple[bool, bool]]] = {}
    for seat, vul, they in contexts:
        by_seat[seat] = by_seat.get(seat, frozenset()) | {(vul, they)}
    shapes: dict[frozenset[tuple[bool, bool]], list[int]] = {}
    for seat, cells in sorted(by_seat.items()):
        shapes.setdefault(cells, []).append(seat)
    for cells, seats in shapes.items():
        seat_tag = "" if len(seats) == 4 else "".join(f"@{s}" for s in seats)
        vuls = {v for v, _ in cells}
        theirs = {t for _, t in cells}
        if len(cells) == len(vuls) * len(theirs):  # a product: one block
            tag = seat_tag + _vul_tag(vuls, "n", "v") + _vul_tag(theirs, "N", "V")
            blocks.append(tag)
        else:
            for v, t in sorted(cells):
                blocks.append(seat_tag + _vul_tag({v}, "n", "v") + _vul_tag({t}, "N", "V"))
    return blocks


def _vul_tag(values: set[bool], no: str, yes: str) -> str:
    if len(values) == 2:
        return ""
    return f"@{yes}" if True in values else f"@{no}"


def option_name(tag: str) -> str:
    """A block's name: its tags after a word made of them, so that blocks with different
    tags never share BBOalert's group prefix (which would make them exclusive)."""
    return "bidbox" + tag.replace("@", "") + "_" + tag


def write_bboalert(tree: PublishedTree, title: str | None = None) -> str:
    """The BBOalert file of every alertable call of our side in ``tree``, but those after
    an opponents' line only their notes can tell applies: BBOalert matches the calls
    alone, so their 1D is read as natural, as a table without their notes reads it."""
    rows = []
    for order, published in enumerate(tree.calls()):
        if not published.alert or published.reads_their_notes:
            continue
        rows.append(_Row([_token(t) for t in published.path], [t.ours for t in published.path],
                         call_token(published.call), explanation(published),
                         published.contexts, order))
    rows = sorted(_merge_opponents(rows), key=_precedence)
    system = tree.system
    chosen = ", ".join(f"{k}={v}" for k, v in system.selected.items() if v)
    header = title or f"{system.title} ({system.name}{'; ' + chosen if chosen else ''})"
    lines = [f"BBOalert,{header.replace(',', ';')}",
             f"generated by bidbox from {system.name}: alerts as the "
             f"{tree.regulation.name.upper()} rules decide them",
             ""]
    blocks: dict[str, list[_Row]] = {}
    for row in rows:
        for tag in option_tags(row.contexts):
            blocks.setdefault(tag, []).append(row)
    for tag in sorted(blocks, key=lambda t: (t != "", t)):
        if tag:
            lines.append(f"Option,{option_name(tag)}")
        for row in blocks[tag]:
            lines.append(f"{''.join(row.tokens)},{row.call},{row.text}")
        if tag:
            lines.append("Option")
    return "\n".join(lines) + "\n"


# --- reading ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Record:
    """One ``context,call,explanation`` record with the option block it sits in."""

    context: str
    call: str
    text: str
    option: str | None
    line: int

    @property
    def box(self) -> str:
        """The part shown in the bidding box (before ``#``)."""
        return self.text.split("#", 1)[0].strip()


KEYWORDS = ("Option", "Trusted", "Untrusted", "Shortcut", "Shortcuts", "Button", "Alias",
            "Script", "Import", "Partner")


@dataclass
class BBOalertFile:
    header: str
    records: list[Record] = field(default_factory=list)
    options: list[str] = field(default_factory=list)

    def lookup(self, context: Iterable[str], call: str, seat: int, vul: bool, they_vul: bool
               ) -> Record | None:
        """The record BBOalert uses for ``call`` after ``context`` (tokens), the caller in
        ``seat`` (1 = dealer): the last match among the records whose option is on."""
        ctx = "".join(context)
        stripped = _strip_leading_passes(ctx)
        found = None
        for record in self.records:
            if record.option is not None and not _option_on(record.option, seat, vul,
                                                            they_vul):
                continue
            if not _matches(record.call, call):
                continue
            if "@I" in record.text:
                continue
            if _matches(record.context, stripped) or _matches(record.context, ctx):
                found = record
        return found


def _strip_leading_passes(ctx: str) -> str:
    for n in (6, 4, 2):
        if ctx.startswith(PASS_TOKEN * (n // 2)):
            return ctx[n:]
    return ctx


def _option_on(name: str, seat: int, vul: bool, they_vul: bool) -> bool:
    """BBOalert's automatic choice: a block with seat tags is on in those seats, with
    vulnerability tags at that vulnerability; one without tags is on."""
    seats = re.findall(r"@([1-4])", name)
    if seats and str(seat) not in seats:
        return False
    ours = re.findall(r"@([nv])", name)
    if ours and ("v" if vul else "n") not in ours:
        return False
    theirs = re.findall(r"@([NV])", name)
    return not (theirs and ("V" if they_vul else "N") not in theirs)


def _matches(pattern: str, text: str) -> bool:
    """A context or call field against the auction: literal tokens, ``_``/``*`` for one
    character, a full-match regular expression, or ``/.../`` searched."""
    pattern = re.sub(r"\s+", "", pattern.replace("!", ""))
    if len(pattern) >= 2 and pattern.startswith("/") and pattern.endswith("/"):
        return re.search(pattern[1:-1], text) is not None
    try:
        return re.fullmatch(pattern.replace("_", ".").replace("*", "."), text) is not None
    except re.error:
        return pattern == text


def read_bboalert(text: str, file: str = "<bboalert>") -> BBOalertFile:
    """Read a BBOalert file: its header, its records and option blocks. Continuation
    lines (ending in ``\\``), ``+`` contexts and markdown list trees are resolved;
    free text between records is skipped, as the extension does."""
    lines = text.splitlines()
    joined: list[tuple[int, str]] = []
    buffer, start = "", 0
    for number, line in enumerate(lines, 1):
        if not buffer:
            start = number
        if line.rstrip().endswith("\\"):
            buffer += line.rstrip()[:-1]
            continue
        joined.append((start, buffer + line))
        buffer = ""
    if buffer:  # the last line continued into nothing: its record is still read
        joined.append((start, buffer))
    if not joined or not joined[0][1].strip().startswith("BBOalert"):
        raise BBOalertError(f"{file}:1: a BBOalert file begins with the header 'BBOalert', "
                            f"not '{(joined[0][1] if joined else '').strip()[:40]}'")
    header = joined[0][1].strip().split(",", 1)
    out = BBOalertFile(header[1].strip() if len(header) > 1 else "")
    option: str | None = None
    last_context = ""
    tree: list[str] = []  # per list level, the context after the call above it
    for number, raw in joined[1:]:
        line = raw.strip()
        fields = [f.strip() for f in line.split(",")]
        word = fields[0]
        if word == "Option":
            option = fields[1] if len(fields) > 1 and fields[1] else None
            if option is not None and option not in out.options:
                out.options.append(option)
            continue
        if word in KEYWORDS:
            continue
        bullet = re.match(r"^( *)[-*] +(.*)$", raw)
        if bullet and tree:
            level = len(bullet.group(1)) // 4
            body = bullet.group(2).split(None, 1)
            theirs = ""
            if "," in body[0]:  # "Db,2C text": their call, then ours
                theirs, body[0] = body[0].split(",", 1)
            if level < len(tree) and body[0]:
                context = tree[level] + (theirs or PASS_TOKEN)
                explained = body[1] if len(body) > 1 else ""
                out.records.append(Record(context, body[0], explained, option, number))
                tree = [*tree[:level + 1], context + body[0]]
                continue
        if len(fields) < 3:
            tree = []
            continue  # free text
        if not fields[1]:
            continue  # BBOalert skips a record without a call
        context = fields[0]
        if context == "+":
            context = last_context
        last_context = context
        out.records.append(Record(context, fields[1], fields[2], option, number))
        # a markdown list below this record continues after its call
        tree = [re.sub(r"\s+", "", context) + re.sub(r"\s+", "", fields[1])]
    return out


# --- reading BBOalert into a draft system ----------------------------------------------
_TOKENS = {"--": "P", "Db": "X", "Rd": "XX"}


_PLAIN = r"(?:[1-7][CDHSN]|--|Db|Rd)"


def _plain_tokens(context: str) -> list[str] | None:
    """A context as two-character tokens, or None when it uses wildcards or a regular
    expression (which a tree cannot place)."""
    ctx = re.sub(r"\s+", "", context.replace("!", ""))
    if len(ctx) % 2 or not re.fullmatch(f"{_PLAIN}*", ctx):
        return None
    return [ctx[i:i + 2] for i in range(0, len(ctx), 2)]


def _expand_groups(context: str, limit: int = 64) -> list[str]:
    """A context whose groups list plain calls, ``(1C|1D)1N--``, as each plain context it
    stands for (at most ``limit``); other contexts as they are."""
    ctx = re.sub(r"\s+", "", context)
    group = re.search(rf"\(({_PLAIN}(?:\|{_PLAIN})*)\)", ctx)
    if group is None:
        return [ctx]
    out: list[str] = []
    for alternative in group.group(1).split("|"):
        out.extend(_expand_groups(ctx[:group.start()] + alternative + ctx[group.end():],
                                  limit))
        if len(out) >= limit:
            break
    return out[:limit]


def _token_call(token: str) -> Call:
    return Call.parse(_TOKENS.get(token, token))


def bboalert_draft(text: str, source: str = "<bboalert>") -> Draft:
    """The records of a BBOalert file as a draft tree: each record's context walked from
    the opening (leading passes dropped, as BBOalert does), the opponents' passes left
    implicit. Records with wildcards or regular expressions are reported, not placed."""
    parsed = read_bboalert(text, source)
    name = re.sub(r"[^a-z0-9-]+", "-", source.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower())
    draft = Draft("draft-" + (name.strip("-") or "notes"), source)
    for original in parsed.records:
        for context in _expand_groups(original.context):
            _place(draft, Record(context, original.call, original.text, original.option,
                                 original.line), source)
    return draft


def _place(draft: Draft, record: Record, source: str) -> None:
    """Put one record's call into the draft tree, or say why it cannot go there."""
    tokens = _plain_tokens(record.context)
    call_tokens = _plain_tokens(record.call)
    if tokens is None or call_tokens is None or len(call_tokens) != 1:
        draft.skipped.append(f"{source}:{record.line}: '{record.context},{record.call}' "
                             "uses a wildcard or a regular expression: not placed")
        return
    while tokens[:1] == [PASS_TOKEN]:
        tokens = tokens[1:]  # passes before the opening
    if record.option is not None:
        draft.skipped.append(f"{source}:{record.line}: in option '{record.option}': "
                             "placed in the one tree (seat and vulnerability are not "
                             "kept)")
    n = len(tokens)
    parent: DraftCall | None = None
    for i, token in enumerate([*tokens, call_tokens[0]]):
        ours = (n - i) % 2 == 0
        call = _token_call(token)
        if not ours and call.kind is CallKind.PASS:
            continue  # their pass is implicit in a system file
        text_here = record.text.replace("#", " ").strip() if i == n else ""
        if parent is None:
            parent = draft.root(call, ours, text_here, record.line)
        else:
            parent = parent.child(call, ours, text_here, record.line)


__all__ = ["BBOalertError", "BBOalertFile", "Record", "bboalert_draft", "call_token", "explanation",
           "option_tags", "read_bboalert", "split_long", "write_bboalert"]
