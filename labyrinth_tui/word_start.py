"""A command word begun on the map. There a letter bound to a key plays at once (g grabs, w walks
north: single-key play stays as fast as a roguelike's), and a letter that is no map key starts
typing. So a word typed on the map by mistake ('grab', 'west') has its first letters played as
keys and the rest typed. Nothing typed is lost: as soon as the typed letters alone can begin no
command ('ra', 'es') but the letters just played, put back in front, can ('gra', 'wes'), the
command line gets the whole word; and when the word ends (a space, Enter), letters played that
make it a whole command with what was typed ('us' then 'e': 'use') are put back too. Until then the
typed letters are read as typed ('r' may be 'run', 'e' 'east'), and the hint says when letters
were put back, so a key played and a word typed after it never merge unseen."""

from __future__ import annotations

from .command_parser import FIRST_WORDS

LONGEST = max(map(len, FIRST_WORDS))  # the most letters played on the map that a word can take back


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
