"""Other formats in and out: spreadsheets (import and export; reading/sheetfiles.py reads CSV and XLSX files
within bounds, reading/worksheets.py types their cells), JSON Schemas and the key tables of docs/format.md (both
made from reading/spec.py), exports for print shops and Tabletop Simulator (tts.py sheets, tabletop.py the saved
object), VASSAL modules (vassal.py), and the new-game scaffold.
"""
