"""A clean checkout stays clean (issue 16 item 8): ``make lab`` opens a git-ignored working copy of the notebooks
(``tools/lab_workspace.py``), and games saved from a notebook go to ``saved_games/``, which git ignores."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from dunenb.saves import SAVED_GAMES

ROOT = Path(__file__).resolve().parent.parent


def _workspace():
    spec = importlib.util.spec_from_file_location("lab_workspace", ROOT / "tools" / "lab_workspace.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _notebook(path: Path, text: str) -> None:
    path.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": text}]}))


def test_lab_copies_new_notebooks_and_keeps_the_users_saved_ones(tmp_path):
    sync = _workspace().sync
    source, work = tmp_path / "notebooks", tmp_path / "lab"
    source.mkdir()
    _notebook(source / "a.ipynb", "A1")
    _notebook(source / "b.ipynb", "B1")
    assert sync(source, work) == ["a.ipynb: copied", "b.ipynb: copied"]
    _notebook(work / "a.ipynb", "A1 run and saved by the user")
    assert sync(source, work) == []  # the user's saved copy is theirs
    assert "user" in (work / "a.ipynb").read_text()
    _notebook(source / "a.ipynb", "A2")
    _notebook(source / "b.ipynb", "B2")
    _notebook(source / "c.ipynb", "C1")
    changes = sync(source, work)
    assert changes[1:] == ["b.ipynb: updated", "c.ipynb: copied"]
    assert changes[0].startswith("a.ipynb: updated; your saved copy is now old/a-")
    assert "A2" in (work / "a.ipynb").read_text() and "B2" in (work / "b.ipynb").read_text()
    (kept,) = (work / "old").iterdir()
    assert "user" in kept.read_text()


def test_lab_working_copy_sits_beside_notebooks_so_relative_paths_work():
    text = (ROOT / "Makefile").read_text()
    assert "LAB_DIR ?= lab" in text and "tools/lab_workspace.py $(LAB_DIR)" in text
    assert (ROOT / "lab").resolve().parent == (ROOT / "notebooks").resolve().parent


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_lab_copy_and_saved_games_are_ignored_by_git():
    paths = ["lab/01_sector_map.ipynb", "lab/old/01_sector_map-20260101-000000.ipynb",
             f"notebooks/{SAVED_GAMES}/branched_game.json", f"lab/{SAVED_GAMES}/game.json"]
    result = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True)
    assert result.stdout.split() == paths
    tracked = subprocess.run(["git", "check-ignore", "--no-index", "notebooks/01_sector_map.ipynb"], cwd=ROOT)
    assert tracked.returncode == 1  # the tracked notebooks are not ignored


def test_the_replay_browser_saves_into_the_ignored_folder(tmp_path, monkeypatch):
    from dunenb.engine import make_config
    from dunenb.record import GameRecord
    from dunenb.saves import load_game
    from dunenb.widgets.replay_browser import ReplayBrowser

    monkeypatch.chdir(tmp_path)  # a notebook's folder
    browser = ReplayBrowser(GameRecord(make_config(["atreides", "fremen"], seed=3)), seed=3)
    assert browser.save_path.value.startswith(f"{SAVED_GAMES}/")
    browser.save_button.click()
    (saved,) = (tmp_path / SAVED_GAMES).iterdir()  # the folder is created on the first save
    assert load_game(saved).config.houses == ("atreides", "fremen")
