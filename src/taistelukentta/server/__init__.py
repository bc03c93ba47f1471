"""The game server: one authoritative table where every seat sees only its own side.

``tk20 serve`` runs :func:`taistelukentta.server.app.create_app` on uvicorn. Layers:
``settings`` (configuration), ``models`` + ``db`` + ``migrations`` (SQLAlchemy 2 tables,
Alembic), ``games`` (the event-sourced game store; holds no rules), ``present`` (the one
place that turns engine state and events into a seat's JSON), ``hub`` (live fan-out, with
PostgreSQL LISTEN/NOTIFY across processes), ``routes`` (FastAPI endpoints). See
docs/server.md.
"""
