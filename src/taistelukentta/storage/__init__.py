"""Persistence: game files (JSON, atomic writes)."""
