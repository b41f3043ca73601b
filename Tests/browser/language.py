#!/usr/bin/env python3
"""The web client for a user who reads German, in headless Chromium.

Usage: language.py BASE_URL
The browser's languages go with every request: the first screen, the login form and a failed
sign-in's message are the app's German; the same pages in an English browser stay English.
Fails on any JavaScript error.
"""
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as conditions

from chromium import chromium, waiting

BASE = sys.argv[1]
errors = []


def settled(driver, screen):
    wait = waiting(driver)
    wait.until(conditions.presence_of_element_located((By.CSS_SELECTOR, f'[data-top][data-screen="{screen}"]')))
    wait.until(lambda d: d.find_element(By.ID, "app").get_attribute("aria-busy") == "false")
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE":
            errors.append(entry["message"])


def top_text(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-top]").text


def walk(languages, welcome, log_in, wrong):
    driver = chromium(languages=languages)
    try:
        driver.get(BASE + "/")
        settled(driver, "firstRun")
        assert welcome in top_text(driver), (languages, top_text(driver))
        driver.find_element(By.CSS_SELECTOR, '[data-top] button[data-event="logIn"]').click()
        settled(driver, "login")
        assert log_in in top_text(driver), (languages, top_text(driver))
        form = driver.find_element(By.CSS_SELECTOR, '[data-top] form[data-event="submit"]')
        form.find_element(By.NAME, "email").send_keys("nobody@example.com")
        form.find_element(By.NAME, "password").send_keys("a wrong password, long enough")
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        waiting(driver).until(lambda d: wrong in top_text(d))
    finally:
        driver.quit()


walk("de-DE,de", "Willkommen", "Anmelden", "Falsche E-Mail-Adresse oder falsches Passwort.")
walk("en-US,en", "Welcome", "Log in", "Wrong e-mail or password.")
if errors:
    sys.exit("JavaScript errors: " + "; ".join(errors))
print("browser language passed")
