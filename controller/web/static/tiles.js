// The drawing both pages share (tiles, seats, a hand's wins and settlement): the live table (index.html,
// app.js) and the replay (replay.html, replay.js).
// Loaded before the page's own script; it calls the page's t() and tOr() (its language and strings) when it
// draws. The tile faces' folder is the script tag's data-tiles (the two pages serve them under other paths).
"use strict";

const TILE_BASE = document.currentScript.dataset.tiles;

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
};

// --- tiles ---------------------------------------------------------------------------------------------
function tileEl(tile, opts = {}) {
  if (!tile || tile === "x") return el("span", {class: "tile back", title: "?"});
  const img = el("img", {class: "tile", src: TILE_BASE + encodeURIComponent(tile) + ".png", alt: tile, title: tile});
  if (opts.side) img.classList.add("side");
  if (opts.last) img.classList.add("last");
  return img;
}
const wind = (v, seat) => t("wind." + v) + " (" + seat + ")";
function seatName(hand, s) {
  if (s === null || s === undefined) return t("pot");
  const st = hand && hand.seats.find(x => x.seat === s);
  return st && st.wind ? wind(st.wind, s) : t("seat") + " " + s;
}

// --- a seat: who sits there, the pond, the melds, flowers and the revealed hand --------------------------
const POSITIONS = {4: ["bottom", "right", "top", "left"], 3: ["bottom", "right", "top"], 2: ["bottom", "top"]};

function renderSeat(box, hand, st) {
  const s = st.seat;
  box.replaceChildren();
  box.classList.remove("empty");
  box.classList.toggle("turn", hand.turn === s);
  const who = el("div", {class: "who"}, el("span", {text: seatName(hand, s)}));
  if (st.dealer) who.append(el("span", {class: "tag", text: t("dealer")}));
  if (st.riichi) who.append(el("span", {class: "tag riichi", text: t("riichi")}));
  if (st.won) who.append(el("span", {class: "tag won", text: t("won")}));
  if (st.dead) who.append(el("span", {class: "tag dead", text: t("dead")}));
  if (st.standing) who.append(el("span", {class: "standing", text: st.standing + " " + t("standing")}));
  box.append(who);
  const pond = el("div", {class: "pond", "data-seat": s});
  const lastEv = hand.last || {};
  st.pond.forEach((p, i) => pond.append(tileEl(p.tile, {side: p.sideways,
    last: lastEv.type === "discarded" && lastEv.seat === s && i === st.pond.length - 1})));
  box.append(pond);
  if (st.melds.length) {
    const melds = el("div", {class: "melds"});
    for (const m of st.melds) {
      const row = el("span", {class: "meld", "data-kind": m.kind, "data-source": m.source || ""});
      m.tiles.forEach((x, i) => row.append(tileEl(x, {side: i === m.sideways || (m.added && i === m.tiles.length - 1)})));
      if (m.source) row.append(el("span", {class: "src", text: "← " + t("src." + m.source)}));
      melds.append(row);
    }
    box.append(melds);
  }
  if (st.flowers.length) box.append(el("div", {class: "flowers"}, ...st.flowers.map(f => tileEl(f))));
  if (st.revealed.length) box.append(el("div", {class: "revealed"}, ...st.revealed.map(f => tileEl(f))));
}

// --- a hand's result ------------------------------------------------------------------------------------
// a win: who, on which tile, from whom; its fans and its han/fu or fan total
function renderWin(box, hand, w) {
  const how = w.from_seat === null ? "" : " " + t("claimed_from") + " " + seatName(hand, w.from_seat);
  box.append(el("p", {class: "win"}, el("b", {text: seatName(hand, w.seat) + " — " + t("won")}), " ", w.tile ? tileEl(w.tile) : "", how));
  if (w.fans && w.fans.length) box.append(el("ul", {class: "list fans"}, ...w.fans.map(f => el("li", {text: fanName(hand.profile, f.name) + " — " + f.value + (f.count > 1 ? " ×" + f.count : "")}))));
  const bits = [];
  if (w.han !== undefined) bits.push(w.han + " " + t("han"));
  if (w.fu !== undefined) bits.push(w.fu + " " + t("fu"));
  if (w.total_fan !== undefined && w.han === undefined) bits.push(w.total_fan + " " + t("fan"));
  if (bits.length) box.append(el("p", {class: "muted", text: bits.join(", ")}));
}

// the settlement: each payment (payer, payee, amount, reason) and every seat's total
function renderSettlement(box, hand, st) {
  const tb = el("table", {class: "grid", id: "payments"});
  tb.append(el("tr", {}, el("th", {text: t("payer")}), el("th", {text: t("payee")}), el("th", {class: "num", text: t("amount")}), el("th", {text: t("reason")})));
  for (const p of st.payments) tb.append(el("tr", {}, el("td", {text: seatName(hand, p.payer)}), el("td", {text: seatName(hand, p.payee)}),
    el("td", {class: "num", text: p.amount}), el("td", {text: payReason(p.reason || "") + (p.rule ? " (" + p.rule + ")" : "")})));
  box.append(el("h3", {text: t("payments")}), tb);
  box.append(el("p", {class: "deltas", id: "deltas", text: hand.seats.map(x => seatName(hand, x.seat) + ": " + (st.deltas[x.seat] > 0 ? "+" : "") + st.deltas[x.seat]).join(" · ")}));
}

// a fan's name: the profile's own (fan.<profile>.<name>), else the shared one (MCR), else as the engine says
function fanName(profile, name) { return tOr("fan." + profile + "." + name, tOr("fan." + name, name)); }

// a payment's reason: i18n "pay.<reason with each number as {n}>", the numbers put back in order
function payReason(r) {
  const tr = T[lang] && T[lang]["pay." + r.replace(/\d+/g, "{n}")];
  if (!tr) return r;
  const nums = r.match(/\d+/g) || [];
  let i = 0;
  return tr.replace(/\{n\}/g, () => nums[i++]);
}
