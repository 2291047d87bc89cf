// GPU Advisor chat page. Plain JavaScript, no build step. All text goes into the page through
// textContent (never innerHTML), so nothing a user or a brief says can become markup or script.
"use strict";

(function () {
  const KEY = "gpu-advisor-session";
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const streaming = body.dataset.streaming === "true";
  let session = null;
  let busy = false;
  let pollTimer = null;
  let currentReport = null;
  let reportLabel = ""; // the report button's first label, read from the page; restored by New conversation

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function setStatus(text) { $("status").textContent = text || ""; }
  function showError(text) {
    const box = $("error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function headers(extra) {
    const h = Object.assign({}, extra || {});
    if (session) h["Authorization"] = "Bearer " + session.token;
    return h;
  }

  async function api(method, path, opts) {
    const o = opts || {};
    const init = { method: method, headers: headers(o.headers) };
    if (o.json !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(o.json);
    } else if (o.form) {
      init.body = o.form;
    }
    const res = await fetch(path, init);
    if (o.raw) return res;
    let data = null;
    try { data = await res.json(); } catch (_e) { data = null; }
    if (!res.ok) {
      const err = new Error(messageFor(res, data));
      err.status = res.status;
      throw err;
    }
    return data;
  }

  function messageFor(res, data) {
    let detail = data && data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg).join("; ");
    if (res.status === 429 && !detail) {
      return "Too many requests; try again in " + (res.headers.get("Retry-After") || "a few") + " s.";
    }
    return detail || ("The server answered " + res.status + ".");
  }

  // --- session ------------------------------------------------------------------------------------
  async function ensureSession() {
    if (session) return session;
    const data = await api("POST", "/api/sessions");
    session = { id: data.session_id, token: data.token };
    try { sessionStorage.setItem(KEY, JSON.stringify(session)); } catch (_e) { /* private mode */ }
    return session;
  }

  function base() { return "/api/sessions/" + encodeURIComponent(session.id); }

  async function restore() {
    let saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (_e) { saved = null; }
    if (!saved || !saved.id || !saved.token) return;
    session = saved;
    try {
      const data = await api("GET", base());
      for (const m of data.messages) addMessage(m.role, m.text, m);
      if (data.turn) applyTurn(data.turn, false);
      const done = (data.reports || []).filter((r) => r.status === "done").pop();
      const open = (data.reports || []).filter((r) => r.status === "pending" || r.status === "rendering").pop();
      if (open) watchReport(open.report_id);
      else if (done) reportDone(done, false);
    } catch (e) {
      session = null;
      try { sessionStorage.removeItem(KEY); } catch (_e) { /* ignore */ }
    }
  }

  function newSession() {
    session = null;
    try { sessionStorage.removeItem(KEY); } catch (_e) { /* ignore */ }
    const list = $("transcript");
    while (list.children.length > 1) list.removeChild(list.lastChild);
    applyTurn({ profile: [], recommendation: null, questions: [], report_ready: false }, false);
    stopPolling();
    currentReport = null;
    $("make-report").textContent = reportLabel;
    $("download").hidden = true;
    $("report-status").textContent = "";
    showError("");
    setStatus("Started a new conversation.");
    $("message").focus();
  }

  // Deletes the conversation on the server (messages, uploaded briefs, reports), then starts afresh.
  async function deleteSession() {
    if (!session) { newSession(); setStatus("Nothing stored yet: there was nothing to delete."); return; }
    if (!window.confirm("Delete this conversation, its uploaded briefs and its reports from the server?")) return;
    try {
      await api("DELETE", base());
    } catch (e) {
      showError("Could not delete the conversation: " + e.message);
      return;
    }
    newSession();
    setStatus("Deleted the conversation, its briefs and its reports from the server.");
  }

  // --- transcript -----------------------------------------------------------------------------------
  function addMessage(role, text, meta) {
    const li = el("li", "msg " + role);
    li.appendChild(el("span", "who", role === "user" ? "You" : "Advisor"));
    const label = meta && meta.brief ? "[brief: " + meta.brief + "] " + text : text;
    li.appendChild(el("div", "text", label));
    if (role === "user" && meta && meta.answered === false && meta.id) {
      const note = el("div", "note", "Not answered (the server stopped). ");
      const retry = el("button", "secondary", "Retry");
      retry.type = "button";
      retry.addEventListener("click", () => retryMessage(meta.id, li));
      note.appendChild(retry);
      li.appendChild(note);
    }
    $("transcript").appendChild(li);
    showLatest(li);
    return li;
  }

  // Scroll the transcript (not the page) so the start of the newest message is in view.
  function showLatest(li) {
    const list = $("transcript");
    list.scrollTop = Math.max(0, li.offsetTop - list.offsetTop - 8);
  }

  // --- profile, recommendation, questions -------------------------------------------------------------
  function applyTurn(turn, announce) {
    renderProfile(turn.profile || []);
    renderRecommendation(turn.recommendation);
    renderQuestions(turn.questions || []);
    $("make-report").disabled = !turn.recommendation;
    if (announce && turn.report) watchReport(turn.report.report_id);
  }

  function profileRow(r) {
    const tr = el("tr");
    const th = el("th", null, r.label);
    th.scope = "row";
    tr.appendChild(th);
    const td = el("td", null, r.value);
    if (r.evidence && r.status === "stated") td.appendChild(el("span", "evidence", "“" + r.evidence + "”"));
    else if (r.evidence && r.status === "inferred") td.appendChild(el("span", "evidence", "from " + r.evidence));
    tr.appendChild(td);
    const st = el("td");
    st.appendChild(el("span", "badge " + (r.status || "stated"), r.status || "stated"));
    tr.appendChild(st);
    return tr;
  }

  // What the user said (stated, inferred) in the table; the defaults in a collapsible list below it.
  function renderProfile(rows) {
    const known = rows.filter((r) => r.status !== "assumed");
    const assumed = rows.filter((r) => r.status === "assumed");
    for (const [id, list] of [["profile-rows", known], ["assumed-rows", assumed]]) {
      const tbody = $(id);
      while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
      for (const r of list) tbody.appendChild(profileRow(r));
    }
    $("profile").hidden = known.length === 0;
    $("profile-empty").hidden = rows.length !== 0;
    $("assumed").hidden = assumed.length === 0;
    $("assumed-summary").textContent = "Assumed defaults (" + assumed.length + "): say in the chat if one is wrong";
  }

  function renderRecommendation(rec) {
    const box = $("recommendation");
    while (box.firstChild) box.removeChild(box.firstChild);
    if (!rec) { box.appendChild(el("p", "empty", "No recommendation yet.")); return; }
    if (rec.primary) {
      const p = el("div", "primary-pick");
      p.appendChild(el("div", "title", rec.primary.title));
      p.appendChild(el("div", "where", rec.primary.where));
      const facts = el("dl", "facts");
      const serving = (rec.primary.serving || []).map((r) => [r.label, r.value]);
      for (const [k, v] of [["Time", rec.primary.time], ["Cost", rec.primary.cost], ["Price", rec.primary.rate], ...serving]) {
        if (!v) continue;
        facts.appendChild(el("dt", null, k));
        facts.appendChild(el("dd", null, v));
      }
      p.appendChild(facts);
      if (rec.primary.why && rec.primary.why.length) {
        const ul = el("ul", "why");
        for (const w of rec.primary.why) ul.appendChild(el("li", null, w));
        p.appendChild(ul);
      }
      box.appendChild(p);
    } else {
      box.appendChild(el("p", "empty", "No configuration fits these constraints."));
    }
    if (rec.alternatives && rec.alternatives.length) {
      box.appendChild(el("h3", null, "Alternatives"));
      const ul = el("ul", "alts");
      for (const a of rec.alternatives) ul.appendChild(el("li", null, a.label + ": " + a.summary));
      box.appendChild(ul);
    }
    if (rec.infeasible_advice && rec.infeasible_advice.length) {
      box.appendChild(el("h3", null, "What would make it feasible"));
      const ul = el("ul", "advice");
      for (const a of rec.infeasible_advice) ul.appendChild(el("li", null, a));
      box.appendChild(ul);
    }
  }

  function renderQuestions(questions) {
    const section = $("questions");
    const list = $("question-list");
    while (list.firstChild) list.removeChild(list.firstChild);
    section.hidden = questions.length === 0;
    questions.forEach((q) => {
      const li = el("li", null, q + " ");
      const b = el("button", "secondary", "Answer");
      b.type = "button";
      b.setAttribute("aria-label", "Answer: " + q);
      b.addEventListener("click", () => {
        const box = $("message");
        box.placeholder = "Your answer to: " + q;
        box.focus();
      });
      li.appendChild(b);
      list.appendChild(li);
    });
  }

  // --- sending ------------------------------------------------------------------------------------------
  function setBusy(on) {
    busy = on;
    $("send").disabled = on;
    $("upload-button").disabled = on;
    $("composer").setAttribute("aria-busy", on ? "true" : "false");
  }

  // Resolves true when the advisor answered. A message the server refused (too long, rate-limited, a
  // conflict) is taken out of the transcript and given back to the message box, with the reason shown.
  async function send(text) {
    if (busy) return false;
    showError("");
    setBusy(true);
    setStatus("Sending…");
    let mine = null;
    try {
      await ensureSession();
      mine = addMessage("user", text);
      const reply = addMessage("assistant", "");
      reply.classList.add("pending");
      reply.setAttribute("aria-busy", "true"); // screen readers read it once it is complete
      reply.querySelector(".text").textContent = "Thinking…";
      await streamTurn(text, reply);
      return true;
    } catch (e) {
      if (e.rejected && mine) mine.remove();
      if (e.rejected && !$("message").value.trim()) $("message").value = text;
      showError(e.rejected ? e.message + " Your message is still in the box." : e.message);
      setStatus("");
      return false;
    } finally {
      setBusy(false);
    }
  }

  // Server-sent events over fetch (EventSource cannot POST or send the token header).
  async function streamTurn(text, reply) {
    const res = await api("POST", base() + "/messages/stream", { json: { text: text }, raw: true });
    if (!res.ok) {
      let data = null;
      try { data = await res.json(); } catch (_e) { data = null; }
      reply.remove();
      const err = new Error(messageFor(res, data));
      err.status = res.status;
      err.rejected = true; // refused before any answer: 413, 422, 429, 409 ...
      throw err;
    }
    const textNode = reply.querySelector(".text");
    let started = false;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let turn = null;
    let failure = null;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const raw = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let name = "message";
        const dataLines = [];
        for (const line of raw.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) dataLines.push(line.slice(5).trimStart());
        }
        const data = dataLines.length ? JSON.parse(dataLines.join("\n")) : {};
        if (name === "delta") {
          if (!started) { textNode.textContent = ""; reply.classList.remove("pending"); started = true; }
          textNode.textContent += data.text;
          if (streaming) setStatus("The advisor is answering…");
        } else if (name === "turn") {
          turn = data;
        } else if (name === "error") {
          failure = data.detail || "The advisor failed on this message.";
        }
      }
    }
    if (failure || !turn) {
      reply.remove();
      throw new Error(failure || "The connection closed before the reply arrived; reload to see it.");
    }
    reply.classList.remove("pending");
    textNode.textContent = turn.reply;
    reply.setAttribute("aria-busy", "false");
    showLatest(reply);
    applyTurn(turn, true);
    const n = (turn.questions || []).length;
    setStatus(n === 0 ? "The advisor replied."
      : n === 1 ? "The advisor replied and asks a question." : "The advisor replied and asks " + n + " questions.");
  }

  async function retryMessage(id, li) {
    if (busy) return;
    setBusy(true);
    showError("");
    try {
      const turn = await api("POST", base() + "/messages/" + id + "/retry");
      const note = li.querySelector(".note");
      if (note) note.remove();
      addMessage("assistant", turn.reply);
      applyTurn(turn, true);
      setStatus("The advisor replied.");
    } catch (e) {
      showError(e.message);
    } finally {
      setBusy(false);
    }
  }

  // --- brief upload ----------------------------------------------------------------------------------
  async function upload(file) {
    if (busy || !file) return;
    showError("");
    const maxBytes = Number(body.dataset.maxUploadMb) * 1024 * 1024;
    if (file.size > maxBytes) {
      showError(file.name + " is " + (file.size / 1048576).toFixed(1) + " MB, over the "
        + body.dataset.maxUploadMb + " MB limit; send the text of the brief or a shorter document.");
      return;
    }
    setBusy(true);
    setStatus("Reading " + file.name + "…");
    try {
      await ensureSession();
      const form = new FormData();
      form.append("file", file, file.name);
      const note = $("message").value.trim();
      if (note) form.append("text", note);
      const turn = await api("POST", base() + "/brief", { form: form });
      $("message").value = "";
      addMessage("user", note || ("Here is our brief: " + turn.brief.filename), { brief: turn.brief.filename });
      addMessage("assistant", turn.reply);
      applyTurn(turn, true);
      setStatus("Read " + turn.brief.filename + " (" + turn.brief.chars + " characters). The advisor replied.");
    } catch (e) {
      showError(e.message);
      setStatus("");
    } finally {
      setBusy(false);
      $("brief").value = "";
      $("message").focus();
    }
  }

  // --- reports ------------------------------------------------------------------------------------------
  function stopPolling() {
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = null;
  }

  async function makeReport() {
    showError("");
    try {
      await ensureSession();
      const job = await api("POST", base() + "/reports");
      watchReport(job.report_id);
    } catch (e) {
      showError(e.message);
    }
  }

  function watchReport(reportId) {
    stopPolling();
    currentReport = reportId;
    $("download").hidden = true;
    $("report-progress").hidden = false;
    $("make-report").disabled = true;
    $("report-status").textContent = "Rendering the report… this takes a few seconds.";
    const started = Date.now();
    const tick = async () => {
      try {
        const job = await api("GET", base() + "/reports/" + encodeURIComponent(reportId));
        if (job.status === "done") { reportDone(job, true); return; }
        if (job.status === "failed") {
          $("report-progress").hidden = true;
          $("make-report").disabled = false;
          $("report-status").textContent = "The report failed: " + (job.error || "unknown error") + ".";
          return;
        }
        const secs = Math.round((Date.now() - started) / 1000);
        $("report-status").textContent = (job.status === "pending" ? "Queued" : "Rendering") + "… " + secs + " s";
      } catch (e) {
        if (e.status === 429) { pollTimer = setTimeout(tick, 3000); return; }
        $("report-progress").hidden = true;
        $("make-report").disabled = false;
        $("report-status").textContent = "";
        showError(e.message);
        return;
      }
      pollTimer = setTimeout(tick, 1000);
    };
    pollTimer = setTimeout(tick, 500);
  }

  function reportDone(job, focus) {
    stopPolling();
    currentReport = job.report_id;
    $("report-progress").hidden = true;
    $("make-report").disabled = false;
    $("make-report").textContent = "Create the report again";
    $("report-status").textContent = "The report is ready.";
    const dl = $("download");
    dl.hidden = false;
    if (focus) dl.focus();
  }

  async function download() {
    if (!currentReport) return;
    showError("");
    try {
      const res = await api("GET", base() + "/reports/" + encodeURIComponent(currentReport) + "/pdf", { raw: true });
      if (!res.ok) {
        let data = null;
        try { data = await res.json(); } catch (_e) { data = null; }
        throw new Error(messageFor(res, data));
      }
      const blob = await res.blob();
      const url = URL.createObjectURL(blob);
      const a = el("a");
      a.href = url;
      a.download = "gpu-advisor-report.pdf";
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) {
      showError(e.message);
    }
  }

  // --- wiring -------------------------------------------------------------------------------------------
  document.addEventListener("DOMContentLoaded", () => {
    const box = $("message");
    reportLabel = $("make-report").textContent;
    $("composer").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = box.value.trim();
      if (!text) { showError("Type a message first."); box.focus(); return; }
      box.value = "";
      box.placeholder = "";
      send(text).then(() => box.focus());  // a refused message comes back into the box
    });
    box.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        $("composer").requestSubmit();
      }
    });
    $("upload").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const file = $("brief").files[0];
      if (!file) { showError("Choose a brief file first."); $("brief").focus(); return; }
      upload(file);
    });
    const zone = $("upload");
    ["dragenter", "dragover"].forEach((t) => zone.addEventListener(t, (ev) => {
      ev.preventDefault();
      zone.classList.add("dragging");
    }));
    ["dragleave", "drop"].forEach((t) => zone.addEventListener(t, () => zone.classList.remove("dragging")));
    zone.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const file = ev.dataTransfer && ev.dataTransfer.files[0];
      if (file) upload(file);
    });
    $("make-report").addEventListener("click", makeReport);
    $("download").addEventListener("click", download);
    $("new-session").addEventListener("click", newSession);
    $("delete-session").addEventListener("click", deleteSession);
    restore();
  });
})();
