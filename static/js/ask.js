// A question with two answers, drawn in the page's one tree (room.js) as a modal <dialog>, in
// place of window.confirm, whose look and buttons are the browser's, not the page's. Escape and
// the safe answer, which has the focus first, both answer "no".
import { h } from "../vendor/preact.js";
import { trapTab } from "./decide.js";

/** `q`: {id, text, yes, no, answer(bool)} or null (nothing drawn). `answer` is called once per
 *  question: the caller drops `q` (redraws without it) when it is called. */
export function askView(q) {
  if (!q) return null;
  return h("dialog", { class: "dialog", id: q.id, key: q.id, role: "alertdialog", "aria-labelledby": q.id + "-text",
    ref: (el) => { if (el && !el.open) el.showModal(); },
    onCancel: (ev) => { ev.preventDefault(); q.answer(false); },
    onKeyDown: (ev) => trapTab(ev, ev.currentTarget) },  // Tab wraps inside, never out to the page
  h("p", { id: q.id + "-text" }, q.text),
  h("div", { class: "dlg-actions" },
    h("button", { type: "button", class: "btn", id: q.id + "-no", autofocus: true, onClick: () => q.answer(false) },
      q.no), " ",
    h("button", { type: "button", class: "btn primary", id: q.id + "-yes", onClick: () => q.answer(true) }, q.yes)));
}
