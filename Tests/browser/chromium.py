"""The headless Chromium every browser test drives (Debian's chromium and chromium-driver)."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium(window="390,844"):
    """A new headless Chromium with a `window` ("width,height") and the console kept for `get_log`."""
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={window}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
