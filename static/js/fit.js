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
