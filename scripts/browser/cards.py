"""Taps every kind of recipe card in headless Chromium against `cachelab serve` and checks that each
goes where the app's card rule says (`Recipe.cardDestination`): a card with a YouTube link opens the
recipe's page, whose player embeds that video; a card with only a source link opens the source; a
card with neither is not a link and goes nowhere. A recipe page whose link is not a YouTube video
says it has none.

The catalog is written here: four recipes, one of each kind (and a link that is not a video). Their
source links point at the server itself, so that following one needs no network.

Prints one line per card and exits 0 when all went where they should, 1 otherwise.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def catalog(base):
    def recipe(number, name, source=None, video=None):
        fields = {
            "cuisine": "British", "name": name, "uuid": f"card-{number}",
            "photo_url_small": f"{base}/photos/card{number}/small.jpg",
            "photo_url_large": f"{base}/photos/card{number}/large.jpg",
        }
        if source:
            fields["source_url"] = source
        if video:
            fields["youtube_url"] = video
        return fields

    return {"recipes": [
        recipe(0, "Video and source", source=f"{base}/stats?source=0",
               video="https://www.youtube.com/watch?v=6R8ffRRJcrg&t=30s"),
        recipe(1, "Source only", source=f"{base}/stats?source=1"),
        recipe(2, "Neither link"),
        recipe(3, "A link that is not a video", source=f"{base}/stats?source=3", video="https://vimeo.com/12345"),
    ]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cachelab", required=True, help="the cachelab binary")
    arguments = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    handle, path = tempfile.mkstemp(suffix=".json", prefix="cachelab-cards-")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        json.dump(catalog(base), file)
    server = subprocess.Popen([arguments.cachelab, "serve", "--port", str(port), "--catalog", path],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if server.stdout.readline().strip() != base:
        server.kill()
        os.unlink(path)
        sys.exit(f"cachelab serve did not print {base}: {server.stderr.read()}")

    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=390,700"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    failures = []

    def check(card, condition, what):
        print(f"{'ok  ' if condition else 'FAIL'} card {card}: {what}")
        if not condition:
            failures.append(card)

    try:
        driver.set_page_load_timeout(30)
        for row, expected in enumerate(["detail", "source", "none", "detail"]):
            driver.get(base + "/")
            links = driver.find_elements(By.CSS_SELECTOR, f"#row-{row} a")
            if expected == "none":
                check(row, not links, "is not a link")
                driver.find_element(By.CSS_SELECTOR, f"#row-{row}").click()
                time.sleep(0.3)
                check(row, driver.current_url == base + "/", f"a tap stays on the list ({driver.current_url})")
                continue
            check(row, len(links) == 1, "is one link")
            if not links:
                continue
            links[0].click()
            time.sleep(0.3)
            if expected == "source":
                check(row, driver.current_url == f"{base}/stats?source={row}",
                      f"opens its source ({driver.current_url})")
                continue
            check(row, driver.current_url == f"{base}/recipes/card-{row}", f"opens its page ({driver.current_url})")
            frames = driver.find_elements(By.CSS_SELECTOR, "iframe#video")
            if row == 0:
                source = frames[0].get_attribute("src") if frames else None
                check(row, source == "https://www.youtube.com/embed/6R8ffRRJcrg", f"embeds the video ({source})")
            else:
                notes = driver.find_elements(By.CSS_SELECTOR, "#no-video")
                check(row, not frames and notes and notes[0].text == "No video for this recipe.",
                      "says it has no video")
            sources = driver.find_elements(By.CSS_SELECTOR, "a#source")
            check(row, bool(sources) and sources[0].get_attribute("href") == f"{base}/stats?source={row}",
                  "links its source")
            large = driver.find_elements(By.CSS_SELECTOR, f'img[src="/photos/card{row}/large.jpg"]')
            check(row, bool(large), "shows its large photo")
    finally:
        driver.quit()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
        os.unlink(path)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
