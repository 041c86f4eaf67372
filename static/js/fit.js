// Your hand in view while you must act (docs/ui.md "Your hand in view").

/** Scroll at once, as little as possible, so no card of #hand is under the pinned action bar or
 *  the top bar; a page scrolled away from the hand (to the chat) is left alone. */
export function handInView() {
  const hand = document.getElementById("hand"), bar = document.getElementById("actionbar");
  if (!hand || !bar || bar.hidden) return;
  const r = hand.getBoundingClientRect(), top = document.querySelector(".topbar").getBoundingClientRect().bottom + 6;
  const dy = r.top < top ? r.top - top : Math.min(r.bottom + 6 - bar.getBoundingClientRect().top, r.top - top);
  if (r.bottom > top && r.top < innerHeight && (dy > 0 || r.top < top)) scrollBy(0, dy);
}

/** handInView whenever one of `els` changes size while `mine()`. */
export function watchFit(els, mine) {
  const ro = new ResizeObserver(() => mine() && handInView());
  for (const el of els) ro.observe(el);
}

// A crowded top bar's steps (app.css [data-compact]; docs/ui.md "The top bar").
const STEPS = 5;

/** The top bar on one row: the fewest steps that keep it from wrapping (docs/ui.md). */
export function fitTopBar(bar) {
  const set = (n) => { bar.dataset.compact = String(n); };
  const check = () => {
    const phone = innerWidth <= 600;
    let n = phone ? 0 : +(bar.dataset.compact || 0);
    if (phone) set(0);
    while (n > 0) {
      set(n - 1);
      if (wraps(bar)) { set(n); break; }
      n -= 1;
    }
    while (!phone && n < STEPS && wraps(bar)) set(++n);
  };
  new ResizeObserver(check).observe(bar);
  return check;
}

function wraps(bar) {
  const items = [...bar.children].filter((e) => e.getClientRects().length && !e.matches("#banner, #notice, .banner"));
  const line = items.length && items[0].getBoundingClientRect().bottom;
  return items.some((e) => e.getBoundingClientRect().top >= line - 2);
}
