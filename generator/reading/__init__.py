"""Reading a game folder: takes a path, gives a `core.model.Game` (every value with its file:line) and the
findings of reading it.

sourcemap.py: safe YAML with locations; loading.py: the keys of game.yaml and deck files, checked and parsed;
fonts.py: the bundled font book; resources.py: games found by name, images checked before use.
"""
