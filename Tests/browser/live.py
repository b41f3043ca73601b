#!/usr/bin/env python3
"""Two Chromium windows on one session stay in sync, and a window that was offline catches up.

Usage: live.py BASE_URL
Fails (exit 1) when a window does not show what the other did, or on any JavaScript error.
"""
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as conditions

from chromium import chromium, waiting

BASE = sys.argv[1]
STORE_KEY = "coordinatord.session"

driver = chromium()
wait = waiting(driver)
errors = []


def check_console():
    for entry in driver.get_log("browser"):
        # A fetch cut by going offline is logged by Chromium itself; it is what the test does.
        if entry["level"] == "SEVERE" and "ERR_INTERNET_DISCONNECTED" not in entry["message"]:
            errors.append(entry["message"])


def on(window):
    driver.switch_to.window(window)


def top(name):
    """Waits until this window's top screen is `name` and no request is in flight."""
    wait.until(conditions.presence_of_element_located((By.CSS_SELECTOR, f'[data-top][data-screen="{name}"]')))
    wait.until(lambda d: d.execute_script("return busy") is False)
    check_console()


def version():
    """The version of the State this window shows (app.js's `state`)."""
    return driver.execute_script("return state ? state.version : 0")


def tap(event):
    driver.find_element(By.CSS_SELECTOR, f'[data-top] button[data-event="{event}"]').click()


def live(state):
    wait.until(lambda d: d.find_element(By.ID, "app").get_attribute("data-live") == state)


try:
    driver.get(BASE + "/")
    top("firstRun")
    first = driver.current_window_handle
    stored = driver.execute_script(f"return sessionStorage.getItem('{STORE_KEY}')")

    # A second window on the same session (its own tab storage, given the first one's session).
    driver.switch_to.new_window("window")
    second = driver.current_window_handle
    driver.get(BASE + "/")
    top("firstRun")
    driver.execute_script(f"sessionStorage.setItem('{STORE_KEY}', arguments[0])", stored)
    driver.refresh()
    top("firstRun")
    live("live")

    # A tap in one window shows in the other without a reload.
    on(first)
    tap("logIn")
    top("login")
    shown = version()
    on(second)
    top("login")
    assert version() == shown, f"the second window shows {version()}, the first {shown}"
    tap("back")
    top("firstRun")
    shown = version()
    on(first)
    top("firstRun")
    assert version() == shown

    # The second window goes offline; the first moves on twice; back online, it catches up.
    on(second)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    live("offline")
    on(first)
    tap("signUp")
    top("signUp.email")
    shown = version()
    on(second)
    assert driver.find_elements(By.CSS_SELECTOR, '[data-top][data-screen="firstRun"]'), "offline, nothing arrives"
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    top("signUp.email")
    live("live")
    assert version() == shown, f"caught up to {version()}, expected {shown}"
    check_console()
finally:
    driver.quit()

if errors:
    print("JavaScript errors:", *errors, sep="\n  ")
    sys.exit(1)
print("browser live passed")
