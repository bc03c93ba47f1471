"""Typed loaders for the TOML data files (terrain, options, unit cards, maps, scenarios)."""
