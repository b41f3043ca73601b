#!/usr/bin/env python3
"""Drives the web client in headless Chromium through the app's journey.

Usage: journey.py BASE_URL SCREENSHOT_DIR
Fails (exit 1) on any step that does not show what it should, and on any JavaScript error in
the console. Saves a screenshot of each main screen, at phone and desktop sizes.
"""
import os
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as conditions

from chromium import chromium, desktop, phone, waiting

BASE, OUT = sys.argv[1], sys.argv[2]
PASSWORD = "correct horse battery staple"
os.makedirs(OUT, exist_ok=True)

driver = chromium()
wait = waiting(driver)
errors = []


phone(driver)


def check_console():
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE":
            errors.append(entry["message"])


def top(name):
    """Waits until the top screen is `name` and no request is in flight."""
    wait.until(conditions.presence_of_element_located((By.CSS_SELECTOR, f'[data-top][data-screen="{name}"]')))
    wait.until(lambda d: d.find_element(By.ID, "app").get_attribute("aria-busy") == "false")
    check_console()
    return driver.find_element(By.CSS_SELECTOR, "[data-top]")


def tap(event, within=None):
    scope = within or top_element()
    scope.find_element(By.CSS_SELECTOR, f'button[data-event="{event}"]').click()


def top_element():
    return driver.find_element(By.CSS_SELECTOR, "[data-top]")


def submit(event, **values):
    form = top_element().find_element(By.CSS_SELECTOR, f'form[data-event="{event}"]')
    for name, value in values.items():
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()


def shot(name):
    driver.save_screenshot(os.path.join(OUT, f"{name}-phone.png"))
    desktop(driver)
    driver.save_screenshot(os.path.join(OUT, f"{name}-desktop.png"))
    phone(driver)


def below(upper, lower):
    return upper.location["y"] + upper.size["height"] <= lower.location["y"] + 1


try:
    driver.get(BASE + "/")
    top("firstRun")
    # The app's own name, not the server's, and no state version counter anywhere in the header.
    assert driver.find_element(By.ID, "brand").text == "Chirp", "the header names the app"
    assert driver.title == "Chirp", "the browser tab names the app"
    assert driver.find_element(By.CSS_SELECTOR, "header").text == "Chirp", "the header shows nothing but the name"
    assert not driver.find_elements(By.ID, "status"), "no version counter"
    shot("firstRun")
    tap("signUp")
    top("signUp.email")
    submit("next", email="not-an-email")
    screen = top("signUp.email")
    assert "valid e-mail" in screen.find_element(By.CLASS_NAME, "error").text, "the error prop is shown"
    shot("signUp-error")
    submit("next", email="web@example.com")
    top("signUp.password")
    password = top_element().find_element(By.NAME, "password")
    assert password.get_attribute("type") == "password", "passwords are masked"
    # A new password: the browser may suggest one; its length rule is data, shown as a hint.
    assert password.get_attribute("autocomplete") == "new-password", "a new password is offered to be generated"
    assert password.get_attribute("maxlength") == "128" and password.get_attribute("minlength") == "15"
    assert "15 to 128 characters" in top_element().find_element(By.CLASS_NAME, "hint").text
    assert "15 to 128" not in top_element().find_element(By.CLASS_NAME, "label-text").text, "the rule is not in the label"
    shot("signUp-password")
    submit("next", password=PASSWORD)
    top("signUp.profile")
    submit("finish", displayName="Web Person")
    top("timeline")
    shot("timeline-empty")

    tap("compose")
    top("compose")
    assert driver.find_elements(By.CSS_SELECTOR, '.backdrop[data-presentation="modal"]'), "compose is a modal sheet"
    shot("compose")
    submit("submit", text="Posted from a real browser")
    timeline = top("timeline")
    assert "Posted from a real browser" in timeline.text, "the timeline shows the post"
    # Rows are tapped themselves: no "Open" button per row, and the row's own button is the whole row.
    row = timeline.find_element(By.CSS_SELECTOR, "li.tappable")
    assert not [b for b in row.find_elements(By.TAG_NAME, "button") if b.text == "Open"], "no Open button per row"
    assert row.find_element(By.CSS_SELECTOR, "button.row-main").size["width"] >= row.size["width"] - 40, \
        "the row's button spans the row"
    assert "—" not in timeline.text, "nothing is shown as a dash"
    # Presented as declared: a title, no raw cursor or code name, no ISO timestamp.
    assert timeline.find_element(By.TAG_NAME, "h1").text == "Timeline"
    assert "nextCursor" not in timeline.text and "Next cursor" not in timeline.text, "cursors are hidden"
    assert "T" not in timeline.find_element(By.CSS_SELECTOR, ".item .meta").text.split(" ")[0], "timestamps are local dates"
    assert timeline.find_element(By.CSS_SELECTOR, 'button[data-event="compose"]').text == "New post"
    bar = driver.find_element(By.CSS_SELECTOR, ".tabbar")
    assert bar.location["y"] + bar.size["height"] >= driver.execute_script("return window.innerHeight") - 2, \
        "the tab bar stays at the bottom on a phone"
    desktop(driver)
    bar = driver.find_element(By.CSS_SELECTOR, ".tabbar")
    assert below(bar, top_element()), "on a desktop the tab bar is at the top, above the screen"
    phone(driver)
    shot("timeline")

    # A tap anywhere on the row opens it: here near its right edge, beside the text.
    row = top_element().find_element(By.CSS_SELECTOR, "li.tappable")
    ActionChains(driver).move_to_element_with_offset(row, row.size["width"] // 2 - 12, 0).click().perform()
    post = top("post")
    assert "Posted from a real browser" in post.text
    shot("post")
    # The browser's own back button sends `back`.
    driver.back()
    top("timeline")
    # The keyboard reaches a row and opens it with Enter.
    top_element().find_element(By.CSS_SELECTOR, "li.tappable button.row-main").send_keys(Keys.ENTER)
    top("post")
    driver.back()
    top("timeline")
    # A reload resumes the same session.
    driver.refresh()
    top("timeline")

    driver.find_element(By.CSS_SELECTOR, '[data-tab="profile"]').click()
    top("profile")
    shot("profile")
    tap("openSettings")
    top("settings")
    shot("settings")
    assert "destructive" in top_element().find_element(By.CSS_SELECTOR, 'button[data-event="deleteAccount"]') \
        .get_attribute("class"), "a destructive button looks destructive"
    tap("deleteAccount")
    alert = top("confirmDelete")
    assert driver.find_elements(By.CSS_SELECTOR, '.backdrop[data-presentation="alert"]'), "confirmDelete is an alert"
    assert not alert.find_elements(By.CSS_SELECTOR, 'button[data-event="dismiss"]'), "an alert has no close cross"
    assert alert.find_element(By.NAME, "password").get_attribute("autocomplete") == "current-password"
    shot("confirmDelete")
    tap("cancel")
    top("settings")
    tap("signOut")
    top("firstRun")

    tap("logIn")
    login = top("login")
    assert "—" not in login.text, "a null optional prop (no error yet) is left out"
    assert login.find_element(By.NAME, "email").get_attribute("autocomplete") == "username"
    assert login.find_element(By.NAME, "email").get_attribute("type") == "email"
    assert login.find_element(By.NAME, "password").get_attribute("autocomplete") == "current-password"
    submit("submit", email="web@example.com", password="not the password at all")
    assert "Wrong e-mail or password." in top("login").text
    submit("submit", email="web@example.com", password=PASSWORD)
    timeline = top("timeline")
    assert "Posted from a real browser" in timeline.text
    check_console()
finally:
    driver.quit()

if errors:
    print("JavaScript errors:", *errors, sep="\n  ")
    sys.exit(1)
print("browser journey passed")
