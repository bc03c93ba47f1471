"""Log hygiene: a seat's token never reaches a log line.

Tokens travel in the ``Authorization`` header (never logged) or, for a WebSocket, maybe in
the ``token`` query parameter, which uvicorn's access and connection lines would print.
:class:`TokenFilter` masks every ``token=…`` in a record's message and arguments.
"""

from __future__ import annotations

import logging
import re

_TOKEN = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)


def scrub(text: str) -> str:
    """``text`` with every ``token=…`` value masked."""
    return _TOKEN.sub(r"\1***", text)


class TokenFilter(logging.Filter):
    """Masks tokens in the records it sees (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = scrub(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(scrub(a) if isinstance(a, str) else a for a in record.args)
        return True


def install() -> None:
    """Put the filter on uvicorn's loggers and on this package's."""
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error", "taistelukentta"):
        logging.getLogger(name).addFilter(TokenFilter())
