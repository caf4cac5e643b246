#!/usr/bin/env python3
"""The board of `polemos serve` in a real browser (headless Chromium driven by Selenium).

For each shipped battle (Chalons, Cannae, Phalanx) it loads the page, clicks a unit, checks that
its reachable hexes are drawn with their cost, clicks one to move there, reads the move in the
trace, undoes it, and plays on to the next phase. On a Standard sandbox set up from the page's
console it forces the dice, reads the exact odds of an attack as bars, makes the attack from the
options menu, answers its choices by clicking them and reads the result in the trace. A screenshot
of each step goes to the artifacts folder (argv[2]).

Exit 77 (skipped, with the reason) when no browser is installed: never a silent pass.

usage: board_test.py POLEMOS ARTIFACTS_DIR [SCENARIO...]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
except ImportError:
    skip("python3-selenium is not installed (scripts/setup installs it)")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not os.path.exists(CHROMIUM) or not os.path.exists(DRIVER):
    skip("chromium and chromium-driver are not installed (scripts/setup installs them)")

POLEMOS = sys.argv[1]
ARTIFACTS = sys.argv[2]
os.makedirs(ARTIFACTS, exist_ok=True)

# Each battle: its ruleset and scenario, a unit of the side to move first, and a hex it reaches.
BATTLES = {
    "chalons": ("standard", "chalons", "r43", "2621"),
    "cannae": ("fourbattles", "cannae", None, None),
    "phalanx": ("deluxe", "phalanx", None, None),
}

failures = []


DRIVER_NOW = None


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}")
        if DRIVER_NOW:
            print("  the trace then:\n    " + DRIVER_NOW.find_element(By.ID, "log").text[-1500:].replace("\n", "\n    "))
    else:
        print(f"ok: {what}")
    return cond


class Server:
    def __init__(self, ruleset, scenario):
        args = [POLEMOS, "serve", ruleset, scenario, "--port", "0", "--seed", "1"]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = None
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"serving the battle at (http://\S+/)", line)
            if m:
                self.url = m.group(1)
                break
        if not self.url:
            self.stop()
            raise RuntimeError(f"polemos serve {ruleset} {scenario} did not start")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1600,1000", "--disable-dev-shm-usage"]:
        opts.add_argument(flag)
    opts.add_argument("--user-data-dir=" + tempfile.mkdtemp(prefix="polemos-chromium-"))
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def wait(driver, cond, what, timeout=30):
    # An element found by `cond` may be drawn anew before it is read (the map is redrawn when the
    # game answers): that is a "not yet", asked again, not a failure.
    try:
        return WebDriverWait(driver, timeout, ignored_exceptions=(
            StaleElementReferenceException, NoSuchElementException)).until(lambda d: cond(d))
    except Exception:
        check(False, what)
        return None


def idle(driver):
    """Waits until the page has nothing under way (every request answered, the board drawn)."""
    time.sleep(0.05)
    wait(driver, lambda d: d.execute_script("return window.polemosIdle === true"), "the page becomes idle")


def log_text(driver):
    return driver.find_element(By.ID, "log").text


def shot(driver, name):
    driver.save_screenshot(os.path.join(ARTIFACTS, name + ".png"))


def console(driver, line):
    before = len(driver.find_elements(By.CSS_SELECTOR, "#log .entry"))
    box = driver.find_element(By.ID, "console")
    box.send_keys(line + "\n")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log .entry")) > before,
         f"the console's `{line}` reaches the trace")
    idle(driver)


def click_svg(driver, css):
    # SVG elements are clicked through a script event: the map may be scrolled or zoomed.
    el = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", el)
    idle(driver)


def chosen(driver):
    return driver.find_element(By.ID, "selected-id").get_attribute("textContent")


def choose(driver, unit):
    """Makes `unit` the chosen one ("" for none): a click on a counter chooses it, or drops it."""
    if chosen(driver) == unit:
        return
    if unit:
        click_svg(driver, f'g.counter[data-unit="{unit}"]')
    else:
        click_svg(driver, f'g.counter[data-unit="{chosen(driver)}"]')


def click_option(driver, pick):
    """Clicks the button `pick` chooses among the options menu's; returns whether one was found.

    The menu is drawn again when the game answers: a button found just before that is gone, so
    the buttons are looked for again (up to ten times) when the one found went stale."""
    for _try in range(10):
        try:
            b = pick(driver.find_elements(By.CSS_SELECTOR, "#options button.option"))
            if b is None:
                return False
            b.click()
            return True
        except StaleElementReferenceException:
            time.sleep(0.2)
    check(False, "an option can be clicked (it went stale ten times)")
    return False


def first_unit_to_move(driver):
    """A unit of an option that moves it to a hex: (unit, hex), from the options menu."""
    for b in driver.find_elements(By.CSS_SELECTOR, "#options button.option"):
        m = re.match(r"move (\S+) ([A-Z]*[0-9]+)( [NSEW]+)?$", b.get_attribute("data-text") or "")
        if m:
            return m.group(1), m.group(2)
    return None, None


def battle(driver, name):
    ruleset, scenario, unit, hex_ = BATTLES[name]
    server = Server(ruleset, scenario)
    try:
        driver.get(server.url)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg polygon.hex"),
             f"{name}: the map is drawn")
        idle(driver)
        wait(driver, lambda d: "turn 1" in d.find_element(By.ID, "status").text,
             f"{name}: the status says turn 1")
        check("reconstructed" in log_text(driver) or "seed 1" in driver.find_element(By.ID, "title").text,
              f"{name}: the banner is shown")
        shot(driver, f"{name}-1-opened")
        # Phalanx and Cannae open on a decision before any move (the Initiative, a level): take the
        # first option of each until a unit can move, as a player clicking down the menu would.
        for _ in range(12):
            if unit:
                break
            u, h = first_unit_to_move(driver)
            if u:
                unit, hex_ = u, h
                break
            entries = len(driver.find_elements(By.CSS_SELECTOR, "#log .entry"))
            if not click_option(driver, lambda bs: bs[0] if bs else None):
                break
            # Taken when its entry is in the trace and the menu drawn after it.
            wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log .entry")) > entries,
                 f"{name}: an option is taken")
            idle(driver)
        if not check(unit is not None, f"{name}: a unit can move"):
            return
        click_svg(driver, f'g.counter[data-unit="{unit}"]')
        wait(driver, lambda d: unit == d.find_element(By.ID, "selected-id").get_attribute("textContent"),
             f"{name}: clicking {unit} selects it")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board polygon.reach"),
             f"{name}: {unit}'s reachable hexes are highlighted")
        costs = driver.find_elements(By.CSS_SELECTOR, "#board text.reach-cost")
        check(costs and all(re.fullmatch(r"\d+", c.text or c.get_attribute("textContent")) for c in costs),
              f"{name}: each reachable hex shows its cost")
        shot(driver, f"{name}-2-selected")
        click_svg(driver, f'polygon.hex[data-hex="{hex_}"]')
        wait(driver, lambda d: f"move {unit}" in log_text(d), f"{name}: clicking {hex_} moves {unit}")
        wait(driver, lambda d: f"at {hex_}" in (d.find_element(
            By.CSS_SELECTOR, f'g.counter[data-unit="{unit}"] title').get_attribute("textContent") or ""),
             f"{name}: {unit} is drawn at {hex_}")
        shot(driver, f"{name}-3-moved")
        driver.find_element(By.ID, "undo").click()
        wait(driver, lambda d: "> undo" in log_text(d), f"{name}: undo reaches the trace")
        wait(driver, lambda d: f"at {hex_}" not in (d.find_element(
            By.CSS_SELECTOR, f'g.counter[data-unit="{unit}"] title').get_attribute("textContent") or ""),
             f"{name}: undo puts {unit} back")
        shot(driver, f"{name}-4-undone")
        # An illegal move is refused with the rule's words and changes nothing.
        console(driver, "end extra")
        check("error:" in log_text(driver), f"{name}: a malformed command is refused in the trace")
        # The move again, then the rest of the turn from the menu: each phase ended (or passed),
        # each choice answered by its first option, until turn 2 begins.
        choose(driver, unit)
        click_svg(driver, f'polygon.hex[data-hex="{hex_}"]')
        check(f"at {hex_}" in driver.find_element(
            By.CSS_SELECTOR, f'g.counter[data-unit="{unit}"] title').get_attribute("textContent"),
              f"{name}: {unit} moved again")
        choose(driver, "")  # no unit chosen: the whole menu
        for step in range(80):
            status = driver.find_element(By.ID, "status").text
            if re.match(r"turn 2\b", status) or "game over" in status.lower():
                break
            def next_step(buttons):
                by = {b.get_attribute("data-command"): b for b in buttons}
                return by.get("end") or by.get("pass") or by.get("next") or next(
                    (b for b in buttons if (b.get_attribute("data-command") or "").startswith("pick")),
                    buttons[0] if buttons else None)
            entries = len(driver.find_elements(By.CSS_SELECTOR, "#log .entry"))
            if not click_option(driver, next_step):
                break
            wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log .entry")) > entries,
                 f"{name}: step {step} of the turn reaches the trace")
            idle(driver)
        check(re.match(r"turn 2\b", driver.find_element(By.ID, "status").text),
              f"{name}: a whole turn is played from the board")
        shot(driver, f"{name}-5-turn-2")
    finally:
        server.stop()


def open_board(driver, what):
    """A Chalons server with the page loaded and its map drawn."""
    server = Server("standard", "chalons")
    driver.get(server.url)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg polygon.hex"), f"{what}: the map")
    return server


def attack(driver):
    """A Standard attack at 3:1 with forced dice, from the options menu, in a sandbox."""
    server = open_board(driver, "attack")
    try:
        for line in ["sandbox 8x8 --sides blue,red", "place blue inf 0505 as a strength=5", "place blue inf 0606 as b strength=4",
                     "place red inf 0506 as d strength=3", "goto combat blue"]:
            console(driver, line)
        wait(driver, lambda d: any(b.get_attribute("data-text") == "attack 0506"
                                   for b in d.find_elements(By.CSS_SELECTOR, "#options button.option")),
             "attack: `attack 0506` is among the options")
        # The exact odds before the attack, as bars.
        for li in driver.find_elements(By.CSS_SELECTOR, "#options li"):
            b = li.find_element(By.CSS_SELECTOR, "button.option")
            if b.get_attribute("data-text") == "attack 0506":
                li.find_element(By.CSS_SELECTOR, "button.odds-button").click()
                break
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#odds .odds-row .bar")) >= 2,
             "attack: the odds are shown as a bar per outcome")
        check("1/3" in driver.find_element(By.ID, "odds").text, "attack: the 3:1 odds read 1/3 for a result")
        shot(driver, "attack-1-odds")
        console(driver, "dice 1")
        click_option(driver, lambda bs: next((b for b in bs if b.get_attribute("data-text") == "attack 0506"), None))
        wait(driver, lambda d: "> attack 0506" in log_text(d), "attack: clicking the option attacks")
        idle(driver)
        # The attack's choices (which units attack) are options to click, until the dice roll.
        for _ in range(6):
            if "§7.6" in log_text(driver):
                break
            n = len(driver.find_elements(By.CSS_SELECTOR, "#log .entry"))
            if not click_option(driver, lambda bs: next(
                    (b for b in bs if (b.get_attribute("data-command") or "").startswith("pick")), None)):
                break
            wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log .entry")) > n, "attack: a pick")
            idle(driver)
        wait(driver, lambda d: "§7.6" in log_text(d), "attack: the CRT result (§7.6) is in the trace")
        check("rolls 1" in log_text(driver) or "1" in log_text(driver), "attack: the forced die is used")
        shot(driver, "attack-2-result")
        driver.find_element(By.ID, "why").click()
        wait(driver, lambda d: d.find_element(By.ID, "message").text.strip() != "", "attack: `why` explains")
        shot(driver, "attack-3-why")
    finally:
        server.stop()


def two_tabs(driver):
    """A move in one tab is seen in another."""
    server = open_board(driver, "tabs")
    try:
        first = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(server.url)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg polygon.hex"), "tabs: the second map")
        second = driver.current_window_handle
        driver.switch_to.window(first)
        console(driver, "move r43 2621")
        driver.switch_to.window(second)
        wait(driver, lambda d: "> move r43 2621" in log_text(d), "tabs: the other tab sees the move")
        driver.close()
        driver.switch_to.window(first)
    finally:
        server.stop()


def main():
    names = sys.argv[3:] or list(BATTLES)
    global DRIVER_NOW
    driver = browser()
    DRIVER_NOW = driver
    try:
        for n in names:
            battle(driver, n)
        attack(driver)
        two_tabs(driver)
    finally:
        driver.quit()
    if failures:
        print(f"{len(failures)} check(s) failed; screenshots in {ARTIFACTS}")
        sys.exit(1)
    print(f"all checks passed; screenshots in {ARTIFACTS}")


if __name__ == "__main__":
    main()
