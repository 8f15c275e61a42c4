"""The player for the kill -9 test: scripted games played through the real kiosk, and a fork
server that starts a player and kills it at a chosen moment.

Every game has a script fixed in advance by the seed and the game's id (`script_for`): camera
throws, throws entered by hand, the referee's corrections and undos, biased so that every phase
of both games comes up often (Medio azar's tied throw-off and recovery throw, Azar's
encuentro). Script action number i must become the game's log event number i, so the script
is the record, independent of the log, that the log is checked against.

A player (`play`) builds the real `Kiosk` on the data folder (which resumes the game in progress,
exactly as after a power cut), checks that it resumed exactly the script's prefix, then plays on:
camera reads go on the kiosk's event queue, hand entries, corrections and undos are button
presses, and every action is drawn. After each action it writes one byte to a pipe, so the
killer can pick its moment by progress, not by the machine's speed.

    python tests/faults/killplay.py DATA_DIR SEED

reads lines "ACTIONS DELAY" on stdin: fork a player, wait until it has done ACTIONS actions,
wait DELAY more seconds (a random point inside the next action), kill -9 it, and print
"killed ACTIONS_SEEN". The heavy imports are done once, before the first fork, so a life
costs milliseconds, not a Python start.
"""

from __future__ import annotations

import os
import queue
import random
import select
import signal
import sys
import time
import traceback
from pathlib import Path

from kiosk.rules import Seat, Throw
from kiosk.rules.variants import VARIANTS, Variant

ERRORS = "player-errors.txt"
MAX_ACTIONS = 80  # after this many, a game's script steers to its end
Action = tuple  # ("camera" | "manual" | "correct", dice) or ("undo",)


def dice_totalling(rng: random.Random, total: int) -> tuple[int, int, int]:
    while True:
        dice = tuple(rng.randint(1, 6) for _ in range(3))
        if sum(dice) == total:
            return dice


def next_dice(rng: random.Random, state, late: bool) -> tuple[int, int, int]:
    """Random dice, often chosen to reach the rarer phases (or the end, late in a script)."""
    phase = state.phase.rsplit(".", 1)[-1]
    chances = [c for c in state.chances.values() if c]
    if late and phase == "chase" and chances:
        return dice_totalling(rng, rng.choice(chances))
    if phase == "throw_off" and state.throw_off_total is not None and rng.random() < 0.3:
        return dice_totalling(rng, state.throw_off_total)  # a tie: both throw off again
    if phase in ("seek_chance", "second_throw") and chances and rng.random() < 0.35:
        return dice_totalling(rng, chances[0])  # recovery (Medio azar), encuentro (Azar)
    return tuple(rng.randint(1, 6) for _ in range(3))


def replay_state(variant: Variant, throws: list[tuple[int, ...]]):
    state = variant.new_game(Seat.ONE)
    for dice in throws:
        state, _ = state.apply(Throw(dice))
    return state


def variant_for(game_id: int) -> Variant:
    """Medio azar and the readings of Azar in turn."""
    pool = [v for v in VARIANTS if (v.game == "azar") == bool(game_id % 2) and v.dice == 3]
    return pool[(game_id // 2) % len(pool)]


def script_for(seed: int, game_id: int) -> tuple[Variant, list[Action]]:
    """The variant and the actions of game `game_id`; applied in order, they end the game."""
    rng = random.Random(f"{seed}-{game_id}")
    variant = variant_for(game_id)
    throws: list[tuple[int, ...]] = []
    actions: list[Action] = []
    state = variant.new_game(Seat.ONE)
    reopened = False
    while True:
        if state.is_over:
            if reopened or rng.random() > 0.25:
                return variant, actions
            reopened = True  # the result screen's "undo": a misread ended the game
            actions.append(("undo",))
            throws.pop()
        else:
            r = rng.random()
            if throws and r < 0.08:
                actions.append(("undo",))
                throws.pop()
            elif throws and r < 0.18:
                dice = next_dice(rng, replay_state(variant, throws[:-1]), False)
                actions.append(("correct", dice))
                throws[-1] = dice
            else:
                dice = next_dice(rng, state, len(actions) > MAX_ACTIONS)
                actions.append(("manual" if rng.random() < 0.15 else "camera", dice))
                throws.append(dice)
        state = replay_state(variant, throws)


def effective(actions: list[Action]) -> list[tuple[int, ...]]:
    """The throws that count after `actions` (each correction replaces, each undo removes)."""
    throws: list[tuple[int, ...]] = []
    for action in actions:
        if action[0] in ("camera", "manual"):
            throws.append(action[1])
        elif action[0] == "correct":
            throws[-1] = action[1]
        else:
            throws.pop()
    return throws


def as_event(action: Action) -> tuple[str, tuple[int, ...], str]:
    """What the log must hold for `action`: (kind, dice, source)."""
    kind = {"camera": "throw", "manual": "throw", "correct": "correction", "undo": "undo"}
    source = {"camera": "camera", "manual": "manual", "correct": "staff", "undo": "staff"}
    dice = action[1] if len(action) > 1 else ()
    return kind[action[0]], tuple(dice), source[action[0]]


# -- the player (runs in a forked child) ------------------------------------------------------
class ScriptError(AssertionError):
    pass


def play(folder: Path, seed: int, progress: int) -> None:
    import pygame
    from fakes import Camera, Clock  # beside this script, shared with the fault tests

    from kiosk.config import load_config
    from kiosk.gamelog import GameLog
    from kiosk.table import Kiosk

    pygame.display.init()
    pygame.font.init()
    clock = Clock()
    gamelog = GameLog.in_dir(folder)
    gamelog.start_writer()  # as the kiosk writes: on the log's thread, settled each frame
    kiosk = Kiosk(
        load_config(None),
        pygame.Surface((800, 480)),
        gamelog,
        worker=Camera(),
        events=queue.Queue(),
        clock=clock,
    )
    match = kiosk.match
    if match is not None:  # resumed: exactly the script's prefix, on the right screen
        _, actions = script_for(seed, match.game_id)
        if match.throws != effective(actions[: match.seq]):
            raise ScriptError(f"game {match.game_id} resumed as {match.throws}")
        expected = "result" if match.is_over else "play"
        if kiosk.scene.name != expected:
            raise ScriptError(f"game {match.game_id} resumed on {kiosk.scene.name}")
    staff_on(kiosk)
    while True:
        match = kiosk.match
        if match is None or (
            match.is_over and match.seq >= len(script_for(seed, match.game_id)[1])
        ):
            game_id = max((g.id for g in kiosk.log.games()), default=0) + 1
            variant, _ = script_for(seed, game_id)
            kiosk.next_first = 0  # the scripts are written for Player 1 casting first
            kiosk.new_match(variant)
            if kiosk.match.game_id != game_id:
                raise ScriptError(f"new game got id {kiosk.match.game_id}, not {game_id}")
            os.write(progress, b".")
            continue
        _, actions = script_for(seed, match.game_id)
        step = match.seq
        perform(kiosk, actions[step])
        if kiosk.match is not match or match.seq != step + 1:
            raise ScriptError(
                f"game {match.game_id}: action {step} {actions[step]} not logged once"
            )
        if match.throws != effective(actions[: step + 1]):
            raise ScriptError(f"game {match.game_id}: {match.throws} after action {step}")
        os.write(progress, b".")


def staff_on(kiosk) -> None:
    """A referee turns the staff key switch (hand entries with the camera working, corrections
    and undos are staff actions) and goes back from maintenance to the game."""
    from hardware.buttons import ButtonEvent

    back_to = kiosk.scene.name
    kiosk.events.put(ButtonEvent("staff", "on", kiosk.clock()))
    kiosk.frame(0.0)
    for button in ("left", "left", "ok"):  # maintenance: "Back to the game"
        kiosk.press(button)
        kiosk.frame(0.0)
    if not kiosk.staff or kiosk.scene.name != back_to:
        raise ScriptError(f"staff mode: on {kiosk.scene.name}, not back on {back_to}")


def perform(kiosk, action: Action) -> None:
    """One scripted action through the kiosk's doors: the event queue and the buttons."""
    from kiosk.worker import RollRead
    from vision.reading import Die, Roll

    def press(*buttons: str) -> None:
        for button in buttons:
            kiosk.press(button)
            kiosk.frame(0.0)

    def enter(dice: tuple[int, ...], start: list[int]) -> None:
        for value, current in zip(dice, start, strict=True):
            press(*["right"] * ((value - current) % 6), "ok")

    kind = action[0]
    if kind == "camera":
        dice = tuple(Die(v, (40.0 * i, 40.0), 30.0, 0.97) for i, v in enumerate(action[1]))
        kiosk.events.put(RollRead(Roll(dice), kiosk.clock()))
        kiosk.frame(0.0)
    elif kind == "manual":
        press("ok")  # no tray: ok enters a throw by hand
        enter(action[1], [1, 1, 1])
    elif kind == "correct":
        press("right")
        enter(action[1], list(kiosk.match.last.dice))
    elif kiosk.scene.name == "result":
        press("left")  # the result screen's undo
    else:
        press("left", "left")  # undo needs two presses
    for _ in range(8):  # let time pass: the last ruling, then the result screen
        kiosk.clock.t += 0.5
        kiosk.frame(0.5)


def serve(folder: Path, seed: int) -> None:
    """The fork server: one player per input line, killed at the moment asked for."""
    import kiosk.app  # noqa: F401  (imported once here, before any fork)
    import kiosk.ui.scenes  # noqa: F401
    import vision.reading  # noqa: F401

    for line in sys.stdin:
        actions, delay = int(line.split()[0]), float(line.split()[1])
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            code = 0
            try:
                play(folder, seed, writer)
            except BaseException:
                with open(folder / ERRORS, "a") as errors:
                    errors.write(traceback.format_exc() + "\n")
                code = 3
            os._exit(code)
        os.close(writer)
        seen = 0
        while seen < actions:
            ready, _, _ = select.select([reader], [], [], 60)
            chunk = os.read(reader, 4096) if ready else b""
            if not chunk:
                break  # the player ended (an error) or stalled for a minute
            seen += len(chunk)
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        os.close(reader)
        killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        print(f"{'killed' if killed else 'ended'} {seen}", flush=True)


if __name__ == "__main__":
    serve(Path(sys.argv[1]), int(sys.argv[2]))
