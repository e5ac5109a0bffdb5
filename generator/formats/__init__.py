"""Other formats in and out: spreadsheets (import and export), JSON Schemas, exports for print shops and
Tabletop Simulator, and the new-game scaffold.
"""
