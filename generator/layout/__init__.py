"""Laying out: takes a Game and its layouts, gives display lists (core.display.Face) in millimetres.

Templates run in core/sandbox.py, within what core/budget.py lets them spend. files.py: layout files and the
keys they may have; context.py: what templates see; evaluation.py: a layout's templates run for one card or
board; coercion.py: values made into lengths, colours, fonts; elements.py: what each kind of element draws;
typeset.py: text fitted into its box and placed; findings.py: problems as findings, and the printed-text checks;
cards.py: decks laid out in batches; groups.py: the blocks of grouped counter sheets; boards.py: maps and mats;
rulebook.py: the rules' text rendered from its template, within what can be typeset; symbols.py: NATO-style unit
symbols drawn from the data in symbols.yaml.
"""
