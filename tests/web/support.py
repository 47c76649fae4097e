"""Helpers shared by the tests that start a real server."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A loopback port nobody listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
