// The seat link dialog (docs/ui.md "The seat link"), loaded with import() when a seated player
// presses "Other device" (the table page's weight budget) and drawn in the room page's one tree
// (room.js: a new `SeatLink` per press). It asks POST /api/rooms/{code}/seat-link once, then shows
// the link (with Copy) and its QR code, the warning that whoever has it plays the seat, and
// "Sign out other devices" (POST /api/rooms/{code}/seat-token: a new token for this device; the
// page's socket connects again with it, every other device watches from then on). The link is a
// secret shown once: it lives in this dialog only, never in the page's store, and is gone when
// the dialog closes.
import { h, Component } from "../vendor/preact.js";
import { toast } from "./dom.js";
import { t, loadPart } from "./i18n.js";
import { api } from "./net.js";
import { errorText } from "./common.js";
import { trapTab } from "./decide.js";

const path = (code, what) => `/api/rooms/${encodeURIComponent(code)}/${what}`;

/** props: `code` (the room), `sock` (the page's LiveSocket), `quiet(on)` (room.js: the seat_lost
 *  of this device's own old token is expected, not news). */
export class SeatLink extends Component {
  async componentDidMount() {
    try {
      await loadPart("mine");
      this.setState({ link: await api("POST", path(this.props.code, "seat-link")) });
    } catch (e) { toast(errorText(e.code, e.fields)); }
  }

  componentDidUpdate() {
    if (this.box && this.state.link && !this.box.open && !this.closed) this.box.showModal();
  }

  close() {
    this.closed = true;
    if (this.box && this.box.open) this.box.close();
    this.setState({ link: null });  // shown once
  }

  async copy() {
    try { await navigator.clipboard.writeText(this.state.link.url); } catch {
      document.getElementById("seat-link-url").select();
      document.execCommand("copy");
    }
    toast(t("link.copied"), "ok");
  }

  async signOut() {
    const { code, sock, quiet } = this.props;
    quiet(true);  // this device's own socket loses the old token's seat: it connects again with the new one
    try {
      await api("POST", path(code, "seat-token"));
      sock.reconnect();
      toast(t("link.signed_out"), "ok");
      this.close();
    } catch (e) { toast(errorText(e.code, e.fields)); }
    setTimeout(() => quiet(false), 3000);  // the old socket's last frames are in by then
  }

  render(_, { link }) {
    if (!link) return null;
    return h("dialog", { class: "dialog", id: "seat-link-dialog", "aria-labelledby": "seat-link-h",
      ref: (el) => { this.box = el; }, onClose: () => this.close(),
      onKeyDown: (ev) => trapTab(ev, ev.currentTarget) },  // Tab wraps inside, never out to the page
    h("h2", { id: "seat-link-h" }, t("link.title")),
    h("p", { class: "warn", role: "note" }, t("link.warning")),
    h("div", { class: "linkrow", style: "display:flex;gap:.4rem" },
      h("input", { id: "seat-link-url", readonly: true, value: link.url, "aria-labelledby": "seat-link-h",
        style: "flex:1;min-width:0", onFocus: (ev) => ev.target.select() }),
      h("button", { type: "button", class: "btn small", id: "seat-link-copy", onClick: () => this.copy() },
        t("link.copy"))),
    h("div", { class: "qr", id: "seat-link-qr", role: "img", "aria-label": t("link.qr"),
      style: "width:auto;height:auto;display:inline-block;margin:.5rem 0",
      dangerouslySetInnerHTML: { __html: link.qr_svg } }),  // the server's SVG (segno): no user data in it
    h("p", { class: "muted" }, t("link.signout_hint")),
    h("div", { class: "dlg-actions" },
      h("button", { type: "button", class: "btn", id: "seat-signout", onClick: () => this.signOut() },
        t("link.signout")), " ",
      h("button", { type: "button", class: "btn primary", id: "seat-link-close", onClick: () => this.close() },
        t("link.close"))));
  }
}
