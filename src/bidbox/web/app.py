"""The web app: one page for the bidding table and the JSON API it uses.

``create_app(db_path)`` builds the FastAPI application over a :class:`TableStore`;
``bidbox serve`` runs it with uvicorn. Every route is a thin layer over
:mod:`bidbox.web.table`, which calls the same library functions as the CLI.

Sessions: a browser (or any HTTP client that keeps cookies) gets a random session
cookie on its first request; tables belong to the session that created them, and a
table of another session answers 404 exactly like one that does not exist, so one person
cannot read or even probe another's boards.

Errors: a :class:`~bidbox.errors.BidboxError` from the request's content (unknown system
or option, a call that cannot be read or is illegal, a malformed constraint or PBN file)
is 400; a request that does not fit the table's state (out of turn, auction over, no
call to undo, review before the end) is 409; an unknown table is 404; a body that is not
the JSON asked for is FastAPI's 422. Each carries ``detail`` with the reason, and none
changes what is stored: a table is written only after the whole request succeeded.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Cookie, Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field

from bidbox.api import System
from bidbox.errors import BidboxError
from bidbox.lang import parse_options, shipped_systems
from bidbox.web.browser import check_report, lint_report, node_view
from bidbox.web.pbn import tables_to_lin, tables_to_pbn
from bidbox.web.reports import (
    NotAResultsFolderError,
    ReportNotFoundError,
    find_report,
    list_reports,
    load_report,
    plot_file,
    render_plot,
    summary,
)
from bidbox.web.store import StaleTableError, TableRow, TableStore
from bidbox.web.table import (
    Table,
    TableConflictError,
    TableRequest,
    check_name,
    new_table,
    row_of,
    system_of,
    table_of,
    warm_up,
)

HERE = Path(__file__).parent
SESSION_COOKIE = "bidbox_session"
DEFAULT_SYSTEM = "sbu-level1"


class NewTableBody(BaseModel):
    """``POST /api/tables``. Give at most one of ``deal`` and ``pbn``; without either the
    board is dealt, at random or so that ``constraint`` (the person's hand, in the system
    language) holds and the robots' bidding begins with ``reach``."""

    model_config = ConfigDict(extra="forbid")

    system: str = Field(DEFAULT_SYSTEM, description="the person's partnership's system")
    opponents: str | None = Field(None, description="the opponents' system (default: same)")
    options: list[str] | dict[str, str | bool] = Field(
        default_factory=list, description="options of `system`: NAME[=VALUE] words or a map")
    opponent_options: list[str] | dict[str, str | bool] | None = None
    seat: str = Field("S", description="the seat the person bids: N, E, S or W")
    dealer: str | None = Field(None, description="default: by the board number's cycle")
    vul: str | None = Field(None, description="none, ns, ew or both (default: by board)")
    deal: str | None = Field(None, description="a PBN deal 'N:S.H.D.C ...'")
    pbn: str | None = Field(None, description="the text of a PBN file (or of a LIN file, "
                                              "vugraph included)")
    board: int | None = Field(None, description="the board of `pbn` to play")
    constraint: str | None = Field(None, description="the person's hand, e.g. 'hcp 11+, 4+H'")
    reach: str | None = Field(None, description="calls the robots' auction must begin with")
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="dealing seed")


class CallBody(BaseModel):
    """``POST /api/tables/{id}/calls``."""

    model_config = ConfigDict(extra="forbid")

    call: str = Field(..., description="the call: 1C..7NT, P, X, XX")
    seat: str | None = Field(None, description="the seat calling; refused if not its turn")


def _session(response: Response,
             bidbox_session: Annotated[str | None, Cookie()] = None) -> str:
    """The caller's session token, minted on the first request."""
    if bidbox_session and 16 <= len(bidbox_session) <= 64 and bidbox_session.isascii():
        return bidbox_session
    token = secrets.token_urlsafe(24)
    response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="lax",
                        max_age=365 * 24 * 3600)
    return token


Session = Annotated[str, Depends(_session)]


WARM_SYSTEMS = ("sbu-level1", "tosr")  # the shipped systems a served process warms
NO_WARM_ENV = "BIDBOX_NO_WARM"  # set (not 0): start at once, warm nothing (the tests)


def create_app(db_path: Path, results: Path | None = None, warm: bool = False) -> FastAPI:
    """The application over the SQLite store at ``db_path`` (created if missing); the
    simulation report pages list the lab's results folders under ``results``. With
    ``warm`` (``bidbox serve``), the app's start-up deals and explains a table in each of
    ``WARM_SYSTEMS`` before it answers anyone (``table.warm_up``), so the first person's
    table does not wait for the caches a new process builds."""
    store = TableStore(db_path)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm and os.environ.get(NO_WARM_ENV, "").strip() in ("", "0"):
            warm_up(WARM_SYSTEMS)  # uvicorn accepts no request before this returns
        yield

    app = FastAPI(title="bidbox bidding table", version="1",
                  description="Practise a bidding system with robots that bid it and "
                              "explain every call. The page at / uses this API.",
                  lifespan=lifespan)
    app.state.store = store
    app.state.results = results
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
    locks_guard = threading.Lock()

    @contextmanager
    def locked(table_id: str) -> Iterator[None]:
        """One request at a time per table: a double click cannot interleave two calls."""
        with locks_guard:
            lock = locks[table_id]
        with lock:
            yield

    def load(table_id: str, session: str) -> TableRow:
        row = store.get(table_id, session)
        if row is None:
            raise HTTPException(404, f"no table '{table_id}' in this session")
        return row

    def played(session: str) -> list[TableRow]:
        """The session's boards, oldest first, for an export; 404 when there are none."""
        rows = list(reversed(store.history(session, limit=10_000)))
        if not rows:
            raise HTTPException(404, "no boards in this session yet")
        return rows

    def answer(row: TableRow, table: Table) -> dict[str, Any]:
        if row.explanation is None:
            row.explanation = table.explanation()
        return {"id": row.id, **table.state(row.explanation)}

    @contextmanager
    def reasons() -> Iterator[None]:
        try:
            yield
        except (TableConflictError, StaleTableError) as err:
            raise HTTPException(409, str(err)) from None
        except BidboxError as err:
            raise HTTPException(400, str(err)) from None

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page(request: Request, session: Session) -> HTMLResponse:
        return templates.TemplateResponse(request, "table.html",
                                          {"systems": shipped_systems(),
                                           "default": DEFAULT_SYSTEM})

    @app.get("/api/systems")
    def systems() -> list[dict[str, Any]]:
        """The shipped systems and their options (what `bidbox systems --json` prints)."""
        return [{"name": s.name, "title": s.title, "source": s.source, "file": s.path.name,
                 "options": [{"name": n, "values": list(v), "description": d}
                             for n, v, d in s.options]} for s in shipped_systems()]

    def shipped(name: str, option: list[str] | None) -> System:
        with reasons():
            return system_of(check_name(name, "system"), parse_options(option or []))

    @app.get("/api/systems/{name}/tree")
    def tree(name: str, path: str = "", option: Annotated[list[str] | None, Query()] = None
             ) -> dict[str, Any]:
        """One node of the system's tree (``path`` as written in the file, e.g. ``1NT 2C``,
        ``(1H) X``; empty for the openings): every call with its meaning, forcing, alert,
        a sample hand, and the ``reach``/``seat`` that deal a board to practise it."""
        system = shipped(name, option)
        with reasons():
            return node_view(system, path)

    @app.get("/api/systems/{name}/check")
    def check(name: str, option: Annotated[list[str] | None, Query()] = None
              ) -> dict[str, Any]:
        """The SBU licensing report (``bidbox check --regulation sbu --json``)."""
        return check_report(shipped(name, option))

    @app.get("/api/systems/{name}/lint")
    def lint(name: str, option: Annotated[list[str] | None, Query()] = None
             ) -> dict[str, Any]:
        """The lint findings (``bidbox lint --json``), each with its witness hand."""
        return lint_report(shipped(name, option))

    @app.post("/api/tables", status_code=201)
    def create_table(body: NewTableBody, session: Session) -> dict[str, Any]:
        """A new table: systems, seat, dealer/vulnerability and the deal; robots call
        until it is the person's turn."""
        board = len(store.history(session, limit=10_000)) + 1
        with reasons():
            table = new_table(TableRequest(**body.model_dump()), board_hint=board)
            row = row_of(table, session)
            row.explanation = table.explanation()
        store.insert(row)
        return answer(row, table)

    @app.get("/api/tables")
    def history(session: Session) -> list[dict[str, Any]]:
        """This session's tables, newest first."""
        out = []
        for row in store.history(session):
            table = table_of(row)
            auction = table.auction()
            out.append({"id": row.id, "created": row.created, "board": table.spec.board,
                        "system": table.spec.system, "opponents": table.spec.opponents,
                        "seat": table.spec.seat, "origin": table.spec.origin,
                        "auction": str(auction), "ended": auction.is_ended,
                        "contract": None if auction.contract is None
                        else f"{auction.contract} {auction.contract.declarer}"})
        return out

    @app.get("/api/tables/{table_id}")
    def get_table(table_id: str, session: Session) -> dict[str, Any]:
        """The auction so far, whose turn, the legal calls, every call explained."""
        row = load(table_id, session)
        return answer(row, table_of(row))

    @app.post("/api/tables/{table_id}/calls")
    def make_call(table_id: str, body: CallBody, session: Session) -> dict[str, Any]:
        """The person's call; the robots answer until it is the person's turn again."""
        with locked(table_id):
            row = load(table_id, session)
            table = table_of(row)
            with reasons():
                table.make_call(body.call, body.seat)
                explanation = table.explanation()
            row.calls, row.explanation, row.review = table.calls, explanation, None
            with reasons():
                store.update(row)
            return answer(row, table)

    @app.get("/api/tables/{table_id}/knowledge")
    def knowledge(table_id: str, session: Session) -> dict[str, Any]:
        """What each seat is known to hold after the auction so far (as `bidbox explain`
        shows it: exact over the hand profiles, or sampled, with the method named)."""
        row = load(table_id, session)
        with reasons():
            return {"id": row.id, **table_of(row).knowledge()}

    @app.get("/api/tables/{table_id}/preview")
    def preview(table_id: str, call: str, session: Session) -> dict[str, Any]:
        """What ``call`` would show if the person made it now: meaning, alert, Stop card."""
        row = load(table_id, session)
        with reasons():
            return table_of(row).preview(call)

    @app.post("/api/tables/{table_id}/undo")
    def undo(table_id: str, session: Session) -> dict[str, Any]:
        """Take back the person's last call (and the robots' calls after it)."""
        with locked(table_id):
            row = load(table_id, session)
            table = table_of(row)
            with reasons():
                table.undo()
                explanation = table.explanation()
            row.calls, row.explanation, row.review = table.calls, explanation, None
            with reasons():
                store.update(row)
            return answer(row, table)

    @app.get("/api/tables/{table_id}/review")
    def review(table_id: str, session: Session) -> dict[str, Any]:
        """After the auction: contract, double dummy and par, the system's call at each of
        the person's turns, and the robots' own table on the same deal."""
        with locked(table_id):
            row = load(table_id, session)
            if row.review is None:
                with reasons():
                    row.review = table_of(row).review()
                    store.update(row)
            return {"id": row.id, **row.review}

    @app.get("/api/tables/{table_id}/pbn", response_class=PlainTextResponse)
    def export_table(table_id: str, session: Session) -> PlainTextResponse:
        """The board as PBN: deal, auction with alert notes, contract and its DD result."""
        row = load(table_id, session)
        return _pbn_response(tables_to_pbn([row]), f"bidbox-{row.id}.pbn")

    @app.get("/api/history.pbn", response_class=PlainTextResponse)
    def export_history(session: Session) -> PlainTextResponse:
        """Every board of this session as one PBN file."""
        return _pbn_response(tables_to_pbn(played(session)), "bidbox-session.pbn")

    @app.get("/api/tables/{table_id}/lin", response_class=PlainTextResponse)
    def export_table_lin(table_id: str, session: Session) -> PlainTextResponse:
        """The board as LIN (BBO's format), alerts with their meanings."""
        row = load(table_id, session)
        return _file_response(tables_to_lin([row]), f"bidbox-{row.id}.lin")

    @app.get("/api/history.lin", response_class=PlainTextResponse)
    def export_history_lin(session: Session) -> PlainTextResponse:
        """Every board of this session as one LIN file."""
        return _file_response(tables_to_lin(played(session)), "bidbox-session.lin")

    def results_root() -> Path:
        if results is None:
            raise HTTPException(404, "no simulation results folder: start the server with "
                                     "`bidbox serve --results DIR`")
        return results

    @contextmanager
    def report_errors() -> Iterator[None]:
        try:
            yield
        except ReportNotFoundError as err:
            raise HTTPException(404, str(err)) from None
        except NotAResultsFolderError as err:
            raise HTTPException(400, str(err)) from None

    def one_report(name: str) -> dict[str, Any]:
        root = results_root()
        with report_errors():
            return load_report(find_report(root, name))

    @app.get("/api/reports")
    def reports() -> dict[str, Any]:
        """The simulation reports in the results folder (``bidbox simulate --out DIR``
        folders in it and below it), newest first, with their headline figures."""
        root = results_root()
        return {"root": str(root), "reports": [summary(e) for e in list_reports(root)]}

    @app.get("/api/reports/{name:path}")
    def report(name: str) -> dict[str, Any]:
        """One report as the lab wrote it (``report.json``), plus ``web``: its plots' URLs.
        ``name`` as listed (``run1/report``) or a results folder (``run1``)."""
        return one_report(name)

    def plot(folder: str, file: str) -> FileResponse:
        root = results_root()
        with report_errors():
            path = plot_file(root, folder, file)
        return FileResponse(path, media_type="image/svg+xml" if path.suffix == ".svg"
                            else "image/png")

    @app.get("/sim/plots/{folder:path}/{file}", include_in_schema=False)
    def folder_plot(folder: str, file: str) -> FileResponse:
        return plot(folder, file)

    @app.get("/sim/plots/{file}", include_in_schema=False)
    def root_plot(file: str) -> FileResponse:
        return plot("", file)

    @app.get("/sim/render/{name:path}/{file}", include_in_schema=False)
    def rendered_plot(name: str, file: str) -> Response:
        """A plot the report's folder lacks, drawn by the lab's plots module."""
        root = results_root()
        with report_errors():
            entry = find_report(root, name)
            return Response(render_plot(entry, load_report(entry), file),
                            media_type="image/png")

    def report_page(request: Request, context: dict[str, Any], status: int = 200
                    ) -> HTMLResponse:
        return templates.TemplateResponse(request, "reports.html", context,
                                          status_code=status)

    @app.get("/reports", response_class=HTMLResponse, include_in_schema=False)
    def reports_page(request: Request) -> HTMLResponse:
        try:
            listed = reports()
        except HTTPException as err:
            return report_page(request, {"error": err.detail}, err.status_code)
        return report_page(request, {"listing": listed})

    @app.get("/reports/{name:path}", response_class=HTMLResponse, include_in_schema=False)
    def report_html(request: Request, name: str) -> HTMLResponse:
        try:
            data = one_report(name)
        except HTTPException as err:
            return report_page(request, {"error": err.detail}, err.status_code)
        return report_page(request, {"report": data, "view": report_view(data)})

    return app


DB_ENV = "BIDBOX_DB"
RESULTS_ENV = "BIDBOX_RESULTS"


def app_from_env() -> FastAPI:
    """The app for ``bidbox serve --workers N``: uvicorn starts each worker process from an
    import string (``bidbox.web.app:app_from_env``, a factory), so the store and results
    paths travel in the environment, set by ``serve`` before it starts them."""
    db = os.environ.get(DB_ENV)
    if not db:
        raise RuntimeError(f"{DB_ENV} is not set: start the server with `bidbox serve`")
    results = os.environ.get(RESULTS_ENV)
    return create_app(Path(db), Path(results) if results else None, warm=True)


def report_view(data: dict[str, Any]) -> dict[str, Any]:
    """What the report page lays out that the JSON does not hold ready: the opening
    calls of both systems in one ladder order, and each swing's tables labelled."""
    from bidbox.sim.report import opening_weight

    freq = data["opening_frequencies"]

    def weight(call: str) -> tuple[int, str]:
        try:
            return opening_weight(call), call
        except (BidboxError, ValueError):  # a hand-edited report: keep it, put it last
            return 99, call

    calls = sorted(set(freq.get("a", {})) | set(freq.get("b", {})), key=weight)
    return {"calls": calls}


def _pbn_response(text: str, name: str) -> PlainTextResponse:
    return PlainTextResponse(text, media_type="application/x-chess-pbn",
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _file_response(text: str, name: str) -> PlainTextResponse:
    return PlainTextResponse(text, headers={"Content-Disposition":
                                            f'attachment; filename="{name}"'})


__all__ = ["DB_ENV", "NO_WARM_ENV", "RESULTS_ENV", "SESSION_COOKIE", "CallBody", "NewTableBody",
           "app_from_env", "create_app", "report_view"]
