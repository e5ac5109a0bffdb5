"""Imposition: takes faces' sizes and the paper, gives sheets (slots, crop marks, duplex order) and tiles.

sheets.py: card and counter sheets (the grid of slots, bleed between neighbours, crop marks, where backs go);
groups.py: grouped counter sheets (blocks by trait on coloured zones under labels); tiles.py: boards larger than
the paper cut into tiles; booklet.py: rulebook pages two-up in saddle-stitch order.
"""
