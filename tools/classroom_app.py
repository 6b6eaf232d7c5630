"""The classroom app (``make app``): serve the teaching notebooks with Voilà on loopback.

    python tools/classroom_app.py [--port 8866] [--notebooks notebooks]

Voilà runs each notebook in its own kernel and shows only its outputs and widgets (no code, nothing to edit, and
a notebook file is never written). The landing page, at ``/``, is Voilà's server-rendered list of the folder
(``classic_tree``): every notebook there, ``00_learn_by_playing.ipynb`` included, is a link to its page, so a
notebook added later appears with no change here. Idle kernels are culled (a page left open does not hold a
kernel for ever). Everything is local: no network at run time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Default port; ``make app APP_PORT=...`` or ``--port`` changes it.
DEFAULT_PORT = 8866
#: Kernel culling: a kernel idle this many seconds is shut down, checked every CULL_INTERVAL seconds.
CULL_IDLE_SECONDS = 900
CULL_INTERVAL_SECONDS = 60


def landing_url(port: int) -> str:
    """The address of the landing page."""
    return f"http://127.0.0.1:{port}/"


def voila_command(port: int, notebooks: Path = ROOT / "notebooks") -> list[str]:
    """The Voilà command line of the app (shared by ``make app`` and tests/test_app.py)."""
    return [
        sys.executable, "-m", "voila", os.fspath(notebooks),
        "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}",
        "--Voila.port_retries=0",  # this port or none, so the address printed is the app's
        "--VoilaConfiguration.classic_tree=True",  # a plain HTML landing page, one link per notebook
        "--VoilaConfiguration.show_tracebacks=True",  # a teacher sees why a cell failed
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL_SECONDS}",
        "--MappingKernelManager.cull_connected=True",  # a forgotten tab does not keep its kernel
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("APP_PORT", DEFAULT_PORT)))
    parser.add_argument("--notebooks", type=Path, default=ROOT / "notebooks")
    args = parser.parse_args(argv)
    print(f"Classroom app: open {landing_url(args.port)} (the landing page links every notebook; Ctrl-C stops)",
          flush=True)
    try:
        return subprocess.call(voila_command(args.port, args.notebooks))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
