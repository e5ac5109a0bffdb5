"""Reading a game folder: takes a path, gives a `core.model.Game` (every value with its file:line) and the
findings of reading it.

spec.py: the format declared once, every mapping and key (kinds.py: the kinds of value and how each is read);
reader.py: the Reader, where every problem met while reading becomes a finding with a stable code; loading.py:
load_game and the small sections of game.yaml; traits.py, decks.py, rules.py, boards.py: the rest of game.yaml
and the deck files; rereading.py: deck files read again only as far as a save changed them (the preview's);
sourcemap.py: safe YAML with locations; worksheets.py and sheetfiles.py: spreadsheets, as
deck files and for `muster import`; fonts.py: the bundled font book; resources.py: games found by name, images
checked before use. Every file is read through core/inputs.py.
"""
