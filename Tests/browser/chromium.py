"""The headless Chromium every browser test drives (Debian's chromium and chromium-driver)."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait

# How long a step waits for the page to show what it should. Generous, as the Swift tests'
# deadlines are: a parallel test run on two cores kept Chromium from drawing a screen within
# 10 s. Every wait is for something that should happen, so a passing run never waits this long.
WAIT_SECONDS = 60


def waiting(driver):
    """A wait of WAIT_SECONDS that tries again when the element it read was replaced meanwhile:
    the web client redraws the screen it shows, so an element found a moment ago may be gone."""
    return WebDriverWait(driver, WAIT_SECONDS, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))


def chromium(window="390,844", languages=None):
    """A new headless Chromium with a `window` ("width,height") and the console kept for `get_log`;
    with `languages` ("de-DE,de"), a user who reads those (`navigator.languages`)."""
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={window}"):
        options.add_argument(flag)
    if languages:
        options.add_argument("--lang=" + languages.split(",")[0])
        options.add_experimental_option("prefs", {"intl.accept_languages": languages})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def phone(driver):
    """A 390x844 viewport, as a phone's (Chromium's window cannot be narrower than 500)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})


def desktop(driver):
    """A 1280x800 viewport."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
