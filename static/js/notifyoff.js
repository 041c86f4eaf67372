// The page of a notification's "turn off" link (/n/off/{token}, templates/notify_off.html): one
// button POSTs /api/notify/off/{token} (docs/protocol.md); opening the link changes nothing. One
// Preact tree over the page's store (notifystore.js reduceOff), drawn again after each message.
import { h, render } from "../vendor/preact.js";
import { initI18n, t, loadPart, onLangChange } from "./i18n.js";
import { api } from "./net.js";
import { appUrl } from "./dom.js";
import { errorText } from "./common.js";
import { createStore } from "./store.js";
import { initialOff, reduceOff } from "./notifystore.js";

const token = document.body.dataset.token || "";
const root = document.getElementById("off-root");
const store = createStore(reduceOff, initialOff());
function dispatch(m) { store.dispatch(m); draw(); }

async function turnOff(ev) {
  ev.preventDefault();
  if (store.get().status === "busy") return;
  dispatch({ type: "busy" });
  try {
    await api("POST", `/api/notify/off/${encodeURIComponent(token)}`);
    dispatch({ type: "done" });
  } catch (e) { dispatch({ type: "refused", code: e.code, fields: e.fields }); }
}

/** The page's tree: the question and its button, then what came of it. */
function draw() {
  const s = store.get();
  render([
    h("h1", { key: "h" }, t("notify.off_h")),
    s.status === "done"
      ? h("p", { key: "done", role: "status", id: "off-done" }, t("notify.off_done"), " ",
        h("a", { href: appUrl("/") }, t("room.back_home")))
      : [h("p", { key: "p" }, t("notify.off_text")),
        h("form", { key: "f", onSubmit: turnOff }, h("button", { type: "submit", class: "btn primary", id: "off-btn",
          "aria-disabled": s.status === "busy" ? "true" : null }, t("notify.off_btn"))),
        h("p", { key: "e", class: "form-error", role: "alert", id: "off-error" },
          s.status === "refused" ? errorText(s.code, s.fields) : "")],
  ], root);
}

async function main() {
  await initI18n();
  await loadPart("notify");
  root.textContent = "";  // the server's words: the tree's from now on
  draw();
  onLangChange(draw);
}

main();
