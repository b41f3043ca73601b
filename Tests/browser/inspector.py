#!/usr/bin/env python3
"""Drives the operator's inspector in headless Chromium.

Usage: inspector.py BASE_URL SESSION_ID OPERATOR_KEY SCREENSHOT_DIR
Refused with a wrong key; with the right one it shows the coordinator tree and the timeline, and
steps back and forth through the session's versions with each step's State and diff. Fails
(exit 1) on any step that does not show what it should and on any JavaScript error; checks that
the key never reaches the URL or the page's storage. Saves inspector.png.
"""
import os
import sys

from selenium.webdriver.common.by import By

from chromium import chromium, waiting

BASE, SESSION, KEY, OUT = sys.argv[1:5]
os.makedirs(OUT, exist_ok=True)

driver = chromium("1400,900")
wait = waiting(driver)
errors = []


def check_console(allow_401=False):
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE" and not (allow_401 and "401" in entry["message"]):
            errors.append(entry["message"])


def by_id(name):
    return driver.find_element(By.ID, name)


def open_session(key):
    by_id("key").clear()
    by_id("key").send_keys(key)
    by_id("session").clear()
    by_id("session").send_keys(SESSION)
    driver.find_element(By.CSS_SELECTOR, "#open button").click()


def title_is(text):
    wait.until(lambda d: d.find_element(By.ID, "step-title").text == text)
    wait.until(lambda d: d.find_element(By.ID, "state").text.startswith("{"))


try:
    driver.get(BASE + "/inspector")
    open_session(KEY + "wrong")
    wait.until(lambda d: "not right" in d.find_element(By.ID, "message").text)
    assert not by_id("inspector").is_displayed(), "nothing is shown without the right key"
    check_console(allow_401=True)

    open_session(KEY)
    wait.until(lambda d: "journal entries" in d.find_element(By.ID, "message").text)
    entries = driver.find_elements(By.CSS_SELECTOR, "#timeline .entry")
    assert len(entries) >= 5, f"the timeline shows the journal ({len(entries)} entries)"
    wait.until(lambda d: d.find_element(By.ID, "state").text.startswith("{"))
    assert "screens:" in by_id("tree").text, "the tree shows coordinators and their screens"

    # Step back to the first event and forth again.
    for _ in range(len(entries) - 1):
        by_id("back").click()
    wait.until(lambda d: d.find_element(By.ID, "position").text.startswith("1 of"))
    title_is("v0 → v1: (start)")
    assert by_id("back").get_attribute("disabled") is not None, "nothing is older than the start"
    by_id("forward").click()
    wait.until(lambda d: d.find_element(By.ID, "position").text.startswith("2 of"))
    title_is("v1 → v2: signUp")
    diff = by_id("diff").text
    assert "signUp" in diff or "~" in diff or "+" in diff, f"the diff shows what changed: {diff}"
    # A sign-in step shows its payload without the password, and says it was left out.
    steps = driver.find_elements(By.CSS_SELECTOR, "#timeline .entry")
    password_step = next(step for step in steps if "next" in step.text and "signUp.password" in step.text)
    password_step.click()
    wait.until(lambda d: "password" in d.find_element(By.ID, "step-facts").text)
    assert "left out" in by_id("step-facts").text and "password" in by_id("step-facts").text
    driver.find_element(By.CSS_SELECTOR, "#timeline .entry.selected")
    wait.until(lambda d: d.find_element(By.ID, "state").text.startswith("{"))
    assert KEY not in driver.current_url, "the key is not in the URL"
    stored = driver.execute_script("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie")
    assert KEY not in stored, "the key is not stored"
    driver.save_screenshot(os.path.join(OUT, "inspector.png"))
    check_console()
finally:
    driver.quit()

if errors:
    print("JavaScript errors:", *errors, sep="\n  ")
    sys.exit(1)
print("inspector passed")
