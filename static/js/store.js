// A page's store (docs/ui.md "The room page's state"): its state changes only through a pure
// reducer, one message at a time. No DOM, no imports: pages and node's test runner load it alike.

/** A store over a pure `reducer(state, msg, now) -> state`: get() -> the state; dispatch(msg,
 *  now) applies one frame or action and returns the state before it (a page draws from the
 *  difference). */
export function createStore(reducer, state) {
  return {
    get: () => state,
    dispatch(msg, now) {
      const before = state;
      state = reducer(state, msg, now);
      return before;
    },
  };
}
