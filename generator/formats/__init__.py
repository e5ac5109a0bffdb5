"""Other formats in and out: spreadsheets (import and export; worksheets.py reads and types their cells), JSON
Schemas and the key tables of docs/format.md (both made from reading/spec.py), exports for print shops and
Tabletop Simulator, and the new-game scaffold.
"""
