"""Performs a gesture script on the recipe list in headless Chromium, against `cachelab serve
--record`, and writes the photo requests that reached the server as a cachelab trace.

The browser's HTTP cache is disabled (DevTools' Network.setCacheDisabled), so every image the page
wants reaches the server. The script's grammar is cachelab's `GestureScript`: load, read POINTS
SPEED, fling VELOCITY, wait SECONDS, top, open ROW, reload. Scrolling runs in the page, one step a
frame (requestAnimationFrame): a read at a steady speed, a fling decelerating by 0.998 per ms.

Prints one JSON line of what it measured: the connection type Chromium reports, the rows the list
asked for on load (so the lazy-load distance), the requests recorded.
"""

import argparse
import json
import math
import signal
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROW_HEIGHT = {"phone": 110, "small-phone": 100, "tablet": 120}
SECONDS_ON_RECIPE = 3.0

SCROLL = """
const [kind, first, second, done] = arguments;
// The position is kept here, not read back: the page rounds each scroll to whole pixels, and
// small steps rounded up would scroll a fifth faster than asked.
let last = null, moved = 0, velocity = first, position = window.scrollY;
function step(now) {
  if (last === null) { last = now; requestAnimationFrame(step); return; }
  const elapsed = now - last; last = now;
  const bottom = document.documentElement.scrollHeight - window.innerHeight;
  if (kind === "read") {
    const delta = Math.min(second * elapsed / 1000, first - moved);
    position = Math.min(position + delta, bottom); moved += delta;
    window.scrollTo(0, position);
    if (moved >= first || position >= bottom) { done(window.scrollY); return; }
  } else {
    position = Math.max(0, Math.min(position + velocity * elapsed / 1000, bottom));
    window.scrollTo(0, position);
    velocity *= Math.pow(0.998, elapsed);
    if (Math.abs(velocity) <= 10 || position <= 0 || position >= bottom) { done(window.scrollY); return; }
  }
  requestAnimationFrame(step);
}
requestAnimationFrame(step);
"""


def parse(path):
    gestures = []
    with open(path, encoding="utf-8") as file:
        for number, raw in enumerate(file, start=1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            name, arguments = words[0], words[1:]
            try:
                values = [float(word) for word in arguments]
            except ValueError:
                sys.exit(f"{path}:{number}: not a gesture: {raw.strip()!r}")
            arity = {"load": 0, "top": 0, "reload": 0, "read": 2, "fling": 1, "wait": 1, "open": 1}
            if arity.get(name) != len(values):
                sys.exit(f"{path}:{number}: not a gesture: {raw.strip()!r}")
            gestures.append((name, values))
    if not gestures or gestures[0][0] != "load":
        sys.exit(f"{path}:1: a gesture script starts with 'load'")
    return gestures


def small_photo_requests(base):
    with urllib.request.urlopen(base + "/stats") as response:
        stats = json.load(response)
    return stats["routes"].get("photo-small", {}).get("requests", 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cachelab", required=True, help="the cachelab binary")
    parser.add_argument("--gestures", required=True, help="the gesture script")
    parser.add_argument("--out", required=True, help="the recorded trace to write")
    parser.add_argument("--device", default="phone", choices=sorted(ROW_HEIGHT))
    parser.add_argument("--width", type=int, default=390, help="window width, CSS pixels")
    parser.add_argument("--height", type=int, default=700, help="window height, CSS pixels (the list's viewport)")
    parser.add_argument("--screenshot", help="save a PNG of the page after the first read or fling")
    parser.add_argument("--eager", action="store_true", help="load every image eagerly (a page that lazy-loads nothing)")
    arguments = parser.parse_args()
    gestures = parse(arguments.gestures)

    serve = [arguments.cachelab, "serve", "--port", "0", "--record", arguments.out, "--device", arguments.device]
    server = subprocess.Popen(serve, stdout=subprocess.PIPE, text=True)
    base = server.stdout.readline().strip()
    if not base.startswith("http://"):
        server.kill()
        sys.exit("cachelab serve did not print its URL")

    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--window-size={arguments.width},{arguments.height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    measured = {}
    try:
        driver.set_script_timeout(120)
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": arguments.width, "height": arguments.height, "deviceScaleFactor": 1, "mobile": False})
        row_height = ROW_HEIGHT[arguments.device]
        screenshot_taken = False
        for index, (name, values) in enumerate(gestures):
            if name in ("load", "reload"):
                if name == "load":
                    driver.get(base + "/")
                else:
                    driver.refresh()
                if arguments.eager:
                    driver.execute_script(
                        "document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager')")
                if index == 0:
                    time.sleep(1)
                    rows = small_photo_requests(base)
                    viewport = driver.execute_script("return window.innerHeight")
                    measured["connection"] = driver.execute_script(
                        "return navigator.connection ? navigator.connection.effectiveType : null")
                    measured["viewport_px"] = viewport
                    measured["rows_on_load"] = rows
                    measured["lazy_load_distance_px"] = rows * row_height - viewport
            elif name == "read":
                driver.execute_async_script(SCROLL, "read", values[0], values[1])
            elif name == "fling":
                driver.execute_async_script(SCROLL, "fling", values[0], 0)
            elif name == "wait":
                time.sleep(values[0])
            elif name == "top":
                driver.execute_script("window.scrollTo(0, 0)")
            elif name == "open":
                row = math.floor(driver.execute_script("return window.scrollY") / row_height) + int(values[0])
                # Only a card that leads to the recipe's page opens it (the app's card rule).
                links = driver.find_elements(By.CSS_SELECTOR, f'#row-{row} a[href^="/recipes/"]')
                if links:
                    links[0].click()
                    time.sleep(SECONDS_ON_RECIPE)
                    driver.back()
            if arguments.screenshot and not screenshot_taken and name in ("read", "fling"):
                driver.save_screenshot(arguments.screenshot)
                screenshot_taken = True
        time.sleep(0.5)
        # Every photo the page loaded must be an image the browser can draw.
        drawn, broken = driver.execute_script(
            "const loaded = Array.from(document.images).filter(i => i.complete && i.currentSrc);"
            "return [loaded.filter(i => i.naturalWidth > 0).length,"
            "        loaded.filter(i => i.naturalWidth === 0).map(i => i.currentSrc)];")
        measured["images_drawn"] = drawn
        measured["images_not_drawn"] = broken
    finally:
        driver.quit()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    measured["exit"] = server.returncode
    print(json.dumps(measured))
    if measured["images_not_drawn"] or measured["images_drawn"] == 0:
        print(f"{len(measured['images_not_drawn'])} photos the browser could not draw, {measured['images_drawn']} drawn",
              file=sys.stderr)
        return 1
    return 0 if server.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
