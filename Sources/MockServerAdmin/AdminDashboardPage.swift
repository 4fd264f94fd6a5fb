/// The live dashboard `mockserver --admin` serves at `/`: one page, its style and script inline (no
/// external assets, no framework), built on the control API's own JSON paths.
///
/// It shows the transcript as it happens (a long poll on `GET /transcript?since=N&wait=S`: each
/// answer comes as soon as something happened), the unexpected requests with the stub to paste in
/// Swift and as an endpoint entry, the stubs with their hits, the response sets with a switch, the
/// files with upload, download and delete, and a reset. Every control is a native button, link,
/// select or input, so it is used from the keyboard; one column on a narrow window.
enum AdminDashboardPage {
    /// What the page may load: only from the admin port itself, its inline style and script.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'none'"

    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>MockServer dashboard</title>
    <style>
    :root { --fg: #1d232a; --muted: #5b6673; --line: #d5dbe1; --bg: #f6f8fa; --panel: #fff; --accent: #0b5cad; --bad: #a3261b; --ok: #1f7a3a; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
    header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .75rem 1rem; background: #14202c; color: #fff; }
    header h1 { font-size: 1.1rem; margin: 0; }
    header p { margin: 0; color: #c7d2dd; flex: 1 1 auto; }
    main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr); gap: 1rem; padding: 1rem; }
    @media (max-width: 800px) { main { grid-template-columns: minmax(0, 1fr); } }
    section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; min-width: 0; }
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
    #status { font-size: .9rem; }
    #status.error { color: #ffb4a9; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    </style>
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
        <div class="row">
          <label for="set-select">Switch every connection to</label>
          <select id="set-select"></select>
          <button id="set-switch" type="button">Switch</button>
        </div>
        <p id="sets-empty" class="empty" hidden>This mock serves stubs: it has no response sets.</p>
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
    <script>
    "use strict";
    const $ = (id) => document.getElementById(id);
    let next = 0;
    let unmatchedSeen = 0;
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

    function addEntry(entry) {
      const item = document.createElement("li");
      item.className = entry.event;
      item.dataset.sequence = entry.sequence;
      item.textContent = entry.text;
      $("transcript").appendChild(item);
      if (entry.event === "unmatched") {
        unmatchedSeen += 1;
        const line = document.createElement("li");
        line.className = "unmatched";
        line.textContent = entry.text;
        $("unmatched").appendChild(line);
      }
    }

    async function loadTranscript() {
      while (true) {
        try {
          const answer = await api("GET", "/transcript?since=" + next + "&wait=25");
          for (const entry of answer.entries) addEntry(entry);
          if (answer.next < next) { $("transcript").replaceChildren(); }
          next = answer.next;
          $("transcript-count").textContent = $("transcript").children.length + " entries";
          if ($("follow").checked && answer.entries.length) $("transcript").lastElementChild.scrollIntoView({ block: "nearest" });
          if (answer.entries.length) await refresh();
          say("live");
        } catch (error) {
          say("lost the mock: " + error.message + "; retrying", true);
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
    }

    async function refresh() {
      await Promise.all([loadSets(), loadStubs(), loadUnexpected(), loadFiles()]);
      const count = Math.max(unmatchedSeen, $("unmatched").children.length);
      $("unmatched-count").textContent = String(count);
      $("unmatched-empty").hidden = count > 0;
    }

    async function loadSets() {
      const answer = await api("GET", "/sets");
      const select = $("set-select");
      const hasSets = answer.sets.length > 0;
      $("sets-empty").hidden = hasSets;
      select.disabled = $("set-switch").disabled = !hasSets;
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

    async function loadStubs() {
      const answer = await api("GET", "/stubs");
      const body = $("stubs");
      body.replaceChildren();
      for (const stub of answer.stubs) {
        const row = body.insertRow();
        cell(row, stub.stub);
        cell(row, String(stub.hits), "number");
      }
      $("stubs-empty").hidden = answer.stubs.length > 0;
    }

    async function loadUnexpected() {
      const answer = await api("GET", "/unexpected");
      if (answer.unexpected.length === 0) return;
      const list = $("unmatched");
      list.replaceChildren();
      for (const report of answer.unexpected) {
        const item = document.createElement("li");
        item.className = "unmatched";
        const title = document.createElement("strong");
        title.textContent = report.request;
        item.appendChild(title);
        for (const [label, text] of [["Swift", report.swift], ["endpoint (JSON)", report.endpoint]]) {
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
        list.appendChild(item);
      }
      unmatchedSeen = Math.max(unmatchedSeen, answer.unexpected.length);
    }

    async function loadFiles() {
      const answer = await api("GET", "/files");
      const body = $("files");
      body.replaceChildren();
      const paths = Object.keys(answer.files).sort();
      for (const path of paths) {
        const row = body.insertRow();
        cell(row, path);
        cell(row, String(answer.files[path]), "number");
        const actions = row.insertCell();
        if (!path.endsWith("/")) {
          const link = document.createElement("a");
          link.className = "button quiet";
          link.href = "/files" + encodeURI(path.startsWith("/") ? path : "/" + path);
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
        remove.addEventListener("click", () => act(() => api("DELETE", "/files" + encodeURI(path.startsWith("/") ? path : "/" + path)), "deleted " + path));
        actions.appendChild(remove);
      }
      $("files-empty").hidden = paths.length > 0;
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
      $("transcript").replaceChildren();
      $("unmatched").replaceChildren();
      unmatchedSeen = 0;
      next = 0;
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

    (async () => {
      try {
        const info = await api("GET", "/info");
        $("info").textContent = (info.kind === "stubs" ? "stub server" : (info.scheme || "line") + " script") + " on " + info.listening
          + (info.dataPort ? " (data port " + info.dataPort + ")" : "");
        await refresh();
      } catch (error) {
        say(error.message, true);
      }
      loadTranscript();
    })();
    </script>
    </body>
    </html>
    """#
}
