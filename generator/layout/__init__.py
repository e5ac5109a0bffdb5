"""Laying out: takes a Game and its layouts, gives display lists (core.display.Face) in millimetres.

Templates run in core/sandbox.py, within what core/budget.py lets them spend. spec.py: every kind of element and
the fields it may have, declared once; roles.py: how a field's value is read (a length, a colour, a font, ...) and
published; files.py: layout files read and checked against the spec; context.py: what templates see;
evaluation.py: a layout's templates run for one card or board; elements.py: what each kind of element draws;
typeset.py: text fitted into its box and placed; findings.py: problems as findings, and the printed-text checks;
cards.py: decks laid out in batches; groups.py: the blocks of grouped counter sheets; boards.py: maps and mats;
rulebook.py: the rules' text rendered from its template, within what can be typeset; symbols.py: NATO-style unit
symbols drawn from the data in symbols.yaml.
"""
