"""`azar-kiosk odds` and `azar-kiosk simulate`: the JSON shape fixed by issue 2, and errors."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from kiosk.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def check_figure(figure: dict) -> float:
    assert set(figure) == {"fraction", "float"}
    assert float(Fraction(figure["fraction"])) == pytest.approx(figure["float"], rel=1e-15)
    return figure["float"]


@pytest.mark.parametrize(
    ("argv", "game", "variant"),
    [
        (["azar"], "azar", "card"),
        (["azar", "--variant", "lana"], "azar", "lana"),
        (["azar", "--variant", "dante"], "azar", "lana"),
        (["azar", "--variant", "rethrow"], "azar", "rethrow"),
        (["azar", "--variant", "opponent-second"], "azar", "opponent-second"),
    ],
)
def test_odds_json_for_azar(capsys: pytest.CaptureFixture[str], argv, game, variant) -> None:
    data = run_json(capsys, "odds", *argv, "--json")
    assert set(data) == {"game", "variant", "outcomes", "expected_throws"}
    assert (data["game"], data["variant"]) == (game, variant)
    assert set(data["outcomes"]) == {"caster_wins", "caster_loses"}
    total = sum(Fraction(f["fraction"]) for f in data["outcomes"].values())
    assert total == 1
    for figure in data["outcomes"].values():
        check_figure(figure)
    assert check_figure(data["expected_throws"]) > 2


def test_odds_json_for_medio_azar_adds_expected_stakes(capsys) -> None:
    data = run_json(capsys, "odds", "medio-azar", "--json")
    assert set(data) == {"game", "variant", "outcomes", "expected_throws", "expected_stakes"}
    assert set(data["expected_stakes"]) == {"caster", "opponent"}
    caster = check_figure(data["expected_stakes"]["caster"])
    assert check_figure(data["expected_stakes"]["opponent"]) == -caster


def test_odds_table_for_people(capsys) -> None:
    assert main(["odds", "azar"]) == 0
    out = capsys.readouterr().out
    assert "caster wins" in out and "0.518772" in out and "expected throws" in out


def test_simulate_json_gives_estimates_with_intervals(capsys) -> None:
    data = run_json(capsys, "simulate", "medio-azar", "--games", "300", "--seed", "7", "--json")
    assert set(data) == {
        "game", "variant", "games", "seed", "outcomes", "expected_throws", "expected_stakes"
    }  # fmt: skip
    assert (data["game"], data["variant"], data["games"], data["seed"]) == (
        "medio-azar", "card", 300, 7
    )  # fmt: skip
    for estimate in [*data["outcomes"].values(), data["expected_throws"]]:
        assert set(estimate) == {"float", "stderr", "ci95"} and estimate["stderr"] > 0
        low, high = estimate["ci95"]
        assert low <= estimate["float"] <= high
    assert set(data["expected_stakes"]) == {"caster", "opponent"}
    again = run_json(capsys, "simulate", "medio-azar", "--games", "300", "--seed", "7", "--json")
    assert again == data  # a seed makes the run repeatable


def test_simulate_table_shows_the_exact_value_alongside(capsys) -> None:
    assert main(["simulate", "azar", "--variant", "lana", "--games", "200", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "95% interval" in out and "0.5008" in out


@pytest.mark.parametrize("main", ["6", "8"])
def test_odds_json_for_hazard_gives_chambers_7295_to_6961(capsys, main: str) -> None:
    data = run_json(capsys, "odds", "hazard", "--main", main, "--json")
    assert set(data) == {"game", "variant", "outcomes", "expected_throws", "choices"}
    assert (data["game"], data["variant"], data["choices"]) == (
        "hazard",
        "called-main",
        {"main": int(main)},
    )
    assert data["outcomes"]["caster_loses"]["fraction"] == "7295/14256"
    assert data["outcomes"]["caster_wins"]["fraction"] == "6961/14256"
    for figure in [*data["outcomes"].values(), data["expected_throws"]]:
        check_figure(figure)


def test_odds_json_for_hazard_main_7(capsys) -> None:
    data = run_json(capsys, "odds", "hazard", "--main", "7", "--json")
    assert data["outcomes"]["caster_wins"]["fraction"] == "244/495"
    assert data["expected_throws"]["fraction"] == "557/165"


def test_odds_table_for_hazard_names_the_main_and_the_ways_it_ends(capsys) -> None:
    assert main(["odds", "hazard", "--main", "8"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hazard / called-main, main 8: exact figures")
    assert "7295/14256" in out and "ends: hazard.won_by_nick" in out and "1/6" in out


def test_the_command_line_itself_prints_the_hazard_odds() -> None:
    # The installed entry point, as a user runs it.
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "kiosk", "odds", "hazard", "--main", "6", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["outcomes"]["caster_loses"]["fraction"] == "7295/14256"


def test_simulate_hazard_plays_the_main_given(capsys) -> None:
    data = run_json(capsys, "simulate", "hazard", "--main", "7", "--games", "400", "--json")
    assert data["choices"] == {"main": 7}
    low, high = data["outcomes"]["caster_wins"]["ci95"]
    assert low < 244 / 495 < high


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["odds", "hazard"],
            "say which main is chosen: one of 5, 6, 7, 8, 9 (give it with --main M)",
        ),
        (["odds", "hazard", "--main", "10"], "the main is one of 5, 6, 7, 8, 9; got 10"),
        (["odds", "azar", "--main", "7"], "azar/card asks for no main"),
        (["odds", "hazard", "--variant", "thrown-main", "--main", "7"], "asks for no main"),
        (["simulate", "hazard", "--games", "10"], "(give it with --main M)"),
        (["odds", "marlota"], "no game called 'marlota'"),
        (["odds", "azar", "--variant", "petrarch"], "its variants are: card, lana"),
        (["simulate", "azar", "--games", "1"], "at least 2"),
    ],
)
def test_bad_names_give_a_clear_message_not_a_traceback(capsys, argv, message) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err


def test_version_is_printed_for_the_technician(capsys) -> None:
    import pytest

    from kiosk import cli

    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("azar-kiosk 0.")
