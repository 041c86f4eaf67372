// How to play: short rules from the message catalogue.
import { h, fill } from "./dom.js";
import { initI18n, raw, onLangChange } from "./i18n.js";

function render() {
  const body = document.getElementById("howto-body");
  fill(body, (raw("howto.sections") || []).map(([title, text]) =>
    h("section", null, h("h2", null, title), h("p", null, text))));
}

// Opened from a room (a new tab from the room's top bar, or a link): offer the way back.
function backToGame() {
  let ref = null;
  try { ref = new URL(document.referrer); } catch (e) { return; }
  const m = ref.origin === location.origin && ref.pathname.match(/^\/r\/([A-Za-z0-9_-]{1,32})$/);
  if (!m) return;
  const a = document.getElementById("back-game");
  a.href = "/r/" + m[1];
  a.hidden = false;
}

initI18n().then(() => { render(); backToGame(); onLangChange(render); });
