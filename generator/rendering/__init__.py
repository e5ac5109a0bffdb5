"""Rendering: takes display lists and sheets, gives PDF files. The only package that draws with reportlab;
it imports nothing from reading/ or layout/, so the drawing process never loads YAML or Jinja.

render.py: faces and sheets drawn; documents.py: a kit's card, token and board PDFs; raster.py: faces as pages
of their own, and as pixels; rulebook_pdf.py: the rulebook typeset with platypus, its text made markup by
markup.py (every text escaped) and laid out with flowables.py; vectors.py: SVG art drawn as form XObjects, once
per file per PDF.
"""
