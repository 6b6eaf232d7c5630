"""A real-browser test: JupyterLab on loopback, Debian's headless Chromium driven by playwright (issue 12).

One JupyterLab server and one browser serve every notebook: each is opened, run with "Run All Cells", saved,
and checked: no error output (read from the saved notebook), a title on every bqplot figure, and no two texts of
a sector map overlapping (their rendered boxes, rotated as drawn, tested with the layout's separating-axis test).
Every visible figure is screenshotted into ``artifacts/browser/``. The sector-map notebook also clicks
"Move storm" and checks that the map changed.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from dunenb.render.layout import polygons_overlap

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
RUN_TIMEOUT_MS = 300_000

pytestmark = pytest.mark.browser

#: Text boxes of every figure, rotated as drawn: four screen corners per text (JS run in the page).
TEXT_BOXES_JS = """
(figure) => {
  const out = [];
  for (const el of figure.querySelectorAll('text')) {
    const text = (el.textContent || '').trim();
    if (!text || el.closest('.axis') || el.classList.contains('mainheading')) continue;
    const rects = el.getClientRects();
    if (!rects.length || rects[0].width === 0) continue;
    const box = el.getBBox();
    const m = el.getScreenCTM();
    const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x + box.width, box.y + box.height],
                     [box.x, box.y + box.height]].map(([x, y]) => {
      const p = new DOMPoint(x, y).matrixTransform(m);
      return [p.x, p.y];
    });
    out.push({text, corners});
  }
  return out;
}
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def lab_dir(tmp_path_factory) -> Path:
    workdir = tmp_path_factory.mktemp("lab")
    (workdir / "notebooks").mkdir()
    for name in NOTEBOOKS:  # copies, so that saving a run never touches the repository
        shutil.copy(ROOT / "notebooks" / name, workdir / "notebooks")
    (workdir / "data").symlink_to(ROOT / "data")  # the notebooks read ../data/games/...
    return workdir


@pytest.fixture(scope="module")
def jupyter_lab(lab_dir):
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: run `make chromium` (apt-get install -y chromium)")
    port = _free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    log = open(lab_dir / "lab.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
         f"--ServerApp.root_dir={lab_dir}", "--allow-root"],
        stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=lab_dir,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(f"{url}/api/status", timeout=1)
            break
        except OSError:
            time.sleep(0.5)
    else:
        process.terminate()
        pytest.fail("JupyterLab did not start: " + (lab_dir / "lab.log").read_text()[-2000:])
    yield url
    process.terminate()
    process.wait(timeout=30)
    log.close()


@pytest.fixture(scope="module")
def browser(jupyter_lab):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield chromium
        chromium.close()


ALL_RAN_JS = """() => {
  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent.trim());
  return prompts.length > 0 && prompts.every(t => /^\\[\\d+\\]:$/.test(t));
}"""


def _run_all(page, url: str, name: str) -> None:
    """Open the notebook alone, wait for its kernel, Run All Cells, and wait until every code cell has run."""
    page.goto(f"{url}/lab/tree/notebooks/{name}?reset", wait_until="domcontentloaded")  # one tab only
    page.wait_for_selector(".jp-Notebook", timeout=120_000)
    page.get_by_text("| Idle").first.wait_for(timeout=120_000)
    page.wait_for_timeout(1500)
    for attempt in range(3):  # a click before the notebook is ready does nothing: try again
        page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        try:
            page.wait_for_function(
                "() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]"
                ".some(p => /[*\\d]/.test(p.textContent))", timeout=15_000, polling=250)
            break
        except Exception:
            if attempt == 2:
                raise
    page.wait_for_function(ALL_RAN_JS, timeout=RUN_TIMEOUT_MS, polling=500)
    page.wait_for_timeout(1000)  # widgets finish drawing


def _wait_for_widgets(page) -> None:
    """Wait until every widget output has drawn something and the number of figures stops changing."""
    page.wait_for_function(
        """() => [...document.querySelectorAll(
                    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.widget-view+json"]')]
                 .every(o => o.querySelector('.jupyter-widgets, .widget-box, .bqplot'))""",
        timeout=120_000, polling=500)
    count, stable_since = -1, time.time()
    while time.time() - stable_since < 2.0:
        now = page.locator(".bqplot.figure").count()
        if now != count:
            count, stable_since = now, time.time()
        page.wait_for_timeout(300)


def _save(page, path: Path) -> dict:
    before = path.stat().st_mtime
    page.keyboard.press("Control+s")
    deadline = time.time() + 30
    while time.time() < deadline and path.stat().st_mtime == before:
        time.sleep(0.25)
    while True:  # the server may still be writing the file
        try:
            return json.loads(path.read_text())
        except json.JSONDecodeError:
            if time.time() > deadline:
                raise
            time.sleep(0.25)


def _errors(notebook: dict) -> list[str]:
    return [f"{o.get('ename')}: {o.get('evalue')}" for cell in notebook["cells"]
            for o in cell.get("outputs", []) if o.get("output_type") == "error"]


def _map_overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    pairs = []
    for i, first in enumerate(boxes):
        for second in boxes[i + 1:]:
            if polygons_overlap(first["corners"], second["corners"], tolerance=1.0):  # 1 px: touching is fine
                pairs.append((first["text"], second["text"]))
    return pairs


def _check_figures(page, stem: str) -> list[str]:
    problems = []
    figures = page.locator(".bqplot.figure")
    for index in range(figures.count()):
        figure = figures.nth(index)
        title = figure.locator(".mainheading").first.text_content() if figure.locator(".mainheading").count() else ""
        if not (title or "").strip():
            problems.append(f"{stem}: figure {index} has no title")
        if not figure.is_visible():
            continue
        figure.scroll_into_view_if_needed()
        figure.screenshot(path=str(ARTIFACTS / f"{stem}_figure{index:02d}.png"))
        if (title or "").startswith("Dune"):
            overlaps = _map_overlaps(figure.evaluate(TEXT_BOXES_JS))
            if overlaps:
                problems.append(f"{stem}: map '{title}' has overlapping labels {overlaps}")
    pictures = page.locator(".widget-html-content svg")  # SVG pictures inside widgets (the battle wheels)
    for index in range(min(pictures.count(), 6)):
        if pictures.nth(index).is_visible():
            pictures.nth(index).scroll_into_view_if_needed()
            pictures.nth(index).screenshot(path=str(ARTIFACTS / f"{stem}_picture{index:02d}.png"))
    svgs = page.locator(".jp-RenderedSVG")
    for index in range(svgs.count()):
        svg = svgs.nth(index)
        svg.scroll_into_view_if_needed()
        svg.screenshot(path=str(ARTIFACTS / f"{stem}_svg{index:02d}.png"))
        inline = svg.locator("svg")
        if inline.count():
            overlaps = _map_overlaps(inline.first.evaluate(TEXT_BOXES_JS))
            if overlaps:
                problems.append(f"{stem}: SVG map {index} has overlapping labels {overlaps}")
    return problems


def _storm_button_changes_the_map(page) -> bool:
    button = page.locator("button", has_text="Move storm").first
    button.scroll_into_view_if_needed()
    before = page.locator(".bqplot").first.inner_html()
    button.click()
    deadline = time.time() + 60
    while time.time() < deadline and page.locator(".bqplot").first.inner_html() == before:
        page.wait_for_timeout(250)
    return page.locator(".bqplot").first.inner_html() != before


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_in_jupyterlab_with_titled_figures_and_readable_maps(name, jupyter_lab, browser, lab_dir):
    stem = name.removesuffix(".ipynb")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        try:
            _run_all(page, jupyter_lab, name)
            notebook = _save(page, lab_dir / "notebooks" / name)
            _wait_for_widgets(page)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / f"{stem}_failure.png"))
            raise
        errors = _errors(notebook)
        (ARTIFACTS / f"{stem}_errors.txt").write_text("\n".join(errors))
        assert errors == [], f"{name} has error outputs"
        problems = _check_figures(page, stem)
        if stem == "01_sector_map":
            try:
                changed = _storm_button_changes_the_map(page)
            except Exception:
                page.screenshot(path=str(ARTIFACTS / f"{stem}_failure.png"), full_page=True)
                raise
            assert changed, "clicking 'Move storm' did not change the bqplot map"
        (ARTIFACTS / f"{stem}_problems.txt").write_text("\n".join(problems))
        assert problems == []
    finally:
        page.close()
        for session in json.loads(urllib.request.urlopen(f"{jupyter_lab}/api/sessions", timeout=5).read()):
            urllib.request.urlopen(urllib.request.Request(f"{jupyter_lab}/api/sessions/{session['id']}",
                                                          method="DELETE"), timeout=10)
