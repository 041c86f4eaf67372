"""German all the way, checked in the browser against the real catalogues: both languages
have the same keys (and the same how-to sections and rule ids), every refusal code the server
sends (the registry, app/refusals.py) has a text in both and no refusal text is of a code it
does not have, the how-to page links each section to rule ids that
exist on /rules, and counts use the language's plural rules. Every key a module or template
asks the translate function for renders to words in both languages (found by reading the
modules), and the end screen of a VP tie decided by tokens says so in words."""
from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

from app.refusals import CODES

from .conftest import ROOT
from .helpers import goto

LOAD = """async () => {
  const m = async (p) => (await import(p)).default;
  return {en: await m('/static/js/i18n/en.js'), de: await m('/static/js/i18n/de.js'),
          gamesEn: await m('/static/js/i18n/games-en.js'), gamesDe: await m('/static/js/i18n/games-de.js'),
          paceEn: await m('/static/js/i18n/pace-en.js'), paceDe: await m('/static/js/i18n/pace-de.js'),
          mineEn: await m('/static/js/i18n/mine-en.js'), mineDe: await m('/static/js/i18n/mine-de.js'),
          notifyEn: await m('/static/js/i18n/notify-en.js'), notifyDe: await m('/static/js/i18n/notify-de.js'),
          adminEn: await m('/static/js/i18n/admin-en.js'), adminDe: await m('/static/js/i18n/admin-de.js'),
          noticeEn: await m('/static/js/i18n/notice-en.js'), noticeDe: await m('/static/js/i18n/notice-de.js'),
          hintEn: await m('/static/js/i18n/hint-en.js'), hintDe: await m('/static/js/i18n/hint-de.js'),
          learnEn: await m('/static/js/i18n/learn-en.js'), learnDe: await m('/static/js/i18n/learn-de.js'),
          howEn: (await m('/static/js/i18n/howto-en.js'))['howto.sections'],
          howDe: (await m('/static/js/i18n/howto-de.js'))['howto.sections']};
}"""


def _catalogues(page):
    return page.evaluate(LOAD)


def test_both_catalogues_have_the_same_keys_and_how_to_sections(e2e_server, new_page):
    page = new_page()
    goto(page, e2e_server.base_url + "/")
    c = _catalogues(page)
    assert len(c["en"]) > 200
    assert set(c["en"]) - set(c["de"]) == set(), "keys only in en.js"
    assert set(c["de"]) - set(c["en"]) == set(), "keys only in de.js"
    # The texts of games.js too.
    assert set(c["gamesEn"]) == set(c["gamesDe"]) and len(c["gamesEn"]) > 20
    assert not set(c["gamesEn"]) & set(c["en"]), "a part key shadows a main key"
    # The parts loaded apart: turn-based rooms (pace.js), My games and the seat link (mine.js,
    # seatlink.js), the notifications panel (notify.js), the admin page (admin.js), the host's
    # notice (notice.js), a hint (hint.js) and the "Learn to play" guide (learn.js): the same keys in both languages, none shadowing
    # another part's.
    parts = ("games", "pace", "mine", "notify", "admin", "notice", "hint", "learn")
    seen = set(c["en"]) | set(c["gamesEn"])
    for part in parts[1:]:
        en, de = c[part + "En"], c[part + "De"]
        assert set(en) == set(de) and en, part
        assert not set(en) & seen, f"a {part} key shadows another"
        seen |= set(en)
    # No placeholder is lost in translation.
    de = c["de"]
    for part in parts:
        de = de | c[part + "De"]
    for k, v in list(c["en"].items()) + [kv for part in parts for kv in c[part + "En"].items()]:
        assert set(re.findall(r"\{(\w+)\}", v)) == set(re.findall(r"\{(\w+)\}", de[k])), k
    strip = [[(s["id"], tuple(s["rules"]), s["pic"], len(s["text"])) for s in c[h]] for h in ("howEn", "howDe")]
    assert strip[0] == strip[1]
    # One term per thing: the card icons are "insurance icons" / "Versicherungssymbole".
    assert not [v for v in c["en"].values() if "shield" in v.lower()]
    assert not [v for v in c["de"].values() if "schild" in v.lower()]


# The client's own texts under `err.`: no answer, an unknown code, and plural forms.
CLIENT_ONLY = {"network", "unknown"}
PLURAL = re.compile(r"_(one|other)$")


def test_every_refusal_code_has_an_english_and_a_german_text(e2e_server, new_page):
    page = new_page()
    goto(page, e2e_server.base_url + "/")
    c = _catalogues(page)
    codes = {code for code, spec in CODES.items() if spec.sent}
    assert len(codes) > 40
    for lang, suffix in (("en", "En"), ("de", "De")):
        texts = c[lang] | c["games" + suffix] | c["pace" + suffix] | c["mine" + suffix] | c["notify" + suffix] \
            | c["admin" + suffix]
        # Codes only the play-again and record paths give have their text with those (games.js),
        # those of turn-based rooms, away and the pause with pace.js's, those only the
        # notifications panel's requests get with it (notify.js), the admin page's with admin.js.
        missing = sorted(code for code in codes if "err." + code not in texts)
        assert not missing, (lang, missing)
        keyed = {PLURAL.sub("", k[4:]) for k in texts if k.startswith("err.")}
        unknown = sorted(keyed - set(CODES) - CLIENT_ONLY)
        assert not unknown, (lang, "texts of no refusal code", unknown)


def test_how_to_play_links_every_section_to_rule_ids_that_exist(e2e_server, new_page, shots):
    base = e2e_server.base_url
    rules = httpx.get(base + "/rules").text
    anchors = set(re.findall(r'id="(R-[\w-]+)"', rules))
    assert {"R-pay-9", "R-pay-6a", "R-end-2", "R-turn-1"} <= anchors
    for locale, word in (("en-US", "Anori"), ("de-DE", "Versicherungssymbol")):
        page = new_page(locale=locale)
        goto(page, base + "/how-to-play")
        page.wait_for_selector("#howto-body section")
        sections = page.locator("#howto-body section")
        assert sections.count() >= 10
        for i in range(sections.count()):
            hrefs = sections.nth(i).locator(".rule-ids a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
            assert hrefs, sections.nth(i).inner_text()
            for href in hrefs:
                assert href.startswith("rules#") and href.split("#")[1] in anchors, href
        text = page.inner_text("#howto")
        assert word in text
        page.screenshot(path=str(shots / f"howto-{locale[:2]}.png"), full_page=True)
    # What a new player asked for is there (English page).
    page = new_page(locale="en-US")
    goto(page, base + "/how-to-play")
    page.wait_for_selector("#howto-body section")
    text = page.inner_text("#howto-body")
    for fact in ("back to Anori", "back to Osaka", "8 or more Achievement tokens", "share the win",
                 "Farm", "smallest starting hand begins", "score nothing", "stays insured",
                 "refreshed for you"):
        assert fact in text, fact
    # A rule link opens the rules at that rule.
    page.locator('a[href="rules#R-pay-9"]').first.click()
    page.wait_for_url("**/rules#R-pay-9")
    expect(page.locator("#R-pay-9")).to_contain_text("sunk ships go back to Anori")


def test_plurals_follow_the_language(e2e_server, new_page):
    page = new_page(locale="de-DE")
    goto(page, e2e_server.base_url + "/")
    said = page.evaluate("""async () => {
      const i = await import('/static/js/i18n.js');
      const out = [i.t('err.not_yet', {n: 1}), i.t('err.not_yet', {n: 12}), i.listText(['A', 'B', 'C'])];
      await i.setLang('en');
      out.push(i.t('err.not_yet', {n: 1}), i.t('err.not_yet', {n: 12}), i.listText(['A', 'B', 'C']));
      return out; }""")
    assert said == ["Noch nicht: möglich in 1 Sekunde.", "Noch nicht: möglich in 12 Sekunden.", "A, B und C",
                    "Not yet: possible in 1 second.", "Not yet: possible in 12 seconds.", "A, B, and C"]


JS = ROOT / "static/js"
# A call of the translate functions of i18n.js (t, tn, raw): the first argument is read up to
# its first top-level comma or closing parenthesis.
CALL = re.compile(r"(?<![\w.$])(t|tn|raw)\(")
KEY = re.compile(r'"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)"')
IMPORT = re.compile(r'(?:from\s+|import\()"(\./[\w/-]+\.js)"')
PART = re.compile(r'loadPart\("([\w-]+)"\)')


def _first_argument(src: str, start: int) -> str:
    depth, i, quote = 0, start, None
    while i < len(src):
        c = src[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return src[start:i]
            depth -= 1
        elif c == "," and depth == 0:
            return src[start:i]
        i += 1
    return src[start:]


def keys_of(src: str) -> set[str]:
    """The complete keys (string literals not joined to anything with +) in the first
    argument of every t/tn/raw call of a module's source."""
    out = set()
    for m in CALL.finditer(src):
        arg = _first_argument(src, m.end())
        for k in KEY.finditer(arg):
            before, after = arg[:k.start()].rstrip(), arg[k.end():].lstrip()
            if not before.endswith("+") and not after.startswith("+"):
                out.add(k.group(1))
    return out


def module_keys() -> dict[str, tuple[set[str], set[str]]]:
    """{module: (keys it translates, catalogue parts it or a module it imports loads)} for
    every module of static/js (the catalogues themselves aside) and the templates'
    data-i18n* attributes (filled by i18n.js applyStatic)."""
    sources = {p.relative_to(JS).as_posix(): p.read_text(encoding="utf-8")
               for p in JS.glob("*.js")}
    imports = {m: {i[2:] for i in IMPORT.findall(src)} for m, src in sources.items()}

    def reach(m, seen):
        if m not in seen:
            seen.add(m)
            for i in imports.get(m, ()):
                reach(i, seen)
        return seen

    out = {}
    for m, src in sources.items():
        parts = {p for r in reach(m, set()) for p in PART.findall(sources.get(r, ""))}
        out[m] = (keys_of(src), parts)
    for path in sorted((ROOT / "templates").glob("*.html")):
        keys = set(re.findall(r'data-i18n(?:-\w+)?="([\w.]+)"', path.read_text(encoding="utf-8")))
        out["templates/" + path.name] = (keys, set())
    return out


RENDER = """async ([mods]) => {
  const i18n = await import('/static/js/i18n.js');
  const out = {};
  for (const lang of ['de', 'en']) {  // 'de' first: the module may still be in 'en' unloaded
    await i18n.setLang(lang);
    for (const [mod, [keys, parts]] of Object.entries(mods)) {
      for (const p of parts) await i18n.loadPart(p);
      for (const k of keys) {
        const raw = i18n.raw(k);
        out[[lang, mod, k].join(' ')] = raw !== undefined && typeof raw !== 'string' ? 'structured'
          : [i18n.t(k), i18n.t(k, {n: 1}), i18n.t(k, {n: 2})].join(' | ');
      }
    }
  }
  return out;
}"""


def test_keys_are_found_in_the_modules_by_reading_them():
    """The reader of the test below finds literal keys, both sides of a choice, and leaves a
    key built at run time alone (its prefix is no key)."""
    src = 'x = t(a ? "res.shared" : "res.tie_tokens", { n }) + tn("log.take", {name}) + t("color." + c)'
    assert keys_of(src) == {"res.shared", "res.tie_tokens", "log.take"}
    mods = module_keys()
    assert "res.tie_tokens" in mods["games.js"][0] and "games" in mods["games.js"][1]
    assert "games" in mods["replay.js"][1]  # through games.js
    assert sum(len(k) for k, _ in mods.values()) > 250


def test_every_key_a_module_translates_renders_to_words_in_both_languages(e2e_server, new_page):
    """For every key each module passes to t/tn/raw, with the catalogue parts that module loads:
    the key exists in en and de (as itself or in its plural forms) and renders to text that is
    not the key."""
    mods = {m: [sorted(keys), sorted(parts)] for m, (keys, parts) in module_keys().items() if keys}
    page = new_page()
    goto(page, e2e_server.base_url + "/")
    rendered = page.evaluate(RENDER, [mods])
    assert len(rendered) == 2 * sum(len(k) for k, _ in mods.values())
    bad = []
    for where, text in rendered.items():
        key = where.split(" ")[2]
        if text == "structured":
            continue
        forms = text.split(" | ")
        if any(not f.strip() or f == key for f in forms):
            bad.append((where, text))
    assert not bad, bad


# The result engine.game_result gives for a VP tie broken by Achievement tokens
# (tests/engine/test_r_end_result.py test_vp_tie_broken_by_tokens), as the final `state` sends it.
def _tie_result(tie_break: str) -> dict:
    none = {"red": 0, "blue": 0, "yellow": 0, "green": 0}
    return {"reason": "passes", "active": 0, "token_seats": [], "winners": [1] if tie_break == "tokens" else [0, 1],
            "shared": tie_break == "shared", "tie_break": tie_break,
            "players": [{"seat": s, "rank": r, "vp": 30, "tokens": tok, "vp_by_color": none, "sales": [],
                         "tokens_by_color": none | {"red": tok}}
                        for s, r, tok in ((0, 2 if tie_break == "tokens" else 1, 1), (1, 1, 2 if tie_break == "tokens" else 1))]}


END_SCREEN = """async ([lang, result]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.setLang(lang);
  const games = await import('/static/js/games.js');
  const el = document.createElement('div');
  document.body.appendChild(el);
  const room = {code: 'TIE123', game: 1, you: null,
                players: [{seat: 0, name: 'Ann'}, {seat: 1, name: 'Bob'}]};
  const { h, render } = await import('/static/vendor/preact.js');
  await games.loadTexts();
  render(h('div', null, games.resultMore({result, room, seat: null})), el);
  const text = el.querySelector('#result-tie').textContent;
  el.remove();
  return text;
}"""


def test_the_end_screen_of_a_tie_says_in_words_how_it_was_decided(e2e_server, new_page):
    """Issue 30 item 1: a VP tie decided by tokens (and a shared win) is explained in words, in
    English and in German, never as the raw key."""
    page = new_page()
    goto(page, e2e_server.base_url + "/")
    words = {}
    for lang in ("de", "en"):
        for tie in ("tokens", "shared"):
            words[lang, tie] = page.evaluate(END_SCREEN, [lang, _tie_result(tie)])
    assert words["en", "tokens"] == "Tied on VPs: the most Achievement tokens decided."
    assert words["en", "shared"] == "Shared win: tied on VPs and on Achievement tokens."
    assert "Leistungsplättchen" in words["de", "tokens"] and words["de", "tokens"] != words["de", "shared"]
    assert not [w for w in words.values() if w.startswith("res.")], words
