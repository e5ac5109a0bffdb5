"""Muster: print-and-play kits for small war card games, from YAML game folders."""

__version__ = "0.1.0"
