// Home page: create a room, and the live list of open public rooms (/ws/lobby).
import { h, fill, toast } from "./dom.js";
import { initI18n, t, onLangChange } from "./i18n.js";
import { api, LiveSocket } from "./net.js";
import { rememberedName, rememberName, validName, errorText } from "./common.js";

let rooms = [];

function renderRooms() {
  const list = document.getElementById("lobby-list");
  document.getElementById("lobby-empty").hidden = rooms.length > 0;
  fill(list, rooms.map((r) => h("li", { class: "room-item" },
    h("div", { class: "room-main" },
      h("b", { class: "room-code" }, r.code),
      h("span", { class: "room-players" }, t("home.players", { names: (r.players || []).join(", ") })),
      h("span", { class: "muted" }, t("home.seats_free", { n: r.seats_free }))),
    h("a", { class: "btn", href: r.url && r.url.startsWith("/") ? r.url : "/r/" + encodeURIComponent(r.code) }, t("home.join")),
  )));
}

async function main() {
  await initI18n();
  onLangChange(renderRooms);
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
      const r = await api("POST", "/api/rooms", { name: n, public: pub });
      rememberName(n);
      location.href = "/r/" + encodeURIComponent(r.code);
    } catch (e) {
      err.textContent = errorText(e.code, e.fields);
      btn.disabled = false;
    }
  });

  // Enabled only now, so an early click never submits the form natively.
  document.getElementById("create-btn").disabled = false;
  try { rooms = await api("GET", "/api/rooms"); renderRooms(); } catch (e) { toast(errorText(e.code, e.fields)); }
  const live = document.getElementById("lobby-live");
  const sock = new LiveSocket("/ws/lobby", {
    onMessage(msg) {
      if (msg.type === "rooms") { rooms = msg.rooms || []; renderRooms(); }
    },
    onOpen() { live.classList.add("on"); },
    onDown() { live.classList.remove("on"); },
  });
  sock.connect();
}

main();
