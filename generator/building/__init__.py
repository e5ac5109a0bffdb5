"""Building a kit: takes a game folder and options, gives the files in OUT/<game>/ and their manifest.

sequence.py: the build of one game as a sequence of messages (messages.py), read and laid out; drawing.py: those
messages drawn into files, committed with their manifest (manifest.py) through staging.py, in an output folder
checked and locked by folders.py; pipeline.py: a game built in two processes, the sequence made in the second;
kit.py: which games to build, in this process (build_game) or in how many; cache.py: whether a game's output is
up to date; watching.py: the saves `muster watch` rebuilds after.
"""
