"""odds package."""
