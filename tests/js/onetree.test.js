// The room page is one Preact tree (docs/ui.md): of the modules the page loads (static/js/room.js
// and everything it imports, also later with import()), only room.js calls Preact's render, once.
// A second render root (a module drawing into an element of its own) fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const JS = join(dirname(fileURLToPath(import.meta.url)), "../../static/js");
const IMPORT = /(?:from\s+|import\()"\.\/([\w/-]+\.js)"/g;

/** {module: its source} of room.js and every module it reaches by import or import(). */
function roomModules() {
  const out = {}, todo = ["room.js"];
  while (todo.length) {
    const m = todo.pop();
    if (m in out) continue;
    out[m] = readFileSync(join(JS, m), "utf8");
    for (const [, dep] of out[m].matchAll(IMPORT)) todo.push(dep);
  }
  return out;
}

test("the room page's modules include the table, the waiting room, the chat and the end screen", () => {
  const mods = Object.keys(roomModules());
  for (const m of ["table.js", "waiting.js", "chat.js", "decide.js", "insure.js", "summary.js", "games.js",
    "nextgame.js", "route.js", "logview.js", "clock.js"]) assert.ok(mods.includes(m), m);
});

test("only room.js renders: one render call, into one root", () => {
  const renders = {};
  for (const [m, src] of Object.entries(roomModules())) {
    const preact = src.match(/import\s*{([^}]*)}\s*from\s*"\.\.\/vendor\/preact\.js"/);
    const names = preact ? preact[1].split(",").map((s) => s.trim().split(/\s+as\s+/)[0]) : [];
    assert.ok(!names.includes("hydrate"), m + " imports hydrate");
    // (a class component's render() method is no call)
    if (names.includes("render")) renders[m] = (src.match(/(?<![\w.])render\((?!\)\s*{)/g) || []).length;
    assert.ok(!/createPortal|\brender\s*as\b/.test(src), m + " draws outside the tree");
  }
  assert.deepEqual(renders, { "room.js": 1 });
});
