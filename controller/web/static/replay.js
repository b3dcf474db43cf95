// A refereed hand replayed step by step (issue #32): the steps come from the server, the public view only
// (controller/replay.py); the page steps forward and back (buttons, the arrow keys, Home/End) without asking
// again. The address names the step (#12): a link that can be shared inside the hall.
"use strict";

let T = {en: {}, ru: {}};
let lang = new URLSearchParams(location.search).get("lang") || localStorage.getItem("lang") || "en";
let data = null, step = 0;
const API = document.body.dataset.api;

function tOr(key, fallback) { return (T[lang] && T[lang][key]) || T.en[key] || fallback; }
function t(key) { return tOr(key, key); }

function renderCentre(hand) {
  const c = $("#centre");
  c.replaceChildren();
  c.append(el("div", {text: t("round") + ": " + t("wind." + hand.round_wind)}));
  if (hand.wall !== null) c.append(el("div", {}, t("wall") + ": ", el("span", {class: "big", id: "wall", text: hand.wall})));
  if (hand.turn !== null && hand.turn !== undefined) c.append(el("div", {text: t("turn") + ": " + seatName(hand, hand.turn)}));
  c.append(el("div", {class: "muted", text: t("phase." + hand.phase)}));
  const dice = hand.dice.flat();
  if (dice.length) c.append(el("div", {class: "dice"}, ...dice.map(v => el("span", {text: v}))));
  if (hand.dora.length) c.append(el("div", {}, t("dora") + ": ", ...hand.dora.map(d => tileEl(d))));
}

function renderResult(hand) {
  const box = $("#result");
  box.replaceChildren();
  for (const w of hand.wins) renderWin(box, hand, w);
  if (hand.exhaustive) box.append(el("p", {text: t("exhaustive")}));
  const st = hand.settlement;
  if (!st) { if (!hand.wins.length && !hand.exhaustive) box.append(el("p", {class: "muted", text: t("replay.no_result")})); return; }
  renderSettlement(box, hand, st);
}

function noticeText(n) { return (lang === "ru" && n.text_ru) || n.text || n.kind; }
function violationText(hand, v) { return seatName(hand, v.seat) + ": " + t("v." + v.code) + (v.rule ? " (" + v.rule + ")" : ""); }

function whatText(hand, w) {
  if (w.type === "notice") return noticeText(w);
  if (w.type === "violation") return violationText(hand, w);
  let s = tOr("ev." + w.type, w.type.replace(/_/g, " "));
  if (w.seat !== undefined) s = seatName(hand, w.seat) + ": " + s;
  if (w.kind) s += " " + tOr("kind." + w.kind, w.kind);
  if (w.from_seat !== undefined && w.from_seat !== null) s += " " + t("claimed_from") + " " + seatName(hand, w.from_seat);
  return s;
}

function render() {
  if (!data) return;
  const n = data.steps.length;
  step = Math.max(0, Math.min(step, n - 1));
  const cur = data.steps[step];
  const hand = cur.view;
  $("#hand-name").textContent = data.hand_id + " · " + data.profile;
  $("#pos").textContent = (step + 1) + " / " + n;
  $("#pos").dataset.step = step;
  const what = $("#what");
  what.replaceChildren(whatText(hand, cur.what), " ");
  if (cur.what.tile) what.append(tileEl(cur.what.tile));
  what.dataset.type = cur.what.type;
  $("#first").disabled = $("#prev").disabled = step === 0;
  $("#next").disabled = $("#last").disabled = step === n - 1;
  const boxes = [...document.querySelectorAll(".seat")];
  boxes.forEach(b => { b.replaceChildren(); b.classList.add("empty"); b.classList.remove("turn"); delete b.dataset.seat; });
  const pos = POSITIONS[hand.seats.length] || POSITIONS[4];
  hand.seats.forEach((st, i) => { const box = $(`.seat[data-pos=${pos[i]}]`); renderSeat(box, hand, st); box.dataset.seat = st.seat; });
  renderCentre(hand);
  renderResult(hand);
  const items = [...hand.violations.map(v => violationText(hand, v)), ...hand.notices.map(noticeText)];
  $("#notices").replaceChildren(...(items.length ? items.map(x => el("li", {text: x})) : [el("li", {class: "muted", text: t("no_violations")})]));
  if (location.hash !== "#" + step) history.replaceState(null, "", "#" + step);
}

function go(to) { step = to; render(); }

function applyLang() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach(e => { e.textContent = t(e.dataset.t); });
  $("#lang").textContent = t("lang.switch");
  render();
}

async function main() {
  T = await (await fetch("/replay-assets/i18n.json")).json();
  $("#lang").addEventListener("click", () => { lang = lang === "ru" ? "en" : "ru"; localStorage.setItem("lang", lang); applyLang(); });
  $("#lang").disabled = false;
  const r = await fetch(API, {cache: "no-store"});
  if (!r.ok) {
    let msg = r.status;
    try { msg = (await r.json()).error || msg; } catch (e) { /* no body */ }
    $("#error").hidden = false;
    $("#error").textContent = t("replay.none") + " (" + msg + ")";
    applyLang();
    return;
  }
  data = await r.json();
  step = Number((location.hash || "#0").slice(1)) || 0;
  $("#first").addEventListener("click", () => go(0));
  $("#prev").addEventListener("click", () => go(step - 1));
  $("#next").addEventListener("click", () => go(step + 1));
  $("#last").addEventListener("click", () => go(data.steps.length - 1));
  document.addEventListener("keydown", ev => {
    if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
    if (ev.key === "ArrowRight") go(step + 1);
    else if (ev.key === "ArrowLeft") go(step - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(data.steps.length - 1);
    else return;
    ev.preventDefault();
  });
  window.addEventListener("hashchange", () => { const s = Number(location.hash.slice(1)); if (!Number.isNaN(s) && s !== step) go(s); });
  if (data.tenhou6) {
    const tr = await fetch(API + "/tenhou6", {cache: "no-store"});
    if (tr.ok) {
      const a = $("#tenhou");
      a.href = "https://tenhou.net/6/#json=" + encodeURIComponent(JSON.stringify(await tr.json()));
      a.hidden = false;
    }
  }
  applyLang();
  document.body.dataset.ready = "1";
}
main();
