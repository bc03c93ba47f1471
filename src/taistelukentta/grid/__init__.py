"""grid package."""
