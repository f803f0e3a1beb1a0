"""A command word begun on the map. There a key plays at once, as a roguelike's does (g grabs, k walks
north), and a letter bound to nothing starts typing; a word typed on the map by mistake (the focus
moved: Esc left the help) plays at most its first key. So:

- a map key that, after the letter just played, may be the next letter of a word ('a' after 'w': walk,
  wait; a space after a whole command, 'w ', then a count) waits: typed on (within WORD_PACE_S) and
  still a word ('l': 'wal'), the command line gets the word, its first letter put back (and says so);
  else (another key, or WORD_PACE_S of nothing) it plays, late by at most that;
- a letter bound to nothing that follows a played one takes it back once the typed letters alone
  can begin no command ('ra' after 'g' is 'gra'); when the word ends (a space, Enter), letters played
  that make it a whole command with what was typed ('u' then 'se') are put back too. Until then the
  typed letters are read as typed ('r' may be 'run', 'e' 'east'), and the hint says when letters were
  put back, so a key played and a word typed after it never merge unseen;
- keys already on their way to the map when typing began go to the command line (widgets/game_map.py)."""

from __future__ import annotations

from .command_parser import FIRST_WORDS

WORD_PACE_S = 0.4  # the longest pause between two letters of a word typed: most typists' is under 0.3 s


def begins_a_command(text: str) -> bool:
    return any(word.startswith(text.lower()) for word in FIRST_WORDS)


def is_a_command(text: str) -> bool:
    return text.lower() in FIRST_WORDS


def whole_word(played: str, typed: str, ended: bool = False) -> str | None:
    """``typed`` (the first word on the command line, so far) with the letters that ended ``played``
    (map keys pressed just before typing began) put back in front, the most that fit: while it is
    typed, when ``typed`` alone begins no command and with them it does; once it ``ended`` (a space,
    Enter), when with them it is a whole command ('us' played, 'e' typed: 'use', not 'e' for east).
    None when ``typed`` stands as typed."""
    if not typed.isalpha():
        return None
    if ended:
        if not is_a_command(typed):  # no word of itself, nor with the letters put back: the parser says so
            return None
        wanted = is_a_command
    elif begins_a_command(typed):  # it may still become a word as typed ('r' run, 'e' east)
        return None
    else:
        wanted = begins_a_command
    return next((played[start:] + typed for start in range(len(played)) if wanted(played[start:] + typed)), None)


def goes_on(word: str, key: str, character: str | None) -> bool:
    """Whether a key pressed just after ``word`` (the letters of a word begun on the map, and any space and
    count after them) may be its next: a letter with which it still begins a command ('wa': walk, wait), a
    space after a whole command ('go ', 'w '), a digit after that space ('w 2')."""
    first, space, _ = word.partition(" ")
    if space:
        return character is not None and character.isdecimal()
    if character is not None and character.isalpha():
        return begins_a_command(first + character)
    return key == "space" and is_a_command(first)


def whole(word: str) -> bool:
    """Whether ``word`` (typed on the map, held there) is a command as it stands: Enter would send it."""
    first, _, count = word.partition(" ")
    return is_a_command(first) and (not count or count.isdecimal())
