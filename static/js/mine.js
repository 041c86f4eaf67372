// "My games" (/mine, docs/ui.md "My games"): the rooms this browser holds a seat in, your
// decisions first, each with the time left, the last move in one line (the table's log wording,
// logview.js) and unread chat; kept current by /ws/mine. One store (minestore.js) filled from
// GET /api/mine and the socket's frames, one Preact tree drawn from it.
import { h, render } from "../vendor/preact.js";
import { toast, appUrl } from "./dom.js";
import { initI18n, t, tn, onLangChange, listParts, loadPart, currentLang } from "./i18n.js";
import { whenText } from "./pacetext.js";
import { durationText } from "./duration.js";
import { api, LiveSocket } from "./net.js";
import { errorText, nameTag } from "./common.js";
import { logLine } from "./logview.js";
import { createStore } from "./store.js";
import { initialMine, reduceMine, unread, secondsLeft, groups, headline } from "./minestore.js";

const store = createStore(reduceMine, initialMine());
function dispatch(m) { store.dispatch(m); draw(); }

/** {code: last chat id shown} from the room pages' localStorage entries (room.js). */
function readSeen() {
  const seen = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("osaka_chat_")) seen[k.slice(11)] = Number(localStorage.getItem(k));
    }
  } catch { /* storage blocked: every chat counts as unread */ }
  return seen;
}


function leftView(r, now) {
  const s = secondsLeft(r, now);
  if (r.paused) {  // the host's pause: the time stands still (app/pace.py)
    return h("span", { class: "mine-left paused" }, h("span", { class: "badge" }, t("mine.paused")),
      s === null ? null : " " + t("mine.left", { time: durationText(s) }));
  }
  if (s === null) return null;
  return h("span", { class: "mine-left" + (s <= 60 ? " soon" : ""), role: "timer" },
    t("mine.left", { time: durationText(s) }));
}

/** "Bob: away until Tue 14:00" for each player away now (turn-based), in the viewer's zone. */
function awayView(r) {
  const away = r.players.filter((p) => p.away_until);
  return away.length ? h("span", { class: "muted mine-away" }, away.map((p) => t("mine.away", {
    name: p.name, when: whenText(Date.parse(p.away_until), currentLang()) })).join(" · ")) : null;
}

function lastView(r) {
  const ev = headline(r.last);
  if (!ev) return null;
  const line = logLine(ev, { players: r.players }, "last");
  return line && h("div", { class: "mine-lastline" }, h("span", { class: "muted" }, t("mine.last") + " "),
    h("ul", { class: "mine-last" }, line));
}

function roomItem(r, seen, now) {
  const room = { players: r.players };
  const others = r.players.filter((p) => p.seat !== r.you).map((p) => nameTag(room, p.seat));
  const status = r.your_turn ? h("span", { class: "badge turn" }, t("mine.your_turn"))
    : r.status === "playing" && r.to_act !== null ? tn("mine.to_act", { name: nameTag(room, r.to_act) })
      : h("span", { class: "badge" }, t("mine.status_" + r.status));
  return h("li", { key: r.code, class: "mine-item", "data-code": r.code, "data-turn": r.your_turn ? "1" : null },
    h("div", { class: "mine-main" },
      h("h3", null, r.host ? t("mine.room_of", { name: r.host }) : r.code, " ",
        h("span", { class: "room-code muted" }, r.code)),
      h("span", null, status, " ", leftView(r, now)),
      h("span", null, tn("mine.you", { name: nameTag(room, r.you) }),
        others.length ? [" · ", tn("mine.with", { names: listParts(others) })] : null),
      r.bot ? h("span", { class: "muted" }, t("mine.bot")) : null,
      awayView(r),
      lastView(r),
      unread(r, seen) ? h("span", { class: "badge unread" }, t("mine.unread")) : null),
    h("a", { class: "btn" + (r.your_turn ? " primary" : ""), href: appUrl("/r/" + encodeURIComponent(r.code)),
      "aria-label": t("mine.open") + ": " + r.code }, t("mine.open")));
}

function mineView({ rooms, seen, online }) {
  const now = Date.now();
  const head = h("h1", { id: "mine-h" }, h("span", null, t("nav.mine")), " ",
    h("span", { id: "mine-live", class: "live-dot" + (online ? " on" : ""), title: t("home.live") }));
  if (rooms === null) return [head, h("p", { class: "muted" }, t("room.loading"))];
  if (!rooms.length) return [head, h("p", { id: "mine-empty" }, t("mine.none")),
    h("a", { class: "btn", href: appUrl("/") }, t("room.back_home"))];
  const g = groups(rooms);
  return [head, h("p", { class: "muted" }, t("mine.lede")),
    ...["turn", "playing", "waiting", "over"].filter((k) => g[k].length).map((k) =>
      h("section", { key: k, class: "mine-group", id: "mine-" + k, "aria-labelledby": "mine-" + k + "-h" },
        h("h2", { id: "mine-" + k + "-h" }, t("mine.group_" + k), " (" + g[k].length + ")"),
        h("ul", { class: "mine-list" }, g[k].map((r) => roomItem(r, seen, now)))))];
}

function draw() { render(mineView(store.get()), document.getElementById("mine")); }

async function main() {
  await initI18n();
  await loadPart("mine");
  document.getElementById("mine").textContent = "";  // the server's heading: the tree's from now on
  dispatch({ type: "seen", seen: readSeen() });
  onLangChange(draw);
  // Another tab's room page showed new chat messages, or this tab came back to the front.
  window.addEventListener("storage", () => dispatch({ type: "seen", seen: readSeen() }));
  // The time left ticks (a paused game's stands still)
  setInterval(() => { if ((store.get().rooms || []).some((r) => r.deadline && !r.paused)) draw(); }, 1000);
  try { dispatch({ type: "loaded", rooms: await api("GET", "/api/mine") }); }
  catch (e) { toast(errorText(e.code, e.fields)); }
  const sock = new LiveSocket("/ws/mine", {
    onMessage(m) { if (m.type === "mine") dispatch(m); },
    onOpen() { dispatch({ type: "open" }); },
    onDown() { dispatch({ type: "down" }); },
  });
  sock.connect();
  // Back to the front: the chat ids the room pages wrote meanwhile, and a socket with the seat
  // cookies as they are now (a seat taken or a link opened in another tab since).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    dispatch({ type: "seen", seen: readSeen() });
    sock.reconnect();
  });
}

main();
