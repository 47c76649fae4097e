"""Reads a system file into a document: header, options, defs, modules, notes, auction tree.

Nothing here interprets meanings; the compiler does. Every problem becomes a
Diagnostic with file:line:col, and parsing goes on so all problems are reported at once.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bidbox.errors import did_you_mean
from bidbox.lang.constraints import SUIT_VARIABLES
from bidbox.lang.diagnostics import ConstraintSyntaxError, Diagnostic, Location, Problems
from bidbox.lang.lexer import Token, strip_comment, tokenize

DIRECTIVES = ("system", "title", "source", "option", "def", "module", "include", "notes",
              "fallback", "use", "base", "role", "end")
_CALL_TOKEN = re.compile(r"^(\([^)\s]*\)|\S+)")


PARAM_KINDS = ("suit", "number", "range", "constraint", "call", "name", "text")
"""What a module parameter may stand for; ``text`` (an untyped parameter) is the old macro."""

PLACEHOLDER = re.compile(r"\{([^{}\"\n]*)\}")
"""``{name}`` or ``{name+2}`` in a module body: where an argument goes."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@dataclass
class RawLine:
    """One tree line (a call) or a ``use`` line, with the lines indented under it.

    In a module body a line may hold ``{param}`` place-holders: ``params`` names the
    parameters it refers to and ``template`` keeps its text (after the indentation), so
    the compiler binds them at each use; ``lexed`` is False when the text cannot be split
    into tokens until the arguments are in (``{t}_done``, ``hcp {lo}-{lo+3}``).
    """

    indent: int
    kind: str  # "call" or "use"
    head: str  # the call token, e.g. "1NT", "(1H)", "+1"; or the module name for "use"
    head_col: int
    tokens: list[Token]  # the rest of the line (empty for a 'use' line: see ``args``)
    location: Location
    children: list[RawLine] = field(default_factory=list)
    params: tuple[str, ...] = ()
    template: str | None = None
    lexed: bool = True
    args: tuple[tuple[str, int], ...] | None = None  # 'use' arguments as written, with columns


@dataclass(frozen=True)
class Param:
    """A module parameter: ``shift``, ``shift=0``, ``suit: suit``, ``lo: number = 8``."""

    name: str
    kind: str  # one of PARAM_KINDS
    default: str | None
    location: Location  # column of the parameter in the module line


@dataclass
class Module:
    """A module, parsed once: its typed parameters and its body as a tree of lines."""

    name: str
    params: tuple[str, ...]
    lines: list[tuple[int, str]]  # (line number, raw text) of the body
    location: Location
    indent: int  # indentation of the body's first level
    specs: tuple[Param, ...] = ()
    body: list[RawLine] = field(default_factory=list)

    @property
    def typed(self) -> bool:
        """Whether the module is written in the typed form (any type or default given)."""
        return any(p.kind != "text" or p.default is not None for p in self.specs)

    def signature(self) -> str:
        parts = []
        for p in self.specs:
            text = p.name if p.kind == "text" else f"{p.name}: {p.kind}"
            parts.append(text if p.default is None else f"{text} = {p.default}")
        return f"{self.name}({', '.join(parts)})" if parts else self.name


@dataclass
class Document:
    file: str
    name: str = ""
    title: str = ""
    source: str = ""
    fallback: str = "natural"
    role: str = "system"  # 'base': a natural base walked beside other systems, not played alone
    options: list[tuple[str, tuple[str, ...], str, Location]] = field(default_factory=list)
    defs: list[tuple[str, list[Token], Location]] = field(default_factory=list)
    modules: dict[str, Module] = field(default_factory=dict)
    includes: list[tuple[str, Location]] = field(default_factory=list)
    base: tuple[str, Location] | None = None  # the shared natural base this system falls back on
    end: tuple[str, int, Location] | None = None  # 'end use NAME': what a leaf implies
    notes: dict[str, str] = field(default_factory=dict)
    tree: list[RawLine] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=Problems)  # stops at a limit

    def error(self, location: Location, message: str) -> None:
        self.diagnostics.append(Diagnostic(location, message))


def _unquote(tok: Token) -> str:
    return tok.text[1:-1].replace('\\"', '"')


def parse_tree_lines(doc: Document, lines: list[tuple[int, str]], base_indent: int = 0,
                     params: tuple[str, ...] | None = None) -> list[RawLine]:
    """Build the indented tree from ``(line number, text)`` pairs; indentation is relative.

    ``params`` are the parameters of the module whose body this is (None: the main tree).
    """
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
        line = _parse_tree_line(doc, number, loc_text, body, col, indent, params)
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
                     indent: int, params: tuple[str, ...] | None = None) -> RawLine | None:
    m = _CALL_TOKEN.match(body)
    assert m is not None
    head = m.group(1)
    rest = body[m.end():]
    location = Location(doc.file, number, col, loc_text)
    name_span = None
    if head == "use":  # where the module's name stands: it may hold a bound suit variable
        named = re.match(r"\s*([^\s(]+)", rest)
        if named is not None:
            name_span = (m.end() + named.start(1), m.end() + named.end(1))
    used = _placeholders(doc, body, col, location, params, name_span)
    if used is None:
        return None
    template = body if used else None
    if head == "use":
        parsed = split_use(rest, col - 1 + m.end())
        if isinstance(parsed, str):
            doc.error(location, parsed)
            return None
        name, name_col, args = parsed
        return RawLine(indent, "use", name, name_col, [], location, params=used,
                       template=template, args=args)
    try:
        tokens = tokenize(rest, col - 1 + m.end())
    except ConstraintSyntaxError as err:
        if not used:
            doc.error(Location(doc.file, number, err.col, loc_text), str(err))
            return None
        # Place-holders glued to other text ({t}_done, {lo}-{lo+3}): the line is split
        # into tokens once its arguments are known.
        return RawLine(indent, "call", head, col, [], location, params=used,
                       template=template, lexed=False)
    return RawLine(indent, "call", head, col, tokens, location, params=used, template=template)


def _placeholders(doc: Document, body: str, col: int, location: Location,
                  params: tuple[str, ...] | None, name_span: tuple[int, int] | None = None
                  ) -> tuple[str, ...] | None:
    """The parameters a line refers to; None (after an error) for a place-holder that names
    no parameter. In descriptions, and in the module name of a use (``use raise_{M}``), an
    unknown ``{M}`` is left for the suit variable bound where the line is expanded."""
    if "{" not in body:
        return ()
    used: list[str] = []
    code = _STRING.sub(lambda m: " " * len(m.group()), body)
    for m in PLACEHOLDER.finditer(body):
        in_string = code[m.start()] != "{"
        names = _NAME.findall(m.group(1))
        if in_string and (params is None or not all(n in params for n in names)):
            continue
        if (name_span is not None and name_span[0] <= m.start() < name_span[1]
                and m.group(1).strip() in SUIT_VARIABLES
                and (params is None or m.group(1).strip() not in params)):
            continue
        where = Location(location.file, location.line, col + m.start(), location.text)
        if params is None:
            doc.error(where, f"'{m.group()}' is a module parameter: it can only be used in "
                             "a module body")
            return None
        if not names or not re.fullmatch(r"\s*[A-Za-z_]\w*\s*([+-]\s*(\w+)\s*)*",
                                         m.group(1)):
            doc.error(where, f"cannot read '{m.group()}': write {{name}} or arithmetic such "
                             "as {name+2} or {lo-1}")
            return None
        unknown = [n for n in names if n not in params and not n.isdigit()]
        if unknown:
            known = ", ".join(params) or "none"
            doc.error(where, f"'{unknown[0]}' is not a parameter of this module"
                             f"{did_you_mean(unknown[0], params)}; its parameters: {known}")
            return None
        used.extend(n for n in names if n in params and n not in used)
    return tuple(used)


def split_use(rest: str, offset: int) -> tuple[str, int, tuple[tuple[str, int], ...] | None
                                              ] | str:
    """``NAME`` or ``NAME(arg, name=arg, ...)`` after 'use': the name with its column and
    the arguments as written (commas inside parentheses belong to an argument), or a
    message saying what is wrong."""
    m = re.match(r"\s*([^\s(]+)\s*", rest)
    if m is None:
        return "'use' needs a module name, e.g. use stayman or use weak_two(H)"
    name = m.group(1)
    if not re.fullmatch(r"[A-Za-z_{][\w{}+\-]*", name):
        return f"'{name}' is not a module name: write use NAME or use NAME(arg, ...)"
    name_col = offset + m.start(1) + 1
    after = rest[m.end():].rstrip()
    if not after:
        return name, name_col, ()
    if not after.startswith("(") or not after.endswith(")"):
        return (f"write the arguments in parentheses after the name: use {name}(a, b) "
                f"(not '{after}')")
    start = m.end() + 1  # index in ``rest`` of the first character inside the parentheses
    inner = after[1:-1]
    if not inner.strip():
        return name, name_col, ()
    args: list[tuple[str, int]] = []
    depth = 0
    begin = 0
    for i, ch in enumerate(inner + ","):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                return f"a ')' too many in the arguments of '{name}'"
        elif ch == "," and depth == 0:
            part = inner[begin:i]
            if not part.strip():
                return f"an empty argument in use {name}(...)"
            lead = len(part) - len(part.lstrip())
            args.append((part.strip(), offset + start + begin + lead + 1))
            begin = i + 1
    if depth != 0:
        return f"a '(' without its ')' in the arguments of '{name}'"
    return name, name_col, tuple(args)


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029]")
"""Characters no system file line holds: control characters other than the tab (whose
indentation has its own error), and the Unicode line separators."""


def split_lines(text: str) -> list[str]:
    """The lines of a system file, broken at LF, CRLF and CR only: ``str.splitlines`` also
    breaks at a vertical tab, a form feed, the separators \\x1c-\\x1e, NEL and U+2028,
    which an editor shows inside a line, so every line number after one was wrong. Such
    a character stays in its line, where it is reported like any other."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last line does not start another
    return lines


def parse_document(text: str, file: str, options: Mapping[str, str | bool] | None = None,
                   inherited: Sequence[OptionLine] = ()) -> Document:
    """Split a system file into its parts; problems are collected in ``doc.diagnostics``.

    ``options`` are the options chosen for this compile: option choices inside a line
    (``{if five-card-majors: 5+H else 4+H}``) are settled with them as the line is read
    (unchosen options take their default). ``inherited``: options declared by the file
    that includes this one, which its choices may name too."""
    doc = Document(file)
    lines = split_lines(text)
    for number, raw in enumerate(lines, 1):
        bad = _CONTROL.search(raw)
        if bad is not None:
            # Blanked, so the lines after it keep their numbers and their indentation is
            # not measured from an invisible character.
            doc.error(Location(file, number, bad.start() + 1, raw),
                      f"control character U+{ord(bad.group()):04X} in the text: remove it")
            lines[number - 1] = ""
    if "{if " in text or "{unless " in text:
        lines = _settle_choices(doc, lines, options or {}, inherited)
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


OptionLine = tuple[str, tuple[str, ...], str, Location]
"""An option as declared: name, values (empty for on/off), description, where."""

_CHOICE = re.compile(r"\{(?:if|unless) ")
_CONDITION = re.compile(r"\s*(if|unless)\s+([A-Za-z_][\w-]*)(?:\s*=\s*([\w.+-]+))?\s*:")


def _settle_choices(doc: Document, lines: list[str], chosen: Mapping[str, str | bool],
                    inherited: Sequence[OptionLine]) -> list[str]:
    """Every option choice of the file replaced by the text of the branch that holds.

    The options are known before the tree is read (they are declared on lines of their
    own), so a choice is plain text by the time a line is split into its parts. Outside
    quotes (and unless text is glued to it) the branch is padded to the width of the
    choice, so the columns of what follows it on the line stay those of the file."""
    found = Document(doc.file)
    for number, raw in enumerate(lines, 1):
        if raw.startswith("option") and raw[6:7].isspace():
            # A line that does not read is reported when it is read as a directive.
            with contextlib.suppress(ConstraintSyntaxError):
                _option(found, tokenize(strip_comment(raw)[6:], 6),
                        Location(doc.file, number, 1, raw))
    declared = {name: values for name, values, _, _ in [*inherited, *found.options]}
    selected: dict[str, str | bool] = {}
    for name, values in declared.items():
        wanted = chosen.get(name)
        valid = wanted in values if values else isinstance(wanted, bool)
        selected[name] = wanted if valid and wanted is not None else (
            values[0] if values else False)
    out = []
    for number, raw in enumerate(lines, 1):
        if _CHOICE.search(raw) and not strip_comment(raw).lstrip().startswith("option"):
            raw = _settle_line(doc, number, raw, raw, 0, declared, selected)
        out.append(raw)
    return out


def _settle_line(doc: Document, number: int, text: str, line: str, offset: int,
                 declared: Mapping[str, tuple[str, ...]],
                 selected: Mapping[str, str | bool]) -> str:
    """``text`` (at column ``offset`` + 1 of ``line``) with its choices settled."""
    out: list[str] = []
    i = 0
    while True:
        m = _CHOICE.search(text, i)
        code = strip_comment(text)
        if m is None or m.start() >= len(code):
            out.append(text[i:])
            return "".join(out)
        start = m.start()
        depth, end = 0, -1
        for k in range(start, len(text)):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    end = k
                    break
        where = Location(doc.file, number, offset + start + 1, line)
        if end < 0:
            doc.error(where, "an option choice '{if ...' without its closing '}'")
            out.append(text[i:start])
            return "".join(out)
        picked = _branch(doc, where, text[start + 1:end], declared, selected)
        branch = "" if picked is None else picked[1]
        if _CHOICE.search(branch):
            inner = text.index(branch, start)
            branch = _settle_line(doc, number, branch, line, offset + inner, declared,
                                  selected)
        in_quotes = len(re.findall(r'(?<!\\)"', text[:start])) % 2 == 1
        # Padding would split a token glued to the choice: {if x: 3 else 4}+H.
        glued = end + 1 < len(text) and (text[end + 1].isalnum() or text[end + 1] in "+-_{(.=")
        width = end + 1 - start
        pad = "" if in_quotes or glued else " " * max(0, width - len(branch))
        out.append(text[i:start] + branch + pad)
        i = end + 1


def _branch(doc: Document, where: Location, inner: str,
            declared: Mapping[str, tuple[str, ...]], selected: Mapping[str, str | bool]
            ) -> tuple[bool, str] | None:
    """The branch of ``if NAME[=VALUE]: THEN [else ELSE]`` that holds (``else if`` chains
    on); None after a mistake, which is reported."""
    m = _CONDITION.match(inner)
    if m is None:
        doc.error(where, "write an option choice as {if OPTION: TEXT else TEXT} or "
                         "{if OPTION=VALUE: TEXT else TEXT} (or {unless OPTION: ...})")
        return None
    word, name, value = m.group(1), m.group(2), m.group(3)
    values = declared.get(name)
    if values is None:
        doc.error(where, f"unknown option '{name}' in a choice"
                         f"{did_you_mean(name, list(declared))}; options: "
                         f"{', '.join(declared) or 'none'}")
        return None
    if values and value is None:
        doc.error(where, f"option '{name}' takes a value: write {{if {name}=VALUE: ...}} "
                         f"(values: {', '.join(values)})")
        return None
    if value is not None and value not in values:
        doc.error(where, f"option '{name}' has no value '{value}'"
                         + (f" (values: {', '.join(values)})" if values else
                            " (it is on/off: write {if " + name + ": ...})"))
        return None
    current = selected.get(name)
    hit = current is True if value is None else current == value
    if word == "unless":
        hit = not hit
    body = inner[m.end():]
    depth = 0
    split = -1
    for k, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and body.startswith("else", k) and (k == 0 or body[k - 1].isspace()) \
                and (k + 4 == len(body) or body[k + 4].isspace()):
            split = k
            break
    then, rest = (body, "") if split < 0 else (body[:split], body[split + 4:])
    if hit:
        return True, _trim(then)
    if _CONDITION.match(rest):
        return _branch(doc, where, rest, declared, selected)
    return False, _trim(rest)


def _trim(branch: str) -> str:
    """A branch without the one space that sets it off on each side (``{if x: five else
    four}``); a second space is kept: ``balanced{if x:  (not vulnerable)}``."""
    branch = branch[1:] if branch.startswith(" ") else branch
    return branch[:-1] if branch.endswith(" ") else branch


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
    elif word == "role":
        if len(tokens) == 1 and tokens[0].text in ("system", "base"):
            doc.role = tokens[0].text
        else:
            doc.error(location, "write 'role base' (a natural base for other systems) or "
                                "'role system'")
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
    elif word == "end":
        if len(tokens) == 2 and tokens[0].text == "use" and tokens[1].kind == "IDENT":
            if doc.end is not None:
                doc.error(location, f"'end' is given twice (first at line {doc.end[2].line})")
            else:
                doc.end = (tokens[1].text, tokens[1].col, location)
        else:
            doc.error(location, "write 'end use MODULE': the module (such as 'done', a "
                                "catch-all pass) that a call with nothing indented under "
                                "it implies")
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
    specs: list[Param] = []
    if len(tokens) > 1:
        if tokens[1].text != "(" or tokens[-1].text != ")":
            doc.error(location, "module parameters go in parentheses: module NAME(a, b)")
            return
        start = tokens[0].col - 1
        parsed = split_use(strip_comment(location.text)[start:tokens[-1].col], start)
        if isinstance(parsed, str) or parsed[2] is None:
            doc.error(location, "module parameters go in parentheses: module NAME(a, b)")
            return
        for text, col in parsed[2]:
            spec = _param(doc, text, Location(location.file, location.line, col,
                                              location.text))
            if spec is None:
                return
            if any(p.name == spec.name for p in specs):
                doc.error(spec.location, f"parameter '{spec.name}' is listed twice")
                return
            specs.append(spec)
    if name in doc.modules:
        doc.error(location, f"module '{name}' is defined twice (first at line "
                            f"{doc.modules[name].location.line})")
        return
    body = [(n, t) for n, t in block if strip_comment(t).strip()]
    indent = min((len(t) - len(t.lstrip()) for _, t in body), default=0)
    params = tuple(p.name for p in specs)
    # The body is read once, here; each use binds the parameters (see the compiler).
    tree = parse_tree_lines(doc, body, base_indent=indent, params=params)
    doc.modules[name] = Module(name, params, body, location, indent, tuple(specs), tree)


def _param(doc: Document, text: str, location: Location) -> Param | None:
    """One parameter of a module line: ``name``, ``name=default``, ``name: kind``,
    ``name: kind = default``; a default that is a whole number makes a number."""
    m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*([A-Za-z_]\w*))?\s*(?:=\s*(.+))?",
                     text, re.DOTALL)
    if m is None:
        doc.error(location, f"cannot read parameter '{text}': write name, name=default, "
                            "name: kind or name: kind = default")
        return None
    name, kind, default = m.group(1), m.group(2), m.group(3)
    if kind is None:
        kind = "number" if default is not None and re.fullmatch(r"-?\d+", default.strip()) \
            else "text"
    elif kind not in PARAM_KINDS:
        doc.error(location, f"unknown parameter kind '{kind}'{did_you_mean(kind, PARAM_KINDS)}"
                            f"; kinds: {', '.join(PARAM_KINDS)}")
        return None
    return Param(name, kind, None if default is None else default.strip(), location)


def _notes(doc: Document, tokens: list[Token], block: list[tuple[int, str]],
           location: Location) -> None:
    if len(tokens) != 1 or tokens[0].kind != "IDENT":
        doc.error(location, "write 'notes TOPIC' (e.g. notes leads) and the text indented below")
        return
    text = "\n".join(t.strip() for _, t in block if t.strip())
    doc.notes[tokens[0].text] = text
