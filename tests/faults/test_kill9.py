"""Fault: the power or the kernel kills the kiosk at any moment (kill -9), over and over.

A fork server (killplay.py) plays scripted games of Azar (every reading) and Medio azar through
the real kiosk and its SQLite log, and kills the player with SIGKILL at a random point: during
start-up and resume, in the middle of a button sequence, between a throw's event and the game's
end, at every phase (throw-off, tied throw-off, recovery throw, encuentro, chase, after the
end), during corrections and undos. After every kill the log is checked against the script,
which was fixed before play: every game's events are exactly the first n actions of its script
(none lost, none duplicated, none rewritten), `PRAGMA integrity_check` says ok, no game is ever
abandoned, and the next player checks that the kiosk resumed exactly that prefix on the play
screen.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from kiosk.gamelog import GameLog
from kiosk.match import Match, replay
from kiosk.rules.variants import find_variant

from .killplay import ERRORS, as_event, effective, script_for

KILLS = 200
SEED = 1283
PLAYER = Path(__file__).with_name("killplay.py")


def check_log(folder: Path, before: dict) -> tuple[dict, str | None]:
    """The log after a kill, checked against the scripts; returns it and the phase in play."""
    log = GameLog.in_dir(folder)
    try:
        assert log.integrity() == "ok"
        games = {g.id: g for g in log.games()}
    finally:
        log.close()
    playing = [g for g in games.values() if g.status == "playing"]
    assert len(playing) <= 1
    assert all(g.status != "abandoned" for g in games.values())
    now = {}
    for game in games.values():
        variant, actions = script_for(SEED, game.id)
        assert (game.game, game.variant) == (variant.game, variant.name)
        events = [(e.kind, e.dice, e.source) for e in game.events]
        assert [e.seq for e in game.events] == list(range(len(events)))
        assert events == [as_event(a) for a in actions[: len(events)]], f"game {game.id}"
        assert game.throws == effective(actions[: len(events)])
        old = before.get(game.id, ())
        assert tuple(events[: len(old)]) == old  # nothing lost or rewritten since the last kill
        now[game.id] = tuple(events)
        state, _ = replay(variant, game.first, game.throws)
        if game.status == "over":
            outcome = state.outcome
            assert outcome is not None, f"game {game.id} is marked over but is not"
            assert (int(outcome.winner), outcome.reason, outcome.stakes) == (
                game.winner,
                game.reason,
                game.stakes,
            )
        elif game.id != max(games):
            pytest.fail(f"game {game.id} still playing while a later one started")
    phase = None
    if playing:
        game = playing[0]
        state, _ = replay(script_for(SEED, game.id)[0], game.first, game.throws)
        phase = f"{game.game} {state.phase.rsplit('.', 1)[-1]}"
    return now, phase


@pytest.mark.slow
def test_kill_9_at_random_moments_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )
    server = subprocess.Popen(
        [sys.executable, str(PLAYER), str(tmp_path), str(SEED)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    rng = random.Random(SEED)
    seen: dict = {}
    phases: Counter = Counter()
    kills = 0
    try:
        for _ in range(KILLS):
            # During start-up and resume, early in a game, or deep into play; then a random
            # point inside the next action (a button sequence, a commit, a frame).
            actions = rng.choice([0, rng.randint(1, 3), rng.randint(1, 30)])
            server.stdin.write(f"{actions} {rng.uniform(0, 0.02):.4f}\n")
            server.stdin.flush()
            answer = server.stdout.readline()
            assert answer.startswith("killed"), answer
            kills += 1
            assert not (tmp_path / ERRORS).exists(), (tmp_path / ERRORS).read_text()
            seen, phase = check_log(tmp_path, seen)
            phases[phase or "between games"] += 1
    finally:
        server.stdin.close()
        server.wait(timeout=60)
    assert kills == KILLS >= 100
    finished = {(v.game, v.name) for v in (script_for(SEED, g)[0] for g in seen if g < max(seen))}
    print(f"{kills} kills, {len(seen)} games, kills by phase: {dict(phases)}")
    # Every phase of both games was interrupted at least once...
    for phase in (
        "azar first_throw",
        "azar second_throw",
        "azar chase",
        "medio-azar throw_off",
        "medio-azar open",
        "medio-azar seek_chance",
        "medio-azar recovery",
        "medio-azar chase",
    ):
        assert phases[phase] >= 1, (phase, phases)
    # ...and play went on across the kills: many games, of every variant, reached their end.
    assert len(seen) >= 20
    assert len(finished) == 5


class DiesAfter:
    """The log's connection when the power goes after `writes` more writes: later ones fail."""

    def __init__(self, conn: sqlite3.Connection, writes: int) -> None:
        self.conn, self.writes = conn, writes

    def execute(self, sql: str, args=()):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            if self.writes == 0:
                raise sqlite3.OperationalError("disk I/O error")
            self.writes -= 1
        return self.conn.execute(sql, args)


@pytest.mark.parametrize("writes", [0, 1, 2, 3])
@pytest.mark.parametrize("change", ["undo", "correct"])
def test_a_cut_inside_the_undo_or_correction_of_an_ended_game(tmp_path, change, writes) -> None:
    """Every point between the writes of one change, deterministically (the random kills
    above found the gap between the event and the game's status)."""
    log = GameLog.in_dir(tmp_path)
    match = Match.start(find_variant("azar"), log)
    for dice in [(1, 2, 4), (2, 2, 4), (2, 3, 3)]:  # chances 7 and 8, then 8 wins
        match.throw(dice)
    assert match.is_over
    log._conn = DiesAfter(log._conn, writes)
    if change == "undo":
        match.undo()
    else:
        match.correct((1, 1, 5))  # the 7: the other player wins
    again = GameLog.in_dir(tmp_path)  # the restart: only what reached the disk
    resumed = Match.resume(again)
    game = again.game(match.game_id)
    state, _ = replay(find_variant("azar"), game.first, game.throws)
    assert game.status == ("over" if state.is_over else "playing")
    if state.is_over:
        outcome = (int(state.outcome.winner), state.outcome.reason, state.outcome.stakes)
        assert outcome == (game.winner, game.reason, game.stakes)
    else:
        assert resumed is not None and resumed.throws == game.throws
    again.close()
