"""``bidbox diff``: which hands bid differently between two versions of a system, and what
it costs in IMPs.

The structure and behaviour come from :mod:`bidbox.verify.diff`, the double-dummy cost
from :mod:`bidbox.sim.diff_cost`; this module reads the arguments, ties the three
together and prints them (text, ``--json``, or an HTML page with ``--html``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from bidbox.cli.validate import nonempty
from bidbox.errors import DiffArgumentError as DiffArgumentError
from bidbox.files import describe_error, write_file
from bidbox.lang import parse_options
from bidbox.lang.compiler import OptionError
from bidbox.sim.deals import check_deal_arguments, deal_boards
from bidbox.sim.diff_cost import DiffCost, diff_cost
from bidbox.verify.diff import (
    Behaviour,
    SystemVersion,
    behaviour_diff,
    change_to_json,
    load_version,
    structural_diff,
)

DEFAULT_DEALS = 20_000
DEFAULT_SEED = 1
SHOWN = 25
"""Rows of each list printed as text (the JSON and the HTML page have them all)."""


def default_store() -> Path | None:
    """The store of double-dummy cells when no --out is given: bidbox's cache folder, so
    that a second diff of the same deals solves nothing again."""
    from bidbox.lang.cache import cache_dir

    folder = cache_dir()
    return None if folder is None else folder / "diff"


def run_diff(now: SystemVersion, was: SystemVersion, deals: int, seed: int = DEFAULT_SEED,
             out: Path | None = None, progress: bool | None = None) -> dict[str, Any]:
    """The whole diff as its public JSON form (``deals`` 0: the structure only)."""
    started = time.perf_counter()
    nodes = structural_diff(now.system, was.system)
    report: dict[str, Any] = {
        "now": now.describe(), "was": was.describe(), "deals": deals, "seed": seed,
        "sampled": deals > 0, "nodes": [n.to_json() for n in nodes],
        "changed_share": None, "changed_deals": None, "imps_per_board": None,
        "ci95": None, "imps_per_changed_board": None, "ci95_changed": None,
        "changes": [], "swings": [], "exact_openings": None, "cost": None,
    }
    seconds = {"structure": time.perf_counter() - started}
    if deals > 0:
        check_deal_arguments(deals, seed, "--deals", "--seed")
        boards = deal_boards(deals, seed)
        start = time.perf_counter()
        behaviour: Behaviour = behaviour_diff(
            now.system, was.system, boards.masks,
            [boards.dealer(r) for r in range(deals)], [boards.vul(r) for r in range(deals)],
            progress=progress)
        seconds["bidding"] = time.perf_counter() - start
        start = time.perf_counter()
        cost: DiffCost = diff_cost(boards, behaviour.now_ns, behaviour.was_ns,
                                   behaviour.changed, out, progress)
        seconds["double_dummy"] = time.perf_counter() - start
        report.update({
            "changed_share": behaviour.changed_share,
            "changed_deals": int(behaviour.changed.sum()),
            "imps_per_board": cost.imps_per_board, "ci95": list(cost.ci95),
            "imps_per_changed_board": cost.imps_per_changed_board,
            "ci95_changed": list(cost.ci95_changed), "imps_total": cost.imps_total,
            "changes": [change_to_json(k, deals) for k in behaviour.changes],
            "swings": cost.swings(10), "exact_openings": behaviour.exact_openings,
            "cost": cost.to_json()})
    seconds["total"] = time.perf_counter() - started
    report["seconds"] = {k: round(v, 2) for k, v in seconds.items()}
    return report


def _version_name(version: dict[str, Any]) -> str:
    name = str(version["system"])
    options = version["options"]
    if options:
        name += " (" + ", ".join(k if v is True else f"{k}={v}"
                                 for k, v in options.items()) + ")"
    return name


def _where(auction: str) -> str:
    return auction if auction else "(opening)"


def report_lines(report: dict[str, Any]) -> list[str]:
    """The text a person reads in the terminal."""
    lines = [f"bidbox diff: now {_version_name(report['now'])} against was "
             f"{_version_name(report['was'])}"]
    nodes = report["nodes"]
    kinds = {k: sum(1 for n in nodes if n["change"] == k) for k in ("changed", "added",
                                                                    "removed")}
    lines.append(f"structure: {kinds['changed']} nodes changed, {kinds['added']} added, "
                 f"{kinds['removed']} removed" + (" (the trees are the same)" if not nodes
                                                  else ""))
    for node in nodes[:SHOWN]:
        if node["change"] != "changed":
            lines.append(f"  {_where(node['auction'])}: node {node['change']} "
                         f"({node['nodes']} nodes with calls)")
            continue
        for call in node["calls"]:
            what = f" ({', '.join(call['what'])})" if call["what"] else ""
            lines.append(f"  {_where(node['auction'])}: {call['call']} {call['change']}{what}")
            for side in ("was", "now"):
                if call[side]:
                    m = call[side]
                    line = m["line"] if len(m["line"]) <= 80 else m["line"][:77] + "..."
                    lines.append(f"      {side}: {m['meaning']}  [{Path(m['location']).name}]"
                                 f"  {line}")
        if node["order"]:
            lines.append(f"  {_where(node['auction'])}: calls tried in another order: was "
                         f"{' '.join(node['order']['was'])}, now "
                         f"{' '.join(node['order']['now'])}")
    if len(nodes) > SHOWN:
        lines.append(f"  ... and {len(nodes) - SHOWN} more (see --json or --html)")
    if not report["deals"]:
        return lines
    share = report["changed_share"]
    lines.append(f"behaviour ({report['deals']:,} dealt deals, seed {report['seed']}, sampled): "
                 f"{share:.2%} of deals bid differently ({report['changed_deals']:,})")
    exact = report["exact_openings"]
    lines.append(f"  the dealer's opening, {exact['method']} over every hand both versions' "
                 f"notes decide ({exact['decided_by_notes']:.1%} of hands): "
                 f"{exact['changed']:.2%} open differently")
    for change in report["changes"][:SHOWN]:
        how = "exact" if change["method"] == "exact" else (
            "pool" if change["method"] != "sampled" else "sampled")
        lines.append(f"  {_where(change['auction']):<16} {change['probability']:7.2%} {how:<7}"
                     f" of deals (reached on {change['reach']:.1%})  "
                     f"{change['witness']}: was {change['was']}, now {change['now']}")
    if len(report["changes"]) > SHOWN:
        lines.append(f"  ... and {len(report['changes']) - SHOWN} more kinds of change")
    lo, hi = report["ci95"]
    clo, chi = report["ci95_changed"]
    lines.append(f"cost (double dummy on the {report['changed_deals']:,} changed deals; the "
                 f"others score 0): {report['imps_per_board']:+.3f} IMPs per board "
                 f"(95% interval {lo:+.3f} to {hi:+.3f}), {report['imps_per_changed_board']:+.2f}"
                 f" per changed board ({clo:+.2f} to {chi:+.2f}); IMPs are the new version's")
    for swing in report["swings"][:5]:
        one, two = swing["tables"]
        lines.append(f"  board {swing['board']} ({swing['dealer']} deals, {swing['vul']}): "
                     f"{swing['imps']:+d} IMPs")
        lines.append(f"      now N-S: {one['auction']}  ->  {one['contract'] or 'pass'} "
                     f"{one['declarer'] or ''} {one['ns_score']:+d}")
        lines.append(f"      was N-S: {two['auction']}  ->  {two['contract'] or 'pass'} "
                     f"{two['declarer'] or ''} {two['ns_score']:+d}")
    cost = report["cost"]
    lines.append(f"double dummy: {cost['cells_solved']} contracts solved, "
                 f"{cost['cells_from_store']} from the store"
                 + (f" ({cost['store']})" if cost["store"] else "")
                 + f"; {report['seconds']['total']:.0f} s")
    return lines


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>bidbox diff: {{ now }} against {{ was }}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; }
td, th { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #eef; } .was { color: #a33; } .now { color: #272; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.big { font-size: 1.2em; font-weight: bold; } code { font-size: .95em; }
</style></head><body>
<h1>bidbox diff: <span class="now">{{ now }}</span> against <span class="was">{{ was }}</span></h1>
{% if r.deals %}
<p class="big">{{ "%.2f%%"|format(100 * r.changed_share) }} of {{ "{:,}".format(r.deals) }} deals
bid differently; {{ "%+.3f"|format(r.imps_per_board) }} IMPs per board
(95% interval {{ "%+.3f"|format(r.ci95[0]) }} to {{ "%+.3f"|format(r.ci95[1]) }}),
{{ "%+.2f"|format(r.imps_per_changed_board) }} per changed board.</p>
<p>Deals dealt by seed {{ r.seed }} (sampled); only the changed deals are solved double dummy,
the others score 0. IMPs are the new version's.</p>
{% endif %}
{% set one = r.nodes|length == 1 %}
<h2>Structure: {{ r.nodes|length }} node{{ "" if one else "s" }} differ{{ "s" if one else "" }}</h2>
{% if r.nodes %}<table><tr><th>auction</th><th>call</th><th>change</th>
<th class="was">was</th><th class="now">now</th></tr>
{% for node in r.nodes %}{% if node.change != "changed" %}
<tr><td>{{ node.auction or "(opening)" }}</td><td></td><td>node {{ node.change }}</td>
<td colspan="2">{{ node.nodes }} nodes with calls</td></tr>
{% else %}{% for c in node.calls %}
<tr><td>{{ node.auction or "(opening)" }}</td><td>{{ c.call }}</td>
<td>{{ c.change }}{% if c.what %} ({{ c.what|join(", ") }}){% endif %}</td>
<td class="was">{% if c.was %}{{ c.was.meaning }}<br><code>{{ c.was.line }}</code>
<br><small>{{ c.was.location }}</small>{% endif %}</td>
<td class="now">{% if c.now %}{{ c.now.meaning }}<br><code>{{ c.now.line }}</code>
<br><small>{{ c.now.location }}</small>{% endif %}</td></tr>
{% endfor %}{% if node.order %}<tr><td>{{ node.auction or "(opening)" }}</td><td></td>
<td>order</td><td class="was">{{ node.order.was|join(" ") }}</td>
<td class="now">{{ node.order.now|join(" ") }}</td></tr>{% endif %}{% endif %}{% endfor %}
</table>{% else %}<p>The two trees are the same.</p>{% endif %}
{% if r.deals %}
<h2>Behaviour: where the chosen call changes</h2>
<p>The dealer's opening, {{ r.exact_openings.method }} over the hands both versions' notes
decide ({{ "%.1f%%"|format(100 * r.exact_openings.decided_by_notes) }} of hands):
{{ "%.2f%%"|format(100 * r.exact_openings.changed) }} open differently.</p>
<table><tr><th>auction</th><th class="was">was</th><th class="now">now</th>
<th class="num">share of deals</th><th>method</th><th class="num">reached</th>
<th>witness</th><th>what partner is told</th></tr>
{% for c in r.changes %}<tr><td>{{ c.auction or "(opening)" }}</td>
<td class="was">{{ c.was }}</td><td class="now">{{ c.now }}</td>
<td class="num">{{ "%.3f%%"|format(100 * c.probability) }}</td><td>{{ c.method }}</td>
<td class="num">{{ "%.1f%%"|format(100 * c.reach) }}</td><td><code>{{ c.witness }}</code></td>
<td>{% for call, readings in c.explanation.items() %}<b>{{ call }}</b>:
{% if readings.was %}<br><span class="was">was: {{ readings.was }}</span>{% endif %}
{% if readings.now %}<br><span class="now">now: {{ readings.now }}</span>{% endif %}<br>
{% endfor %}</td></tr>{% endfor %}</table>
<h2>Biggest swings</h2>
<table><tr><th>board</th><th class="num">IMPs</th><th>now North-South</th>
<th>was North-South</th></tr>
{% for s in r.swings %}<tr><td>{{ s.board }} ({{ s.dealer }}, {{ s.vul }})<br>
<small>{{ s.deal }}</small></td><td class="num">{{ "%+d"|format(s.imps) }}</td>
{% for t in s.tables %}<td>{{ t.auction }}<br>{{ t.contract or "pass" }} {{ t.declarer or "" }}
{{ "%+d"|format(t.ns_score) }}</td>{% endfor %}</tr>{% endfor %}</table>
{% endif %}
</body></html>
"""


def render_html(report: dict[str, Any]) -> str:
    """The report as one self-contained HTML page (Jinja2, escaped)."""
    import jinja2

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(_PAGE).render(r=report, now=_version_name(report["now"]),
                                         was=_version_name(report["was"]))


def _load(argument: str, options: list[str] | None, name: str, option_name: str
          ) -> SystemVersion:
    try:
        return load_version(argument, parse_options(options), name)
    except OptionError as err:
        raise DiffArgumentError(f"{option_name} (for {name} '{argument}'): {err}") from None


def cmd_diff(args: argparse.Namespace) -> int:
    if args.deals < 0:
        raise DiffArgumentError(f"--deals must be 0 (the structure only) or more, not "
                                f"{args.deals}")
    now = _load(args.system, args.option, "--system", "--option")
    was = _load(args.against or args.system, args.against_option, "--against",
                "--against-option")
    out = Path(args.out) if args.out else default_store()
    report = run_diff(now, was, args.deals, args.seed, out)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for line in report_lines(report):
            print(line)
    if args.html:  # after the report, so a page that cannot be written loses nothing else
        path = Path(args.html)
        try:
            write_file(path, render_html(report))  # whole or not at all
        except OSError as err:
            kept = f"; the solved deals are kept in '{out}'" if out is not None else ""
            print(f"bidbox diff: error: --html '{path}': cannot write it: "
                  f"{describe_error(err)} (nothing written there; the report above is "
                  f"complete{kept})", file=sys.stderr)
            return 2
        if not args.json:
            print(f"written to {args.html}", file=sys.stderr)
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``diff`` to the ``bidbox`` command."""
    p = sub.add_parser(
        "diff", help="which hands bid differently between two versions of a system, and "
                     "the IMPs it costs",
        description="Compare --system (now) against --against (was): the tree, the hands "
                    "that now choose another call on dealt deals, and a double-dummy match "
                    "on the deals that changed. A system is a shipped name or a .bbx path, "
                    "optionally NAME@REV for the file at a git revision.")
    p.add_argument("--system", required=True, metavar="A", type=nonempty,
                   help="the new version")
    p.add_argument("--against", metavar="B", type=nonempty,
                   help="the version compared against (default: --system again, with "
                        "--against-option)")
    p.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                   help="an option of --system (repeatable)")
    p.add_argument("--against-option", action="append", metavar="NAME[=VALUE]",
                   help="an option of --against (repeatable)")
    p.add_argument("--deals", type=int, default=DEFAULT_DEALS, metavar="N",
                   help=f"deals to bid (default {DEFAULT_DEALS:,}; 0: the structure only)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help=f"dealing seed (default {DEFAULT_SEED})")
    p.add_argument("--out", metavar="DIR", type=nonempty,
                   help="folder of the double-dummy store (default: bidbox's cache folder)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--html", metavar="PATH", type=nonempty,
                   help="also write the report as an HTML page")
    p.set_defaults(func=cmd_diff)


__all__ = ["DiffArgumentError", "add_parsers", "cmd_diff", "default_store", "render_html",
           "report_lines", "run_diff"]
