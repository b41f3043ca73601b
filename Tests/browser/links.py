#!/usr/bin/env python3
"""Deep links in the web client, in headless Chromium (issue 24).

Usage: links.py BASE_URL
The server holds a user link@example.com with post 1. A shared link opened in a fresh browser
goes through sign-in to the post, the address bar follows the top screen, the back button walks
down the stack, a reload keeps the screen, a link typed into a tab with a session opens there,
and a link to nothing is refused with the app still usable. Fails on any JavaScript error.
"""
import sys
from urllib.parse import urlparse

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as conditions

from chromium import chromium, waiting

BASE = sys.argv[1]
PASSWORD = "correct horse battery staple"
errors = []


def browser():
    return chromium()


def check_console(driver):
    for entry in driver.get_log("browser"):
        # A refused link is an expected 404 answer, which Chromium logs as a failed resource.
        if entry["level"] == "SEVERE" and "/v1/sessions" not in entry["message"]:
            errors.append(entry["message"])


def top(driver, name):
    """Waits until the top screen is `name` and no request is in flight."""
    wait = waiting(driver)
    wait.until(conditions.presence_of_element_located((By.CSS_SELECTOR, f'[data-top][data-screen="{name}"]')))
    wait.until(lambda d: d.find_element(By.ID, "app").get_attribute("aria-busy") == "false")
    check_console(driver)
    return driver.find_element(By.CSS_SELECTOR, "[data-top]")


def path(driver):
    return urlparse(driver.current_url).path


def expect_path(driver, expected):
    waiting(driver).until(lambda d: path(d) == expected, f"the address bar shows {expected}")


def sign_in(driver):
    form = driver.find_element(By.CSS_SELECTOR, '[data-top] form[data-event="submit"]')
    form.find_element(By.NAME, "email").send_keys("link@example.com")
    form.find_element(By.NAME, "password").send_keys(PASSWORD)
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()


first = browser()
try:
    # A shared link in a fresh browser: sign-in first, then the post.
    first.get(BASE + "/posts/1")
    top(first, "login")
    sign_in(first)
    post = top(first, "post")
    assert "Linked post" in post.text, "the linked post is shown"
    expect_path(first, "/posts/1")
    # The back button walks down the stack the link built.
    first.back()
    top(first, "timeline")
    expect_path(first, "/")
    # Tapping to a post puts its link in the address bar; a reload keeps the screen.
    first.find_element(By.CSS_SELECTOR, '[data-top] button[data-event="openPost"]').click()
    top(first, "post")
    expect_path(first, "/posts/1")
    first.refresh()
    top(first, "post")
    expect_path(first, "/posts/1")
    # A link typed into a tab that has a session opens there, and back walks down from it.
    first.get(BASE + "/users/1")
    user = top(first, "user")
    assert "Linker" in user.text, "the user is shown"
    expect_path(first, "/users/1")
    first.back()
    top(first, "timeline")
    expect_path(first, "/")
    # Settings: a modal over the profile tab; back closes it.
    first.get(BASE + "/settings")
    top(first, "settings")
    expect_path(first, "/settings")
    first.back()
    top(first, "profile")
    # A link to nothing is refused; the session stays where it was.
    first.get(BASE + "/posts/999")
    top(first, "profile")
    message = first.find_element(By.ID, "message")
    waiting(first).until(lambda d: "No post 999" in message.text, "the refusal is shown")
    check_console(first)
finally:
    first.quit()

fresh = browser()
try:
    # A malformed link in a fresh browser: the app starts at its start and says why.
    fresh.get(BASE + "/posts/abc")
    top(fresh, "firstRun")
    expect_path(fresh, "/")
    assert "whole number" in fresh.find_element(By.ID, "message").text, "the refusal is shown"
    # /signup opens registration, with its link in the address bar.
    fresh.get(BASE + "/signup")
    top(fresh, "signUp.email")
    expect_path(fresh, "/signup")
    fresh.back()
    top(fresh, "firstRun")
    check_console(fresh)
finally:
    fresh.quit()

if errors:
    print("JavaScript errors:", *errors, sep="\n  ")
    sys.exit(1)
print("browser links passed")
