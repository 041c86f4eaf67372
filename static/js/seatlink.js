// The seat link dialog (docs/ui.md "The seat link"), loaded with import() when a seated player
// presses "Other device" (the table page's weight budget): POST /api/rooms/{code}/seat-link once,
// then the link (with Copy) and its QR code, the warning that whoever has it plays the seat, and
// "Sign out other devices" (POST /api/rooms/{code}/seat-token: a new token for this device; the
// page's socket connects again with it, every other device watches from then on).
import { h, render } from "../vendor/preact.js";
import { toast } from "./dom.js";
import { t, loadPart } from "./i18n.js";
import { api } from "./net.js";
import { errorText } from "./common.js";

let box = null;

function view(link, code, sock, quiet) {
  const copy = async () => {
    const input = document.getElementById("seat-link-url");
    try { await navigator.clipboard.writeText(link.url); } catch { input.select(); document.execCommand("copy"); }
    toast(t("link.copied"), "ok");
  };
  const signOut = async () => {
    quiet(true);  // this device's own socket loses the old token's seat: it reconnects with the new one
    try {
      await api("POST", `/api/rooms/${encodeURIComponent(code)}/seat-token`);
      sock.reconnect();
      toast(t("link.signed_out"), "ok");
      close();
    } catch (e) { toast(errorText(e.code, e.fields)); }
    setTimeout(() => quiet(false), 3000);  // the old socket's last frames are in by then
  };
  return h("div", null,
    h("h2", { id: "seat-link-h" }, t("link.title")),
    h("p", { class: "warn", role: "note" }, t("link.warning")),
    link && [
      h("div", { class: "linkrow", style: "display:flex;gap:.4rem" },
        h("input", { id: "seat-link-url", readonly: true, value: link.url, "aria-labelledby": "seat-link-h",
          style: "flex:1;min-width:0",
          onFocus: (ev) => ev.target.select() }),
        h("button", { type: "button", class: "btn small", id: "seat-link-copy", onClick: copy }, t("link.copy"))),
      h("div", { class: "qr", id: "seat-link-qr", style: "width:auto;height:auto;display:inline-block;margin:.5rem 0", role: "img", "aria-label": t("link.qr"),
        dangerouslySetInnerHTML: { __html: link.qr_svg } }),  // the server's SVG (segno): no user data in it
    ],
    h("p", { class: "muted" }, t("link.signout_hint")),
    h("div", { class: "dlg-actions" },
      h("button", { type: "button", class: "btn", id: "seat-signout", onClick: signOut }, t("link.signout")), " ",
      h("button", { type: "button", class: "btn primary", id: "seat-link-close", onClick: close }, t("link.close"))));
}

function close() { if (box && box.open) box.close(); }

/** Open the dialog for room `code`: `sock` the page's LiveSocket, `quiet(on)` tells the page
 *  that the seat_lost of its own token is expected (room.js). */
export async function openSeatLink(code, sock, quiet) {
  await loadPart("mine");
  let link = null;
  try { link = await api("POST", `/api/rooms/${encodeURIComponent(code)}/seat-link`); }
  catch (e) { toast(errorText(e.code, e.fields)); return; }
  if (!box) {
    box = document.createElement("dialog");
    box.className = "dialog";
    box.id = "seat-link-dialog";
    box.setAttribute("aria-labelledby", "seat-link-h");
    document.body.append(box);
    box.addEventListener("close", () => { render(null, box); });  // the link is shown once
  }
  render(view(link, code, sock, quiet), box);
  box.showModal();
}
