"""The numbers of the rules (docs/rules.md sections 2-11), each in one place: here, but for an item's own
(its effect and respawn times, engine/items.py, beside the rule that uses them).

Time is counted in integer ticks of 0.5 s; distances in integer steps of 2.5 m
(one level is 5 m, i.e. two steps high). Numbers marked *tunable* in the rules
are marked the same way here.
"""

TICKS_PER_SECOND = 2
STEP_METRES = 2.5
LEVEL_STEPS = 2  # a level is 5 m high: two steps, for 3-D distances

# The conceptual 1 km cube.
WORLD_SIZE = 400  # x and y in [0, 400)
WORLD_LEVELS = 200  # z in [0, 200)
CHUNK = 8  # chunks are CHUNK x CHUNK cells of one level
CHUNKS_PER_SIDE = WORLD_SIZE // CHUNK
CENTRE = (WORLD_SIZE // 2, WORLD_SIZE // 2, WORLD_LEVELS // 2)

# Maze shape (*tunable*): chance that a non-tree wall between two maze cells
# is opened (loops), that a chunk border gets a second opening, and that a
# loop opening is a crawlway.
LOOP_CHANCE = 0.18
EXTRA_BORDER_CHANCE = 0.3
CRAWLWAY_CHANCE = 0.2

# The user's command.
MAX_STEPS = 100

# Stamina in hundredths (stamina_pct = stamina / 100). *tunable*
STAMINA_MAX = 100
RUN_COST = 2  # per running step
WALK_GAIN = 1  # per walking step
REST_GAIN_PER_TICK = 1  # 0.02 per second standing

# Senses: sight as a radius in steps (senses.py squares it), the rest as squared distances in steps
# (dx^2 + dy^2 + (2 dz)^2).
USER_SIGHT = 2
MINOTAUR_SIGHT = 6
VERY_CLOSE_SQ = 3 * 3  # 7.5 m
CLOSE_SQ = 8 * 8  # 20 m
FAINT_SQ = 15 * 15  # 37.5 m
HEAR_HIGH_SQ = 24 * 24  # running, *tunable*
HEAR_LOW_SQ = 20  # walking or crawling: 4.5 steps (11 m), tuned for balance (RULES: 4), *tunable*

# The Minotaur's temporal rules.
JUMP_COOLDOWN_TICKS = 600 * TICKS_PER_SECOND
JUMP_MIN_TICKS = 5 * TICKS_PER_SECOND
JUMP_MAX_TICKS = 10 * TICKS_PER_SECOND
REENTRY_ALERT_TICKS = 2 * TICKS_PER_SECOND
# The Minotaur's pace in quarter steps per tick: 2 is 1 step/s, 4 is 2 steps/s. *tunable*
QUARTERS = 4
MINOTAUR_PACE = 2  # while it does not see the user: 1 step/s
MINOTAUR_SEEING_PACE = 4  # while it sees the user: 2 steps/s
# PATHFIND's exact A* search: for targets at most this many levels and horizontal
# steps away (the span of a `large` ground), expanding at most PATH_BUDGET cells
# (any target across `standard` needs under 5,000, across `large` under 26,000,
# nine in ten under 7,000). Further targets, or one the budget cannot reach, are
# searched inside a corridor of chunks: every open cell is pathed, at a cost in
# proportion to its distance. The budget caps an exact search near 0.1 s.
EXACT_REACH_LEVELS = 8
EXACT_REACH_STEPS = 192
PATH_BUDGET = 20_000
# The world remembers at most this many cells' ways out (per side) and sights before starting afresh.
MOVES_CACHE_CELLS = 100_000
# ... and at most this many of the Minotaur's paths (a query asked again, as the search found it).
ROUTES_CACHE = 4_096
# Patrol waypoints are drawn within this many steps (and one level) of the Minotaur. *tunable*
PATROL_REACH = 24
