"""The classroom app (``make app``, issue 16 item 5) in Debian's headless Chromium, driven by playwright.

It starts the app's own Voilà command (``tools/classroom_app.py``) on a free loopback port, opens the landing page,
checks that it links every notebook of ``notebooks/``, follows the link to ``01_sector_map.ipynb``, waits for its
bqplot map and clicks *Move storm*: the map must change (a decision made through the widgets, answered by the
notebook's kernel). A screenshot of each page is kept in ``artifacts/browser/``.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"

pytestmark = pytest.mark.browser


def _app_module():
    spec = importlib.util.spec_from_file_location("classroom_app", ROOT / "tools" / "classroom_app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def classroom_app(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: run `make chromium` (apt-get install -y chromium)")
    app = _app_module()
    port = _free_port()
    log = tmp_path_factory.mktemp("app") / "voila.log"
    with open(log, "w") as stream:
        process = subprocess.Popen(app.voila_command(port), stdout=stream, stderr=subprocess.STDOUT, cwd=ROOT)
    url = app.landing_url(port)
    for _ in range(120):
        try:
            urllib.request.urlopen(url, timeout=1)
            break
        except OSError:
            time.sleep(0.5)
    else:
        process.terminate()
        pytest.fail("Voilà did not start: " + log.read_text()[-2000:])
    yield _App(url, log)
    process.terminate()
    process.wait(timeout=30)


class _App(str):
    """The landing page's address, which also knows Voilà's log (read back when a page does not render)."""

    log: Path

    def __new__(cls, url: str, log: Path) -> _App:
        app = super().__new__(cls, url)
        app.log = log
        return app


def _is_loopback(url: str) -> bool:
    return urllib.parse.urlsplit(url).hostname in ("127.0.0.1", "localhost") or url.startswith(("data:", "blob:"))


def _watch(page) -> list[str]:
    """Collect what the browser says went wrong on ``page`` (console errors, page errors, failed requests).

    The page is also cut off from the network, as on a classroom machine with none (and on CI): Voila's lab
    template links two Font Awesome stylesheets on a CDN (the icons are bundled in its JavaScript anyway), and a
    stylesheet in the page head holds back the scripts after it until its request fails, which takes as long as
    the machine's name lookup takes to give up. Aborting every request that is not to the app makes that
    failure immediate and the same everywhere."""
    seen: list[str] = []
    page.route("**/*", lambda route: route.continue_() if _is_loopback(route.request.url) else route.abort())
    page.on("console", lambda message: seen.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: seen.append(f"page error: {error}"))
    page.on("requestfailed", lambda request: seen.append(f"request failed: {request.url} {request.failure}"))
    return seen


def _wait_rendered(page, app: _App, selector: str, seen: list[str], timeout_ms: int = 90_000) -> float:
    """Wait until ``selector`` is on the page Voilà streams; returns the seconds it took.

    A page that does not render in time is reloaded once (what a user would do); if it still does not, the test
    fails with what the page shows, what the browser reported and the end of Voilà's log, so a failure on a
    machine we cannot log into says why."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    started = time.perf_counter()
    for attempt in (1, 2):
        try:
            page.wait_for_selector(selector, state="attached", timeout=timeout_ms)
            if attempt == 2:
                print(f"app: {selector} appeared only after a reload; first attempt: {seen[:20]}")
            return time.perf_counter() - started
        except PlaywrightTimeout:
            if attempt == 2:
                body = page.inner_text("body")[-2500:]
                raise AssertionError(
                    f"{selector} never appeared on {page.url} (twice {timeout_ms // 1000} s)\n"
                    f"page text: {body}\nbrowser: {seen[-30:]}\nVoila log: {app.log.read_text()[-4000:]}"
                ) from None
            page.reload(wait_until="commit")
    raise AssertionError("unreachable")


def test_app_command_is_loopback_with_kernel_culling():
    command = _app_module().voila_command(8866)
    assert "--Voila.ip=127.0.0.1" in command and "--port=8866" in command
    assert any(part.startswith("--MappingKernelManager.cull_idle_timeout=") for part in command)


def _map_markup(page) -> str:
    return page.locator(".bqplot").first.inner_html()


def test_landing_page_links_every_notebook_and_a_widget_reacts(classroom_app):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    notebooks = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        seen = _watch(page)
        page.goto(classroom_app, wait_until="domcontentloaded")
        links = {a.inner_text().strip(): a.get_attribute("href") for a in page.locator("a[href*='.ipynb']").all()}
        page.screenshot(path=str(ARTIFACTS / "app_landing.png"))
        assert sorted(links) == notebooks, links
        page.goto(classroom_app.rstrip("/") + links["01_sector_map.ipynb"], wait_until="commit")
        try:
            rendered = _wait_rendered(page, classroom_app, ".bqplot", seen)
            button = page.locator("button", has_text="Move storm").first
            button.wait_for(timeout=30_000)
            button.scroll_into_view_if_needed()
            page.wait_for_timeout(1000)
            before = _map_markup(page)
            started = time.perf_counter()
            button.click()
            deadline = time.time() + 30
            while time.time() < deadline and _map_markup(page) == before:
                page.wait_for_timeout(100)
            elapsed = time.perf_counter() - started
            after = _map_markup(page)
            assert "Traceback" not in page.inner_text("body")
        finally:
            page.screenshot(path=str(ARTIFACTS / "app_01_sector_map.png"))
            browser.close()
    assert after != before, "clicking 'Move storm' in the Voilà page did not change the map"
    print(f"app: 01 page rendered its map in {rendered:.1f} s; one click -> new map in {elapsed:.2f} s")


PLAY_PAGE = "00_learn_by_playing.ipynb"


def _page_markup(page) -> str:
    return page.locator("body").inner_html()


def _decide(page, tried: set[str]) -> float:
    """Click the page's enabled buttons in turn until one changes what the page shows (a decision answered by
    the kernel); returns the seconds from that click to the change."""
    for button in page.locator("button.jupyter-button:enabled").all():
        if not button.is_visible():
            continue
        before = _page_markup(page)
        started = time.perf_counter()
        button.click()
        deadline = time.time() + 5
        while time.time() < deadline:
            if _page_markup(page) != before:
                tried.add(button.inner_text())
                return time.perf_counter() - started
            page.wait_for_timeout(50)
    raise AssertionError("no button of the play page changed what it shows")


@pytest.mark.skipif(not (ROOT / "notebooks" / PLAY_PAGE).exists(), reason=f"{PLAY_PAGE} is not in this tree yet")
def test_the_play_page_renders_and_answers_decisions(classroom_app):
    """The play page, from the landing page: it renders without an error, and three decisions made through its
    buttons each change what the page shows (the first button that does, in page order)."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    timings: list[float] = []
    clicked: set[str] = set()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        seen = _watch(page)
        page.goto(classroom_app, wait_until="domcontentloaded")
        href = page.locator(f"a[href*='{PLAY_PAGE}']").first.get_attribute("href")
        page.goto(classroom_app.rstrip("/") + href, wait_until="commit")  # Voilà streams the page as cells run
        try:
            _wait_rendered(page, classroom_app, "button.jupyter-button", seen)
            page.wait_for_timeout(1000)
            assert "Traceback" not in page.inner_text("body")
            timings = [_decide(page, clicked) for _ in range(3)]
            assert "Traceback" not in page.inner_text("body")
        finally:
            page.screenshot(path=str(ARTIFACTS / "app_00_learn_by_playing.png"))
            browser.close()
    print(f"app: play page decisions ({', '.join(sorted(clicked))}), click -> page changed: median "
          f"{sorted(timings)[len(timings) // 2]:.2f} s, worst {max(timings):.2f} s")
