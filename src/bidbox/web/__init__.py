"""The bidding table in the browser: FastAPI app, SQLite store, one page and a little JS.

``create_app(db_path)`` is the application; ``bidbox serve`` runs it. The package sits at
the top of the layers (it may import everything) and calls the same library functions as
the CLI (:mod:`bidbox.api`).
"""

from bidbox.web.store import TableStore, default_db_path

__all__ = ["TableStore", "create_app", "default_db_path"]


def __getattr__(name: str) -> object:
    # FastAPI is imported only when the app is wanted, so `import bidbox.web` stays light.
    if name == "create_app":
        from bidbox.web.app import create_app

        return create_app
    raise AttributeError(name)
