"""Compiles a parsed document into a System: modules expanded, variables bound,
steps resolved, options applied, legality and duplicates checked.

All problems are collected and raised together as one SystemFileError.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, Call, CallKind, Strain
from bidbox.errors import BidboxError, IllegalCallError, NotationError, did_you_mean
from bidbox.evaluate import all_measures
from bidbox.lang.constraint_parser import parse_tokens
from bidbox.lang.constraints import (
    ANY,
    CONTEXT_WORDS,
    SUIT_VARIABLES,
    Always,
    And,
    Constraint,
    Context,
    NameRef,
    Not,
    Or,
    conjoin,
    disjoin,
    negate,
    substitute,
    variable_values,
)
from bidbox.lang.diagnostics import (
    ConstraintSyntaxError,
    Diagnostic,
    Location,
    SystemFileError,
)
from bidbox.lang.lexer import Token
from bidbox.lang.parser import Document, RawLine, parse_document, parse_tree_lines
from bidbox.lang.system import (
    FORCING_WORDS,
    TAGS,
    CallEntry,
    Forcing,
    Node,
    OppEntry,
    OptionDecl,
    System,
)

_BID_HEAD = re.compile(r"^([1-7])(NT|oM|om|[NCDHSMmZYcdhsn])$")
_WILDCARDS = ("any", "bid")
MAX_MODULE_DEPTH = 24


class OptionError(BidboxError):
    """An option that the system does not declare, or a value it does not allow."""


@dataclass
class Attributes:
    forcing: Forcing | None = None
    tags: list[str] = field(default_factory=list)
    alert: bool | None = None
    priority: int = 0
    guard: Constraint = ANY
    option_guards: list[tuple[str, str | None, bool]] = field(default_factory=list)


@dataclass(frozen=True)
class TableContext:
    """One table situation, for checking that variants of a call never overlap."""

    seat: int
    vul: bool
    they_vul: bool
    passed: bool


ALL_CONTEXTS = tuple(TableContext(s, v, t, p) for s, v, t, p in itertools.product(
    (1, 2, 3, 4), (False, True), (False, True), (False, True)))


def context_holds(c: Constraint, ctx: TableContext) -> bool:
    """Evaluate a context-only constraint in one table situation (hand terms count as true)."""
    if isinstance(c, Always):
        return c.value
    if isinstance(c, And):
        return all(context_holds(i, ctx) for i in c.items)
    if isinstance(c, Or):
        return any(context_holds(i, ctx) for i in c.items)
    if isinstance(c, Not):
        return not context_holds(c.item, ctx)
    if isinstance(c, Context):
        return {
            "seat": ctx.seat in c.seats, "vul": ctx.vul, "nonvul": not ctx.vul,
            "they_vul": ctx.they_vul, "they_nonvul": not ctx.they_vul,
            "fav": not ctx.vul and ctx.they_vul, "unfav": ctx.vul and not ctx.they_vul,
            "passed": ctx.passed, "unpassed": not ctx.passed,
        }[c.kind]
    return True


def _is_context_only(c: Constraint) -> bool:
    if isinstance(c, Context | Always):
        return True
    return bool(c.children()) and all(_is_context_only(i) for i in c.children())


class Compiler:
    def __init__(self, doc: Document, options: Mapping[str, str | bool],
                 read_include: Callable[[str], Document | str],
                 read_base: Callable[[str], System | str] | None = None) -> None:
        self.doc = doc
        self.read_base = read_base
        self.diagnostics: list[Diagnostic] = list(doc.diagnostics)
        self.read_include = read_include
        self.requested = dict(options)
        self.options: dict[str, OptionDecl] = {}
        self.selected: dict[str, str | bool] = {}
        self.defs: dict[str, Constraint] = {}
        self.def_tokens: dict[str, tuple[list[Token], Location]] = {}
        self.modules = dict(doc.modules)
        self.notes = dict(doc.notes)
        self.order = itertools.count()
        self.tree = list(doc.tree)

    def error(self, location: Location, message: str, col: int | None = None) -> None:
        if col is not None:
            location = Location(location.file, location.line, col, location.text)
        self.diagnostics.append(Diagnostic(location, message))

    # --- whole document ---------------------------------------------------------
    def run(self) -> System:
        self.merge_includes(self.doc, depth=0)
        self.collect_options()
        self.collect_defs()
        root = Node((), False)
        self.expand(self.tree, root, [], {}, depth=0)
        base = self.compile_base()
        if self.diagnostics:
            raise SystemFileError(self.diagnostics)
        return System(self.doc.name or Path(self.doc.file).stem, self.doc.title or self.doc.name,
                      self.doc.source, self.doc.file, self.options, self.selected, root,
                      self.notes, self.doc.fallback, base)

    def compile_base(self) -> System | None:
        """The natural base the system names: its own System, walked beside this one."""
        if self.doc.base is None:
            return None
        path, location = self.doc.base
        if self.read_base is None:
            self.error(location, "a base file cannot name a base of its own")
            return None
        try:
            base = self.read_base(path)
        except SystemFileError as err:
            self.diagnostics.extend(err.diagnostics)
            return None
        if isinstance(base, str):
            self.error(location, base)
            return None
        return base

    def merge_includes(self, doc: Document, depth: int) -> None:
        for path, location in doc.includes:
            if depth > 8:
                self.error(location, "includes nest too deeply (is a file including itself?)")
                return
            other = self.read_include(path)
            if isinstance(other, str):
                self.error(location, other)
                continue
            self.diagnostics.extend(other.diagnostics)
            self.merge_includes(other, depth + 1)
            for name, module in other.modules.items():
                if name in self.modules:
                    self.error(module.location, f"module '{name}' is also defined at "
                                                f"{self.modules[name].location}")
                self.modules.setdefault(name, module)
            self.doc.defs.extend(other.defs)
            self.doc.options.extend(other.options)
            self.notes.update({k: v for k, v in other.notes.items() if k not in self.notes})
            self.tree.extend(other.tree)

    def collect_options(self) -> None:
        for name, values, description, location in self.doc.options:
            if name in self.options:
                self.error(location, f"option '{name}' is declared twice")
                continue
            self.options[name] = OptionDecl(name, values, description, location)
            self.selected[name] = values[0] if values else False
        for name, value in self.requested.items():
            decl = self.options.get(name)
            if decl is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise OptionError(f"system '{self.doc.name}' has no option '{name}'"
                                  f"{did_you_mean(name, self.options)}; its options: {known}")
            if decl.values:
                if value is True or value not in decl.values:
                    raise OptionError(f"option '{name}' takes one of "
                                      f"{', '.join(decl.values)}: write --option {name}=VALUE")
                self.selected[name] = value
            else:
                if value not in (True, False):
                    raise OptionError(f"option '{name}' is on/off: write --option {name}")
                self.selected[name] = value

    def collect_defs(self) -> None:
        for name, tokens, location in self.doc.defs:
            if name in self.def_tokens:
                self.error(location, f"'{name}' is defined twice")
                continue
            self.def_tokens[name] = (tokens, location)
        for name in self.def_tokens:
            self.resolve_def(name, ())

    def resolve_def(self, name: str, stack: tuple[str, ...]) -> Constraint:
        if name in self.defs:
            return self.defs[name]
        tokens, location = self.def_tokens[name]
        if name in stack:
            self.error(location, f"'{name}' is defined in terms of itself")
            return ANY
        try:
            parsed = parse_tokens(tokens, len(location.text) + 1)
        except ConstraintSyntaxError as err:
            self.error(location, str(err), err.col)
            self.defs[name] = ANY
            return ANY
        resolved = self.resolve_names(parsed, location, (*stack, name))
        self.defs[name] = resolved
        return resolved

    def resolve_names(self, c: Constraint, location: Location,
                      stack: tuple[str, ...] = ()) -> Constraint:
        if isinstance(c, NameRef):
            if c.name in self.def_tokens:
                return self.resolve_def(c.name, stack)
            known = [m.name for m in all_measures()] + list(self.def_tokens) + list(CONTEXT_WORDS)
            self.error(location, f"unknown measure or name '{c.name}'"
                                 f"{did_you_mean(c.name, known)}",
                       location.text.find(c.name) + 1 or None)
            return ANY
        if isinstance(c, And):
            return conjoin([self.resolve_names(i, location, stack) for i in c.items])
        if isinstance(c, Or):
            return disjoin([self.resolve_names(i, location, stack) for i in c.items])
        if isinstance(c, Not):
            return negate(self.resolve_names(c.item, location, stack))
        return c

    # --- the tree -----------------------------------------------------------------
    def expand(self, raws: list[RawLine], node: Node, path: list[tuple[Call, bool]],
               binding: dict[str, str], depth: int) -> None:
        """Expand the lines under one node, then check the node for duplicate calls."""
        self.expand_lines(raws, node, path, binding, depth)
        self.check_duplicates(node)

    def expand_lines(self, raws: list[RawLine], node: Node, path: list[tuple[Call, bool]],
                     binding: dict[str, str], depth: int) -> None:
        # Opponents' wildcards go last so that explicit calls written for them win.
        ordered = sorted(raws, key=lambda r: r.kind == "call" and _is_wildcard(r.head))
        for raw in ordered:
            if raw.kind == "use":
                self.expand_use(raw, node, path, binding, depth)
            else:
                self.expand_call(raw, node, path, binding, depth)

    def expand_use(self, raw: RawLine, node: Node, path: list[tuple[Call, bool]],
                   binding: dict[str, str], depth: int) -> None:
        module = self.modules.get(raw.head)
        if module is None:
            self.error(raw.location, f"unknown module '{raw.head}'"
                                     f"{did_you_mean(raw.head, self.modules)}", raw.head_col)
            return
        if depth >= MAX_MODULE_DEPTH:
            self.error(raw.location, f"modules nest more than {MAX_MODULE_DEPTH} deep "
                                     f"(does '{raw.head}' use itself?)")
            return
        args = _split_args(raw.tokens, raw.location.text)
        if args is None or len(args) != len(module.params):
            self.error(raw.location, f"module '{module.name}' takes {len(module.params)} "
                                     f"argument(s): use {module.name}"
                                     f"({', '.join(module.params)})")
            return
        values = dict(zip(module.params, args, strict=True))
        lines = []
        for number, text in module.lines:
            for param, value in values.items():
                text = text.replace("{" + param + "}", value)
            lines.append((number, text))
        sub_doc = Document(module.location.file)
        raws = parse_tree_lines(sub_doc, lines, base_indent=module.indent)
        for diag in sub_doc.diagnostics:
            where = f"in module '{module.name}' used at line {raw.location.line}"
            self.diagnostics.append(Diagnostic(diag.location, f"{diag.message} ({where})"))
        self.expand_lines(raws, node, path, binding, depth + 1)

    def expand_call(self, raw: RawLine, node: Node, path: list[tuple[Call, bool]],
                    binding: dict[str, str], depth: int) -> None:
        parts = self.split_line(raw)
        if parts is None:
            return
        shows, requires, attrs, description = parts
        for name, value, wanted in attrs.option_guards:
            current = self.selected.get(name)
            hit = current is True if value is None else current == value
            if hit != wanted:
                return
        head = raw.head
        ours = not (head.startswith("(") and head.endswith(")"))
        inner = head if ours else head[1:-1]
        if not ours and path and not path[-1][1]:
            self.error(raw.location, "two opponents' calls in a row: write our side's call "
                                     "(often P) between them", raw.head_col)
            return
        for call, extra, wildcard in self.resolve_head(inner, raw, path, binding, ours):
            bound = {**binding, **extra}
            new_path = [*path, (call, ours)]
            actual = _actual_calls(path)
            if not ours:
                if wildcard is not None and any(o.call == call for o in node.opp):
                    continue  # an explicit line for this call wins over the wildcard
                child = Node((*actual, call), False, _label(new_path))
                node.opp.append(OppEntry(wildcard or str(call), call, raw.location, child))
                self.expand(raw.children, child, new_path, bound, depth)
                continue
            full = (*(actual if not (path and path[-1][1]) else (*actual, PASS)), call)
            entry = CallEntry(
                call=call,
                shows=self.bind(shows, bound, raw.location),
                requires=None if requires is None else self.bind(requires, bound, raw.location),
                guard=attrs.guard,
                forcing=attrs.forcing,
                tags=tuple(attrs.tags),
                alert=attrs.alert,
                description=_fill(description, bound),
                priority=attrs.priority,
                order=next(self.order),
                location=raw.location,
                node=Node(tuple(full), True, _label(new_path)),
                auction=tuple(full),
            )
            node.calls.append(entry)
            self.expand(raw.children, entry.node, new_path, bound, depth)

    def bind(self, c: Constraint, binding: dict[str, str], location: Location) -> Constraint:
        return substitute(self.resolve_names(c, location), binding)

    def resolve_head(self, inner: str, raw: RawLine, path: list[tuple[Call, bool]],
                     binding: dict[str, str], ours: bool
                     ) -> list[tuple[Call, dict[str, str], str | None]]:
        """The concrete calls a call token stands for, with the variables each binds."""
        actual = list(_actual_calls(path))
        if ours and path and path[-1][1]:
            actual.append(PASS)
        if not ours and inner.lower() in _WILDCARDS:
            base = Auction().extend(actual)
            return [(c, {}, inner.lower()) for c in base.legal_calls()
                    if c.kind is not CallKind.PASS and (inner.lower() == "any" or c.is_bid)]
        results: list[tuple[Call, dict[str, str], str | None]] = []
        step = _step(inner)
        if step is not None:
            kind, n = step
            call = _resolve_step(kind, n, actual)
            if call is None:
                self.error(raw.location, f"step {inner} does not exist here (after "
                                         f"'{' '.join(map(str, actual)) or 'the start'}')",
                           raw.head_col)
                return []
            results.append((call, {}, None))
        else:
            m = _BID_HEAD.match(inner)
            if m and m.group(2) in SUIT_VARIABLES:
                var = m.group(2)
                choices = [binding[var]] if var in binding else variable_values(var, binding)
                for suit in choices:
                    call = Call.bid(int(m.group(1)), Strain.parse(suit))
                    results.append((call, {var: suit}, None))
            else:
                try:
                    results.append((Call.parse(inner), {}, None))
                except NotationError:
                    hint = (" (opponents' wildcards: (any), (bid))" if not ours else "")
                    self.error(raw.location, f"cannot read call '{inner}': write 1C..7NT, P, X, "
                                             f"XX, a step like +1, or a suit variable like 2M"
                                             f"{hint}", raw.head_col)
                    return []
        legal = []
        problems = []
        for call, extra, wild in results:
            try:
                Auction().extend(actual).add(call)
            except IllegalCallError as err:
                problems.append(f"{call} is not legal after "
                                f"'{' '.join(map(str, actual)) or 'the start'}': {err.reason}")
                continue
            legal.append((call, extra, wild))
        # A suit variable stands for the suits whose bid is legal here; a written call, or
        # a variable legal for no suit at all, is a mistake.
        if problems and (len(results) == 1 or not legal):
            self.error(raw.location, problems[0], raw.head_col)
        return legal

    def split_line(self, raw: RawLine
                   ) -> tuple[Constraint, Constraint | None, Attributes, str | None] | None:
        """Separate a call line's constraint, 'requires' part, [attributes] and description."""
        tokens = raw.tokens
        description: str | None = None
        attrs = Attributes()
        body: list[Token] = []
        i = 0
        ok = True
        while i < len(tokens):
            tok = tokens[i]
            if tok.kind == "STRING":
                description = tok.text[1:-1].replace('\\"', '"')
                i += 1
            elif tok.text == "[":
                j = i + 1
                while j < len(tokens) and tokens[j].text != "]":
                    j += 1
                if j == len(tokens):
                    self.error(raw.location, "'[' without a closing ']'", tok.col)
                    return None
                ok = self.parse_attributes(tokens[i + 1:j], raw, attrs) and ok
                i = j + 1
            else:
                if description is not None:
                    self.error(raw.location, "a description must come after the constraint "
                                             "and the [attributes]", tok.col)
                    return None
                body.append(tok)
                i += 1
        split = next((k for k, t in enumerate(body) if t.kind == "IDENT"
                      and t.text == "requires"), None)
        shows_tokens, requires_tokens = (body, None) if split is None else (
            body[:split], body[split + 1:])
        end = len(raw.location.text) + 1
        try:
            shows = parse_tokens(shows_tokens, end)
            requires = None if requires_tokens is None else parse_tokens(requires_tokens, end)
        except ConstraintSyntaxError as err:
            self.error(raw.location, str(err), err.col)
            return None
        return (shows, requires, attrs, description) if ok else None

    def parse_attributes(self, tokens: list[Token], raw: RawLine, attrs: Attributes) -> bool:
        items: list[list[Token]] = [[]]
        for tok in tokens:
            if tok.text in (",", ";"):
                items.append([])
            else:
                items[-1].append(tok)
        ok = True
        for item in (it for it in items if it):
            first = item[0]
            word = first.text.lower()
            col = first.col
            if len(item) == 1 and word in FORCING_WORDS:
                if attrs.forcing is not None:
                    self.error(raw.location, "two forcing levels on one call", col)
                    ok = False
                attrs.forcing = FORCING_WORDS[word]
            elif len(item) == 1 and word in ("alert", "noalert"):
                attrs.alert = word == "alert"
            elif word == "priority":
                if len(item) == 2 and re.fullmatch(r"-?\d+", item[1].text):
                    attrs.priority = int(item[1].text)
                else:
                    self.error(raw.location, "write 'priority N' with a whole number", col)
                    ok = False
            elif word in ("if", "unless"):
                if len(item) == 2 and item[1].kind == "IDENT":
                    name, value = item[1].text, None
                elif len(item) == 4 and item[2].text == "=":
                    name, value = item[1].text, item[3].text
                else:
                    self.error(raw.location, f"write '{word} OPTION' or '{word} OPTION=VALUE'",
                               col)
                    ok = False
                    continue
                decl = self.options.get(name) or next(
                    (OptionDecl(n, v, d, loc) for n, v, d, loc in self.doc.options if n == name),
                    None)
                if decl is None:
                    names = [n for n, *_ in self.doc.options]
                    self.error(raw.location, f"unknown option '{name}'"
                                             f"{did_you_mean(name, names)}", item[1].col)
                    ok = False
                elif value is not None and value not in decl.values:
                    self.error(raw.location, f"option '{name}' has no value '{value}' "
                                             f"(values: {', '.join(decl.values)})", item[3].col)
                    ok = False
                attrs.option_guards.append((name, value, word == "if"))
            elif word in TAGS or (word in ("transfer", "control", "cue") and len(item) == 4):
                tag = word if len(item) == 1 else "".join(t.text for t in item)
                attrs.tags.append(tag)
            else:
                try:
                    guard = parse_tokens(item, col)
                except ConstraintSyntaxError:
                    guard = None
                if guard is None or not _is_context_only(guard):
                    known = [*TAGS, *FORCING_WORDS, "alert", "noalert", "priority", "if",
                             "unless", *CONTEXT_WORDS, "seat"]
                    self.error(raw.location, f"unknown attribute '{first.text}'"
                                             f"{did_you_mean(word, known)}", col)
                    ok = False
                    continue
                attrs.guard = conjoin([attrs.guard, guard])
        return ok

    def check_duplicates(self, node: Node) -> None:
        by_call: dict[Call, list[CallEntry]] = {}
        for entry in node.calls:
            by_call.setdefault(entry.call, []).append(entry)
        for entries in by_call.values():
            for a, b in itertools.combinations(entries, 2):
                clash = next((ctx for ctx in ALL_CONTEXTS if context_holds(a.guard, ctx)
                              and context_holds(b.guard, ctx)), None)
                if clash is not None:
                    self.error(b.location, f"{b.call} is defined twice at this point (also at "
                                           f"line {a.location.line}); give the variants "
                                           "disjoint guards such as [seat 1-2] / [seat 3-4]")
        seen: dict[str, OppEntry] = {}
        for opp in node.opp:
            key = str(opp.call)
            if key in seen:
                self.error(opp.location, f"opponents' ({key}) appears twice here (also "
                                         f"at line {seen[key].location.line})")
            seen.setdefault(key, opp)


_STEP = re.compile(r"^(\+|~)(\d+|\([\d+\- ]+\))$")


def _step(token: str) -> tuple[str, int] | None:
    """'+2' (second bid up), '~2' (second call counting pass and double), 'R' (the relay),
    and '+(1+2)' where a module parameter shifts the steps."""
    if token == "R":
        return ("R", 1)
    m = _STEP.match(token)
    if not m:
        return None
    body = m.group(2).strip("()")
    if not re.fullmatch(r"\d+(\s*[+-]\s*\d+)*", body):
        return None
    total = 0
    for sign, number in re.findall(r"([+-]?)\s*(\d+)", body):
        total += -int(number) if sign == "-" else int(number)
    return (m.group(1), total)


def _resolve_step(kind: str, n: int, actual: list[Call]) -> Call | None:
    """The call a step stands for after ``actual``; None when there is no such step."""
    if n < 1:
        return None
    before = Auction().extend(actual)
    last = before.last_bid
    first = last.rank + 1 if last is not None else 0
    bids = [Call.from_rank(r) for r in range(first, 35)]
    if kind == "R":
        bids = [b for b in bids if b != Call.parse("3NT")]  # 3NT is never a relay
        return bids[0] if bids else None
    if kind == "~":
        extra = [c for c in (PASS, Call.parse("X"), Call.parse("XX")) if before.is_legal(c)]
        bids = extra + bids
    return bids[n - 1] if n <= len(bids) else None


def _split_args(tokens: list[Token], line: str) -> list[str] | None:
    """The arguments of ``use NAME(a, b)`` as written (so '2NT' stays '2NT')."""
    if not tokens:
        return []
    if tokens[0].text != "(" or tokens[-1].text != ")":
        return None
    inner = line[tokens[0].col:tokens[-1].col - 1]
    return [part.strip() for part in inner.split(",") if part.strip()]


def _label(path: list[tuple[Call, bool]]) -> str:
    return " ".join(str(c) if ours else f"({c})" for c, ours in path)


def _actual_calls(path: list[tuple[Call, bool]]) -> tuple[Call, ...]:
    """The real call sequence of a tree path: an opponents' pass between two of our calls."""
    out: list[Call] = []
    previous_ours: bool | None = None
    for call, ours in path:
        if ours and previous_ours:
            out.append(PASS)
        out.append(call)
        previous_ours = ours
    return tuple(out)


def _fill(description: str | None, binding: dict[str, str]) -> str | None:
    """Put bound suits into a description: '{M}' becomes 'H'."""
    if description is None:
        return None
    for var, suit in binding.items():
        description = description.replace("{" + var + "}", suit)
    return description


def compile_text(text: str, file: str = "<text>", options: Mapping[str, str | bool] | None = None,
                 base_dir: Path | None = None) -> System:
    """Compile system-language text; raises SystemFileError listing every problem."""
    doc = parse_document(text, file)
    root = (base_dir or Path(file).parent).resolve()

    def read_include(path: str) -> Document | str:
        candidate = Path(path)
        if candidate.is_absolute() or ".." in candidate.parts:
            return (f"include '{path}': only files beside the system file (no absolute paths "
                    "or '..')")
        full = root / candidate
        if not full.is_file():
            return f"include '{path}': no such file beside the system file"
        return parse_document(full.read_text(encoding="utf-8"), str(full))

    def read_base(path: str) -> System | str:
        # A base is looked for beside the system file, then among the shipped files, so a
        # partnership's own system can name the shipped natural base.
        found = read_include(path)
        if isinstance(found, str):
            shipped = Path(__file__).resolve().parents[1] / "systems" / path
            if Path(path).name != path or not shipped.is_file():
                return found.replace("include", "base", 1)
            found = parse_document(shipped.read_text(encoding="utf-8"), str(shipped))
        if found.diagnostics:
            raise SystemFileError(found.diagnostics)
        return Compiler(found, {}, read_include).run()

    return Compiler(doc, options or {}, read_include, read_base).run()


def _is_wildcard(head: str) -> bool:
    return head.startswith("(") and head[1:-1].lower() in _WILDCARDS


__all__ = ["ALL_CONTEXTS", "Compiler", "OptionError", "TableContext", "compile_text",
           "context_holds"]
