// The table's page: the live public view for everyone, the judge's console after login.
// State arrives over the WebSocket /ws (on connect and on every change); nothing here polls.
"use strict";

let T = {en: {}, ru: {}};
let lang = new URLSearchParams(location.search).get("lang") || localStorage.getItem("lang") || "";
let last = null;             // the last state message
let session = {judge: false};
let sock = null, retry = 500;
let cameraOn = localStorage.getItem("camera") !== "off";
// the enrollment grid over the camera (?layout=K: page K of the whole-set layout, 0 the calibration layout)
let layoutPage = /^[0-3]$/.test(new URLSearchParams(location.search).get("layout") || "") ?
  Number(new URLSearchParams(location.search).get("layout")) : null;
let claimTimer = null;

function tOr(key, fallback) { return (T[lang] && T[lang][key]) || T.en[key] || fallback; }

function t(key, vars) {
  let s = (T[lang] && T[lang][key]) || T.en[key] || key;
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.replace("{" + k + "}", v);
  return s;
}

function applyLang() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach(e => { e.textContent = t(e.dataset.t); });
  document.querySelectorAll("[data-ph]").forEach(e => { e.placeholder = t(e.dataset.ph); });
  $("#lang").textContent = t("lang.switch");
  $("#camera-toggle").textContent = t(cameraOn ? "camera.hide" : "camera.show");
  for (const o of $("#layout-page").options) if (/^[1-3]$/.test(o.value)) o.textContent = t("layout.page", {n: o.value});
  if (last) render(last);
}

// --- rendering (the tiles and the seats: tiles.js) ---------------------------------------------------
function renderCentre(pub, hand) {
  const c = $("#centre");
  c.replaceChildren();
  if (!hand) { c.append(el("div", {class: "muted", text: t("no_hand")})); return; }
  c.append(el("div", {text: t("round") + ": " + t("wind." + hand.round_wind)}));
  if (hand.wall !== null) c.append(el("div", {}, t("wall") + ": ", el("span", {class: "big", id: "wall", text: hand.wall})));
  if (hand.turn !== null && hand.turn !== undefined) c.append(el("div", {text: t("turn") + ": " + seatName(hand, hand.turn)}));
  c.append(el("div", {class: "muted", text: t("phase." + hand.phase)}));
  const dice = pub.service.dice.flat();
  if (dice.length) c.append(el("div", {class: "dice"}, ...dice.map(v => el("span", {text: v}))));
  if (hand.dora.length) c.append(el("div", {}, t("dora") + ": ", ...hand.dora.map(d => tileEl(d))));
  if (hand.claim) {
    const bar = el("div", {class: "bar"}, el("div"));
    c.append(el("div", {class: "claim", id: "claim"}, el("div", {}, t("claim") + " — " + seatName(hand, hand.claim.seat) + " ",
      hand.claim.tile ? tileEl(hand.claim.tile) : ""), bar));
    startClaim(bar.firstChild, hand.claim);
  } else stopClaim();
}

function startClaim(fill, claim) {
  stopClaim();
  if (claim.window_s === null) { fill.parentNode.hidden = true; return; }  // no claim time in this rule set
  const end = performance.now() + claim.remaining_s * 1000;
  const step = () => {
    const left = Math.max(0, end - performance.now());
    fill.style.width = (100 * left / (claim.window_s * 1000)) + "%";
    if (left <= 0) stopClaim();
  };
  step();
  claimTimer = setInterval(step, 100);
}
function stopClaim() { if (claimTimer) clearInterval(claimTimer); claimTimer = null; }

function renderResult(current, previous) {
  const box = $("#result");
  box.replaceChildren();
  const settled = current && (current.settlement || current.exhaustive || current.wins.length);
  const hand = settled ? current : previous;
  if (!hand) return;
  box.append(el("p", {class: "muted", text: t("hand") + " " + hand.hand_id}));
  for (const w of hand.wins) renderWin(box, hand, w);
  if (hand.exhaustive) box.append(el("p", {text: t("exhaustive")}));
  if (hand.settlement) renderSettlement(box, hand, hand.settlement);
}

function renderViolations(hand) {
  const ul = $("#violations");
  ul.replaceChildren();
  const items = hand ? [...hand.violations.map(v => seatName(hand, v.seat) + ": " + t("v." + v.code) + (v.rule ? " (" + v.rule + ")" : "")),
    ...hand.notices.map(n => (lang === "ru" && n.text_ru) || n.text || n.kind)] : [];
  if (!items.length) ul.append(el("li", {class: "muted", text: t("no_violations")}));
  for (const x of items) ul.append(el("li", {text: x}));
}

function renderScores(pub, hand) {
  const tb = $("#standings");
  tb.replaceChildren(el("tr", {}, el("th", {text: "#"}), el("th", {text: t("seat")}), el("th", {class: "num", text: t("total")}),
    el("th", {class: "num", text: t("wins")}), el("th", {class: "num", text: t("penalties")})));
  for (const r of pub.standings) tb.append(el("tr", {}, el("td", {text: r.rank}), el("td", {text: seatName(hand, r.seat)}),
    el("td", {class: "num", text: r.total}), el("td", {class: "num", text: r.wins}), el("td", {class: "num", text: r.penalties ? -r.penalties : ""})));
  const hist = $("#history");
  hist.replaceChildren(el("tr", {}, el("th", {text: t("hand")}), el("th", {text: t("result")}), el("th", {text: t("delta")})));
  for (const h of pub.history) hist.append(el("tr", {}, el("td", {}, h.replay ? el("a", {href: "/replay/" + encodeURIComponent(h.hand_id),
      class: "replay", title: t("replay.open")}, h.hand_id) : h.hand_id),
    el("td", {text: t("status." + h.status) + (h.winners && h.winners.length ? " — " + h.winners.map(w => t("seat") + " " + w).join(", ") : "")}),
    el("td", {text: (h.deltas || []).join(" / ")})));
}

function renderCamera(pub) {
  const cam = pub.camera;
  $("#camera-sec").hidden = !cam;
  if (!cam) return;
  $("#camera").hidden = !cameraOn;
  $("#layout-pick").hidden = !session.judge;  // the enrollment grid is the judge's
  const img = $("#camera-img"), svg = $("#camera-svg");
  $("#camera-none").hidden = cam.frame !== null;
  if (cam.error) $("#camera-none").textContent = cam.error;
  if (cam.frame === null || !cameraOn) return;
  renderLayout(cam.layout);
  renderLayoutCheck(cam.layout, cam.layout_check);
  if (img.dataset.frame !== String(cam.frame)) {
    img.dataset.frame = cam.frame;
    img.src = "/api/camera.jpg?f=" + cam.frame;
    svg.setAttribute("viewBox", "0 0 " + cam.width + " " + cam.height);
    svg.replaceChildren();
    const NS = "http://www.w3.org/2000/svg";
    for (const c of (cam.layout ? cam.layout.cells : [])) {  // the enrollment grid: each cell and its state
      const poly = document.createElementNS(NS, "polygon");
      poly.setAttribute("points", c.poly.map(([x, y]) => (x * cam.width).toFixed(1) + "," + (y * cam.height).toFixed(1)).join(" "));
      poly.setAttribute("class", "cell " + c.state);
      poly.dataset.label = c.label;
      const label = document.createElementNS(NS, "text");
      label.setAttribute("x", (c.poly[0][0] * cam.width + 1).toFixed(1));
      label.setAttribute("y", (c.poly[3][1] * cam.height - 2).toFixed(1));
      label.setAttribute("class", "cell " + c.state);
      label.textContent = c.label;
      svg.append(poly, label);
    }
    for (const tl of cam.tiles) {
      const pts = tl.poly.map(([x, y]) => (x * cam.width).toFixed(1) + "," + (y * cam.height).toFixed(1)).join(" ");
      const poly = document.createElementNS(NS, "polygon");
      poly.setAttribute("points", pts);
      const label = document.createElementNS(NS, "text");
      label.setAttribute("x", (tl.poly[0][0] * cam.width).toFixed(1));
      label.setAttribute("y", (tl.poly[0][1] * cam.height - 2).toFixed(1));
      label.textContent = tl.label;
      svg.append(poly, label);
    }
  }
}

// the enrollment grid's summary: cells filled, the page's faces with no tile on its place, the doubtful cells
function renderLayout(lay) {
  const box = $("#layout-summary");
  box.hidden = !lay;
  if (!lay) return;
  const title = lay.page === 0 ? t("layout.calibration") : t("layout.page", {n: lay.page}) + " — " + (lang === "ru" ? lay.title_ru : lay.title);
  const bits = [t("layout.summary", {title: title, filled: lay.filled, n: lay.n})];
  if (lay.empty.length) bits.push(t("layout.missing") + ": " + lay.empty.join(" "));
  if (lay.doubtful.length) {  // grouped by why, each face once with its count: "7p ×3, 8p ×3 (two tiles)"
    const why = new Map();
    for (const d of lay.doubtful) {
      const faces = why.get(d.why) || new Map();
      faces.set(d.label, (faces.get(d.label) || 0) + 1);
      why.set(d.why, faces);
    }
    bits.push(t("layout.doubtful") + ": " + [...why].map(([w, faces]) => [...faces].map(([lab, n]) => n > 1 ? lab + " ×" + n : lab).join(", ")
      + " (" + tOr("layout.why." + w.replace(/ /g, "_"), w) + ")").join("; "));
  }
  if (lay.strays) bits.push(t("layout.strays", {n: lay.strays}));
  box.textContent = bits.join(" · ");
  box.className = lay.empty.length || lay.doubtful.length ? "warn" : "muted";
}

// the judge's check of the set the pages seen hold (enrolled on the table: seconds): missing faces, faces too alike
function renderLayoutCheck(lay, chk) {
  $("#layout-checking").hidden = !(lay && session.judge);
  const out = $("#layout-result");
  if (!chk) { out.textContent = ""; return; }
  $("#layout-check").disabled = !!chk.running;
  if (chk.running) { out.textContent = t("layout.checking"); out.className = "muted"; return; }
  if (chk.error) { out.textContent = chk.error; out.className = "warn"; return; }
  const lines = chk.pages_missing.map(n => t("layout.pages_missing", {n: n})).concat(lang === "ru" ? chk.lines_ru : chk.lines);
  out.textContent = lines.length ? lines.join(" · ") : t("layout.check_ok");
  out.className = lines.length ? "warn" : "muted";
}

// the hall session at this table: time left, "last hand", "red zone", and why no hand starts (both languages)
function renderSession(ses) {
  const box = $("#session");
  box.hidden = !(ses && ses.session !== null && ses.session !== undefined);
  if (box.hidden) return;
  const bits = [];
  if (ses.seconds_left !== null && ses.seconds_left !== undefined) {
    const m = Math.floor(ses.seconds_left / 60), sec = Math.floor(ses.seconds_left % 60);
    bits.push(t("session.left", {n: ses.session, t: m + ":" + String(sec).padStart(2, "0")}));
  }
  if (ses.red_zone) bits.push(t("session.red_zone"));
  if (ses.last_hand) bits.push(t("session.last_hand"));
  const why = lang === "ru" ? ses.text_ru : ses.text_en;
  if (why) bits.push(why);
  box.textContent = bits.join(" · ");
  box.classList.toggle("warn", !!(ses.red_zone || ses.last_hand || !ses.may_start));
  box.dataset.reason = ses.reason || "";
}

function render(msg) {
  last = msg;
  const pub = msg.public, hand = pub.hand;
  if (!lang) { lang = pub.table.language; applyLang(); return; }
  $("#table-name").textContent = pub.table.id + " · " + pub.table.profile;
  const s = pub.service;
  const chip = $("#status");
  chip.textContent = t("state." + s.state);
  chip.className = "chip " + s.state;
  chip.dataset.state = s.state;
  let prompt = t("prompt." + s.state);
  if (s.fault) prompt += " — " + s.fault;
  if (s.camera_set && s.camera_set.wrong) prompt += " — " + t("camera_set.wrong");
  if (s.table_check && s.table_check.hold) prompt += " — " + t("table_check") + ": " + t("check." + s.table_check.result);
  $("#prompt").textContent = prompt;
  renderSession(pub.session);
  const boxes = [...document.querySelectorAll(".seat")];
  boxes.forEach(b => { b.replaceChildren(); b.classList.add("empty"); b.classList.remove("turn"); });
  $("#no-hand").hidden = !!hand;
  $("#broken").hidden = !(hand && hand.broken);
  if (hand && hand.broken) $("#broken").textContent = t("broken");
  if (hand) {
    const pos = POSITIONS[hand.n_players] || POSITIONS[4];
    hand.seats.forEach((st, i) => renderSeat($(`.seat[data-pos=${pos[i]}]`), hand, st));
  }
  renderCentre(pub, hand);
  renderResult(hand, pub.previous);
  renderViolations(hand);
  renderScores(pub, hand);
  renderCamera(pub);
  renderConsole(msg.judge, pub, hand);
}

// --- the judge's console ------------------------------------------------------------------------------
function renderConsole(j, pub, hand) {
  $("#console").hidden = !(session.judge && j);
  $("#judge-btn").hidden = session.judge;
  if (!session.judge || !j) return;
  $("#judge-name").textContent = session.name;
  $("#insecure-warn").hidden = !session.insecure;  // web.insecure_login in use: the judge is told, every time
  document.querySelectorAll("[data-press]").forEach(b => { b.disabled = !j.buttons[b.dataset.press]; });
  // the console numbers the players by chair, 0..n-1; chair i sits at seat pub.table.seats[i] (two: seats 0 and 2)
  const atChair = c => seatName(hand, (pub.table.seats || [])[c] ?? c);
  const seatSel = $("#pen-seat");
  const chairNames = Array.from({length: pub.table.players}, (_, s) => atChair(s));  // (the winds turn hand by hand)
  const stale = sel => sel.options.length !== chairNames.length || chairNames.some((n, i) => sel.options[i].text !== n);
  const keep = (sel, fill) => { const v = sel.value; fill(); if (v !== "") sel.value = v; };
  if (stale(seatSel)) {
    keep(seatSel, () => seatSel.replaceChildren(...chairNames.map((n, s) => el("option", {value: s, text: n}))));
  }
  const toSel = $("#pen-to");
  if (stale(toSel)) {
    keep(toSel, () => toSel.replaceChildren(...chairNames.map((n, s) => el("option", {value: s, text: n}))));
  }
  const codeSel = $("#pen-code");
  if (codeSel.options.length !== j.penalty_catalog.length + 1) {
    codeSel.replaceChildren(el("option", {value: "", text: t("penalty.custom")}),
      ...j.penalty_catalog.map(p => el("option", {value: p.code, text: (lang === "ru" ? p.text_ru : p.text) + " — " + p.rule})));
    codeSel.catalog = j.penalty_catalog;
  }
  const more = $("#more-actions");
  const extra = j.actions.filter(a => !OWN_FORMS.includes(a.name));
  if (more.dataset.names !== extra.map(a => a.name).join()) {
    more.dataset.names = extra.map(a => a.name).join();
    more.replaceChildren(...(extra.length ? [el("h3", {text: t("actions.more")})] : []), ...extra.map(actionForm));
  }
  renderReferee(j.referee, hand);
  $("#raw-violations").replaceChildren(...j.violations.map(v => el("li", {text: seatName(hand, v.seat) + ": " + v.code + " — " + v.message + (v.rule ? " (" + v.rule + ")" : "")})));
  const audit = $("#audit");
  audit.replaceChildren(el("tr", {}, el("th", {text: t("when")}), el("th", {text: t("who")}), el("th", {text: t("action")}), el("th", {text: t("details")})));
  for (const a of j.audit) {
    const what = a.type === "penalty_awarded" ? t("penalty") : a.action;
    const detail = a.type === "penalty_awarded" ? atChair(a.seat) + ": −" + a.points + " (" + a.rule + ") " + a.reason
      : JSON.stringify(a.detail || {});
    audit.append(el("tr", {}, el("td", {text: new Date(a.t_wall * 1000).toLocaleTimeString()}), el("td", {text: a.judge}),
      el("td", {text: what}), el("td", {text: detail})));
  }
  const camera = [];  // the camera's set: noticed as wrong, and what it learned from the record
  if (j.camera_set && j.camera_set.wrong) camera.push(t("camera_set.wrong"));
  if (j.set_learning) camera.push(t("set_learning").replace("{n}", j.set_learning.hands));
  $("#log").textContent = camera.concat((j.log || []).slice().reverse()).join("\n");
}

// the actions with their own controls on the console (the others get a generated form)
const OWN_FORMS = ["penalty", "answer", "correct", "undo", "confirm_result", "reject"];

function renderReferee(r, hand) {
  $("#referee").hidden = !r;
  if (!r) return;
  const q = r.question;
  $("#ref-question").hidden = !q;
  if (q) {
    $("#ref-q-text").textContent = (lang === "ru" ? q.ru : q.en) || q.en;
    const box = $("#ref-q-choices");
    if (box.dataset.q !== String(q.id)) {
      box.dataset.q = q.id;
      box.replaceChildren(...q.choices.map(c => {
        const b = el("button", {type: "button", "data-answer": c, text: tOr("answer." + c, c)});
        b.addEventListener("click", () => post("/api/judge/answer", {answer: c}));
        return b;
      }));
    }
  }
  const bits = [t("ref.revision") + " " + r.revision];
  if (r.settlement) bits.push(t("ref.result") + ": " + r.settlement.map(d => (d > 0 ? "+" : "") + d).join(" / "));
  else bits.push(t("ref.no_result"));
  if (r.signed.length) bits.push(t("ref.signed") + ": " + r.signed.map(s => seatName(hand, s)).join(", "));
  if (r.confirmed) bits.push(t("ref.confirmed") + " (" + r.confirmed + ")");
  $("#ref-status").textContent = bits.join(" · ");
  $("#ref-confirm").disabled = !r.can.confirm_result;
  $("#ref-reject").disabled = !r.can.reject;
  $("#ref-undo").disabled = !r.can.undo;
  $("#ref-fix").querySelectorAll("button").forEach(b => { b.disabled = !r.can.correct; });
  const key = r.revision + ":" + r.record.length + ":" + lang;
  const tb = $("#ref-record");
  if (tb.dataset.key !== key) {  // (re-drawn only when the record changes: a click in it is not lost)
    tb.dataset.key = key;
    tb.replaceChildren(el("tr", {}, el("th", {text: "#"}), el("th", {class: "num", text: t("ref.t")}), el("th", {text: t("ref.what")}),
      el("th", {text: t("seat")}), el("th", {text: t("ref.tiles")}), el("th")));
    for (const row of r.record.slice().reverse()) {
      const tiles = row.tile ? [tileEl(row.tile)] : (row.tiles || []).map(x => tileEl(x));
      const fix = el("button", {type: "button", class: "link", "data-fix": row.i, text: t("ref.pick")});
      fix.addEventListener("click", () => {
        const f = $("#ref-fix");
        f.index.value = row.i; f.tile.value = row.tile || ""; f.tile.focus();
      });
      tb.append(el("tr", {"data-i": row.i}, el("td", {text: row.i}), el("td", {class: "num", text: row.t}),
        el("td", {text: tOr("in." + row.type, row.type) + (row.call ? " " + row.call : "") + (row.kind ? " " + row.kind : "")}),
        el("td", {text: row.seat === undefined ? "" : seatName(hand, row.seat)}), el("td", {}, ...tiles), el("td", {}, fix)));
    }
  }
  $("#ref-corrections").replaceChildren(...r.corrections.map(c => el("li", {text: t("ref.revision") + " " + c.revision + " — " + c.by + ": " + c.change
    + (c.before.length || c.after.length ? " [" + c.before.join(" / ") + " → " + c.after.join(" / ") + "]" : "")})));
}

function setupReferee() {
  $("#ref-answer").addEventListener("submit", async ev => {
    ev.preventDefault();
    const r = await post("/api/judge/answer", {answer: ev.target.answer.value});
    if (r.ok) ev.target.reset();
  });
  $("#ref-confirm").addEventListener("click", () => post("/api/judge/confirm_result"));
  $("#ref-reject").addEventListener("click", async () => {
    const r = await post("/api/judge/reject", {reason: $("#ref-reason").value});
    if (r.ok) $("#ref-reason").value = "";
  });
  $("#ref-undo").addEventListener("click", () => post("/api/judge/undo", {reason: $("#ref-reason").value}));
  const fix = $("#ref-fix");
  const send = async op => {
    const body = {op, index: Number(fix.index.value), reason: fix.reason.value};
    if (op === "replace") body.tile = fix.tile.value.trim();
    const r = await post("/api/judge/correct", body);
    if (r.ok) fix.reset();
  };
  fix.addEventListener("submit", ev => { ev.preventDefault(); send("replace"); });
  $("#ref-delete").addEventListener("click", () => { if (fix.index.value !== "") send("delete"); });
}

function actionForm(a) {
  const f = el("form", {class: "form", "data-action": a.name}, el("h3", {text: tOr("action." + a.name, a.help)}));
  for (const [k, help] of Object.entries(a.fields)) f.append(el("label", {}, el("span", {text: tOr("field." + k, help)}), el("input", {name: k})));
  f.append(el("button", {type: "submit", text: t("send")}));
  f.addEventListener("submit", ev => { ev.preventDefault(); post("/api/judge/" + a.name, Object.fromEntries(new FormData(f))); });
  return f;
}

async function post(url, body) {
  const r = await fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": session.csrf || ""}, body: JSON.stringify(body || {})});
  let data = {};
  try { data = await r.json(); } catch (e) { /* no body */ }
  $("#action-msg").textContent = r.ok ? t("ok") : t("error") + ": " + (data.error || r.status);
  if (r.status === 401) await checkSession();
  return {ok: r.ok, status: r.status, data};
}

async function checkSession() {
  try { session = await (await fetch("/api/session", {credentials: "same-origin"})).json(); } catch (e) { session = {judge: false}; }
}

function setupConsole() {
  setupReferee();
  document.querySelectorAll("[data-press]").forEach(b => b.addEventListener("click", () => post("/api/press/" + b.dataset.press)));
  $("#pen-code").addEventListener("change", ev => {
    const p = (ev.target.catalog || []).find(x => x.code === ev.target.value);
    const f = $("#penalty");
    // from the catalogue the seed sets the amount (fixed or its ladder) and the payee; the judge types only
    // what the seed leaves to him (a choice of points, the player who receives them)
    const judgeChooses = !!p && p.points === null && !p.ladder.length;
    f.points.disabled = !!p && !judgeChooses; f.points.required = !p || judgeChooses;
    f.rule.disabled = f.to_others.disabled = !!p; f.rule.required = !p;
    $("#pen-to-label").hidden = !(p && p.payee === "one_player");
    if (!p) return;
    f.rule.value = p.rule; f.reason.value = lang === "ru" ? p.text_ru : p.text;
    f.points.value = p.points !== null ? p.points : p.choices.length ? p.choices[0] : p.bounds[1] ? p.bounds[0] : "";
    f.to_others.checked = !!p.to_others;
  });
  $("#penalty").addEventListener("submit", async ev => {
    ev.preventDefault();
    const f = ev.target;
    const r = await post("/api/judge/penalty", {seat: Number(f.seat.value), points: Number(f.points.value), rule: f.rule.value,
      reason: f.reason.value, code: f.code.value, to_others: f.to_others.checked, to_seat: Number(f.to_seat.value)});
    if (r.ok) f.reset();
  });
  $("#judge-btn").addEventListener("click", () => {
    if (session.https) { location.href = session.https; return; }  // the plain-HTTP port: the login is on HTTPS
    $("#login-msg").textContent = session.refused ? t("login_refused") : "";
    $("#login").showModal();
  });
  $("#judge-btn").disabled = false;  // the page's buttons are disabled until they work (a click before is lost)
  $("#login-cancel").addEventListener("click", () => $("#login").close());
  $("#login-form").addEventListener("submit", async ev => {
    ev.preventDefault();
    const f = ev.target;
    const r = await fetch("/api/login", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({name: f.name.value, pin: f.pin.value})});
    f.pin.value = "";
    if (r.ok) { $("#login").close(); await checkSession(); reconnect(); return; }
    const msg = r.status === 429 ? t("too_many", {s: r.headers.get("Retry-After") || "60"}) : r.status === 403 ? (session.refused ? t("login_refused") : t("no_pin")) : t("wrong_pin");
    $("#login-msg").textContent = msg;
  });
  $("#logout").addEventListener("click", async () => { await post("/api/logout"); await checkSession(); reconnect(); });
  $("#logout-all").addEventListener("click", async () => { await post("/api/logout", {everywhere: true}); await checkSession(); reconnect(); });
}

// --- the live connection ------------------------------------------------------------------------------
function connect() {
  sock = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  sock.onopen = () => {
    retry = 500; $("#offline").hidden = true; sock.send(JSON.stringify({camera: cameraOn}));
    if (layoutPage !== null) sock.send(JSON.stringify({layout: layoutPage}));
  };
  sock.onmessage = ev => { const m = JSON.parse(ev.data); if (m.type === "state") render(m); };
  sock.onclose = () => { $("#offline").hidden = false; setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); };
}
function reconnect() { if (sock) { sock.onclose = null; sock.close(); } connect(); }

async function main() {
  T = await (await fetch("/static/i18n.json")).json();
  $("#lang").addEventListener("click", () => { lang = lang === "ru" ? "en" : "ru"; localStorage.setItem("lang", lang); applyLang(); });
  $("#camera-toggle").addEventListener("click", () => {
    cameraOn = !cameraOn; localStorage.setItem("camera", cameraOn ? "on" : "off");
    if (sock && sock.readyState === 1) sock.send(JSON.stringify({camera: cameraOn}));
    applyLang();
  });
  $("#layout-page").value = layoutPage === null ? "" : String(layoutPage);
  $("#layout-check").addEventListener("click", () => { if (sock && sock.readyState === 1) sock.send(JSON.stringify({layout_check: true})); });
  $("#layout-page").addEventListener("change", ev => {
    layoutPage = ev.target.value === "" ? null : Number(ev.target.value);
    if (sock && sock.readyState === 1) sock.send(JSON.stringify({layout: layoutPage}));
  });
  $("#lang").disabled = false;
  $("#camera-toggle").disabled = false;
  setupConsole();
  await checkSession();
  if (lang) applyLang();
  connect();
}
main();
