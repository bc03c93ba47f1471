"""Taistelukenttä d20 — the digital table for a Finnish company-level wargame."""

__version__ = "0.1.0"
