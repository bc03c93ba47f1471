"""dice package."""
