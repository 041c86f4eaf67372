// How to play: short rules from the message catalogue.
import { h, fill } from "./dom.js";
import { initI18n, raw, onLangChange } from "./i18n.js";

function render() {
  const body = document.getElementById("howto-body");
  fill(body, (raw("howto.sections") || []).map(([title, text]) =>
    h("section", null, h("h2", null, title), h("p", null, text))));
}

initI18n().then(() => { render(); onLangChange(render); });
