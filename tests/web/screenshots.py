"""``make screenshots``: the page's pictures in docs/screenshots/ (the public view on a 1080p screen, the
judge's console, a phone 390 px wide in Russian), taken of a live demo table in Debian's chromium, and the
referee's panel of the judge's console after a correction (the scripted hand of tests/web/refereed.py), and
that hand's replay at its win."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.web.browser import (
    ROOT,
    award_penalty,
    browser,
    chromium_missing,
    demo_table,
    log_in,
    refereed_table,
)
from tests.web.helpers import PIN

OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    missing = chromium_missing()
    if missing:
        print(f"screenshots: {missing}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, demo_table(Path(tmp), profile="basic", pace=0.35) as url, \
            browser() as b:
        pub = b.new_page(viewport={"width": 1920, "height": 1080})
        pub.goto(url + "/?lang=en")
        pub.wait_for_selector(".meld[data-source]:not([data-source=''])", timeout=180000)
        pub.wait_for_selector(".pond img >> nth=24", timeout=180000)
        pub.wait_for_selector("#camera svg polygon", timeout=60000)
        pub.wait_for_timeout(1500)
        pub.screenshot(path=str(OUT / "public.png"))
        phone = b.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(url + "/?lang=ru")
        phone.wait_for_selector(".pond img", timeout=60000)
        phone.wait_for_timeout(1000)
        phone.screenshot(path=str(OUT / "phone.png"), full_page=True)
        judge = b.new_page(viewport={"width": 1280, "height": 900})
        judge.goto(url + "/?lang=en")
        log_in(judge, "Chief Judge", PIN)
        judge.wait_for_selector("#console:not([hidden])")
        award_penalty(judge, 1, 8, "000 §2.8.2.5", "call on a discard later than 3 s")
        judge.wait_for_selector("#payments", timeout=180000)
        judge.wait_for_selector(".pond img >> nth=12", timeout=180000)  # the next hand well under way
        judge.locator("#console").scroll_into_view_if_needed()
        judge.screenshot(path=str(OUT / "judge.png"), full_page=True)
    with tempfile.TemporaryDirectory() as tmp, refereed_table(Path(tmp)) as url, browser() as b:
        judge = b.new_page(viewport={"width": 1280, "height": 900})
        judge.goto(url + "/?lang=ru")
        log_in(judge, "Главный судья", PIN)
        judge.wait_for_selector("#result .deltas", timeout=60000)
        judge.locator("#ref-record tr:has(img[alt='7m']) [data-fix]").last.click()
        judge.fill("#ref-fix input[name=tile]", "4m")
        judge.fill("#ref-fix input[name=reason]", "4m прочитана как 7m")
        judge.click("#ref-fix button[type=submit]")
        judge.wait_for_selector("#ref-corrections li")
        judge.wait_for_timeout(1000)
        judge.locator("#referee").screenshot(path=str(OUT / "referee.png"))
        judge.click("#ref-confirm")  # the judge signs the corrected result: the hand is in the hands list
        judge.wait_for_selector("#history a.replay", timeout=60000)
        hand = judge.get_attribute("#history a.replay", "href")
        replay = b.new_page(viewport={"width": 1280, "height": 900})
        replay.goto(url + hand + "?lang=ru")  # the replay of the corrected hand, at the claimed win
        replay.wait_for_selector("body[data-ready]")
        while replay.get_attribute("#what", "data-type") != "won" and not replay.is_disabled("#next"):
            replay.keyboard.press("ArrowRight")
        replay.screenshot(path=str(OUT / "replay.png"), full_page=True)
    for name in ("public", "judge", "phone", "referee", "replay"):
        print(f"wrote {OUT / (name + '.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
