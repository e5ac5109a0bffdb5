"""Laying out: takes a Game and its layouts, gives display lists (core.display.Face) in millimetres.

sandbox.py: the Jinja sandbox every template runs in; layout.py: layout files, their evaluation per card and the
elements they draw; typeset.py: text fitted into its box; boards.py: maps and mats; rulebook.py: the rules'
text rendered from its template.
"""
