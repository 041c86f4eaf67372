// Home page: create a room, and the live list of open public rooms (/ws/lobby).
import { h, render } from "../vendor/preact.js";
import { toast, appUrl } from "./dom.js";
import { initI18n, t, tn, onLangChange, listParts } from "./i18n.js";
import { api, LiveSocket } from "./net.js";
import { rememberedName, rememberName, validName, errorText, nameTag } from "./common.js";
import { limitText } from "./clock.js";
import { createStore } from "./store.js";
import { initialLobby, reduceLobby } from "./lobbystore.js";

// The lobby's one store (lobbystore.js), filled from GET /api/rooms and the /ws/lobby frames, and
// its one tree (the "Open rooms" section), drawn again after each message. The create form is
// the server's markup; its script only reads it and says why a name was refused.
const store = createStore(reduceLobby, initialLobby());
function dispatch(m) { store.dispatch(m); drawLobby(); }

/** The players of a lobby room, named as the room page names them ("Computer 2 (easy)"),
 *  each with its seat's colour and marker (names only from a server without `seats`). */
function names(r) {
  if (!r.seats) return r.players || [];
  const room = { players: r.seats };
  return r.seats.map((p) => nameTag(room, p.seat));
}

// Drawn in place (keyed by room code), so a focused "Join" link keeps its focus on updates.
function lobbyView({ rooms, online }) {
  return [
    h("h2", { id: "lobby-h" }, h("span", null, t("home.open_rooms")), " ",
      h("span", { id: "lobby-live", class: "live-dot" + (online ? " on" : ""), title: t("home.live") })),
    h("p", { id: "lobby-empty", class: "muted", hidden: rooms.length > 0 }, t("home.no_rooms")),
    h("ul", { id: "lobby-list", class: "room-list" }, rooms.map(roomItem)),
  ];
}

function roomItem(r) {
  return h("li", { key: r.code, class: "room-item" },
    h("div", { class: "room-main" },
      h("b", { class: "room-code" }, r.code),
      h("span", { class: "room-players" }, tn("home.players", { names: listParts(names(r)) })),
      h("span", { class: "muted" }, t("home.seats_free", { n: r.seats_free })),
      // The pace (issue 31), with the time per decision when there is one.
      h("span", { class: "badge room-pace" }, t("pace." + (r.pace || "live"))
        + (r.turn_limit_s ? " · " + limitText(r.turn_limit_s) : "")),
      r.hints ? h("span", { class: "badge room-hints" }, t("hints.badge")) : null),
    h("a", { class: "btn", href: appUrl("/r/" + encodeURIComponent(r.code)),
      "aria-label": t("home.join") + ": " + r.code }, t("home.join")));
}

function drawLobby() { render(lobbyView(store.get()), document.getElementById("lobby")); }

/** The create form's times in the page's language: "Live"/"Turn-based", "1 min", "1 day ·
 *  Turn-based" (the closed select shows no group, so a turn-based time says its pace). */
function labelTimes() {
  for (const g of document.querySelectorAll("#create-timer optgroup")) g.label = t("pace." + g.dataset.pace);
  for (const o of document.querySelectorAll("#create-timer option[data-limit]")) {
    o.textContent = limitText(Number(o.dataset.limit)) + (o.value.startsWith("turn:") ? " · " + t("pace.turn") : "");
  }
}

async function main() {
  await initI18n();
  document.getElementById("lobby").textContent = "";  // the server's heading: the tree's from now on
  drawLobby();
  labelTimes();
  onLangChange(() => { drawLobby(); labelTimes(); });
  const name = document.getElementById("create-name");
  if (!name.value) name.value = rememberedName();  // never overwrite what was typed already
  const err = document.getElementById("create-error");
  document.getElementById("create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const n = validName(name.value);
    if (!n) { err.textContent = t("form.name_bad"); return; }
    const pub = document.querySelector("input[name=vis]:checked").value === "public";
    const btn = ev.submitter || document.querySelector("#create-form button");
    btn.disabled = true;
    try {
      // "300" (live) or "turn:86400" (turn-based, issue 31)
      const [pace, limit] = /^turn:/.test(document.getElementById("create-timer").value)
        ? ["turn", Number(document.getElementById("create-timer").value.slice(5))]
        : ["live", Number(document.getElementById("create-timer").value) || null];
      const r = await api("POST", "/api/rooms", { name: n, public: pub, turn_limit_s: limit, pace,
        hints: document.getElementById("create-hints").checked });
      rememberName(n);
      location.href = appUrl("/r/" + encodeURIComponent(r.code));
    } catch (e) {
      err.textContent = errorText(e.code, e.fields);
      btn.disabled = false;
    }
  });

  // "Learn to play" (issue 32): a tutorial room, started at once; the name typed above, else a default.
  const learn = document.getElementById("learn-btn"), learnErr = document.getElementById("learn-error");
  learn.addEventListener("click", async () => {
    learnErr.textContent = "";
    learn.disabled = true;
    try {
      const r = await api("POST", "/api/tutorial", { name: validName(name.value) || t("home.learn_name") });
      location.href = appUrl("/r/" + encodeURIComponent(r.code));
    } catch (e) {
      learnErr.textContent = errorText(e.code, e.fields);
      learn.disabled = false;
    }
  });

  // Enabled only now, so an early click never submits the form natively.
  document.getElementById("create-btn").disabled = false;
  learn.disabled = false;
  try { dispatch({ type: "loaded", rooms: await api("GET", "/api/rooms") }); }
  catch (e) { toast(errorText(e.code, e.fields)); }
  const sock = new LiveSocket("/ws/lobby", {
    onMessage: (m) => (m.type === "notice" ? import("./notice.js").then((n) => n.showNotice(m.notice)) : dispatch(m)),
    onOpen() { dispatch({ type: "open" }); },
    onDown() { dispatch({ type: "down" }); },
  });
  sock.connect();
}

main();
