"""The `labyrinth` command line, one module per subcommand. Each has ``add_parser(sub)``, which
adds its parser and names its ``run(args)`` (options.parsed_by); cli.py only dispatches. The
options several share (seed, preset, difficulty, the agents by role, the providers) are
defined once, in options.py, provider_options.py, seed_option.py and learn_option.py.

Every parser is built at every start, so a module here imports only what its parser needs; ``run``
imports the rest when the command runs, and a command with much of it keeps it in NAME_run.py
(arena, tournament, leaderboard, doctor, memory): `labyrinth gsm` and `play` start without loading them.

To add a subcommand: a module here with ``add_parser``, and its name in SUBCOMMANDS."""

from . import arena, doctor, gsm, leaderboard, memory, play, replay, tournament, world

SUBCOMMANDS = (arena, tournament, leaderboard, memory, gsm, play, doctor, world, replay)  # the order of --help
