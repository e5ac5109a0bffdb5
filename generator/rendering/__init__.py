"""Rendering: takes display lists and sheets, gives PDF files. The only package that draws with reportlab;
it imports nothing from reading/ or layout/, so the drawing process never loads YAML or Jinja.

render.py: faces and sheets drawn; documents.py: a kit's card, token and board PDFs; rulebook_pdf.py: the
rulebook typeset with platypus.
"""
