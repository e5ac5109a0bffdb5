"""The live preview: takes a game folder and build options, gives a local web page of its faces, backs, tokens,
boards and findings that follows every save.

session.py reads and lays the game out again after each change, rasterising only new faces (images.py, a cache
keyed by what each face draws) and noting which layout element drew what (tracing.py); view.py turns that into
the state the page shows; server.py serves the page (page.html, page.css, page.js), the state and the images on
127.0.0.1; live.py runs it all, refreshing on each change that watchfiles reports.
"""
