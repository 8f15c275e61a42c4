"""Plain words for the state of a game: what each player wants and what the next throw can do.

The rulings say what the last throw did; these sentences say what happens next, for every phase
of every game, so a visitor who has never heard of azar can follow from the screen alone. The
terms (azar, reazar, chance, encuentro, Hazard's main and nick...) each have a one-line gloss,
shown the first time the term comes up in a game and gathered on the glossary page.
"""

from __future__ import annotations

from collections.abc import Iterable

from kiosk.i18n import N_, Translator
from kiosk.rules import hazard, medio_azar

# -- the next throw ------------------------------------------------------------------------------
AZAR_FIRST = N_(
    "{caster} throws first. An azar ({azari}) wins at once; any other total is the chance of "
    "{opponent}."
)
AZAR_SECOND = N_(
    "{opponent} wants {theirs}. An azar now loses; {theirs} again starts over; another total "
    "is the chance of {caster}."
)
AZAR_SECOND_RETHROW = N_(
    "{opponent} wants {theirs}. An azar now loses; {theirs} again is thrown again; another "
    "total is the chance of {caster}."
)
WANTS_BOTH = N_("{one} wants {one_total}. {two} wants {two_total}.")
AZAR_CHASE = N_("Azars don't count now: the first of the two totals wins.")
MEDIO_THROW_OFF = N_("Throw-off: each player throws once. The higher total casts.")
MEDIO_THROW_OFF_SECOND = N_("{other} threw {total}. {thrower} must beat it to cast.")
MEDIO_OPEN = N_(
    "Each azar ({azari}) wins {caster} a stake. A total from 8 to 13 is the chance of {opponent}."
)
MEDIO_SEEK = N_(
    "{opponent} wants {theirs}. An azar pays {caster} a stake. {theirs}: a recovery throw. "
    "8 to 13: the chance of {caster}."
)
MEDIO_RECOVERY = N_(
    "Throw an azar to take the {stakes} stakes on the table. A total from 8 to 13 is the new "
    "chance of {opponent}."
)
MEDIO_CHASE = N_("The first of the two totals wins {prize} stakes; each azar before it adds one.")
HAZARD_CALL = N_("{caster} calls a main from 5 to 9, then throws two dice against {opponent}.")
HAZARD_THROW_MAIN = N_("{caster} throws two dice until 5 to 9 comes up: that total is the main.")
HAZARD_COME_OUT = N_(
    "The main is {main}. Winning at once: {nicks}. Losing at once: {outs}. Any other total "
    "is the chance of {caster}."
)
HAZARD_CHANCE = N_(
    "{caster} wants {chance}, {opponent} wants the main, {main}: the first of the two wins."
)
OVER = N_("The game is over.")

# -- the glossary --------------------------------------------------------------------------------
GLOSSARY = (
    ("caster", N_("Caster"), N_("The player who starts the game and keeps the dice.")),
    ("azar", N_("Azar"), N_("A hard total to throw: the lowest and highest sums.")),
    ("reazar", N_("Reazar"), N_("An azar thrown after the first chance is set; in Azar it loses.")),
    ("chance", N_("Chance"), N_("The total a player waits for: whoever throws it first wins.")),
    ("encuentro", N_("Encuentro"), N_("The caster throws the other player's chance again.")),
    ("throw_off", N_("Throw-off"), N_("Both throw once; the higher total becomes the caster.")),
    ("stake", N_("Stake"), N_("What is played for: a coin, a token, a point.")),
    ("recovery", N_("Recovery throw"), N_("One more throw: an azar takes every stake in play.")),
    ("main", N_("Main"), N_("In Hazard, the caster's number, 5 to 9, called or thrown first.")),
    ("nick", N_("Nick"), N_("In Hazard, a first throw that wins at once for the caster.")),
)
TERMS = {key: (word, gloss) for key, word, gloss in GLOSSARY}
# The terms a ruling (by a part of its key) brings up first.
RULING_TERMS = (
    ("hazard.nick", "nick"),
    ("hazard.main_called", "main"),
    ("hazard.main_thrown", "main"),
    ("throw_off", "throw_off"),
    ("azar_wins", "azar"),
    ("azar_pays", "azar"),
    ("reazar_loses", "reazar"),
    ("encuentro", "encuentro"),
    ("recovery", "recovery"),
    ("chance", "chance"),
    ("prize_raised", "azar"),
    ("azar_ignored", "azar"),
)


def totals(values: Iterable[int]) -> str:
    """Totals as runs: {3, 4, 5, 6, 15, 16} reads "3-6, 15-16", the way a visitor counts them."""
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}\u2013{run[-1]}" for run in runs)


def next_throw(tr: Translator, state) -> str:
    """What the next throw can do, in the visitor's language."""
    phase = state.phase
    if state.is_over:
        return tr(OVER)
    if phase.startswith("azar."):
        return _azar(tr, state)
    if phase.startswith("hazard."):
        return _hazard(tr, state)
    return _medio(tr, state)


def _names(tr: Translator, caster) -> dict[str, str]:
    return {"caster": tr.player(int(caster)), "opponent": tr.player(int(caster.other))}


def _wants(tr: Translator, state) -> str:
    chances = state.chances
    return tr(WANTS_BOTH).format(
        one=tr.player(0), one_total=chances[0], two=tr.player(1), two_total=chances[1]
    )


def _azar(tr: Translator, state) -> str:
    rules = state.rules
    words = _names(tr, state.caster)
    words["azari"] = totals(rules.azari)
    if state.phase == "azar.phase.first_throw":
        return tr(AZAR_FIRST).format(**words)
    if state.phase == "azar.phase.second_throw":
        words["theirs"] = state.chances[state.caster.other]
        template = AZAR_SECOND if rules.encuentro_restarts else AZAR_SECOND_RETHROW
        return tr(template).format(**words)
    return f"{_wants(tr, state)} {tr(AZAR_CHASE)}"


def _hazard(tr: Translator, state) -> str:
    words = _names(tr, state.caster)
    if state.phase == hazard.CALL_MAIN:
        return tr(HAZARD_CALL).format(**words)
    if state.phase == hazard.THROW_MAIN:
        return tr(HAZARD_THROW_MAIN).format(**words)
    main = state.main
    if state.phase == hazard.COME_OUT:
        nicks, outs = (
            ", ".join(map(str, sorted(t))) for t in (hazard.NICKS[main], hazard.OUTS[main])
        )
        return tr(HAZARD_COME_OUT).format(main=main, nicks=nicks, outs=outs, **words)
    return tr(HAZARD_CHANCE).format(main=main, chance=state.chance, **words)


def _medio(tr: Translator, state) -> str:
    phase = state.phase
    if phase == medio_azar.THROW_OFF:
        if state.throw_off_total is None:
            return tr(MEDIO_THROW_OFF)
        return tr(MEDIO_THROW_OFF_SECOND).format(
            other=tr.player(int(state.to_throw.other)),
            total=state.throw_off_total,
            thrower=tr.player(int(state.to_throw)),
        )
    words = _names(tr, state.caster)
    words["azari"] = totals(medio_azar.AZARI)
    if phase == medio_azar.OPEN:
        return tr(MEDIO_OPEN).format(**words)
    if phase == medio_azar.SEEK_CHANCE:
        words["theirs"] = state.chances[state.caster.other]
        return tr(MEDIO_SEEK).format(**words)
    if phase == medio_azar.RECOVERY:
        return tr(MEDIO_RECOVERY).format(stakes=state.rules.table_stakes, **words)
    return f"{_wants(tr, state)} {tr(MEDIO_CHASE).format(prize=state.prize)}"


# The word over a seat's number, the game's own: the total it waits for.
SEAT_WORDS = {"chance": N_("chance"), "main": N_("main")}


def seat_term(state, seat: int) -> str:
    """The glossary term for a seat's number: in Hazard the setter's is the main (it wins for
    the setter), from before it is called; every other number is a chance."""
    if isinstance(state, hazard.HazardState) and seat != int(state.caster):
        return "main"
    return "chance"


def seat_word(tr: Translator, state, seat: int) -> str:
    return tr(SEAT_WORDS[seat_term(state, seat)])


def term_of(ruling_key: str) -> str | None:
    """The glossary term a ruling brings up, if any."""
    return next((term for part, term in RULING_TERMS if part in ruling_key), None)


def new_term(entries) -> str | None:
    """The term the last throw brought up for the first time in this game, or None."""
    if not entries:
        return None
    term = term_of(entries[-1].ruling.key)
    if term is None:
        return None
    if any(term_of(entry.ruling.key) == term for entry in entries[:-1]):
        return None
    return term


def gloss(tr: Translator, term: str) -> str:
    """One line: "Azar: a hard total to throw...". The meaning is written as a sentence (the
    glossary's own entries); after the term's colon it goes on in lower case, as French and
    Spanish write it (and English may)."""
    word, meaning = TERMS[term]
    said = tr(meaning)
    if len(said) > 1 and not said[1].isupper():  # not an initialism
        said = said[0].lower() + said[1:]
    return tr("{term}: {meaning}").format(term=tr(word), meaning=said)
