#!/usr/bin/env python3
"""Drives the web client in headless Chromium through the Shop (Examples/Shop) as a shopper would.

Usage: shop.py BASE_URL SCREENSHOT_DIR
Fails (exit 1) on any step that does not show what it should, and on any JavaScript error in the
console. Saves a screenshot of each main screen, at phone (390x844) and desktop (1280x800) sizes.
"""
import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as conditions

from chromium import chromium, desktop, phone, waiting

BASE, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)

driver = chromium()
wait = waiting(driver)
errors = []


phone(driver)


def top(name):
    """Waits until the top screen is `name` and no request is in flight."""
    wait.until(conditions.presence_of_element_located((By.CSS_SELECTOR, f'[data-top][data-screen="{name}"]')))
    wait.until(lambda d: d.find_element(By.ID, "app").get_attribute("aria-busy") == "false")
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE":
            errors.append(entry["message"])
    return driver.find_element(By.CSS_SELECTOR, "[data-top]")


def tap(event):
    top_element().find_element(By.CSS_SELECTOR, f'button[data-event="{event}"]').click()


def top_element():
    return driver.find_element(By.CSS_SELECTOR, "[data-top]")


def shot(name):
    driver.save_screenshot(os.path.join(OUT, f"shop-{name}-phone.png"))
    desktop(driver)
    driver.save_screenshot(os.path.join(OUT, f"shop-{name}-desktop.png"))
    phone(driver)


try:
    driver.get(BASE + "/")
    top("welcome")
    assert driver.find_element(By.ID, "brand").text == "Corner Shop", "the header names the shop"
    tap("start")
    catalogue = top("catalogue")
    assert "€" in catalogue.text and "Price cents" not in catalogue.text, "prices read as prices"
    rows = catalogue.find_elements(By.CSS_SELECTOR, "li.tappable")
    assert rows, "products are tappable rows"
    assert not [b for b in catalogue.find_elements(By.TAG_NAME, "button") if b.text == "Open"], "no Open buttons"
    shot("catalogue")
    rows[0].click()  # the row itself, not a button in it
    product = top("product")
    shot("product")
    tap("addToCart")
    top("product")
    tap("openCart")
    cart = top("cart")
    remove = cart.find_element(By.CSS_SELECTOR, 'li.row button[data-event="remove"]')
    assert remove.text == "Remove" and "destructive" in remove.get_attribute("class"), "removing is a button of its own"
    assert not cart.find_elements(By.CSS_SELECTOR, "li.tappable"), "no row removes on a tap"
    shot("cart")
    tap("checkout")
    address = top("checkout.address")
    assert address.find_element(By.NAME, "name").get_attribute("autocomplete") == "name"
    assert address.find_element(By.NAME, "street").get_attribute("autocomplete") == "street-address"
    assert address.find_element(By.NAME, "city").get_attribute("autocomplete") == "address-level2"
    form = address.find_element(By.CSS_SELECTOR, 'form[data-event="next"]')
    for name, value in (("name", "Ada Lovelace"), ("street", "1 Loop Road"), ("city", "Turin")):
        form.find_element(By.NAME, name).send_keys(value)
    shot("address")
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    alert = top("checkout.confirm")
    assert not alert.find_elements(By.CSS_SELECTOR, 'button[data-event="dismiss"]'), "an alert has no close cross"
    shot("confirm")
    tap("confirm")
    placed = top("checkout.placed")
    assert "€" in placed.text and "—" not in placed.text
    shot("placed")
finally:
    driver.quit()

if errors:
    print("JavaScript errors:", *errors, sep="\n  ")
    sys.exit(1)
print("shop journey passed")
