"""Render the app icon (static/img/icon.svg) to the PNGs a phone's home screen wants:
icon-192.png and icon-512.png (purpose "any"), icon-maskable-512.png (the icon inside the
80 % safe zone on a full-bleed background) and apple-touch-icon.png (180 px).

Uses the test browser (Playwright driving Debian's /usr/bin/chromium, see tests/e2e):
    .venv/bin/python tools/make_icons.py
Then optimizes the PNGs with optipng when it is installed (Debian package `optipng`)."""
from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
IMG = ROOT / "static" / "img"
BACKGROUND = "#1f2a44"
# name: (size in px, share of the size the icon takes, full-bleed background)
OUTPUTS = {
    "icon-192.png": (192, 1.0, False),
    "icon-512.png": (512, 1.0, False),
    "icon-maskable-512.png": (512, 0.8, True),
    "apple-touch-icon.png": (180, 1.0, True),
}


def page_html(svg: str, size: int, share: float, bleed: bool) -> str:
    """A page holding only the icon, `size` px square, transparent unless `bleed`."""
    src = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    inner = round(size * share)
    bg = BACKGROUND if bleed else "transparent"
    return (f"<html><body style='margin:0;background:transparent'><div style='width:{size}px;height:{size}px;"
            f"display:flex;align-items:center;justify-content:center;background:{bg}'>"
            f"<img src='{src}' width='{inner}' height='{inner}'></div></body></html>")


def main() -> None:
    svg = (IMG / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        for name, (size, share, bleed) in OUTPUTS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_html(svg, size, share, bleed))
            page.wait_for_function("document.images[0].complete")
            page.screenshot(path=str(IMG / name), omit_background=not bleed)
            page.close()
        browser.close()
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o5"] + [str(IMG / n) for n in OUTPUTS], check=True)
    for n in OUTPUTS:
        print(n, (IMG / n).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
