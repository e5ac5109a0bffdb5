"""Building a kit: takes a game folder and options, gives the files in OUT/<game>/ and their manifest.

documents.py: the stage sequence of one game; pipeline.py: the same in two processes; staging.py: files
written under temporary names and committed together; kit.py: which games to build and in how many processes;
cache.py: whether a game's output is up to date.
"""
