// The bidding table's page: a thin client of the JSON API (no build step).
// State lives on the server; this file only draws what GET /api/tables/{id} answers.
"use strict";

const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660", N: "NT" };
const COLUMNS = ["W", "N", "E", "S"];
const STRAINS = ["C", "D", "H", "S", "NT"];
let current = null; // the table's state as the API answered it
let pending = null; // the call being previewed

const $ = (id) => document.getElementById(id);

function show(text) {
  // "1C" -> "1♣", "P" -> "Pass"; calls stay canonical in data attributes.
  if (text === "P") return "Pass";
  const bid = /^([1-7])(C|D|H|S|NT)$/.exec(text);
  if (!bid) return text; // X, XX, or a wildcard such as "any"
  return bid[1] + (bid[2] === "NT" ? "NT" : SUITS[bid[2]]);
}

function esc(text) {
  return String(text ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    let detail = data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
    const err = new Error(detail || `${response.status} ${response.statusText}`);
    err.status = response.status;
    throw err;
  }
  return data;
}

function panel(name) {
  for (const id of ["setup", "table", "history", "browser"]) $(id).hidden = id !== name;
}

// --- setup ------------------------------------------------------------------------
async function readPbnFile() {
  const file = $("pbn-file").files[0];
  return file ? await file.text() : null;
}

async function newTable(event) {
  event.preventDefault();
  $("setup-error").textContent = "";
  const form = new FormData($("setup-form"));
  const body = { system: form.get("system"), opponents: form.get("opponents"), seat: form.get("seat") };
  const words = String(form.get("options") || "").split(/\s+/).filter(Boolean);
  if (words.length) body.options = words;
  for (const key of ["dealer", "vul", "constraint", "reach", "deal"]) {
    const value = String(form.get(key) || "").trim();
    if (value) body[key] = value;
  }
  const pbn = await readPbnFile();
  if (pbn) body.pbn = pbn;
  if (form.get("board")) body.board = Number(form.get("board"));
  $("deal-button").disabled = true;
  try {
    open(await api("POST", "/api/tables", body));
  } catch (err) {
    $("setup-error").textContent = err.message;
  } finally {
    $("deal-button").disabled = false;
  }
}

function open(state) {
  current = state;
  location.hash = "t=" + state.id;
  panel("table");
  draw();
}

// --- the table ------------------------------------------------------------------
function drawHand(pbn, into) {
  const suits = pbn.split(".");
  into.innerHTML = ["S", "H", "D", "C"].map((s, i) =>
    `<div class="suit suit-${s}"><span>${SUITS[s]}</span> ${esc(suits[i] || "\u2014")}</div>`).join("");
}

function draw() {
  const s = current;
  $("board-info").innerHTML = `Board ${s.board} · dealer ${s.dealer} · vulnerable ${esc(s.vul)} · ` +
    `you sit <b>${s.seat}</b> · ${esc(s.system)} against ${esc(s.opponents)}` +
    `<div class="origin">${esc(s.origin)}</div>`;
  drawHand(s.hand, $("hand"));
  drawAuction();
  drawBox();
  $("status").textContent = s.ended
    ? (s.contract ? `Final contract ${s.contract} by ${s.declarer}` : "Passed out")
    : (s.your_turn ? "Your call" : `${s.next_seat} to call`);
  $("export").href = `/api/tables/${s.id}/pbn`;
  $("export-lin").href = `/api/tables/${s.id}/lin`;
  $("undo").disabled = !s.calls.some((c) => c.by === "you");
  drawKnowledge();
  $("preview").hidden = true;
  $("explain").hidden = true;
  if (s.ended) loadReview(); else $("review").hidden = true;
}

function drawAuction() {
  const s = current;
  const body = $("auction").querySelector("tbody");
  const cells = [];
  const skip = COLUMNS.indexOf(s.dealer);
  for (let i = 0; i < skip; i++) cells.push("<td></td>");
  s.calls.forEach((c, i) => {
    const classes = ["call", c.by === "you" ? "mine" : "robot"];
    if (c.alert) classes.push("alerted");
    if (c.stop_card) classes.push("stopped");
    cells.push(`<td><button class="${classes.join(" ")}" data-index="${i}" title="${esc(c.meaning)}">` +
      `${show(c.call)}${c.alert ? '<sup class="alert-mark">!</sup>' : ""}</button></td>`);
  });
  if (!s.ended) cells.push('<td class="next">?</td>');
  const rows = [];
  for (let i = 0; i < cells.length; i += 4) rows.push(`<tr>${cells.slice(i, i + 4).join("")}</tr>`);
  body.innerHTML = rows.join("");
  body.querySelectorAll("button.call").forEach((b) => {
    b.addEventListener("click", () => explainCall(Number(b.dataset.index)));
    b.addEventListener("mouseenter", () => explainCall(Number(b.dataset.index)));
  });
}

function sourceText(source) {
  return { system: "the notes", base: "the natural base", placement: "the captain's placement (judgement)" }[source] || source || "?";
}

// What a call says, as `bidbox explain` prints it: the meaning, one forcing word (none
// when the meaning says it), and what the hand lacks ("denies 12-14 HCP, balanced").
function forcingText(c) {
  return c.forcing_text ? ` · ${esc(c.forcing_text)}` : "";
}

function deniesText(c) {
  return c.denies_text && c.denies_text.length ? `<div class="denies">${esc(c.denies_text.join("; "))}</div>` : "";
}

function explainCall(index) {
  const c = current.calls[index];
  const alert = c.alert ? `<div class="alert">Alert: ${esc(c.alert_rule)}</div>` :
    `<div class="no-alert">no alert: ${esc(c.alert_rule)}</div>`;
  const stop = c.stop_card ? '<div class="stop">Stop card: a jump bid</div>' : "";
  const reason = c.reason ? `<div class="reason">why: ${esc(c.reason)}</div>` : "";
  const note = c.note ? `<div class="note">${esc(c.note)}</div>` : "";
  $("explain").innerHTML = `<b>${c.seat} ${show(c.call)}</b> ${c.by === "you" ? "(you)" : ""}: ${esc(c.meaning)}${forcingText(c)}` +
    alert + stop + deniesText(c) + note + `<div class="source">decided by ${sourceText(c.source)}</div>` + reason;
  $("explain").hidden = false;
}

function drawBox() {
  const s = current;
  const legal = new Set(s.legal_calls);
  const enabled = (call) => s.your_turn && legal.has(call);
  const parts = [];
  for (let level = 1; level <= 7; level++) {
    parts.push('<div class="level">' + STRAINS.map((st) => {
      const call = `${level}${st}`;
      return `<button class="bid strain-${st}" data-call="${call}" ${enabled(call) ? "" : "disabled"}>${show(call)}</button>`;
    }).join("") + "</div>");
  }
  parts.push('<div class="level specials">' + ["P", "X", "XX"].map((call) =>
    `<button class="bid special" data-call="${call}" ${enabled(call) ? "" : "disabled"}>${show(call)}</button>`).join("") + "</div>");
  $("box").innerHTML = parts.join("");
  $("box").querySelectorAll("button.bid").forEach((b) => b.addEventListener("click", () => previewCall(b.dataset.call)));
}

async function previewCall(call) {
  $("table-error").textContent = "";
  try {
    const p = await api("GET", `/api/tables/${current.id}/preview?call=${encodeURIComponent(call)}`);
    pending = call;
    $("stop-card").hidden = !p.stop_card;
    const alert = p.alert ? `<div class="alert">Alert! Partner alerts it: ${esc(p.alert_rule)}</div>` : "";
    $("preview-text").innerHTML = `<b>${show(call)}</b>: ${esc(p.meaning)}${forcingText(p)}` + alert + deniesText(p);
    $("confirm").textContent = `Bid ${show(call)}`;
    $("preview").hidden = false;
  } catch (err) {
    $("table-error").textContent = err.message;
  }
}

async function confirmCall() {
  if (!pending) return;
  const call = pending;
  pending = null;
  $("confirm").disabled = true;
  try {
    current = await api("POST", `/api/tables/${current.id}/calls`, { call, seat: current.seat });
    draw();
  } catch (err) {
    await refused(err);
  } finally {
    $("confirm").disabled = false;
  }
}

async function undo() {
  $("table-error").textContent = "";
  try {
    current = await api("POST", `/api/tables/${current.id}/undo`);
    draw();
  } catch (err) {
    await refused(err);
  }
}

// A 409 may mean the table moved on meanwhile (another tab, another server process):
// show the table as it is stored now, then the reason.
async function refused(err) {
  if (err.status === 409) {
    try {
      current = await api("GET", `/api/tables/${current.id}`);
      draw();
    } catch (ignored) { /* keep the page as it was; the reason below still shows */ }
  }
  $("table-error").textContent = err.message;
}

async function drawKnowledge() {
  // Measured on request: the slowest part of an explanation, so not in every answer.
  const id = current.id, auction = current.auction;
  let k = {};
  try {
    k = await api("GET", `/api/tables/${id}/knowledge`);
  } catch (err) {
    return;
  }
  if (!current || current.id !== id || current.auction !== auction) return;
  // Each seat as `bidbox explain` states it ("10-22 HCP, 4+ spades"), then each side's
  // combined line; the measured ranges stay in the JSON for other tools.
  const rows = Object.entries(k.knowledge || {}).map(([seat, facts]) =>
    `<div class="seat-known" data-seat="${esc(seat)}"><b>${esc(seat)}</b> ${esc(facts.text || "nothing shown")}</div>`);
  for (const [side, text] of Object.entries(k.partnerships || {})) {
    rows.push(`<div class="side-known" data-side="${esc(side)}"><b>${esc(side.split("").join("+"))}</b> ${esc(text)}</div>`);
  }
  $("knowledge").innerHTML = rows.length ? "<h3>Known now</h3>" + rows.join("") : "";
}

// --- review --------------------------------------------------------------------
async function loadReview() {
  const id = current.id;
  $("review").hidden = false;
  $("review").innerHTML = "<p>Solving the deal double dummy\u2026</p>";
  try {
    const r = await api("GET", `/api/tables/${id}/review`);
    if (!current || current.id !== id) return;
    drawReview(r);
  } catch (err) {
    $("review").innerHTML = `<p class="error">${esc(err.message)}</p>`;
  }
}

function resultText(t) {
  if (!t.contract) return "passed out, 0";
  return `${t.contract} by ${t.declarer}, ${t.tricks} tricks, ${t.score > 0 ? "+" : ""}${t.score}`;
}

function drawReview(r) {
  const dd = Object.entries(r.double_dummy).map(([strain, seats]) =>
    `<tr><th>${strain === "NT" ? "NT" : SUITS[strain]}</th>${["N", "E", "S", "W"].map((s) => `<td>${seats[s]}</td>`).join("")}</tr>`).join("");
  const calls = r.your_calls.map((c) => `<li class="${c.agrees ? "agrees" : "differs"}">after '${esc(c.auction_before) || "(start)"}' ` +
    `you bid <b>${show(c.call)}</b>, the system ${show(c.system_call)}` +
    (c.agrees ? " \u2714" : `<div class="why">${esc(c.why)}</div>`) + "</li>").join("");
  const hands = Object.entries(r.hands).map(([seat, pbn]) => `<div class="review-hand"><b>${seat}</b> ${esc(pbn)}</div>`).join("");
  $("review").innerHTML = `<h3>Review</h3>` +
    `<p id="result">This table: ${resultText(r.table)}</p>` +
    `<p id="robot-table">Robots in your seat: ${esc(r.robot_table.auction)}: ${resultText(r.robot_table)} · ` +
    `<b>${r.imps > 0 ? "+" : ""}${r.imps} IMPs</b> for you</p>` +
    (r.par ? `<p id="par">Par ${r.par.score > 0 ? "+" : ""}${r.par.score} (${esc(r.par.contracts)})</p>` : "") +
    `<table id="dd"><thead><tr><th></th><th>N</th><th>E</th><th>S</th><th>W</th></tr></thead><tbody>${dd}</tbody></table>` +
    `<h3>Your calls</h3><ol id="your-calls">${calls || "<li>none</li>"}</ol>` + hands;
}

// --- history ------------------------------------------------------------------
async function history(event) {
  if (event) event.preventDefault();
  panel("history");
  const rows = await api("GET", "/api/tables");
  $("history-list").innerHTML = rows.map((r) => `<li><a href="#t=${r.id}" class="open-table" data-id="${r.id}">` +
    `board ${r.board}: ${esc(r.auction) || "(no calls)"}</a> ${r.contract ? esc(r.contract) : r.ended ? "passed out" : "(in progress)"} ` +
    `<small>${esc(r.system)} v ${esc(r.opponents)}, you ${r.seat}</small> ` +
    `<button class="replay quiet" data-id="${r.id}">play again</button></li>`).join("") || "<li>no boards yet</li>";
  document.querySelectorAll(".open-table").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); resume(a.dataset.id); }));
  document.querySelectorAll(".replay").forEach((b) => b.addEventListener("click", () => replay(b.dataset.id)));
}

async function resume(id) {
  try {
    open(await api("GET", `/api/tables/${id}`));
  } catch (err) {
    panel("setup");
    $("setup-error").textContent = err.message;
  }
}

async function replay(id) {
  // The same deal, systems, seat, dealer and vulnerability at a new table.
  const old = await api("GET", `/api/tables/${id}/review`).catch(() => null);
  const state = await api("GET", `/api/tables/${id}`);
  const hands = old ? old.hands : state.hands;
  if (!hands) return resume(id);
  const deal = "N:" + ["N", "E", "S", "W"].map((s) => hands[s]).join(" ");
  open(await api("POST", "/api/tables", {
    system: state.system, opponents: state.opponents, options: state.options,
    opponent_options: state.opponent_options, seat: state.seat, dealer: state.dealer,
    vul: state.vul, deal,
  }));
}

// --- the system browser ----------------------------------------------------------
function auctionText(text) {
  return text ? text.split(" ").map((c) => c.startsWith("(") ? "(" + show(c.slice(1, -1)) + ")" : show(c)).join(" ") : "(openings)";
}

async function browse(path) {
  panel("browser");
  $("browser-error").textContent = "";
  const system = $("browser-system").value;
  let node;
  try {
    node = await api("GET", `/api/systems/${encodeURIComponent(system)}/tree?path=${encodeURIComponent(path)}`);
  } catch (err) {
    $("browser-error").textContent = err.message;
    return;
  }
  const up = node.up === null ? "" : ` <a href="#" class="node-link" data-path="${esc(node.up)}">up</a>`;
  $("browser-path").innerHTML = `<a href="#" class="node-link" data-path="">openings</a> · ` +
    `<b>${esc(auctionText(node.path))}</b>${up}`;
  $("node-calls").querySelector("tbody").innerHTML = node.calls.map((c, i) => `<tr>` +
    `<td>${c.continues ? `<a href="#" class="node-link" data-path="${esc(c.path)}">${show(c.call)}</a>` : show(c.call)}</td>` +
    `<td title="${esc(c.shows_text || c.shows)} (${esc(c.location)})">${esc(c.meaning)}</td><td>${esc(c.forcing || "")}</td>` +
    `<td title="${esc(c.alert_rule || "")}">${c.alert ? "alert" : ""}${c.stop_card ? " stop" : ""}</td>` +
    `<td class="sample">${esc(c.sample_hand || "")}</td>` +
    `<td><button class="practise quiet" data-index="${i}" title="deal a board whose auction reaches ${esc(c.auction)}; you sit ${c.seat}">practise</button></td></tr>`).join("");
  $("node-opponents").innerHTML = node.opponents.length ? "after their call: " + node.opponents.map((o) =>
    `<a href="#" class="node-link" data-path="${esc(o.path)}">(${esc(show(o.call))})</a>`).join(" ") : "";
  document.querySelectorAll("#browser .node-link").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); browse(a.dataset.path); }));
  document.querySelectorAll("#browser .practise").forEach((b) => b.addEventListener("click", () => practise(node.calls[Number(b.dataset.index)], system)));
}

async function practise(call, system) {
  $("browser-error").textContent = "Dealing a board that reaches " + call.auction + "…";
  try {
    open(await api("POST", "/api/tables", { system, opponents: system, seat: call.practise.seat,
      dealer: call.practise.dealer, reach: call.practise.reach }));
  } catch (err) {
    $("browser-error").textContent = err.message;
  }
}

async function report(kind) {
  const system = $("browser-system").value;
  $("report").innerHTML = `<p>Working out the ${kind} report\u2026</p>`;
  try {
    const r = await api("GET", `/api/systems/${encodeURIComponent(system)}/${kind}`);
    if (kind === "check") {
      $("report").innerHTML = `<h3>SBU: ${r.verdict ? "level " + r.verdict : "not permitted at any level"}</h3><ul>` +
        r.findings.map((f) => `<li>${esc(f.auction)} ${show(f.call)}: level ${f.level ?? "none"}: ${esc(f.rule)} (${esc(f.section)}): ${esc(f.message)}` +
          `${f.witness ? " e.g. " + esc(f.witness) : ""}</li>`).join("") + "</ul>";
    } else {
      $("report").innerHTML = `<h3>Lint: ${r.findings.length} finding(s)</h3><ul>` +
        r.findings.map((f) => `<li>${esc(f.severity)} ${esc(f.code)}: ${esc(f.message)}${f.witness ? " e.g. " + esc(f.witness) : ""} <small>${esc(f.method)}</small></li>`).join("") + "</ul>";
    }
  } catch (err) {
    $("report").innerHTML = `<p class="error">${esc(err.message)}</p>`;
  }
}

// --- wiring --------------------------------------------------------------------
$("setup-form").addEventListener("submit", newTable);
$("confirm").addEventListener("click", confirmCall);
$("cancel").addEventListener("click", () => { pending = null; $("preview").hidden = true; });
$("undo").addEventListener("click", undo);
$("show-setup").addEventListener("click", (e) => { e.preventDefault(); panel("setup"); });
$("show-history").addEventListener("click", history);
$("show-browser").addEventListener("click", (e) => { e.preventDefault(); browse(""); });
$("browser-system").addEventListener("change", () => { $("report").innerHTML = ""; browse(""); });
$("show-check").addEventListener("click", () => report("check"));
$("show-lint").addEventListener("click", () => report("lint"));
const match = location.hash.match(/t=([\w-]+)/);
if (match) resume(match[1]);
