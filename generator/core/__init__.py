"""What every stage shares: the types that travel between stages and the units they are measured in.

Takes nothing from the other packages and gives them: the game model (model.py), display items (display.py),
problems (errors.py: Location, Finding, MusterError), the build's options and plan (options.py, plan.py),
lengths and paper (units.py), grid geometry (geometry.py), the fonts' metrics (fonts.py) and where the bundled
assets are (bundle.py).
"""
