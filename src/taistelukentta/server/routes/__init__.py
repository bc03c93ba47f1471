"""HTTP and WebSocket routes of the game server."""
