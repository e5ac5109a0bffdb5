"""Rendering: takes display lists and sheets, gives PDF files. The only package that draws with reportlab;
it imports nothing from reading/ or layout/, so the drawing process never loads YAML or Jinja.

render.py: faces and sheets drawn; sheets.py: a kit's card, token and board documents; rulebook_pdf.py: the
rulebook typeset with platypus.
"""
