"""Reads a system file into a document: header, options, defs, modules, notes, auction tree.

Nothing here interprets meanings; the compiler does. Every problem becomes a
Diagnostic with file:line:col, and parsing goes on so all problems are reported at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bidbox.lang.diagnostics import ConstraintSyntaxError, Diagnostic, Location
from bidbox.lang.lexer import Token, strip_comment, tokenize

DIRECTIVES = ("system", "title", "source", "option", "def", "module", "include", "notes",
              "fallback", "use", "base")
_CALL_TOKEN = re.compile(r"^(\([^)\s]*\)|\S+)")


@dataclass
class RawLine:
    """One tree line (a call) or a ``use`` line, with the lines indented under it."""

    indent: int
    kind: str  # "call" or "use"
    head: str  # the call token, e.g. "1NT", "(1H)", "+1"; or the module name for "use"
    head_col: int
    tokens: list[Token]  # the rest of the line
    location: Location
    children: list[RawLine] = field(default_factory=list)


@dataclass
class Module:
    name: str
    params: tuple[str, ...]
    lines: list[tuple[int, str]]  # (line number, raw text) of the body, for substitution
    location: Location
    indent: int  # indentation of the body's first level


@dataclass
class Document:
    file: str
    name: str = ""
    title: str = ""
    source: str = ""
    fallback: str = "natural"
    options: list[tuple[str, tuple[str, ...], str, Location]] = field(default_factory=list)
    defs: list[tuple[str, list[Token], Location]] = field(default_factory=list)
    modules: dict[str, Module] = field(default_factory=dict)
    includes: list[tuple[str, Location]] = field(default_factory=list)
    base: tuple[str, Location] | None = None  # the shared natural base this system falls back on
    notes: dict[str, str] = field(default_factory=dict)
    tree: list[RawLine] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, location: Location, message: str) -> None:
        self.diagnostics.append(Diagnostic(location, message))


def _unquote(tok: Token) -> str:
    return tok.text[1:-1].replace('\\"', '"')


def parse_tree_lines(doc: Document, lines: list[tuple[int, str]], base_indent: int = 0
                     ) -> list[RawLine]:
    """Build the indented tree from ``(line number, text)`` pairs; indentation is relative."""
    roots: list[RawLine] = []
    stack: list[RawLine] = []
    for number, raw in lines:
        text = strip_comment(raw)
        if not text.strip():
            continue
        loc_text = raw.rstrip("\n")
        if "\t" in text[: len(text) - len(text.lstrip())]:
            doc.error(Location(doc.file, number, 1, loc_text),
                      "indent with spaces, not tabs")
            continue
        indent = len(text) - len(text.lstrip()) - base_indent
        body = text.strip()
        col = len(text) - len(text.lstrip()) + 1
        line = _parse_tree_line(doc, number, loc_text, body, col, indent)
        if line is None:
            continue
        while stack and stack[-1].indent >= indent:
            stack.pop()
        parent = stack[-1] if stack else None
        siblings = parent.children if parent is not None else roots
        location = Location(doc.file, number, col, loc_text)
        if siblings and siblings[0].indent != indent:
            doc.error(location, f"bad indentation: {indent + base_indent} spaces, but the "
                                f"calls at this level are indented "
                                f"{siblings[0].indent + base_indent}")
            continue
        if parent is not None and parent.kind == "use":
            doc.error(location, "a 'use' line cannot have lines indented under it")
            continue
        siblings.append(line)
        stack.append(line)
    return roots


def _parse_tree_line(doc: Document, number: int, loc_text: str, body: str, col: int,
                     indent: int) -> RawLine | None:
    m = _CALL_TOKEN.match(body)
    assert m is not None
    head = m.group(1)
    rest = body[m.end():]
    location = Location(doc.file, number, col, loc_text)
    try:
        tokens = tokenize(rest, col - 1 + m.end())
    except ConstraintSyntaxError as err:
        doc.error(Location(doc.file, number, err.col, loc_text), str(err))
        return None
    if head == "use":
        if not tokens or tokens[0].kind != "IDENT":
            doc.error(location, "'use' needs a module name, e.g. use stayman or use weak_two(H)")
            return None
        return RawLine(indent, "use", tokens[0].text, tokens[0].col, tokens[1:], location)
    return RawLine(indent, "call", head, col, tokens, location)


def parse_document(text: str, file: str) -> Document:
    """Split a system file into its parts; problems are collected in ``doc.diagnostics``."""
    doc = Document(file)
    lines = text.splitlines()
    tree_lines: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        number = i + 1
        raw = lines[i]
        text_line = strip_comment(raw)
        i += 1
        if not text_line.strip():
            continue
        indented = text_line[:1].isspace()
        word = text_line.split(None, 1)[0]
        if indented or word not in DIRECTIVES or word == "use":
            tree_lines.append((number, raw))
            continue
        location = Location(file, number, 1, raw)
        rest = text_line[len(word):]
        try:
            tokens = tokenize(rest, len(word))
        except ConstraintSyntaxError as err:
            doc.error(Location(file, number, err.col, raw), str(err))
            continue
        if word in ("module", "notes"):
            block: list[tuple[int, str]] = []
            while i < len(lines) and (not lines[i].strip() or lines[i][:1].isspace()):
                block.append((i + 1, lines[i]))
                i += 1
            if word == "module":
                _module(doc, tokens, block, location)
            else:
                _notes(doc, tokens, block, location)
            continue
        _directive(doc, word, tokens, location)
    doc.tree = parse_tree_lines(doc, tree_lines)
    return doc


def _directive(doc: Document, word: str, tokens: list[Token], location: Location) -> None:
    def need_string() -> str | None:
        if len(tokens) == 1 and tokens[0].kind == "STRING":
            return _unquote(tokens[0])
        doc.error(location, f"'{word}' takes one quoted text, e.g. {word} \"...\"")
        return None

    if word == "system":
        if len(tokens) == 1 and tokens[0].kind == "IDENT":
            doc.name = tokens[0].text
        else:
            doc.error(location, "write 'system NAME' with a name like sbu-level1")
    elif word in ("title", "source"):
        value = need_string()
        if value is not None:
            setattr(doc, word, value)
    elif word == "fallback":
        if len(tokens) == 1 and tokens[0].text in ("natural", "pass"):
            doc.fallback = tokens[0].text
        else:
            doc.error(location, "write 'fallback natural' or 'fallback pass'")
    elif word == "include":
        value = need_string()
        if value is not None:
            doc.includes.append((value, location))
    elif word == "base":
        value = need_string()
        if value is not None:
            if doc.base is not None:
                doc.error(location, "a system names one base; 'base' is given twice")
            else:
                doc.base = (value, location)
    elif word == "option":
        _option(doc, tokens, location)
    elif word == "def":
        if len(tokens) >= 3 and tokens[0].kind == "IDENT" and tokens[1].text == "=":
            doc.defs.append((tokens[0].text, tokens[2:], location))
        else:
            doc.error(location, "write 'def NAME = CONSTRAINT', e.g. def opener = hcp 12+")


def _option(doc: Document, tokens: list[Token], location: Location) -> None:
    description = ""
    if tokens and tokens[-1].kind == "STRING":
        description = _unquote(tokens[-1])
        tokens = tokens[:-1]
    if not tokens or tokens[0].kind != "IDENT":
        doc.error(location, "write 'option NAME \"what it does\"' or "
                            "'option NAME = value1 | value2 \"...\"'")
        return
    name = tokens[0].text
    values: list[str] = []
    if len(tokens) > 1:
        if tokens[1].text != "=":
            doc.error(Location(location.file, location.line, tokens[1].col, location.text),
                      "expected '=' and the option's values separated by '|'")
            return
        for tok in tokens[2:]:
            if tok.text == "|":
                continue
            if tok.kind not in ("IDENT", "NUM"):
                doc.error(Location(location.file, location.line, tok.col, location.text),
                          f"an option value must be a word or a range, not '{tok.text}'")
                return
            values.append(tok.text)
        if len(values) < 2:
            doc.error(location, "an option with values needs at least two, e.g. = weak | strong")
            return
    doc.options.append((name, tuple(values), description, location))


def _module(doc: Document, tokens: list[Token], block: list[tuple[int, str]],
            location: Location) -> None:
    if not tokens or tokens[0].kind != "IDENT":
        doc.error(location, "write 'module NAME' or 'module NAME(param, ...)'")
        return
    name = tokens[0].text
    params: list[str] = []
    if len(tokens) > 1:
        if tokens[1].text != "(" or tokens[-1].text != ")":
            doc.error(location, "module parameters go in parentheses: module NAME(a, b)")
            return
        params = [t.text for t in tokens[2:-1] if t.text != ","]
    if name in doc.modules:
        doc.error(location, f"module '{name}' is defined twice (first at line "
                            f"{doc.modules[name].location.line})")
        return
    body = [(n, t) for n, t in block if strip_comment(t).strip()]
    indent = min((len(t) - len(t.lstrip()) for _, t in body), default=0)
    doc.modules[name] = Module(name, tuple(params), body, location, indent)


def _notes(doc: Document, tokens: list[Token], block: list[tuple[int, str]],
           location: Location) -> None:
    if len(tokens) != 1 or tokens[0].kind != "IDENT":
        doc.error(location, "write 'notes TOPIC' (e.g. notes leads) and the text indented below")
        return
    text = "\n".join(t.strip() for _, t in block if t.strip())
    doc.notes[tokens[0].text] = text
