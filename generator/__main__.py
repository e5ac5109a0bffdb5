"""`python -m generator` runs the muster command line."""

from .cli import run

run()
