"""What `muster validate` checks: takes a loaded Game, gives Findings.

validation.py: the game's data (deck sizes, titles, trait values, the game's own rules).
"""
