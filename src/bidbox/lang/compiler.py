"""Compiles a parsed document into a System: modules expanded, variables bound,
steps resolved, options applied, legality and duplicates checked.

A module's body is read once (by the parser) and each line is parsed once; a use binds
its arguments into the parsed lines, so the work per use is the part that truly depends
on where the module is used: steps and legality (the auction), the concrete calls and
their nodes. Bound constraints are shared between the uses that bind them alike.

All problems are collected and raised together as one SystemFileError.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from bidbox.core.auction import Auction
from bidbox.core.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, CallKind, Strain
from bidbox.errors import IllegalCallError, NotationError, did_you_mean, shown
from bidbox.errors import OptionError as OptionError
from bidbox.evaluate import all_measures
from bidbox.lang.constraint_parser import (
    KEYWORDS,
    SUIT_TOKENS,
    find_measure,
    measure_name,
    parse_tokens,
)
from bidbox.lang.constraints import (
    ANY,
    CONTEXT_WORDS,
    MAX_NESTING,
    SUIT_VARIABLES,
    Always,
    And,
    Constraint,
    Context,
    Longest,
    NameRef,
    Not,
    Or,
    SuitCompare,
    SuitFlag,
    SuitIs,
    SuitRange,
    TableContext,
    bound_relation,
    conjoin,
    context_holds,
    disjoin,
    map_terms,
    negate,
    nesting_depth,
    substitute,
    terms,
    variable_values,
)
from bidbox.lang.diagnostics import (
    ConstraintSyntaxError,
    Diagnostic,
    Location,
    Problems,
    SystemFileError,
    read_system_file,
)
from bidbox.lang.lexer import Token, tokenize
from bidbox.lang.parser import (
    PLACEHOLDER,
    Document,
    Module,
    Param,
    RawLine,
    _parse_tree_line,
    parse_document,
)
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
MAX_NODES = 250_000
"""Auction points a compiled system may have. The largest shipped system has about 41,000;
nested modules can multiply far past that (12 lines reached 265,000 and took lint
minutes), so a file past the limit is an error at the line that crossed it."""
_GOES_ON = frozenset({"artificial", "relay", "ask", "answer", "puppet"})
"""Tags of a call after which partner still has something to say: nothing is implied."""


@dataclass
class Attributes:
    forcing: Forcing | None = None
    tags: list[str] = field(default_factory=list)
    alert: bool | None = None
    priority: int = 0
    guard: Constraint = ANY
    option_guards: list[tuple[str, str | None, bool]] = field(default_factory=list)
    if_legal: bool = False  # [if legal]: made only where legal, skipped at other uses
    open: bool = False  # [open]: nothing indented, yet no implied end ('end use ...')
    system_on: bool = False  # (X) [system on]: our calls after their pass go on after it


ALL_CONTEXTS = tuple(
    TableContext(s, v, t, p, b, q) for s, v, t, p, b, q in itertools.product(
        (1, 2, 3, 4), (False, True), (False, True), (False, True), (False, True),
        (False, True)) if (p or not b) and (b or not q or s > 2))
"""Every table situation a guard can tell apart: passing before the opening is passing,
and in seats 1-2 a partner who passed before the opening called after this hand did."""


def _is_context_only(c: Constraint) -> bool:
    return all(isinstance(t, Context | Always) for t in terms(c))


class Compiler:
    def __init__(self, doc: Document, options: Mapping[str, str | bool],
                 read_include: Callable[[str], Document | str],
                 read_base: Callable[[str], System | str] | None = None) -> None:
        self.doc = doc
        self.read_base = read_base
        self.diagnostics: list[Diagnostic] = Problems(doc.diagnostics)  # stops at a limit
        self.read_include = read_include
        self.requested = dict(options)
        self.options: dict[str, OptionDecl] = {}
        self.selected: dict[str, str | bool] = {}
        self.defs: dict[str, Constraint] = {}
        self.def_tokens: dict[str, tuple[list[Token], Location]] = {}
        self._too_deep = False  # a def chain nesting too deeply has been reported
        self.node_count = 0  # auction points made so far (MAX_NODES)
        self.too_big = False  # MAX_NODES has been passed and reported: expand no more
        self.modules = dict(doc.modules)
        self.notes = dict(doc.notes)
        self.order = itertools.count()
        self.tree = list(doc.tree)
        # 'end use NAME': the use a call with nothing indented under it implies.
        self.end: RawLine | None = None
        if doc.end is not None:
            name, col, where = doc.end
            self.end = RawLine(0, "use", name, col, [], where, args=())
        self.end_lines = [] if self.end is None else [self.end]
        # Work done once per compile and shared by every use (keys hold ids; the values
        # keep the keyed object alive, and are checked with 'is').
        self._seen: set[tuple[Location, str]] = set()
        self._lines: dict[int, tuple[RawLine, _Line | None]] = {}
        self._bound_lines: dict[tuple[int, tuple[str, ...]],
                                tuple[RawLine, tuple[_Line, str, Location] | None]] = {}
        self._reread: dict[tuple[str, int, str], RawLine | None] = {}
        self._bound: dict[tuple[int, tuple[tuple[str, str], ...]],
                          tuple[Constraint, Constraint]] = {}
        self._resolved: dict[int, tuple[Constraint, Constraint]] = {}
        self._heads: dict[tuple[str, bool], tuple[str, object]] = {}
        self._ordered: dict[int, tuple[list[RawLine], list[RawLine]]] = {}
        self._arg_constraints: dict[tuple[str, Location, bool], Constraint | None] = {}
        self._bound_constraints: dict[tuple[int, tuple[str, ...]],
                                      tuple[_Line, tuple[Constraint, Constraint | None] | None]
                                      ] = {}
        self._kinds: dict[int, dict[str, str]] = {}
        self._bound_uses: dict[tuple[int, tuple[str, ...]],
                               tuple[RawLine, tuple[str, tuple[tuple[str, int], ...]] | None]
                               ] = {}
        self._has_vars: dict[int, tuple[Constraint, bool]] = {}
        self._uses: dict[tuple[int, str, tuple[tuple[str, int], ...]],
                         tuple[RawLine, _Use | None]] = {}
        # '(X) [system on]' lines met at a node still being expanded, by the node's id.
        self._system_on: dict[int, list[tuple[OppEntry, _Point, Location, int]]] = {}

    def error(self, location: Location, message: str, col: int | None = None,
              use: _Use | None = None) -> None:
        """Record a problem once (a module line wrong at many uses is reported at the
        first), naming the use when it happened inside a module."""
        if col is not None:
            location = Location(location.file, location.line, col, location.text)
        key = (location, message)
        if key in self._seen:
            return
        self._seen.add(key)
        if use is not None:
            message = f"{message} ({use.where()})"
        self.diagnostics.append(Diagnostic(location, message))

    # --- whole document ---------------------------------------------------------
    def run(self) -> System:
        self.merge_includes(self.doc, depth=0)
        self.collect_options()
        self.collect_defs()
        self.check_modules()
        if self.end is not None and self.end.head not in self.modules:
            self.error(self.end.location, f"'end use {self.end.head}': unknown module"
                                          f"{did_you_mean(self.end.head, self.modules)}",
                       self.end.head_col)
            self.end, self.end_lines = None, []
        root = Node((), False)
        self.expand(self.tree, root, START, {}, depth=0)
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
            try:
                other = self.read_include(path)
            except SystemFileError as err:  # an included file that is not text
                self.diagnostics.extend(err.diagnostics)
                continue
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
            taken = measure_name(name)
            if name in KEYWORDS or find_measure(taken) is not None:
                # A use of the name would read the measure (or keyword), never the def.
                what = ("a word of the language" if name in KEYWORDS else
                        f"the measure '{taken}'" if taken == name else
                        f"short for the measure '{taken}'")
                self.error(location, f"'{name}' is {what}: give the def another name")
                continue
            self.def_tokens[name] = (tokens, location)
        for name in self.def_tokens:
            self.resolve_def(name, ())

    def resolve_def(self, name: str, stack: tuple[str, ...], level: int = 0) -> Constraint:
        """The def's constraint with every name in it resolved. ``stack`` holds the defs
        being resolved around this one and ``level`` the and/or/not levels above this use:
        resolving recurses through both, so both are bounded by MAX_NESTING."""
        if name in self.defs:
            return self.defs[name]
        tokens, location = self.def_tokens[name]
        if name in stack:
            self.error(location, f"'{name}' is defined in terms of itself")
            return ANY
        if len(stack) >= MAX_NESTING or level > MAX_NESTING:
            # Stop long before Python's recursion limit, and say so at the def the chain
            # starts from.
            # Reported once: the defs after this chain's end would each start another.
            if not self._too_deep:
                self._too_deep = True
                first = self.def_tokens[stack[0]][1]
                self.error(first, f"constraint nests too deeply (more than {MAX_NESTING} "
                                  f"levels through the defs {stack[0]} -> ... -> {name})")
            for on_chain in stack:
                self.defs.setdefault(on_chain, ANY)
            return ANY
        try:
            parsed = parse_tokens(tokens, len(location.text) + 1)
        except ConstraintSyntaxError as err:
            self.error(location, str(err), err.col)
            self.defs[name] = ANY
            return ANY
        resolved = self.resolve_names(parsed, location, (*stack, name), level)
        if name in self.defs:  # a chain through this def was too deep (reported)
            return self.defs[name]
        if nesting_depth(resolved) > MAX_NESTING:
            self.error(location, f"constraint nests too deeply (more than {MAX_NESTING} "
                                 "levels of and/or/not, counting the defs it uses)")
            resolved = ANY
        self.defs[name] = resolved
        return resolved

    def resolve_names(self, c: Constraint, location: Location,
                      stack: tuple[str, ...] = (), level: int = 0) -> Constraint:
        if stack:
            return self._resolve_names(c, location, stack, level)
        hit = self._resolved.get(id(c))
        if hit is not None and hit[0] is c:
            return hit[1]
        result = self._resolve_names(c, location, stack)
        self._resolved[id(c)] = (c, result)
        return result

    def _resolve_names(self, c: Constraint, location: Location,
                       stack: tuple[str, ...] = (), level: int = 0) -> Constraint:
        # Through defs (a stack) the and/or/not levels add up: resolve_def bounds them.
        return map_terms(c, lambda t: self._resolve_name(
            t.c, location, stack, level + t.depth if stack else 0))

    def _resolve_name(self, c: Constraint, location: Location, stack: tuple[str, ...],
                      level: int) -> Constraint:
        if not isinstance(c, NameRef):
            return c
        if c.name in self.def_tokens:
            return self.resolve_def(c.name, stack, level)
        known = [m.name for m in all_measures()] + list(self.def_tokens) + list(CONTEXT_WORDS)
        self.error(location, f"unknown measure or name '{c.name}'"
                             f"{did_you_mean(c.name, known)}",
                   location.text.find(c.name) + 1 or None)
        return ANY

    # --- modules ------------------------------------------------------------------
    def check_modules(self) -> None:
        """Check every module once, used or not: its parameters' defaults and the lines
        that do not depend on an argument (read once here, shared by every use)."""
        for module in self.modules.values():
            for spec in module.specs:
                if spec.default is not None:
                    self.check_arg(module, spec, spec.default, spec.location, None)
            stack = list(module.body)
            while stack:
                raw = stack.pop()
                stack.extend(raw.children)
                if raw.kind == "call" and not raw.params:
                    line = self.parse_line(raw)
                    if line is not None:
                        self.resolve_names(line.shows, raw.location)
                        if line.requires is not None:
                            self.resolve_names(line.requires, raw.location)

    def bind_args(self, module: Module, args: tuple[tuple[str, int], ...],
                  site: Location, outer: _Use | None, name_col: int | None = None
                  ) -> _Use | None:
        """The arguments of one use bound to the module's parameters, each checked for its
        kind; a wrong use is an error at the use site."""
        specs = {p.name: p for p in module.specs}
        given: dict[str, tuple[str, Location]] = {}
        position = 0
        named = False
        ok = True
        for text, col in args:
            where = Location(site.file, site.line, col, site.text)
            m = _KEYWORD.match(text)
            if m and (m.group(1) in specs or (module.typed and not _is_measure(m.group(1)))):
                name = m.group(1)
                if name not in specs:
                    self.error(where, f"module '{module.name}' has no parameter '{name}'"
                                      f"{did_you_mean(name, specs)}: use {module.signature()}",
                               use=outer)
                    ok = False
                    continue
                if name in given:
                    self.error(where, f"'{name}' is given twice in this use of "
                                      f"'{module.name}'", use=outer)
                    ok = False
                    continue
                named = True
                value_col = col + m.start(2)
                given[name] = (m.group(2).strip(),
                               Location(site.file, site.line, value_col, site.text))
                continue
            if named:
                self.error(where, "an argument without a name after a named one: write "
                                  "the named arguments last", use=outer)
                ok = False
                continue
            if position >= len(module.specs):
                self.error(where, f"module '{module.name}' takes {len(module.specs)} "
                                  f"argument(s): use {module.signature()}", use=outer)
                ok = False
                break
            name = module.specs[position].name
            position += 1
            if name in given:
                self.error(where, f"'{name}' is given twice in this use of '{module.name}'",
                           use=outer)
                ok = False
                continue
            given[name] = (text, where)
        values: dict[str, str] = {}
        places: dict[str, Location] = {}
        for spec in module.specs:
            if spec.name in given:
                text, where = given[spec.name]
            elif spec.default is not None:
                text, where = spec.default, spec.location
            else:
                kind = "" if spec.kind == "text" else f" (a {spec.kind})"
                self.error(site, f"module '{module.name}' needs an argument for "
                                 f"'{spec.name}'{kind}: use {module.signature()}",
                           name_col, use=outer)
                ok = False
                continue
            checked = self.check_arg(module, spec, text, where, outer)
            if checked is None:
                ok = False
                continue
            values[spec.name] = checked
            places[spec.name] = where
        if not ok:
            return None
        kinds = self._kinds.get(id(module))
        if kinds is None:
            kinds = {p.name: p.kind for p in module.specs}
            self._kinds[id(module)] = kinds
        return _Use(module, values, places, site, outer, kinds)

    def check_arg(self, module: Module, spec: Param, text: str, where: Location,
                  outer: _Use | None) -> str | None:
        """The argument in its canonical spelling, or None after an error naming it."""
        what = f"argument '{spec.name}' of module '{module.name}'"
        kind = spec.kind
        if kind == "text":
            return text
        if kind == "suit":
            if text in _SUIT_ARGS:
                return text
            self.error(where, f"{what} is a suit: write S, H, D, C or a suit variable "
                              f"(M, oM, m, om, Z, Y), not '{text}'", use=outer)
            return None
        if kind == "number":
            value = _arithmetic(text, {})
            if value is None:
                self.error(where, f"{what} is a whole number (such as 2 or 1+2), not "
                                  f"'{text}'", use=outer)
                return None
            return str(value)
        if kind == "range":
            m = re.fullmatch(r"(\d+)(?:\+|-(\d+))?|(?:<=|>=|=)\d+", text)
            if m is None:
                self.error(where, f"{what} is a range such as 12-14, 12+, <=7 or =5, not "
                                  f"'{text}'", use=outer)
                return None
            if m.group(2) is not None and int(m.group(2)) < int(m.group(1)):
                self.error(where, f"{what}: impossible range '{text}'", use=outer)
                return None
            return text
        if kind == "call":
            if (_BID_HEAD.match(text) or _step(text) is not None or _NEXT_IN.match(text)
                    or re.fullmatch(r"(?i)P|X|XX|[1-7](NT|N|C|D|H|S)", text)):
                return text
            self.error(where, f"{what} is a call: write 1C..7NT, P, X, XX, a step like +1 or "
                              f"R, the next bid in a suit like +H, or a bid with a suit "
                              f"variable like 2M, not '{text}'",
                       use=outer)
            return None
        if kind == "name":
            if re.fullmatch(r"[A-Za-z_][\w-]*", text):
                return text
            self.error(where, f"{what} is a name (a word such as pos), not '{text}'",
                       use=outer)
            return None
        # A constraint: read at the use, so a mistake in it is reported here.
        if self.arg_constraint(text, where, outer) is None:
            return None
        return text

    def arg_constraint(self, text: str, where: Location, outer: _Use | None,
                       quiet: bool = False) -> Constraint | None:
        """An argument read as a constraint, once per text and place (``quiet``: an
        untyped argument that does not read alone is no error, the line is read as text)."""
        key = (text, where, quiet)
        if key in self._arg_constraints:
            return self._arg_constraints[key]
        parsed: Constraint | None = None
        try:
            parsed = parse_tokens(tokenize(text, where.col - 1), where.col + len(text))
        except ConstraintSyntaxError as err:
            if not quiet:
                self.error(where, str(err), err.col, use=outer)
        if parsed is not None and _placeholder_names(parsed):
            if not quiet:
                self.error(where, f"'{text}': a parameter place-holder cannot be an "
                                  "argument outside a module", use=outer)
            parsed = None
        self._arg_constraints[key] = parsed
        return parsed

    # --- the tree -----------------------------------------------------------------
    def expand(self, raws: list[RawLine], node: Node, point: _Point, binding: dict[str, str],
               depth: int, use: _Use | None = None) -> None:
        """Expand the lines under one node, then check the node for duplicate calls."""
        self.expand_lines(raws, node, point, binding, depth, use)
        if len(node.calls) > 1 or len(node.opp) > 1:
            self.check_duplicates(node)
        kept_on = self._system_on.pop(id(node), None)
        for opp, after, where, col in kept_on or ():
            self.keep_system_on(raws, opp, after, binding, depth, use, where, col)

    def keep_system_on(self, raws: list[RawLine], opp: OppEntry, after: _Point,
                       binding: dict[str, str], depth: int, use: _Use | None,
                       where: Location, col: int) -> None:
        """'(X) [system on]': our calls written after their pass at this node are made
        again after their double, from the same lines, so an edit to the undisturbed
        continuation is an edit to the doubled one.  The calls written under the double
        itself win (their pass and redouble, usually); opponents' lines are not kept."""
        kept = Node(after.calls, False, after.label)
        self.expand_lines(raws, kept, after, binding, depth, use, ours_only=True)
        own = {id(entry.call) for entry in opp.node.calls}
        added = [entry for entry in kept.calls if id(entry.call) not in own]
        if not added:
            self.error(where, "[system on] keeps our calls after their pass on after their "
                              "double, but no call of ours is written after their pass "
                              "here (or the lines under the double define them all)", col,
                       use=use)
        opp.node.calls.extend(added)

    def expand_lines(self, raws: list[RawLine], node: Node, point: _Point,
                     binding: dict[str, str], depth: int, use: _Use | None,
                     ours_only: bool = False) -> None:
        # Opponents' wildcards go last so that explicit calls written for them win.
        ordered = self._ordered.get(id(raws))
        if ordered is None or ordered[0] is not raws:
            ordered = (raws, sorted(raws, key=lambda r: r.kind == "call"
                                    and _is_wildcard(r.head)))
            self._ordered[id(raws)] = ordered
        for raw in ordered[1]:
            if raw.kind == "use":
                self.expand_use(raw, node, point, binding, depth, use, ours_only)
            elif not (ours_only and raw.head.startswith("(")):
                self.expand_call(raw, node, point, binding, depth, use)

    def expand_use(self, raw: RawLine, node: Node, point: _Point, binding: dict[str, str],
                   depth: int, use: _Use | None, ours_only: bool = False) -> None:
        name, args = raw.head, raw.args or ()
        if raw.params and use is not None:
            key = (id(raw), use.key(raw.params))
            hit = self._bound_uses.get(key)
            if hit is None or hit[0] is not raw:
                bound_name = self.fill(raw.head, use, raw)
                bound_args = [(self.fill(text, use, raw), col) for text, col in args]
                filled = None if bound_name is None or any(
                    text is None for text, _ in bound_args) else (
                    bound_name, tuple((t, c) for t, c in bound_args if t is not None))
                hit = (raw, filled)
                self._bound_uses[key] = hit
            if hit[1] is None:
                return
            name, args = hit[1]
        if "{" in name:  # a suit variable bound by the tree: 'use raise_{M}' under 1M
            bound_name = _fill(name, binding)
            assert bound_name is not None
            free = PLACEHOLDER.search(bound_name)
            if free is not None:
                self.error(raw.location, f"'{free.group()}' in the module name '{name}' is "
                                         "a suit variable bound by none of the calls above "
                                         "this line", raw.head_col, use=use)
                return
            name = bound_name
        module = self.modules.get(name)
        if module is None:
            self.error(raw.location, f"unknown module '{name}'"
                                     f"{did_you_mean(name, self.modules)}", raw.head_col,
                       use=use)
            return
        if depth >= MAX_MODULE_DEPTH:
            self.error(raw.location, f"modules nest more than {MAX_MODULE_DEPTH} deep "
                                     f"(does '{name}' use itself?)", use=use)
            return
        # The same line with the same arguments binds alike wherever it is used (a
        # problem with them is reported once, at the first use).
        use_key = (id(raw), name, args)
        known = self._uses.get(use_key)
        if known is None or known[0] is not raw:
            known = (raw, self.bind_args(module, args, raw.location, use, raw.head_col))
            self._uses[use_key] = known
        inner = known[1]
        if inner is None:
            return
        self.expand_lines(module.body, node, point, binding, depth + 1, inner, ours_only)

    def expand_call(self, raw: RawLine, node: Node, point: _Point, binding: dict[str, str],
                    depth: int, use: _Use | None) -> None:
        if self.too_big:
            return
        bound = self.bound_line(raw, use)
        if bound is None:
            return
        line, head, where = bound
        attrs = line.attrs
        for name, value, wanted in attrs.option_guards:
            current = self.selected.get(name)
            hit = current is True if value is None else current == value
            if hit != wanted:
                return
        ours = not (head.startswith("(") and head.endswith(")"))
        inner = head if ours else head[1:-1]
        if not ours and point.ours_last is False:
            self.error(where, "two opponents' calls in a row: write our side's call "
                              "(often P) between them", raw.head_col, use=use)
            return
        before = point.before(ours)
        for call, extra, wildcard in self.resolve_head(inner, where, before, binding, ours,
                                                       attrs.if_legal, use):
            self.node_count += 1
            if self.node_count > MAX_NODES:
                self.too_big = True
                self.error(where, f"the system grows past {MAX_NODES:,} auction points "
                                  "here: modules used inside modules multiply; share the "
                                  "continuation with fewer uses", raw.head_col, use=use)
                return
            variables = {**binding, **extra} if extra else binding
            after = before.then(call, ours)
            if ours and attrs.forcing is Forcing.GAME_FORCING and not after.forced:
                after = replace(after, forced=True)
            if not ours:
                if wildcard is not None and any(o.call == call for o in node.opp):
                    continue  # an explicit line for this call wins over the wildcard
                child = Node(after.calls, False, after.label)
                asks = tuple(line.tags) + ((attrs.forcing.value,) if attrs.forcing else ())
                opp = OppEntry(wildcard or str(call), call, where, child, asks)
                node.opp.append(opp)
                self.expand(raw.children, child, after, variables, depth, use)
                if attrs.system_on:  # done when the node's own calls are all written
                    self._system_on.setdefault(id(node), []).append(
                        (opp, after, where, raw.head_col))
                continue
            entry = CallEntry(
                call=call,
                shows=self.bind(line.shows, variables, where),
                requires=None if line.requires is None else self.bind(line.requires,
                                                                      variables, where),
                guard=attrs.guard,
                forcing=attrs.forcing,
                tags=line.tags,
                alert=attrs.alert,
                description=_fill(line.description, variables),
                priority=attrs.priority,
                order=next(self.order),
                location=where,
                node=Node(after.calls, True, after.label),
                auction=after.calls,
            )
            node.calls.append(entry)
            ends = (self.end is not None or attrs.open) and self.ends_here(
                raw, call, attrs, after, where, use)
            children = self.end_lines if ends else raw.children
            self.expand(children, entry.node, after, variables, depth, use)

    def ends_here(self, raw: RawLine, call: Call, attrs: Attributes, after: _Point,
                  where: Location, use: _Use | None) -> bool:
        """Whether a call line implies the file's 'end use ...': our agreements end after
        a call with nothing indented under it, unless the call is a pass, forcing (partner
        must still bid), short of game after our game-forcing call, or marked [open]."""
        if attrs.open:
            if raw.children:
                self.error(where, "[open] is for a call with nothing indented under it: "
                                  "the lines under this one are its continuation",
                           raw.head_col, use=use)
            elif self.doc.end is None:
                self.error(where, "[open] says that nothing is implied after this call, but "
                                  "the file implies nothing anyway: it has no 'end use "
                                  "MODULE' line", raw.head_col, use=use)
            return False
        return (not raw.children and call.kind is not CallKind.PASS
                and not (attrs.forcing is not None and attrs.forcing.is_forcing)
                and not (after.forced and after.below_game)
                and not any(t in _GOES_ON or t.startswith("transfer") for t in attrs.tags))

    def bind(self, c: Constraint, binding: dict[str, str], location: Location) -> Constraint:
        """Definitions resolved and suit variables bound; one shared result per distinct
        constraint and binding, so every use of a module line shows the same object."""
        key = (id(c), tuple(binding.items()) if binding else ())
        hit = self._bound.get(key)
        if hit is not None and hit[0] is c:
            return hit[1]
        resolved = self.resolve_names(c, location)
        known = self._has_vars.get(id(resolved))
        if known is None or known[0] is not resolved:
            known = (resolved, not _VARIABLES.isdisjoint(resolved.suits()))
            self._has_vars[id(resolved)] = known
        result = substitute(resolved, binding) if known[1] else resolved
        self._bound[key] = (c, result)
        return result

    # --- one line, read once --------------------------------------------------------
    def parse_line(self, raw: RawLine, quiet: bool = False, use: _Use | None = None
                   ) -> _Line | None:
        """A call line's parts, read once per line (``quiet``: a failure is not reported,
        the caller re-reads the line with its arguments in)."""
        hit = self._lines.get(id(raw))
        if hit is not None and hit[0] is raw:
            return hit[1]
        mark = len(self.diagnostics)
        deferred: list[list[Token]] = []
        parts = self.split_line(raw, deferred if raw.params else None, use)
        line: _Line | None = None
        if parts is not None:
            shows, requires, attrs, description = parts
            cparams = tuple(n for n in raw.params if any(
                f"{{{n}}}" in (str(c) if c is not None else "") for c in (shows, requires)))
            line = _Line(shows, requires, attrs, tuple(attrs.tags), description, deferred,
                         cparams)
        if quiet and len(self.diagnostics) > mark:
            for diag in self.diagnostics[mark:]:
                self._seen.discard((diag.location, diag.message.split(" (in module ")[0]))
            del self.diagnostics[mark:]
            line = None
        self._lines[id(raw)] = (raw, line)
        return line

    def bound_line(self, raw: RawLine, use: _Use | None
                   ) -> tuple[_Line, str, Location] | None:
        """The line with this use's arguments in: parsed once and bound per distinct
        argument values (typed parameters, suits), or, for the old macro forms that only
        read as text, re-read once per distinct text."""
        if not raw.params or use is None:
            line = self.parse_line(raw, use=use)
            return None if line is None else (line, raw.head, raw.location)
        key = (id(raw), use.key(raw.params))
        hit = self._bound_lines.get(key)
        if hit is not None and hit[0] is raw:
            return hit[1]
        result: tuple[_Line, str, Location] | None = None
        head = self.fill(raw.head, use, raw) if "{" in raw.head else raw.head
        if head is not None:
            template = self.parse_line(raw, quiet=True, use=use) if raw.lexed else None
            bound = None if template is None else self.bind_line(template, raw, use)
            result = (bound, head, raw.location) if bound is not None else \
                self.reread(raw, use)
        self._bound_lines[key] = (raw, result)
        return result

    def bind_line(self, line: _Line, raw: RawLine, use: _Use) -> _Line | None:
        """Parameters bound into the parsed line; None when the line must be read as text
        (an untyped parameter standing for a constraint keeps the macro's meaning)."""
        # The constraints depend only on the parameters they mention (not on those of
        # the step, say), so uses that differ elsewhere share the bound constraints.
        key = (id(line), use.key(line.cparams))
        hit = self._bound_constraints.get(key)
        if hit is None or hit[0] is not line:
            shows = self.bind_params(line.shows, use, raw, "top")
            requires = None if line.requires is None else self.bind_params(
                line.requires, use, raw, "top")
            failed = shows is None or (line.requires is not None and requires is None)
            hit = (line, None if failed or shows is None else (shows, requires))
            self._bound_constraints[key] = hit
        if hit[1] is None:
            return None
        shows, requires = hit[1]
        attrs = line.attrs
        tags = line.tags
        if line.deferred:
            attrs = replace(attrs, tags=list(attrs.tags),
                            option_guards=list(attrs.option_guards))
            for item in line.deferred:
                text = self.fill(" ".join(t.text for t in item), use, raw)
                if text is None:
                    return None
                try:
                    tokens = tokenize(text, item[0].col - 1)
                except ConstraintSyntaxError as err:
                    self.error(raw.location, str(err), err.col, use=use)
                    return None
                if not self.parse_attributes(tokens, raw, attrs, None, use):
                    return None
            tags = tuple(attrs.tags)
        description = line.description
        if description is not None and "{" in description:
            description = self.fill(description, use, raw, in_text=True)
        return _Line(shows, requires, attrs, tags, description, [], ())

    def bind_params(self, c: Constraint, use: _Use, raw: RawLine, within: str
                    ) -> Constraint | None:
        """``{suit}`` and ``{constraint}`` parameters replaced in a parsed constraint;
        None when the line must be read as text instead. ``within`` is what holds ``c``
        ("top", "and", "or", "not"): an untyped argument spliced in as text could merge
        with its neighbours ('a | b' next to ', c'); where it would, the text decides."""
        if isinstance(c, NameRef):
            if not c.name.startswith("{"):
                return c
            name = c.name[1:-1].strip()
            kind = use.kinds.get(name)
            if kind == "constraint":
                return self.arg_constraint(use.values[name], use.places[name], use.outer)
            if kind != "text":
                return None
            value = self.arg_constraint(use.values[name], use.places[name], use.outer,
                                        quiet=True)
            if value is None or (within == "and" and isinstance(value, Or)) or (
                    within == "not" and isinstance(value, And | Or)):
                return None
            return value
        if isinstance(c, And | Or):
            inside = "and" if isinstance(c, And) else "or"
            items = []
            for item in c.items:
                bound = self.bind_params(item, use, raw, inside)
                if bound is None:
                    return None
                items.append(bound)
            return conjoin(items) if isinstance(c, And) else disjoin(items)
        if isinstance(c, Not):
            inner = self.bind_params(c.item, use, raw, "not")
            return None if inner is None else negate(inner)
        if isinstance(c, SuitRange | SuitFlag | Longest | SuitCompare | SuitIs):
            suits: dict[str, str] = {}
            for attr in ("suit", "left", "right"):
                value = getattr(c, attr, None)
                if isinstance(value, str) and value.startswith("{"):
                    suit = use.values.get(value[1:-1])
                    if suit is None or suit not in SUIT_TOKENS:
                        return None  # not a suit: the macro's text splice decides
                    suits[attr] = suit
            if isinstance(c, SuitIs):
                return bound_relation(replace(c, **suits)) if suits else c
            return replace(c, **suits) if suits else c  # type: ignore[arg-type]
        return c

    def reread(self, raw: RawLine, use: _Use) -> tuple[_Line, str, Location] | None:
        """The line's text with the arguments in, read as a line of its own (once per
        distinct text): the old macro's meaning, and the place for ``{lo}-{lo+3}``."""
        assert raw.template is not None
        text = self.fill(raw.template, use, raw, typed_parens=True)
        if text is None:
            return None
        col = raw.location.col
        key = (raw.location.file, raw.location.line, text)
        again = self._reread.get(key)
        if again is None:
            doc = Document(raw.location.file)
            again = _parse_tree_line(doc, raw.location.line, " " * (col - 1) + text, text,
                                     col, raw.indent)
            for diag in doc.diagnostics:
                self.error(diag.location, diag.message, use=use)
            self._reread[key] = again
        if again is None:
            return None
        line = self.parse_line(again, use=use)
        return None if line is None else (line, again.head, again.location)

    def fill(self, text: str, use: _Use, raw: RawLine, in_text: bool = False,
             typed_parens: bool = False) -> str | None:
        """``text`` with ``{param}`` and ``{param+2}`` replaced by this use's arguments.
        A place-holder naming no parameter is kept (``{M}`` in a description is the suit
        variable's). With ``typed_parens`` a constraint argument outside quotes goes in
        parentheses, so it counts as one part."""
        failed: list[str] = []
        code = _STRING.sub(lambda m: " " * len(m.group()), text) if typed_parens else ""

        def one(m: re.Match[str]) -> str:
            expr = m.group(1)
            names = _NAME.findall(expr)
            if not names or any(n not in use.values for n in names if not n.isdigit()):
                return m.group()
            plain = expr.strip()
            if plain in use.values:
                value = use.values[plain]
                if (typed_parens and use.kinds.get(plain) == "constraint"
                        and not in_text and code[m.start()] == "{"):
                    return f"({value})"
                return value
            total = _arithmetic(expr, use.values)
            if total is None:
                bad = next(n for n in names if not n.isdigit()
                           and _arithmetic(use.values[n], {}) is None)
                failed.append(f"'{m.group()}' adds to '{bad}', which is "
                              f"'{use.values[bad]}', not a number")
                return m.group()
            return str(total)

        out = PLACEHOLDER.sub(one, text)
        if failed:
            self.error(raw.location, failed[0], use=use)
            return None
        return out

    def resolve_head(self, inner: str, where: Location, before: _Point,
                     binding: dict[str, str], ours: bool, if_legal: bool, use: _Use | None
                     ) -> list[tuple[Call, dict[str, str], str | None]]:
        """The concrete calls a call token stands for, with the variables each binds.
        Steps and legality depend on the auction, so this is done at every use."""
        col = where.col
        kind_key = (inner, ours)
        head = self._heads.get(kind_key)
        if head is None:
            head = _read_head(inner, ours)
            self._heads[kind_key] = head
        form, value = head
        results: list[tuple[Call, dict[str, str], str | None]] = []
        if form == "wild":
            assert isinstance(value, str)
            return [(c, {}, value) for c in before.legal_calls()
                    if c.kind is not CallKind.PASS and (value == "any" or c.is_bid)]
        if form == "step":
            assert isinstance(value, tuple)
            step_kind, n = value
            call = before.step(step_kind, n)
            if call is None:
                if not if_legal:
                    self.error(where, f"step {inner} does not exist here (after "
                                      f"'{before.text()}')", col, use=use)
                return []
            results.append((call, {}, None))
        elif form == "next":
            assert isinstance(value, tuple)
            jumps, strain = value
            if strain in SUIT_VARIABLES:
                choices = [binding[strain]] if strain in binding else variable_values(
                    strain, binding)
                made = [(before.next_in(s, jumps), {strain: s}) for s in choices]
            else:
                made = [(before.next_in(strain, jumps), {})]
            for call, bound in made:
                if call is not None:
                    results.append((call, bound, None))
            if not results:
                if not if_legal:
                    self.error(where, f"{inner}: there is no such bid after '{before.text()}'",
                               col, use=use)
                return []
        elif form == "var":
            assert isinstance(value, tuple)
            level, var = value
            choices = [binding[var]] if var in binding else variable_values(var, binding)
            for suit in choices:
                results.append((_BIDS[(level, suit)], {var: suit}, None))
        elif form == "call":
            assert isinstance(value, Call)
            results.append((value, {}, None))
        else:
            assert isinstance(value, str)
            self.error(where, value, col, use=use)
            return []
        legal = [r for r in results if before.legal(r[0])]
        # A suit variable stands for the suits whose bid is legal here; a written call, or
        # a variable legal for no suit at all, is a mistake (unless the line says 'if legal').
        if len(legal) < len(results) and (len(results) == 1 or not legal) and not if_legal:
            call = next(r[0] for r in results if not before.legal(r[0]))
            self.error(where, f"{call} is not legal after '{before.text()}': "
                              f"{before.reason(call)}", col, use=use)
        return legal

    def split_line(self, raw: RawLine, deferred: list[list[Token]] | None = None,
                   use: _Use | None = None
                   ) -> tuple[Constraint, Constraint | None, Attributes, str | None] | None:
        """Separate a call line's constraint, 'requires' part, [attributes] and description.

        With ``deferred`` (a module line), attributes that hold a parameter are kept there
        to be read at each use."""
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
                    self.error(raw.location, "'[' without a closing ']'", tok.col, use=use)
                    return None
                ok = self.parse_attributes(tokens[i + 1:j], raw, attrs, deferred, use) and ok
                i = j + 1
            else:
                if description is not None:
                    self.error(raw.location, "a description must come after the constraint "
                                             "and the [attributes]", tok.col, use=use)
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
            self.error(raw.location, str(err), err.col, use=use)
            return None
        return (shows, requires, attrs, description) if ok else None

    def parse_attributes(self, tokens: list[Token], raw: RawLine, attrs: Attributes,
                         deferred: list[list[Token]] | None = None, use: _Use | None = None
                         ) -> bool:
        items: list[list[Token]] = [[]]
        for tok in tokens:
            if tok.text in (",", ";"):
                items.append([])
            else:
                items[-1].append(tok)
        ok = True
        for item in (it for it in items if it):
            if deferred is not None and any("{" in t.text for t in item):
                deferred.append(item)  # read at each use, with the argument in
                continue
            first = item[0]
            word = first.text.lower()
            col = first.col
            if len(item) == 1 and word in FORCING_WORDS:
                if attrs.forcing is not None:
                    self.error(raw.location, "two forcing levels on one call", col, use=use)
                    ok = False
                attrs.forcing = FORCING_WORDS[word]
            elif len(item) == 1 and word in ("alert", "noalert"):
                attrs.alert = word == "alert"
            elif word == "priority":
                if len(item) == 2 and re.fullmatch(r"-?\d+", item[1].text):
                    attrs.priority = int(item[1].text)
                else:
                    self.error(raw.location, "write 'priority N' with a whole number", col,
                               use=use)
                    ok = False
            elif len(item) == 1 and word == "open":
                attrs.open = True
            elif word == "system" and (len(item) != 2 or item[1].text != "on"):
                self.error(raw.location, "write 'system on' (on their double: '(X) [system "
                                         "on]')", col, use=use)
                ok = False
            elif word == "system":
                if raw.head != "(X)":
                    where = "our own call" if not raw.head.startswith("(") else \
                        f"their {raw.head}: after a bid of theirs some of our calls are " \
                        "no longer legal (write the continuation as a module and 'use' it)"
                    self.error(raw.location, "[system on] belongs on their double, '(X) "
                                             "[system on]' (it keeps our calls after their "
                                             f"pass on after it), not on {where}", col,
                               use=use)
                    ok = False
                else:
                    attrs.system_on = True
            elif word == "if" and len(item) == 2 and item[1].text == "legal":
                # Made only where the Laws allow it: at other uses the line is skipped.
                attrs.if_legal = True
            elif word in ("if", "unless"):
                if len(item) == 2 and item[1].kind == "IDENT":
                    name, value = item[1].text, None
                elif len(item) == 4 and item[2].text == "=":
                    name, value = item[1].text, item[3].text
                else:
                    self.error(raw.location, f"write '{word} OPTION' or '{word} OPTION=VALUE'",
                               col, use=use)
                    ok = False
                    continue
                decl = self.options.get(name) or next(
                    (OptionDecl(n, v, d, loc) for n, v, d, loc in self.doc.options if n == name),
                    None)
                if decl is None:
                    names = [n for n, *_ in self.doc.options]
                    hint = " ('if legal' makes a call only where it is legal)" \
                        if name == "legal" else ""
                    self.error(raw.location, f"unknown option '{name}'"
                                             f"{did_you_mean(name, names)}{hint}", item[1].col,
                               use=use)
                    ok = False
                elif value is not None and value not in decl.values:
                    self.error(raw.location, f"option '{name}' has no value '{value}' "
                                             f"(values: {', '.join(decl.values)})", item[3].col,
                               use=use)
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
                    known = [*TAGS, *FORCING_WORDS, "alert", "noalert", "priority", "if", "open",
                             "unless", *CONTEXT_WORDS, "seat", "legal"]
                    self.error(raw.location, f"unknown attribute '{first.text}'"
                                             f"{did_you_mean(word, known)}", col, use=use)
                    ok = False
                    continue
                attrs.guard = conjoin([attrs.guard, guard])
        return ok

    def check_duplicates(self, node: Node) -> None:
        by_call: dict[int, list[CallEntry]] = {}
        for entry in node.calls:
            by_call.setdefault(id(entry.call), []).append(entry)  # calls are canonical
        for entries in by_call.values():
            for i, b in enumerate(entries):  # each against the first it clashes with:
                for a in entries[:i]:        # n copies are n-1 problems, not n(n-1)/2
                    clash = next((ctx for ctx in ALL_CONTEXTS if context_holds(a.guard, ctx)
                                  and context_holds(b.guard, ctx)), None)
                    if clash is not None:
                        self.error(b.location, f"{b.call} is defined twice at this point (also "
                                               f"at line {a.location.line}); give the variants "
                                               "disjoint guards such as [seat 1-2] / [seat 3-4]")
                        break
        seen: dict[tuple[str, tuple[str, ...]], OppEntry] = {}
        for opp in node.opp:
            key = (str(opp.call), tuple(sorted(opp.meaning)))
            if key in seen:
                asks = f" [{', '.join(opp.meaning)}]" if opp.meaning else ""
                self.error(opp.location, f"opponents' ({key[0]}){asks} appears twice here "
                                         f"(also at line {seen[key].location.line}); tell "
                                         "the lines apart by the meaning they answer, as "
                                         "(1C) [strong] and (1C) [natural]")
            seen.setdefault(key, opp)


@dataclass(slots=True)
class _Point:
    """Where the expansion stands: the actual calls so far (implicit passes in), what the
    Laws need to judge the next call, and the tree path as written. Each step is O(1), so
    a deep tree does not rebuild its auction at every line."""

    calls: tuple[Call, ...] = ()
    last: int = -1  # index of the last bid, -1 before the first
    top: int = -1  # ladder rank of the last bid (1C = 0), -1 before the first
    doubled: int = 0  # the last bid's state: 0, 1 doubled, 2 redoubled
    passes: int = 0  # passes since the last bid or double (since the start before any)
    label: str = ""
    ours_last: bool | None = None  # whether the tree path's last call was ours
    forced: bool = False  # our side has made a game-forcing call on the way here

    @property
    def below_game(self) -> bool:
        """Whether the last bid is short of game (3NT, 4H, 4S, 5C, 5D)."""
        level, strain = self.top // 5 + 1, self.top % 5
        return level < (3 if strain == 4 else 4 if strain >= 2 else 5)

    @property
    def ended(self) -> bool:
        return self.passes >= (4 if self.last < 0 else 3)

    def legal(self, call: Call) -> bool:
        if self.passes >= (4 if self.last < 0 else 3):
            return False
        kind = call.kind
        if kind is CallKind.BID:
            return _RANK[id(call)] > self.top
        if kind is CallKind.PASS:
            return True
        if self.last < 0:
            return False
        theirs = (len(self.calls) - self.last) % 2 == 1  # the bid is the opponents'
        if kind is CallKind.DOUBLE:
            return theirs and self.doubled == 0
        return not theirs and self.doubled == 1

    def reason(self, call: Call) -> str:
        """Why ``call`` is illegal here, in the Laws' words (the rare error path)."""
        try:
            Auction().extend(self.calls).add(call)
        except IllegalCallError as err:
            return err.reason
        return "not legal here"

    def text(self) -> str:
        return " ".join(map(str, self.calls)) or "the start"

    def before(self, ours: bool) -> _Point:
        """The point at which our next call is made: the opponents' pass between two of
        our calls is implicit."""
        if ours and self.ours_last:
            return _Point((*self.calls, PASS), self.last, self.top, self.doubled,
                          self.passes + 1, self.label, self.ours_last, self.forced)
        return self

    def then(self, call: Call, ours: bool) -> _Point:
        kind = call.kind
        if kind is CallKind.BID:
            last, top, doubled, passes = len(self.calls), _RANK[id(call)], 0, 0
        elif kind is CallKind.PASS:
            last, top, doubled, passes = self.last, self.top, self.doubled, self.passes + 1
        else:
            last, top, doubled, passes = (self.last, self.top,
                                          1 if kind is CallKind.DOUBLE else 2, 0)
        token = _OURS[id(call)] if ours else _THEIRS[id(call)]
        label = f"{self.label} {token}" if self.label else token
        return _Point((*self.calls, call), last, top, doubled, passes, label, ours,
                      self.forced)

    def legal_calls(self) -> list[Call]:
        if self.ended:
            return []
        out = [c for c in (PASS, DOUBLE, REDOUBLE) if self.legal(c)]
        out.extend(ALL_BIDS[self.top + 1:])
        return out

    def next_in(self, strain: str, jumps: int) -> Call | None:
        """The cheapest bid in ``strain`` (C, D, H, S, NT) above the last bid, or the bid
        ``jumps`` levels above that; None past 7NT."""
        order = _STRAIN_ORDER[strain]
        level = self.top // 5 + (1 if order > self.top % 5 or self.top < 0 else 2)
        rank = (level - 1 + jumps) * 5 + order
        return ALL_BIDS[rank] if rank < len(ALL_BIDS) else None

    def step(self, kind: str, n: int) -> Call | None:
        """The call a step stands for here; None when there is no such step."""
        if n < 1:
            return None
        rank = self.top + n
        if kind == "R":
            rank = self.top + 1
            if rank == _3NT_RANK:
                rank += 1  # 3NT is never a relay
        elif kind == "~":
            extra = [c for c in (PASS, DOUBLE, REDOUBLE) if self.legal(c)]
            if n <= len(extra):
                return extra[n - 1]
            rank -= len(extra)
        return ALL_BIDS[rank] if rank < len(ALL_BIDS) else None


START = _Point()


@dataclass
class _Use:
    """One use of a module: each parameter's argument, checked for its kind."""

    module: Module
    values: dict[str, str]
    places: dict[str, Location]  # where each argument was written (or the default)
    site: Location
    outer: _Use | None
    kinds: dict[str, str]
    keys: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)

    def where(self) -> str:
        return f"in module '{self.module.name}' used at {self.site}"

    def key(self, names: tuple[str, ...]) -> tuple[str, ...]:
        """The arguments of ``names``: what a line that refers to them depends on."""
        found = self.keys.get(names)
        if found is None:
            found = tuple(self.values[n] for n in names)
            self.keys[names] = found
        return found


@dataclass
class _Line:
    """A call line read once: what the call shows and requires, its attributes."""

    shows: Constraint
    requires: Constraint | None
    attrs: Attributes
    tags: tuple[str, ...]
    description: str | None
    deferred: list[list[Token]]  # attributes that hold a parameter, read at each use
    cparams: tuple[str, ...] = ()  # the parameters its constraints mention


_3NT_RANK = Call.parse("3NT").rank
# Every call the expansion makes is one of these 38 objects, so the tables below are keyed
# by identity: hashing a Call (a dataclass of enums) costs more than the rest of a step.
_CALLS = (PASS, DOUBLE, REDOUBLE, *ALL_BIDS)
_CANONICAL = {c: c for c in _CALLS}
_RANK = {id(c): c.rank for c in _CALLS}
_OURS = {id(c): str(c) for c in _CALLS}
_THEIRS = {id(c): f"({c})" for c in _CALLS}
_VARIABLES = frozenset(SUIT_VARIABLES)
_BIDS = {(level, suit): _CANONICAL[Call.bid(level, Strain.parse(suit))]
         for level in range(1, 8) for suit in "CDHS"}
_KEYWORD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)(.*)$", re.DOTALL)
_SUIT_ARGS = frozenset(("S", "H", "D", "C", *SUIT_VARIABLES))
_TERM = re.compile(r"\s*([+-]?)\s*([A-Za-z_]\w*|\d+)\s*")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _arithmetic(expr: str, values: Mapping[str, str]) -> int | None:
    """``lo+3``, ``1+{shift}``-style sums of whole numbers and numeric arguments."""
    total = 0
    pos = 0
    text = expr.strip()
    if not text:
        return None
    first = True
    while pos < len(text):
        m = _TERM.match(text, pos)
        if m is None or m.end() == pos or (not first and not m.group(1)):
            return None
        first = False
        term = m.group(2)
        if term.isdigit():
            value = int(term)
        else:
            raw = values.get(term)
            if raw is None or not re.fullmatch(r"\s*-?\d+\s*", raw):
                return None
            value = int(raw)
        total += -value if m.group(1) == "-" else value
        pos = m.end()
    return total


def _is_measure(word: str) -> bool:
    return find_measure(measure_name(word)) is not None or word.lower() in CONTEXT_WORDS


def _placeholder_names(c: Constraint) -> bool:
    return any(t.name.startswith("{") if isinstance(t, NameRef)
               else any(s.startswith("{") for s in t.suits()) for t in terms(c))


def _has_names(c: Constraint) -> bool:
    return any(isinstance(t, NameRef) for t in terms(c))


def _read_head(inner: str, ours: bool) -> tuple[str, object]:
    """What a call token is: a wildcard, a step, a bid with a suit variable, a call, or a
    message saying why it cannot be read."""
    if not ours and inner.lower() in _WILDCARDS:
        return ("wild", inner.lower())
    step = _step(inner)
    if step is not None:
        return ("step", step)
    following = _NEXT_IN.match(inner)
    if following is not None:
        strain = "NT" if following.group(2) == "N" else following.group(2)
        return ("next", (len(following.group(1)) - 1, strain))
    m = _BID_HEAD.match(inner)
    if m and m.group(2) in SUIT_VARIABLES:
        return ("var", (int(m.group(1)), m.group(2)))
    try:
        return ("call", _CANONICAL[Call.parse(inner)])
    except NotationError:
        hint = " (opponents' wildcards: (any), (bid))" if not ours else ""
        return ("bad", f"cannot read call '{inner}': write 1C..7NT, P, X, XX, a step like +1, "
                       f"or a suit variable like 2M{hint}")


_STEP = re.compile(r"^(\+|~)(\d+|\([\d+\- ]+\))$")
_NEXT_IN = re.compile(r"^(\+\+?)(NT|N|oM|om|[CDHSMmZY])$")
"""'+H': the cheapest bid in hearts here; '++H' a jump, one level above it; '+NT', '+M'."""
_STRAIN_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4}


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


def _fill(description: str | None, binding: dict[str, str]) -> str | None:
    """Put bound suits into a description: '{M}' becomes 'H'."""
    if description is None or not binding or "{" not in description:
        return description
    for var, suit in binding.items():
        description = description.replace("{" + var + "}", suit)
    return description


def compile_text(text: str, file: str = "<text>", options: Mapping[str, str | bool] | None = None,
                 base_dir: Path | None = None, depends: dict[str, str | None] | None = None
                 ) -> System:
    """Compile system-language text; raises SystemFileError listing every problem.

    ``depends``, when given, receives every other file the compile looked at: its path
    and a hash of its text, or None for a file looked for and not there (an include or a
    base that might appear later), so a cached result can tell when it is stale.
    """
    doc = parse_document(text, file, options)
    root = (base_dir or Path(file).parent).resolve()

    def read(full: Path) -> str | None:
        try:
            there = full.is_file()
        except OSError:  # a name too long for the file system (issue 17 fuzzer)
            there = False
        found = read_system_file(full) if there else None
        if depends is not None:
            depends[str(full)] = None if found is None else text_hash(found)
        return found

    def read_include(path: str) -> Document | str:
        candidate = Path(path)
        if candidate.is_absolute() or ".." in candidate.parts:
            return (f"include '{shown(path)}': only files beside the system file (no "
                    "absolute paths or '..')")
        full = root / candidate
        found = read(full)
        if found is None:
            return f"include '{shown(path)}': no such file beside the system file"
        return parse_document(found, str(full), options, doc.options)

    def read_base(path: str) -> System | str:
        # A base is looked for beside the system file, then among the shipped files, so a
        # partnership's own system can name the shipped natural base.
        found = read_include(path)
        if isinstance(found, str):
            shipped = Path(__file__).resolve().parents[1] / "systems" / path
            shipped_text = read(shipped) if Path(path).name == path else None
            if shipped_text is None:
                return found.replace("include", "base", 1)
            found = parse_document(shipped_text, str(shipped))
        if found.diagnostics:
            raise SystemFileError(found.diagnostics)
        return Compiler(found, {}, read_include).run()

    return Compiler(doc, options or {}, read_include, read_base).run()


def text_hash(text: str) -> str:
    """The hash by which a cached compile recognises a file's text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_wildcard(head: str) -> bool:
    return head.startswith("(") and head[1:-1].lower() in _WILDCARDS


__all__ = ["ALL_CONTEXTS", "Compiler", "OptionError", "TableContext", "compile_text",
           "context_holds"]
