"""Game server tests: over real HTTP/WebSocket against a uvicorn subprocess."""
