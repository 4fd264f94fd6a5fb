# Drives the dashboard of `mockserver --admin` in headless Chromium through the DevTools protocol
# (Python's `websockets`; no Selenium, no framework). MOCKSERVER names the binary, CHROMIUM the
# browser, RESPONSES the bundled http.json, ENDPOINTS the bundled endpoints.json (a stub server, for the
# unmatched count); SCREENSHOT, when set, is where the page's picture goes.
# Every wait is on an event: the page's load event, or a MutationObserver in the page.
import asyncio, base64, email.message, http.server, imaplib, json, os, re, smtplib, subprocess, tempfile, threading, urllib.request
import websockets

MOCKSERVER = os.environ.get("MOCKSERVER", ".build/debug/mockserver")
CHROMIUM = os.environ.get("CHROMIUM", "chromium")
RESPONSES = os.environ.get("RESPONSES", "Responses/http.json")
ENDPOINTS = os.environ.get("ENDPOINTS", "Responses/endpoints.json")
SCREENSHOT = os.environ.get("SCREENSHOT")

# Resolves once check() holds in the page, as the DOM changes; rejects after ms milliseconds.
WAIT_FOR = """
window.waitFor = (check, ms, what) => new Promise((resolve, reject) => {
  if (check()) return resolve(true);
  const observer = new MutationObserver(() => { if (check()) { observer.disconnect(); clearTimeout(timer); resolve(true); } });
  observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true });
  const timer = setTimeout(() => { observer.disconnect(); reject(new Error("timed out waiting for " + what)); }, ms);
});
"""

class Page:
    """One page target over the DevTools protocol: commands, and the events they cause."""

    def __init__(self, socket):
        self.socket, self.next_id, self.events = socket, 0, []

    async def send(self, method, **params):
        self.next_id += 1
        await self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), 60))
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    async def event(self, method):
        while True:
            for index, message in enumerate(self.events):
                if message.get("method") == method:
                    return self.events.pop(index)
            self.events.append(json.loads(await asyncio.wait_for(self.socket.recv(), 60)))

    async def evaluate(self, expression):
        result = await self.send("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression[:120]}: {result['exceptionDetails'].get('exception', {}).get('description', result['exceptionDetails'])}")
        return result["result"].get("value")

def curl(*arguments):
    return subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "20", *arguments],
                          capture_output=True, text=True, timeout=30).stdout

def start_chromium(profile):
    browser = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--no-first-run", "--remote-debugging-port=0", f"--user-data-dir={profile}",
                                "--window-size=1280,860", "about:blank"], stderr=subprocess.PIPE, text=True,
                               # Its org.chromium.Chromium.* folder (a socket and a cookie) goes in the profile: in
                               # TMPDIR it would be left behind when the browser is terminated.
                               env={**os.environ, "TMPDIR": profile})
    for line in browser.stderr:
        found = re.search(r"DevTools listening on ws://([^/]+)/", line)
        if found:
            # Chromium goes on writing to stderr: read it away, so that a full pipe never stops it.
            threading.Thread(target=browser.stderr.read, daemon=True).start()
            return browser, found.group(1)
    raise AssertionError(f"{CHROMIUM} ended without its DevTools address (exit {browser.wait()})")

async def drive(admin, port, devtools):
    with urllib.request.urlopen(f"http://{devtools}/json/list", timeout=20) as response:
        target = next(t for t in json.load(response) if t["type"] == "page")
    async with websockets.connect(target["webSocketDebuggerUrl"], max_size=32 << 20) as socket:
        page = Page(socket)
        await page.send("Page.enable")
        await page.send("Page.navigate", url=admin)
        await page.event("Page.loadEventFired")
        await page.evaluate(WAIT_FOR)
        await page.evaluate("window.notReloaded = true")
        await page.evaluate("waitFor(() => document.getElementById('set-select').options.length > 0, 20000, 'the sets')")
        assert await page.evaluate("document.getElementById('set-current').textContent") == "new connections: default"
        assert await page.evaluate("document.getElementById('set-row').hidden") is False, "a script with sets hides the switch"

        # A request to the mock appears on the page without a reload.
        assert curl("-u", "user:pass", f"http://127.0.0.1:{port}/from-curl") == "200"
        await page.evaluate("waitFor(() => document.getElementById('transcript').textContent.includes('GET /from-curl'), 20000, 'the request')")
        assert await page.evaluate("window.notReloaded === true"), "the page reloaded"

        # The set is switched from the page (focus and Enter, as from the keyboard), and the mock answers from it.
        # (A refresh of the page between the choice and Enter must not undo the choice.)
        await page.evaluate("const s = document.getElementById('set-select'); s.value = 'unauthorized'; s.dispatchEvent(new Event('change'));"
                            " document.getElementById('set-switch').focus()")
        await page.evaluate("refresh()")
        for kind in ("keyDown", "keyUp"):
            await page.send("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13, text="\r" if kind == "keyDown" else "")
        await page.evaluate("waitFor(() => document.getElementById('set-current').textContent === 'new connections: unauthorized', 20000, 'the switch')")
        assert curl("-u", "user:pass", f"http://127.0.0.1:{port}/after-switch") == "401"
        await page.evaluate("waitFor(() => document.getElementById('transcript').textContent.includes('GET /after-switch'), 20000, 'the second request')")

        # A file stored through the API shows in the list with its size; the page deletes it.
        request = urllib.request.Request(admin + "files/docs/note.txt", data=b"hello", method="PUT",
                                         headers={"Content-Type": "application/octet-stream"})
        urllib.request.urlopen(request, timeout=20).read()
        # What happens on the mock refreshes the page's lists.
        assert curl("-u", "user:pass", f"http://127.0.0.1:{port}/third") == "401"
        await page.evaluate("waitFor(() => document.getElementById('files').textContent.includes('/docs/note.txt5'), 20000, 'the file')")
        await page.evaluate("document.querySelector('#files button[aria-label=\"Delete /docs/note.txt\"]').click()")
        await page.evaluate("waitFor(() => !document.getElementById('files').textContent.includes('note.txt'), 20000, 'the deletion')")

        if SCREENSHOT:
            shot = await page.send("Page.captureScreenshot", format="png")
            with open(SCREENSHOT, "wb") as file:
                file.write(base64.b64decode(shot["data"]))

        # One column on a narrow window.
        await page.send("Emulation.setDeviceMetricsOverride", width=390, height=800, deviceScaleFactor=1, mobile=True)
        columns = await page.evaluate("getComputedStyle(document.querySelector('main')).gridTemplateColumns.split(' ').length")
        assert columns == 1, f"{columns} columns on a narrow window"

async def drive_unmatched(admin, port, devtools):
    """A stub server's unmatched requests, each counted once: those the page gets with its first state
    and again from its first long poll, and those that arrive while refreshes race the poll."""
    for n in (1, 2):
        assert curl(f"http://127.0.0.1:{port}/early/{n}") == "500"
    with urllib.request.urlopen(f"http://{devtools}/json/list", timeout=20) as response:
        target = next(t for t in json.load(response) if t["type"] == "page")
    async with websockets.connect(target["webSocketDebuggerUrl"], max_size=32 << 20) as socket:
        page = Page(socket)
        await page.send("Page.enable")
        await page.send("Page.navigate", url=admin)
        await page.event("Page.loadEventFired")
        await page.evaluate(WAIT_FOR)
        # A stub server has no sets: no switch, and a line that says so.
        assert await page.evaluate("document.getElementById('set-row').hidden") is True, "a stub server offers a set switch"
        assert "no response sets" in await page.evaluate("document.getElementById('sets-empty').textContent")
        assert await page.evaluate("getComputedStyle(document.getElementById('set-row')).display") == "none"
        count = "document.getElementById('unmatched-count').textContent"
        listed = "document.getElementById('unmatched').children.length"
        # The first state and the first long poll both bring the two; a refresh brings their reports.
        await page.evaluate("waitFor(() => document.getElementById('transcript').textContent.includes('GET /early/2'), 20000, 'the early requests')")
        await page.evaluate("refresh().then(() => true)")
        assert await page.evaluate(count) == "2", await page.evaluate(count)
        # Refreshes in flight (not awaited) while three more unmatched requests arrive and the long
        # poll brings them too.
        await page.evaluate("window.racing = Promise.all([refresh(), refresh()]); true")
        for n in range(3):
            await page.evaluate("window.racing = Promise.all([window.racing, refresh()]); true")
            assert curl(f"http://127.0.0.1:{port}/late/{n}") == "500"
        await page.evaluate("waitFor(() => document.getElementById('transcript').textContent.includes('GET /late/2'), 20000, 'the late requests')")
        await page.evaluate("Promise.all([window.racing, refresh(), refresh()]).then(() => true)")
        with urllib.request.urlopen(admin + "unmatched", timeout=20) as response:
            assert len(json.load(response)["entries"]) == 5
        assert await page.evaluate(count) == "5", await page.evaluate(count)
        assert await page.evaluate(listed) == 5, await page.evaluate(listed)
        # Reset forgets them; what comes after counts from one again.
        await page.evaluate("document.getElementById('reset').click()")
        await page.evaluate(f"waitFor(() => {count} === '0', 20000, 'the reset')")
        assert curl(f"http://127.0.0.1:{port}/after-reset") == "500"
        await page.evaluate("waitFor(() => document.getElementById('transcript').textContent.includes('GET /after-reset'), 20000, 'the request after the reset')")
        await page.evaluate("refresh().then(() => true)")
        assert await page.evaluate(count) == "1", await page.evaluate(count)
        assert await page.evaluate(listed) == 1, await page.evaluate(listed)

class Pixel(http.server.BaseHTTPRequestHandler):
    """A server a message's HTML points its images at: the dashboard must never ask it."""
    hits = []

    def do_GET(self):
        Pixel.hits.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *arguments):
        pass

async def drive_mail(admin, smtp, imap, devtools):
    """A mail server's messages: listed as they arrive, one shown with its text, its attachment and
    raw source as links, and its HTML in a sandboxed frame where no script runs and nothing loads;
    each address's folders with their messages' flags, a flag stored over IMAP shown without a reload."""
    pixel = http.server.HTTPServer(("127.0.0.1", 0), Pixel)
    threading.Thread(target=pixel.serve_forever, daemon=True).start()
    html = ("<p id='greeting'>Hello <b>Ann</b></p><script>window.parent.document.title = 'pwned'; window.top.pwned = 1;</script>"
            f"<img src='http://127.0.0.1:{pixel.server_address[1]}/pixel.png'>")
    message = email.message.EmailMessage()
    message["From"] = "Shop <shop@example.com>"
    message["To"] = "ann@example.com"
    message["Subject"] = "Your receipt"
    message.set_content("Hello Ann, here is your receipt.")
    message.add_alternative(html, subtype="html")
    message.add_attachment(b"%PDF-1.4 receipt", maintype="application", subtype="pdf", filename="receipt.pdf")
    with urllib.request.urlopen(f"http://{devtools}/json/list", timeout=20) as response:
        target = next(t for t in json.load(response) if t["type"] == "page")
    async with websockets.connect(target["webSocketDebuggerUrl"], max_size=32 << 20) as socket:
        page = Page(socket)
        await page.send("Page.enable")
        await page.send("Page.navigate", url=admin)
        await page.event("Page.loadEventFired")
        await page.evaluate(WAIT_FOR)
        await page.evaluate("waitFor(() => !document.getElementById('mail-section').hidden, 20000, 'the mail section')")
        assert await page.evaluate("document.getElementById('mail-count').textContent") == "0 messages"
        # A message sent over SMTP shows without a reload.
        with smtplib.SMTP("127.0.0.1", smtp, timeout=20) as client:
            client.send_message(message, from_addr="shop@example.com", to_addrs=["ann@example.com", "audit@example.com"])
        await page.evaluate("waitFor(() => document.getElementById('mail').textContent.includes('Your receipt'), 20000, 'the message')")
        row = await page.evaluate("document.getElementById('mail').rows[0].textContent")
        assert "Shop <shop@example.com>" in row and "ann@example.com" in row, row
        await page.evaluate("document.querySelector('#mail button[aria-label=\"Show Your receipt\"]').click()")
        await page.evaluate("waitFor(() => document.getElementById('mail-html').dataset.loaded, 20000, 'the HTML frame')")
        assert "Hello Ann, here is your receipt." in await page.evaluate("document.getElementById('mail-text').textContent")
        assert "bcc audit@example.com" in await page.evaluate("document.getElementById('mail-addresses').textContent")
        links = await page.evaluate("[...document.querySelectorAll('#mail-attachments a')].map(a => a.textContent + ' ' + a.getAttribute('href')).join('|')")
        assert "receipt.pdf (application/pdf, 16 bytes)" in links and "/part/" in links, links
        raw = await page.evaluate("document.getElementById('mail-raw').getAttribute('href')")
        with urllib.request.urlopen(admin.rstrip("/") + raw, timeout=20) as response:
            assert b"Subject: Your receipt" in response.read()
        # The HTML is there, in a sandbox without scripts: its script did not run, and its image was not fetched.
        assert await page.evaluate("document.getElementById('mail-html').getAttribute('sandbox')") == ""
        assert "Hello <b>Ann</b>" in await page.evaluate("document.getElementById('mail-html').srcdoc")
        assert await page.evaluate("window.pwned === undefined && document.title === 'MockServer dashboard'"), "the message's script ran"
        assert Pixel.hits == [], f"the message's image was fetched: {Pixel.hits}"

        # Each recipient's folders, with the message's UID and flags (none yet).
        ann = """document.querySelector('#mail-folders table[data-address="ann@example.com"]')"""
        inbox_row = ann + """.querySelector('tr[data-folder="INBOX"][data-uid="1"]')"""
        await page.evaluate(f"waitFor(() => {inbox_row} !== null, 20000, 'the INBOX of ann')")
        assert await page.evaluate(f"{inbox_row}.textContent") == "1Your receipt", await page.evaluate(f"{inbox_row}.textContent")
        assert await page.evaluate("""document.querySelector('#mail-folders table[data-address="audit@example.com"]') !== null""")
        # A flag and a keyword stored over IMAP, and a folder made, show without a reload: IMAP is not on
        # the transcript the page follows, so the Mail section's own long poll brings them.
        await page.evaluate("window.notReloaded = true")
        client = imaplib.IMAP4("127.0.0.1", imap, timeout=20)
        client.login("ann@example.com", "secret")
        assert client.create("Archive")[0] == "OK"
        assert client.select("INBOX")[0] == "OK"
        assert client.store("1", "+FLAGS", r"(\Flagged $Receipt)")[0] == "OK"
        await page.evaluate(f"waitFor(() => {inbox_row} && {inbox_row}.textContent.includes('\\\\Flagged $Receipt'), 20000, 'the flag set over IMAP')")
        await page.evaluate(f"waitFor(() => {ann}.textContent.includes('Archive \\\\Archive'), 20000, 'the folder made over IMAP')")
        client.logout()
        assert await page.evaluate("window.notReloaded === true"), "the page reloaded"
    pixel.shutdown()

def run_mail():
    server = subprocess.Popen([MOCKSERVER, "mail", "--admin"], stdout=subprocess.PIPE, text=True)
    try:
        smtp = int(server.stdout.readline().split()[3].rsplit(":", 1)[1])  # mockserver smtp on 127.0.0.1:PORT
        server.stdout.readline()                                             # mockserver pop3 on 127.0.0.1:PORT
        imap = int(server.stdout.readline().split()[3].rsplit(":", 1)[1])  # mockserver imap on 127.0.0.1:PORT
        admin = server.stdout.readline().split()[3]                          # mockserver admin on http://127.0.0.1:PORT/
        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
            browser, devtools = start_chromium(profile)
            try:
                asyncio.run(drive_mail(admin, smtp, imap, devtools))
            finally:
                browser.terminate()
                browser.wait(timeout=20)
    finally:
        server.terminate()
        assert server.wait(timeout=20) == 0

def run(arguments, driver):
    server = subprocess.Popen([MOCKSERVER, "--admin", *arguments], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().split()[3].rsplit(":", 1)[1])  # mockserver listening on 127.0.0.1:PORT
        admin = server.stdout.readline().split()[3]                          # mockserver admin on http://127.0.0.1:PORT/
        # Chromium's helper processes may still write to the profile as the browser exits.
        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
            browser, devtools = start_chromium(profile)
            try:
                asyncio.run(driver(admin, port, devtools))
            finally:
                browser.terminate()
                browser.wait(timeout=20)
    finally:
        server.terminate()
        assert server.wait(timeout=20) == 0

def main():
    run([RESPONSES], drive)
    run([ENDPOINTS], drive_unmatched)
    run_mail()
    print("ok")

if __name__ == "__main__":
    main()
