import Foundation
import MockServerCore
import MockServerMockData

/// The live dashboard `mockserver --admin` serves at `/`: one page, its style and script inline (no
/// external assets, no framework), built on the control API's own JSON paths.
///
/// The page comes with its first state (what `GET /info`, `/sets`, `/stubs`, `/unexpected`,
/// `/files`, `/unmatched` and `/transcript` answer at that moment) as a JSON data block, which the
/// script draws before the page's load event: a headless browser's screenshot or DOM dump shows the
/// data with no request and no wait. Then it follows the transcript as it happens (a long poll on
/// `GET /transcript?since=N&wait=S`: each answer comes as soon as something happened) and shows the
/// unexpected requests with the stub to paste in Swift and as an endpoint entry, the stubs with
/// their hits, the response sets with a switch, the files with upload, download and delete, and a
/// reset. For a mail server, a Mail section lists the messages (Mailpit's routes) and each address's
/// folders with their messages' flags (ours, `/api/v1/mockserver/`), redrawn by a long poll of its
/// own (`/api/v1/mockserver/changes`), since IMAP's changes do not reach the transcript it follows. Every control is a native button, link, select or input, so it is used from the keyboard;
/// one column on a narrow window.
///
/// The Content-Security-Policy lets the browser run only this script and apply only this style,
/// each named by its SHA-256 (no `'unsafe-inline'`): an injected `<script>` or event handler
/// attribute would not run.
enum AdminDashboardPage {
    /// What the page may load and run: requests to the admin port itself, and only its own inline
    /// script and style, pinned by their hashes.
    static let contentSecurityPolicy = "default-src 'self'; script-src \(hashSource(script)); style-src \(hashSource(style)); "
        + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

    /// A CSP hash source for an inline element whose text is `text`: `'sha256-BASE64'`.
    static func hashSource(_ text: String) -> String {
        var digest = SHA256()
        digest.update(text.utf8)
        return "'sha256-" + Data(digest.finalize()).base64EncodedString() + "'"
    }

    /// The page with `firstState` in it: the object the script draws first, with the keys `info`,
    /// `sets`, `stubs`, `unexpected`, `files`, `unmatched` and `transcript`, each as its path answers.
    static func page(firstState: JSONNode) -> [UInt8] {
        // Inside a <script> element only `</` could end it early: `<` is escaped as JSON allows.
        let json = AdminJSON.encode(firstState).flatMap { $0 == UInt8(ascii: "<") ? Array(#"\u003c"#.utf8) : [$0] }
        return Array(top.utf8) + Array("<script type=\"application/json\" id=\"first-state\">".utf8) + json
            + Array("</script>\n<script>\(script)</script>\n</body>\n</html>\n".utf8)
    }

    /// The page up to its first-state block: head, style and the sections the script fills.
    private static let top = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>MockServer dashboard</title>
    <style>\#(style)</style>
    </head>
    <body>
    <header>
      <h1>MockServer</h1>
      <p id="info">connecting…</p>
      <span id="status" role="status" aria-live="polite"></span>
      <button id="reset" class="danger" type="button">Reset</button>
    </header>
    <main>
      <section id="sets-section" aria-labelledby="sets-title">
        <h2 id="sets-title">Response set <small id="set-current"></small></h2>
        <div class="row" id="set-row">
          <label for="set-select">Switch every connection to</label>
          <select id="set-select"></select>
          <button id="set-switch" type="button">Switch</button>
        </div>
        <p id="sets-empty" class="empty" hidden></p>
      </section>
      <section id="transcript-section" aria-labelledby="transcript-title">
        <h2 id="transcript-title">Transcript <small id="transcript-count">0 entries</small></h2>
        <div class="row">
          <label><input id="follow" type="checkbox" checked> keep the newest in view</label>
          <button id="clear-view" class="quiet" type="button">Clear view</button>
        </div>
        <ol id="transcript" class="log" aria-live="polite" aria-relevant="additions"></ol>
      </section>
      <section id="unmatched-section" aria-labelledby="unmatched-title">
        <h2 id="unmatched-title">Unmatched <small id="unmatched-count">0</small></h2>
        <ol id="unmatched" class="log"></ol>
        <p id="unmatched-empty" class="empty">Every input so far was answered.</p>
      </section>
      <section id="stubs-section" aria-labelledby="stubs-title">
        <h2 id="stubs-title">Stubs and endpoints</h2>
        <table><thead><tr><th scope="col">stub</th><th scope="col">hits</th></tr></thead><tbody id="stubs"></tbody></table>
        <p id="stubs-empty" class="empty" hidden>No stubs: this mock serves a response script.</p>
      </section>
      <section id="mail-section" aria-labelledby="mail-title" hidden>
        <h2 id="mail-title">Mail <small id="mail-count">0 messages</small></h2>
        <table><thead><tr><th scope="col">from</th><th scope="col">to</th><th scope="col">subject</th><th scope="col"><span class="visually-hidden">actions</span></th></tr></thead><tbody id="mail"></tbody></table>
        <p id="mail-empty" class="empty">No messages yet.</p>
        <article id="mail-message" hidden>
          <h3 id="mail-subject"></h3>
          <p id="mail-addresses"></p>
          <p class="row"><a id="mail-raw" class="button quiet" href="#">Raw source</a></p>
          <ul id="mail-attachments"></ul>
          <pre id="mail-text"></pre>
          <iframe id="mail-html" sandbox="" referrerpolicy="no-referrer" title="the message's HTML, shown without its scripts or remote content" hidden></iframe>
        </article>
        <h3 id="mail-folders-title">Folders</h3>
        <div id="mail-folders" aria-labelledby="mail-folders-title"></div>
        <p id="mail-folders-empty" class="empty">No mailbox yet.</p>
      </section>
      <section id="files-section" aria-labelledby="files-title">
        <h2 id="files-title">Files</h2>
        <table><thead><tr><th scope="col">path</th><th scope="col">bytes</th><th scope="col"><span class="visually-hidden">actions</span></th></tr></thead><tbody id="files"></tbody></table>
        <p id="files-empty" class="empty" hidden>No files.</p>
        <form id="upload" class="row">
          <label for="upload-file">Upload</label>
          <input id="upload-file" type="file" required>
          <label for="upload-path" class="visually-hidden">as path</label>
          <input id="upload-path" type="text" placeholder="/folder/name.txt" aria-label="path to store it at">
          <button type="submit">Store</button>
        </form>
      </section>
    </main>

    """#

    /// The text of the page's `<style>` element, as its hash in the policy names it.
    static let style = #"""

    :root { --fg: #1d232a; --muted: #5b6673; --line: #d5dbe1; --bg: #f6f8fa; --panel: #fff; --accent: #0b5cad; --bad: #a3261b; --ok: #1f7a3a; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
    header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .75rem 1rem; background: #14202c; color: #fff; }
    header h1 { font-size: 1.1rem; margin: 0; }
    header p { margin: 0; color: #c7d2dd; flex: 1 1 auto; }
    main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr); gap: 1rem; padding: 1rem; }
    @media (max-width: 800px) { main { grid-template-columns: minmax(0, 1fr); } }
    section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; min-width: 0; }
    #mail-html { width: 100%; min-height: 14rem; border: 1px solid var(--line); background: #fff; }
    #mail-text { white-space: pre-wrap; }
    #mail-folders h4 { margin: .6rem 0 .2rem; font-size: .95rem; }
    #mail-folders tr.folder th { background: #f1f4f7; }
    #mail-folders th small { font-weight: normal; color: var(--muted); margin-left: .5rem; }
    #mail-folders td.flags { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; width: 35%; }
    #mail-folders td.number { width: 3.5rem; }
    #mail button { white-space: nowrap; }
    #transcript-section { grid-row: span 4; }
    @media (max-width: 800px) { #transcript-section { grid-row: auto; } }
    h2 { font-size: 1rem; margin: 0 0 .5rem; display: flex; justify-content: space-between; align-items: baseline; }
    h2 small { font-weight: normal; color: var(--muted); }
    button, select, input, a.button { font: inherit; }
    button, a.button { border: 1px solid var(--accent); background: var(--accent); color: #fff; border-radius: 4px; padding: .2rem .7rem; cursor: pointer; text-decoration: none; }
    button.quiet, a.button.quiet { background: #fff; color: var(--accent); }
    button.danger { border-color: var(--bad); background: #fff; color: var(--bad); }
    :focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
    table { border-collapse: collapse; width: 100%; }
    td, th { text-align: left; padding: .25rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
    th { color: var(--muted); font-weight: 600; }
    td.number { text-align: right; font-variant-numeric: tabular-nums; }
    .empty { color: var(--muted); font-style: italic; }
    ol.log { list-style: none; margin: 0; padding: 0; font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; max-height: 75vh; overflow: auto; }
    ol.log li { padding: .15rem .3rem; border-bottom: 1px solid #eef1f4; white-space: pre-wrap; overflow-wrap: anywhere; }
    ol.log li.unmatched { background: #fdecea; color: var(--bad); }
    ol.log li.input { color: var(--accent); }
    pre { background: #f1f4f7; padding: .5rem; overflow: auto; margin: .3rem 0; font-size: 12.5px; white-space: pre-wrap; overflow-wrap: anywhere; }
    .row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .3rem 0; }
    [hidden] { display: none !important; }
    #status { font-size: .9rem; }
    #status.error { color: #ffb4a9; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

    """#

    /// The text of the page's `<script>` element, as its hash in the policy names it.
    static let script = #"""

    "use strict";
    const $ = (id) => document.getElementById(id);
    // The transcript's next sequence: every entry below it is on the page already.
    let next = 0;
    // Each unmatched input once, by its transcript sequence, however many answers (the first state, a
    // poll, GET /unmatched) bring it and in whatever order they arrive.
    const unmatched = new Map();
    // A stub server's reports of its unexpected requests, oldest first.
    let reports = [];
    // Bumped by Reset: an answer to a request sent before it describes what the reset removed.
    let epoch = 0;
    // The number of the last refresh begun, and of the last one drawn: an older answer is never drawn over a newer one.
    let refreshesBegun = 0;
    let refreshDrawn = 0;
    let shownSet = null;

    function say(text, isError) {
      $("status").textContent = text;
      $("status").className = isError ? "error" : "";
    }

    async function api(method, path, body, type) {
      const options = { method, headers: {} };
      if (body !== undefined) {
        options.body = body;
        options.headers["Content-Type"] = type || "application/json";
      }
      const response = await fetch(path, options);
      const text = await response.text();
      let value = null;
      try { value = text ? JSON.parse(text) : null; } catch (error) { value = text; }
      if (!response.ok) throw new Error((value && value.error) || (response.status + " " + response.statusText));
      return value;
    }

    function cell(row, text, className) {
      const td = row.insertCell();
      td.textContent = text;
      if (className) td.className = className;
      return td;
    }

    function drawInfo(info) {
      $("info").textContent = (info.kind === "stubs" ? "stub server" : (info.scheme || "line") + " script") + " on " + info.listening
        + (info.dataPort ? " (data port " + info.dataPort + ")" : "");
    }

    // Adds the entries not shown yet (two answers may carry the same ones); the unmatched ones join the count.
    function addEntries(answer) {
      const list = $("transcript");
      let added = 0;
      for (const entry of answer.entries) {
        if (entry.sequence < next) continue;
        const item = document.createElement("li");
        item.className = entry.event;
        item.dataset.sequence = entry.sequence;
        item.textContent = entry.text;
        list.appendChild(item);
        next = entry.sequence + 1;
        added += 1;
        if (entry.event === "unmatched") unmatched.set(entry.sequence, entry);
      }
      next = Math.max(next, answer.next);
      $("transcript-count").textContent = list.children.length + " entries";
      if ($("follow").checked && added) list.lastElementChild.scrollIntoView({ block: "nearest" });
      return added;
    }

    function drawSets(answer) {
      const select = $("set-select");
      // The switch shows only when there is another set to switch to.
      const canSwitch = answer.sets.length > 1;
      $("set-row").hidden = canSwitch === false;
      $("sets-empty").hidden = canSwitch;
      $("sets-empty").textContent = answer.sets.length === 0 ? "This mock serves stubs: it has no response sets."
        : "Its one set is the only one: there is nothing to switch to.";
      select.disabled = $("set-switch").disabled = !canSwitch;
      if (select.options.length !== answer.sets.length) {
        select.replaceChildren(...answer.sets.map((name) => new Option(name, name)));
      }
      if (answer.current !== undefined) {
        $("set-current").textContent = "new connections: " + answer.current;
        // The choice follows the mock only when the mock's set changed: a refresh never undoes
        // what the user picked and has not switched to yet.
        if (answer.current !== shownSet) { select.value = answer.current; shownSet = answer.current; }
      }
    }

    function drawStubs(answer) {
      const body = $("stubs");
      body.replaceChildren();
      for (const stub of answer.stubs) {
        const row = body.insertRow();
        cell(row, stub.stub);
        cell(row, String(stub.hits), "number");
      }
      $("stubs-empty").hidden = answer.stubs.length > 0;
    }

    function report(item, text, label) {
      const details = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "stub it: " + label;
      const code = document.createElement("pre");
      code.textContent = text;
      const copy = document.createElement("button");
      copy.type = "button";
      copy.className = "quiet";
      copy.textContent = "Copy";
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(text); say("copied"); } catch (error) { say("copy: " + error.message, true); }
      });
      details.append(summary, code, copy);
      item.appendChild(details);
    }

    // The count is the number of distinct unmatched sequences; a stub server lists the reports of as
    // many of its newest unexpected requests (a reset forgets the inputs, not the reports).
    function drawUnmatched() {
      const list = $("unmatched");
      list.replaceChildren();
      const shownReports = unmatched.size > 0 ? reports.slice(-unmatched.size) : [];
      if (shownReports.length > 0) {
        for (const each of shownReports) {
          const item = document.createElement("li");
          item.className = "unmatched";
          const title = document.createElement("strong");
          title.textContent = each.request;
          item.appendChild(title);
          report(item, each.swift, "Swift");
          report(item, each.endpoint, "endpoint (JSON)");
          list.appendChild(item);
        }
      } else {
        for (const entry of [...unmatched.values()].sort((a, b) => a.sequence - b.sequence)) {
          const item = document.createElement("li");
          item.className = "unmatched";
          item.textContent = entry.text;
          list.appendChild(item);
        }
      }
      $("unmatched-count").textContent = String(unmatched.size);
      $("unmatched-empty").hidden = unmatched.size > 0;
    }

    function drawFiles(answer) {
      const body = $("files");
      body.replaceChildren();
      const paths = Object.keys(answer.files).sort();
      for (const path of paths) {
        const row = body.insertRow();
        cell(row, path);
        cell(row, String(answer.files[path]), "number");
        const actions = row.insertCell();
        const url = "/files" + encodeURI(path.startsWith("/") ? path : "/" + path);
        if (!path.endsWith("/")) {
          const link = document.createElement("a");
          link.className = "button quiet";
          link.href = url;
          link.download = path.split("/").pop();
          link.textContent = "Download";
          link.setAttribute("aria-label", "Download " + path);
          actions.appendChild(link);
        }
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "danger";
        remove.textContent = "Delete";
        remove.setAttribute("aria-label", "Delete " + path);
        remove.addEventListener("click", () => act(() => api("DELETE", url), "deleted " + path));
        actions.appendChild(remove);
      }
      $("files-empty").hidden = paths.length > 0;
    }

    // A mail server's messages (Mailpit's GET /api/v1/messages, which only a mail server's API
    // answers): the section stays hidden for any other mock.
    async function drawMail() {
      let answer;
      try { answer = await api("GET", "/api/v1/messages?limit=200"); } catch (error) { return; }
      if (!answer || !Array.isArray(answer.messages)) return;
      $("mail-section").hidden = false;
      const body = $("mail");
      body.replaceChildren();
      const names = (list) => (list || []).map((a) => a.Name ? a.Name + " <" + a.Address + ">" : a.Address).join(", ");
      for (const message of answer.messages) {
        const row = body.insertRow();
        cell(row, names(message.From ? [message.From] : []));
        cell(row, names(message.To));
        cell(row, message.Subject || "(no subject)");
        const show = document.createElement("button");
        show.type = "button";
        show.className = "quiet";
        show.textContent = "Show";
        show.setAttribute("aria-label", "Show " + (message.Subject || message.ID));
        show.addEventListener("click", () => showMessage(message.ID).catch((error) => say(error.message, true)));
        row.insertCell().appendChild(show);
      }
      $("mail-count").textContent = answer.total + (answer.total === 1 ? " message" : " messages");
      $("mail-empty").hidden = answer.messages.length > 0;
      await drawFolders();
    }

    // Each address's folders, with their newest messages' UIDs, subjects and flags (our
    // GET /api/v1/mockserver/mailboxes); each message row names its address, folder and UID.
    async function drawFolders() {
      let answer;
      try { answer = await api("GET", "/api/v1/mockserver/mailboxes?limit=20&messages=50"); } catch (error) { return; }
      if (!answer || !Array.isArray(answer.mailboxes)) return;
      const box = $("mail-folders");
      box.replaceChildren();
      for (const mailbox of answer.mailboxes) {
        const title = document.createElement("h4");
        title.textContent = mailbox.address;
        const table = document.createElement("table");
        table.dataset.address = mailbox.address;
        const body = table.createTBody();
        for (const folder of mailbox.folders) {
          const head = body.insertRow();
          head.className = "folder";
          const name = document.createElement("th");
          name.colSpan = 3;
          name.scope = "rowgroup";
          name.textContent = folder.name + (folder.specialUse ? " " + folder.specialUse : "");
          const facts = document.createElement("small");
          facts.textContent = folder.messageCount + (folder.messageCount === 1 ? " message" : " messages") + ", UIDVALIDITY " + folder.uidValidity
            + ", next UID " + folder.nextUID + ", HIGHESTMODSEQ " + folder.highestModSeq;
          name.appendChild(facts);
          head.appendChild(name);
          for (const message of folder.messages) {
            const row = body.insertRow();
            row.dataset.folder = folder.name;
            row.dataset.uid = message.uid;
            cell(row, String(message.uid), "number");
            cell(row, message.subject || "(no subject)");
            cell(row, [...message.flags, ...message.keywords].join(" "), "flags");
          }
          if (folder.messageCount > folder.messages.length) {
            cell(body.insertRow(), "and " + (folder.messageCount - folder.messages.length) + " older").colSpan = 3;
          }
        }
        box.append(title, table);
      }
      if (answer.total > answer.mailboxes.length) {
        const more = document.createElement("p");
        more.className = "empty";
        more.textContent = "and " + (answer.total - answer.mailboxes.length) + " more addresses";
        box.appendChild(more);
      }
      $("mail-folders-empty").hidden = answer.mailboxes.length > 0;
    }

    // Follows the mailbox (our long poll, GET /api/v1/mockserver/changes): a flag stored or a
    // message moved over IMAP, which the transcript (SMTP's) does not show, redraws the section.
    async function followMail() {
      let since = "";
      while (true) {
        try {
          const answer = await api("GET", "/api/v1/mockserver/changes?wait=25&since=" + encodeURIComponent(since));
          if (answer.changes !== since) {
            since = answer.changes;
            await drawMail();
          }
        } catch (error) {
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
    }

    // One message: its addresses, text, raw source and attachments as links, and its HTML in a
    // sandboxed frame (no script runs; the page's policy lets it load nothing from elsewhere).
    async function showMessage(id) {
      const message = await api("GET", "/api/v1/message/" + encodeURIComponent(id));
      const path = "/api/v1/message/" + encodeURIComponent(id);
      const names = (list) => (list || []).map((a) => a.Address).join(", ");
      $("mail-subject").textContent = message.Subject || "(no subject)";
      $("mail-addresses").textContent = "from " + names(message.From ? [message.From] : []) + " to " + names(message.To)
        + (message.Cc && message.Cc.length ? ", cc " + names(message.Cc) : "") + (message.Bcc && message.Bcc.length ? ", bcc " + names(message.Bcc) : "");
      $("mail-raw").href = path + "/raw";
      const attachments = $("mail-attachments");
      attachments.replaceChildren();
      for (const part of [...(message.Attachments || []), ...(message.Inline || [])]) {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = path + "/part/" + encodeURIComponent(part.PartID);
        link.download = part.FileName || "part-" + part.PartID;
        link.textContent = (part.FileName || "part " + part.PartID) + " (" + part.ContentType + ", " + part.Size + " bytes)";
        item.appendChild(link);
        attachments.appendChild(item);
      }
      $("mail-text").textContent = message.Text || "";
      const frame = $("mail-html");
      frame.hidden = !message.HTML;
      frame.srcdoc = message.HTML || "";
      frame.dataset.message = id;
      $("mail-message").hidden = false;
    }

    // Draws what GET /sets, /stubs, /unexpected, /files and /unmatched answered.
    function draw(state) {
      drawSets(state.sets);
      drawStubs(state.stubs);
      reports = state.unexpected.unexpected;
      for (const entry of state.unmatched.entries) unmatched.set(entry.sequence, entry);
      drawUnmatched();
      drawFiles(state.files);
    }

    async function refresh() {
      const begun = ++refreshesBegun;
      const asked = epoch;
      const [sets, stubs, unexpected, files, unmatchedAnswer] = await Promise.all(
        ["/sets", "/stubs", "/unexpected", "/files", "/unmatched"].map((path) => api("GET", path)));
      if (asked !== epoch || begun < refreshDrawn) return;
      refreshDrawn = begun;
      draw({ sets, stubs, unexpected, files, unmatched: unmatchedAnswer });
      await drawMail();
    }

    // The long poll: each answer comes as soon as something happened, and brings the lists up to date.
    async function follow() {
      while (true) {
        const asked = epoch;
        try {
          const answer = await api("GET", "/transcript?since=" + next + "&wait=25");
          if (asked !== epoch) continue;
          if (addEntries(answer)) {
            drawUnmatched();
            await refresh();
          }
          say("live");
        } catch (error) {
          say("lost the mock: " + error.message + "; retrying", true);
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
    }

    async function act(action, done) {
      try {
        await action();
        say(done);
        await refresh();
      } catch (error) {
        say(error.message, true);
      }
    }

    $("set-switch").addEventListener("click", () => {
      const name = $("set-select").value;
      act(() => api("POST", "/set", JSON.stringify({ name })), "switched to " + name);
    });
    $("reset").addEventListener("click", () => act(async () => {
      await api("POST", "/reset");
      epoch += 1;
      $("transcript").replaceChildren();
      unmatched.clear();
      reports = [];
      drawUnmatched();
    }, "reset"));
    $("clear-view").addEventListener("click", () => $("transcript").replaceChildren());
    $("upload").addEventListener("submit", (event) => {
      event.preventDefault();
      const file = $("upload-file").files[0];
      if (!file) return;
      let path = $("upload-path").value.trim() || "/" + file.name;
      if (!path.startsWith("/")) path = "/" + path;
      act(() => api("PUT", "/files" + encodeURI(path), file, "application/octet-stream"), "stored " + path);
    });

    // The first state came with the page: it is drawn before the page's load event, with no request
    // (so a headless screenshot or DOM dump shows it); the long poll follows from there.
    const first = JSON.parse($("first-state").textContent);
    drawInfo(first.info);
    addEntries(first.transcript);
    draw(first);
    say("live");
    $("mail-html").addEventListener("load", () => { $("mail-html").dataset.loaded = $("mail-html").dataset.message || ""; });
    // Only a mail server answers the mail routes: the section and its poll stay away otherwise.
    drawMail().then(() => { if (!$("mail-section").hidden) followMail(); });
    follow();

    """#
}
