"""`python -m labyrinth`: the `labyrinth` command, for when its script is not on the PATH.

This file is the `labyrinth` package's own (pyproject.toml maps the repository's root to it,
and nothing else of the root is installed), so that `labyrinth` stays a namespace package
whose parts are the folders engine/, agents/, saves/ and labyrinth_tui/.
"""

import sys

from labyrinth.tui.entry import main

sys.exit(main())
