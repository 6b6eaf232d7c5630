"""A real-browser test: JupyterLab on loopback, Debian's headless Chromium driven by playwright.

It runs ``notebooks/01_sector_map.ipynb`` in JupyterLab, waits for the bqplot map, clicks the
"Move storm" button and checks that the map changed. A screenshot is kept in ``artifacts/browser/``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def jupyter_lab(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: run `make chromium` (apt-get install -y chromium)")
    workdir = tmp_path_factory.mktemp("lab")
    shutil.copy(ROOT / "notebooks" / "01_sector_map.ipynb", workdir)
    port = _free_port()
    env = dict(os.environ)
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
         f"--ServerApp.root_dir={workdir}", "--allow-root"],
        stdout=subprocess.DEVNULL, stderr=open(workdir / "lab.log", "w"), env=env,
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
        pytest.fail("JupyterLab did not start: " + (workdir / "lab.log").read_text()[-2000:])
    yield url
    process.terminate()
    process.wait(timeout=30)


def _map_markup(page) -> str:
    return page.locator(".bqplot").first.inner_html()


def test_sector_map_notebook_runs_and_the_storm_button_changes_the_map(jupyter_lab):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{jupyter_lab}/lab/tree/01_sector_map.ipynb", wait_until="domcontentloaded")
        page.wait_for_selector(".jp-Notebook", timeout=120_000)
        page.get_by_text("| Idle").first.wait_for(timeout=120_000)
        page.wait_for_timeout(2000)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        try:
            page.wait_for_selector(".bqplot", state="attached", timeout=180_000)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "01_sector_map_failure.png"))
            raise
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=180_000)
        button = page.locator("button", has_text="Move storm").first
        button.scroll_into_view_if_needed()
        page.wait_for_timeout(1500)
        before = _map_markup(page)
        button.click()
        deadline = time.time() + 60
        while time.time() < deadline and _map_markup(page) == before:
            page.wait_for_timeout(250)
        after = _map_markup(page)
        page.locator(".bqplot").first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "01_sector_map.png"), full_page=False)
        browser.close()
    assert after != before, "clicking 'Move storm' did not change the bqplot map"
