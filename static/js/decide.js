// Decisions outside the turn: the token draft (R-setup-5) and insurance at the Black Tide
// (R-pay-6, drawn by insure.js), in the native <dialog> opened with showModal(): focus moves in and stays in
// (the page behind is inert); Escape closes it and "Decide…" (key D) in the action bar
// opens it again; when it closes, focus returns where it was. room.js opens it (syncDialog).
import { h } from "../vendor/preact.js";
import { t } from "./i18n.js";
import { COLORS, SYMBOL } from "./cards.js";
import { ringFocus } from "./keys.js";
import { hints, guide } from "./common.js";

/** The key of the dialog this seat must answer now ("token_draft:12"), or null. */
export function dialogKey(ctx) {
  const v = ctx.view;
  // Paused (the host's pause): nothing to answer until the resume, so no dialog urges a choice.
  if (ctx.seat === null || !v || v.to_act !== ctx.seat || (ctx.room && ctx.room.paused_at)) return null;
  return v.phase === "token_draft" || v.phase === "insurance" ? v.phase + ":" + ctx.version : null;
}

function draftView(ctx) {
  const hc = hints(ctx) && hints(ctx).hintedColor(ctx);
  return [
    h("h2", { id: "dlg-h", key: "h" }, t("draft.title")),
    h("p", { key: "p" }, t("draft.text")),
    h("div", { class: "draft-choices", key: "c" }, COLORS.map((c) => h("button", {
      key: c, type: "button", class: "btn token-btn s-" + c + (hc === c ? " hinted" : ""), "data-color": c,
      "aria-describedby": hc === c ? "hint-dlg" : null,
      "aria-disabled": ctx.pending ? "true" : null,
      onClick: () => { if (!ctx.pending) ctx.act({ type: "choose_token", color: c }); },
    }, h("span", { class: "big-sym", "aria-hidden": "true" }, SYMBOL[c]), t("color." + c)))),
    h("p", { class: "muted small-p", key: "esc" }, t("dialog.escape")),
  ];
}

// The insurance dialog's module (insure.js) comes at the first Black Tide this seat must answer.
let insure = null, loading = null;
function insureBody(ctx) {
  if (insure) return insure.insureView(ctx);
  loading ||= import("./insure.js").then((m) => { insure = m; ctx.redraw(); });
  return null;
}

/** The draft's or the insurance's body, unless put aside with Escape (`ctx.dismissed`); else null. */
function dialogBody(ctx) {
  const key = dialogKey(ctx);
  return key && ctx.dismissed !== key ? (ctx.view.phase === "token_draft" ? draftView(ctx) : insureBody(ctx)) : null;
}

/** The <dialog>: Escape puts the decision aside; closing it returns the focus. */
export function dialogView(ctx) {
  return h("dialog", { class: "dialog", id: "decision", "aria-labelledby": "dlg-h",
    onCancel: () => { ctx.dismissed = dialogKey(ctx); },
    onKeyDown: (ev) => trapTab(ev, ev.currentTarget), onClose: () => closed(ctx) }, withHint(ctx, dialogBody(ctx)));
}

/** The body with the guide's tip of this decision ("Learn to play", learn.js) and the hint's part under it
 *  (hint.js): the dialog is modal, so what to read and press is in it. */
function withHint(ctx, body) {
  const m = body && hints(ctx), g = body && guide(ctx);
  return m || g ? [body, g && g.learnView(ctx, "dlg"), m && m.hintView(ctx, "dlg")] : body;
}

/** Before drawing: a decision that comes while the person types (`typing`: the chat's box has the
 *  focus) waits, put aside as with Escape, so keys meant for the text never answer it; "Decide…"
 *  (key D) in the action bar opens it. */
export function asideWhileTyping(ctx, typing) {
  const key = dialogKey(ctx), dlg = document.getElementById("decision");
  if (typing && key && ctx.dismissed !== key && !(dlg && dlg.open)) ctx.dismissed = key;
}

/** After drawing: open the dialog (`dlg`) while it has a body, else close it. */
export function syncDialog(ctx, dlg) {
  if (!dlg) return;
  const want = dialogBody(ctx) !== null;
  if (want && !dlg.open) {
    const a = document.activeElement;
    ctx.returnFocus = a && a !== document.body && !dlg.contains(a) ? a : null;
    dlg.showModal();
  } else if (!want && dlg.open) dlg.close();
}

// Tab and Shift+Tab wrap around inside the dialog (not out to the browser's address bar).
export function trapTab(ev, dlg) {
  if (ev.key !== "Tab") return;
  const all = [...dlg.querySelectorAll("button, [href], select, input, " +
    "[tabindex]:not([tabindex='-1'])")].filter((e) => e.getClientRects().length);
  const edge = ev.shiftKey ? all[0] : all[all.length - 1];
  if (all.length && document.activeElement === edge) {
    ev.preventDefault();
    (ev.shiftKey ? all[all.length - 1] : all[0]).focus();
  }
}

function closed(ctx) {
  // (The browser has already put the focus back where it was before showModal().) After
  // Escape: on "Decide…"; when that element is gone: the action bar.
  ctx.redraw();
  const a = document.activeElement, back = ctx.returnFocus;
  const put = ctx.dismissed && ctx.dismissed === dialogKey(ctx);
  const target = put ? document.getElementById("btn-decide")
    : back && back.isConnected && back.getClientRects().length ? back : document.querySelector("#actionbar button");
  if (target && (put || !a || a === document.body)) ringFocus(target);
}

/** "Decide…" (bar.js): the decision put aside comes back. */
export function openDialog(ctx) { ctx.dismissed = null; ctx.redraw(); }
