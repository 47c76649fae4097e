"""Files bidbox writes for the user: whole or not at all.

A file is written to a temporary name beside it and renamed over the target only once
every byte is on disk, so a full disk, a quota or a kill never leaves a cut-short report
or PBN file, and never destroys the complete one an earlier run wrote. What a failed
write saved can then be said exactly: every file that exists is complete.

Only regular files are replaced this way: a device, a pipe or a terminal
(``-o /dev/stdout``, ``/dev/full``) is written in place, as the user asked.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def write_file(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically; an ``OSError`` (a folder of
    that name, a read-only folder, a full disk) leaves ``path`` as it was."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "Is a directory", str(path))
    if mode is not None and not stat.S_ISREG(mode):
        with path.open("wb") as out:  # a device or pipe: nothing there to replace
            out.write(raw)
        return
    target = path.resolve() if path.is_symlink() else path  # keep the link, change its file
    fd, temp = tempfile.mkstemp(prefix=f".{target.name[:40]}.", suffix=".part",
                                dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, stat.S_IMODE(mode) if mode is not None else _default_mode())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _default_mode() -> int:
    """The permissions ``open()`` would give a new file (0666 less the umask); mkstemp's
    own 0600 would hide a report from the rest of a group."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def describe_error(err: OSError) -> str:
    """An OSError in a few plain words: 'No space left on device', 'Is a directory'."""
    return err.strerror or str(err) or type(err).__name__


__all__ = ["describe_error", "write_file"]
