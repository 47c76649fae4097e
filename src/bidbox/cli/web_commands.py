"""``bidbox serve``: the bidding table in the browser (FastAPI app run by uvicorn).

Kept apart from :mod:`bidbox.cli.main` so that the other commands never import the web
stack; :func:`add_parsers` hangs the sub-command on the main parser.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bidbox.cli.validate import nonempty
from bidbox.errors import ServeError as ServeError


def cmd_serve(args: argparse.Namespace) -> int:
    """Start the server and print its URL; blocks until interrupted (Ctrl-C)."""
    from bidbox.web.store import default_db_path

    if not 0 <= args.port <= 65535:
        raise ServeError(f"--port {args.port}: a port is 0 to 65535")
    if not 1 <= args.workers <= 64:
        raise ServeError(f"--workers {args.workers}: give 1 to 64 worker processes")
    db = Path(args.db) if args.db else default_db_path()
    if db.exists() and not db.is_file():
        raise ServeError(f"--db '{db}' is a folder: give the path of an SQLite file")
    results = Path(args.results) if args.results else Path.cwd()
    if not results.is_dir():
        raise ServeError(f"--results '{results}' is not a folder: give the folder that "
                         "holds the `bidbox simulate --out` folders")
    try:
        import uvicorn

        from bidbox.web.app import DB_ENV, RESULTS_ENV, create_app
    except ImportError as err:
        raise ServeError(f"the web app needs its packages ({err.name}): "
                         "reinstall bidbox (`make run` does it)") from None
    try:
        # Also checks the store, and adds the version column to an older one, before
        # any worker starts: workers never race to change the schema.
        # DDS calls change the cwd; served, the app warms its caches as it starts.
        app = create_app(db.resolve(), results.resolve(), warm=True)
    except OSError as err:
        raise ServeError(f"--db '{db}': {err.strerror or err}") from None
    except Exception as err:  # sqlite3.DatabaseError: not an SQLite file
        raise ServeError(f"--db '{db}': cannot use it as the store: {err}") from None
    shown = f"[{args.host}]" if ":" in args.host else args.host
    workers = f", {args.workers} worker processes" if args.workers > 1 else ""
    print(f"bidbox bidding table: http://{shown}:{args.port}/  (boards stored in {db}; "
          f"simulation reports from {results}{workers}; Ctrl-C stops)",
          file=sys.stderr, flush=True)
    if args.workers > 1:
        # uvicorn starts worker processes from an import string; they find the store
        # and the results folder in the environment (see bidbox.web.app.app_from_env).
        os.environ[DB_ENV] = str(db.resolve())
        os.environ[RESULTS_ENV] = str(results.resolve())
        uvicorn.run("bidbox.web.app:app_from_env", factory=True, host=args.host,
                    port=args.port, workers=args.workers, log_level="warning")
        return 0
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 2


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``serve`` to the ``bidbox`` command."""
    p = sub.add_parser("serve", help="the bidding table in the browser (what `make run` starts)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", metavar="PATH", type=nonempty,
                   help="SQLite file of the boards (default: bidbox.sqlite in the user's "
                        "data directory)")
    p.add_argument("--results", metavar="DIR", type=nonempty,
                   help="folder of simulation results shown at /reports: `bidbox simulate "
                        "--out` folders in it and below it (default: the current folder)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="worker processes sharing the store (default 1); each change to "
                        "a table is checked against the stored version, see DESIGN.md")
    p.set_defaults(func=cmd_serve)


__all__ = ["ServeError", "add_parsers", "cmd_serve"]
