"""Imposition: takes faces' sizes and the paper, gives sheets (slots, crop marks, duplex order) and tiles.

imposition.py: card and counter sheets, board tiles; booklet.py: rulebook pages two-up in saddle-stitch order.
"""
