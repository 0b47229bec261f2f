"""The balance lab (issue 22): ``lawspeaker simulate`` writes summary.json and
report.html; the same seed gives the same summary whatever the workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lawspeaker.cli import main
from lawspeaker.sim.lab import LabError, LabSpec, run_lab, summarise
from lawspeaker.sim.report import render_report


@pytest.fixture(scope="module")
def spec() -> LabSpec:
    return LabSpec.build("s9-complete", 6, 5, {"aesir": "tactician"}, "random", max_years=4)


@pytest.fixture(scope="module")
def summary(spec: LabSpec) -> dict:
    return summarise(spec, run_lab(spec, workers=1))


def test_the_summary_holds_what_the_issue_asks(summary: dict) -> None:
    assert (summary["variant"], summary["games"], summary["seed"]) == ("s9-complete", 6, 5)
    assert len(summary["powers"]) == 9
    aesir = summary["powers"]["Aesir"]
    assert aesir["bot"] == "tactician" and summary["powers"]["Vanir"]["bot"] == "random"
    for row in summary["powers"].values():
        assert {"wins", "draws", "eliminated", "mean_final_centres", "top_centres"} <= set(row)
        assert 0 <= row["top_centres"] <= 6 and row["wins"] + row["draws"] <= 6
    # ties count for everyone tied, so the top finishes add up to at least the games
    assert sum(r["top_centres"] for r in summary["powers"].values()) >= 6
    assert sum(summary["endings"].values()) == 6
    years = summary["centres_by_year"]
    assert years["years"][0] == "start" and len(years["Aesir"]) == len(years["years"])
    assert years["Aesir"][0]["low"] <= years["Aesir"][0]["mean"] <= years["Aesir"][0]["high"]
    assert sum(summary["centre_changes"].values()) > 0
    assert summary["dp_spent"]["Aesir"]["mean_per_game"] > 0
    # four years against random: the tactician leads
    assert aesir["mean_final_centres"] > max(
        r["mean_final_centres"] for p, r in summary["powers"].items() if p != "Aesir")


def test_the_same_seed_gives_the_same_summary_on_any_number_of_workers(
        spec: LabSpec, summary: dict) -> None:
    assert summarise(spec, run_lab(spec, workers=2)) == summary
    other = LabSpec.build("s9-complete", 6, 6, {"aesir": "tactician"}, "random", max_years=4)
    assert summarise(other, run_lab(other, workers=1)) != summary


def test_bad_lab_input_is_named() -> None:
    with pytest.raises(LabError, match="no power 'Atlantis'"):
        LabSpec.build("standard", 1, 0, {"Atlantis": "random"})
    with pytest.raises(LabError, match="no bot called 'genius'"):
        LabSpec.build("standard", 1, 0, {}, "genius")
    with pytest.raises(LabError, match="cannot load variant 'nowhere'"):
        LabSpec.build("nowhere", 1, 0, {})


def test_the_report_shows_every_section(summary: dict) -> None:
    html = render_report(summary, elapsed=3.0)
    for heading in ("Who finishes on top", "Centres over the years",
                    "Which centres are fought over", "The DP economy"):
        assert heading in html
    assert html.count("<svg") == 4
    assert "Aesir" in html and "tactician" in html


def test_simulate_writes_summary_and_report(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    result = CliRunner().invoke(main, [
        "simulate", "standard", "--games", "3", "--seed", "9", "--bots", "France=tactician",
        "--default-bot", "hold", "--max-years", "3", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 3 and summary["bots"]["France"] == "tactician"
    assert summary["bots"]["England"] == "hold"
    assert summary["powers"]["France"]["top_centres"] == 3
    assert "<svg" in (out / "report.html").read_text()


def test_simulate_names_bad_input(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["simulate", "standard", "--bots", "France",
                                       "--out", str(tmp_path)])
    assert result.exit_code != 0 and "'France' is not key=value" in result.output
    result = CliRunner().invoke(main, ["simulate", "standard", "--default-bot", "genius",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 1 and "Error: no bot called 'genius'" in result.output
    assert "Traceback" not in result.output
