"""The live preview: takes a game folder and build options, gives a local web page of its faces, backs, tokens,
boards and findings that follows every save.

session.py reads the game again after each change; cards.py lays out only the cards whose values or shared
inputs changed, noting which layout element drew what (tracing.py); images.py rasterises only faces not drawn
before, keyed by what each face draws; view.py turns it all into the state the page shows; server.py serves the page (page.html, page.css, page.js), the state and the images on
127.0.0.1; live.py runs it all, refreshing on each change that watchfiles reports.
"""
