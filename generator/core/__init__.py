"""What every stage shares: the types that travel between stages and the units they are measured in.

Takes nothing from the other packages and gives them: the game model (model.py), display items (display.py),
problems (errors.py: Location, Finding, MusterError), the build's options and plan (options.py, plan.py),
lengths and paper (units.py), grid geometry (geometry.py), the fonts' metrics (fonts.py), inline markup as
card text and rulebooks read it (inline.py), where the bundled
assets are (bundle.py), how files are written and confined (files.py), the one way an input file is read
(inputs.py: a regular file within the size limit of its kind), SVG art vetted and made a drawing (svg.py), and
the sandbox every template of a game runs in, in game.yaml, layouts and rulebooks alike (sandbox.py: imported
only by the stages that read templates, never by the drawing side).

Every stage imports this package first: here, before anything imports reportlab, the modules reportlab imports
but seldom uses are deferred to their first use (deferred.py).
"""

from . import deferred

deferred.defer()
