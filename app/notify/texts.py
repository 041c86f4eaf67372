"""What a notification says, in English and German: only public information.

`move_line` turns the last action's events, filtered for a spectator (`engine.visible_events`
with no seat: nothing visible to one seat only, such as a hand or a VP total, gets through),
into one line as the game's log shows it, from an allow-list of event types and of their
fields (who, what kind of move, how many goods, which colour): never a card of a hand, never a
VP count before the end. The result names the winners and the final VP, public once the game
is over (R-end-3).
"""
from __future__ import annotations

import html

import engine

TEXT = {
    "en": {
        "title_turn": "Your turn in room {room}", "title_reminder": "Your time is running out in room {room}",
        "title_result": "Game over in room {room}", "title_hook": "{name}'s turn in room {room}",
        "body_turn": "Your turn in room {room}", "body_reminder": "80 % of your time has passed in room {room}",
        "body_hook": "{name}'s turn in room {room}", "won": "{names} won.", "won_many": "{names} won.", "vp": "{name}: {vp} VP",
        "off_title": "Turn off", "off_line": "Turn these notifications off: {url}",
        "take": "{name} took a card from the Market.", "reserve": "{name} reserved a card.",
        "buy": "{name} bought {n} goods.", "buy_one": "{name} bought 1 good.", "pass": "{name} passed.",
        "insure": "{name} insured {n} goods.", "sale": "{name} sold {n} {color} goods.",
        "token_chosen": "{name} chose a {color} Achievement token.",
        "timed_out": "{name}'s time ran out: a computer player decided for them.",
        "page_title": "Turn off notifications", "page_ask": "Stop these game notifications?",
        "page_ask_of": "Stop the notifications of room {room} to {to}?", "to_push": "this browser",
        "page_button": "Turn off", "page_done": "Done: these notifications are off.",
    },
    "de": {
        "title_turn": "Du bist dran in Raum {room}", "title_reminder": "Deine Zeit läuft ab in Raum {room}",
        "title_result": "Spielende in Raum {room}", "title_hook": "{name} ist dran in Raum {room}",
        "body_turn": "Du bist dran in Raum {room}", "body_reminder": "80 % deiner Zeit sind um in Raum {room}",
        "body_hook": "{name} ist dran in Raum {room}", "won": "{names} hat gewonnen.", "won_many": "{names} haben gewonnen.", "vp": "{name}: {vp} SP",
        "off_title": "Ausschalten", "off_line": "Diese Benachrichtigungen ausschalten: {url}",
        "take": "{name} hat eine Karte vom Markt genommen.", "reserve": "{name} hat eine Karte reserviert.",
        "buy": "{name} hat {n} Waren gekauft.", "buy_one": "{name} hat 1 Ware gekauft.", "pass": "{name} hat gepasst.",
        "insure": "{name} hat {n} Waren versichert.", "sale": "{name} hat {n} Waren ({color}) verkauft.",
        "token_chosen": "{name} hat ein Leistungsplättchen ({color}) gewählt.",
        "timed_out": "Die Zeit von {name} ist abgelaufen: ein Computerspieler hat für sie entschieden.",
        "page_title": "Benachrichtigungen ausschalten", "page_ask": "Diese Spiel-Benachrichtigungen beenden?",
        "page_ask_of": "Die Benachrichtigungen von Raum {room} an {to} beenden?", "to_push": "diesen Browser",
        "page_button": "Ausschalten", "page_done": "Erledigt: diese Benachrichtigungen sind aus.",
    },
}


def shown_code(code: str) -> str:
    """A room code as people read it: ``ABCDE-FGHJK``."""
    return f"{code[:5]}-{code[5:]}" if len(code) == 10 else code


def move_line(events: list[dict], names: list[str], lang: str) -> str:
    """The last action's public events → one line (empty when none of them is a move)."""
    t = TEXT[lang]
    out = []
    for e in engine.visible_events(events or [], None):
        kind, seat = e.get("type"), e.get("seat")
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        if kind in ("take", "reserve", "pass", "timed_out"):
            out.append(t[kind].format(name=name))
        elif kind == "buy":
            n = len(e.get("goods") or [])
            out.append(t["buy_one" if n == 1 else "buy"].format(name=name, n=n))
        elif kind == "insure":
            out.append(t["insure"].format(name=name, n=len(e.get("goods") or [])))
        elif kind == "sale":
            out.append(t["sale"].format(name=name, n=len(e.get("cards") or []), color=_color(e.get("color"), lang)))
        elif kind == "token_chosen":
            out.append(t["token_chosen"].format(name=name, color=_color(e.get("color"), lang)))
    return " ".join(out)


#: The goods' colours as the table's catalogues word them (static/js/i18n/*.js `color.*`).
COLORS = {"de": {"red": "rot", "blue": "blau", "yellow": "gelb", "green": "grün"}}


def _color(color: object, lang: str) -> str:
    """A colour of the engine's (`red` …) in `lang`'s words."""
    return COLORS.get(lang, {}).get(str(color), str(color))


def result_line(events: list[dict], names: list[str], lang: str) -> str:
    """The end: who won and every seat's final VP (public at the end), from `game_over`."""
    t = TEXT[lang]
    for e in engine.visible_events(events or [], None):
        if e.get("type") == "game_over":
            winners = [names[w] for w in e.get("winners", []) if w < len(names)]
            won = t["won_many" if len(winners) > 1 else "won"].format(names=", ".join(winners))
            vps = "; ".join(t["vp"].format(name=names[i], vp=v) for i, v in enumerate(e.get("vp", [])) if i < len(names))
            return f"{won} {vps}"
    return ""


def message(kind: str, lang: str, code: str, seat_name: str, move: str, result: str, url: str, off_url: str,
            webhook: bool) -> dict:
    """The notification: {"title", "body", "url", "off_url", "off_title", "room", "lang"}
    (docs/protocol.md "Notifications"). `kind` "turn" / "reminder" / "result"; `webhook`:
    the room's channel (says whose turn by name)."""
    t = TEXT[lang if lang in TEXT else "en"]
    room = shown_code(code)
    if kind == "result":
        title, lead = t["title_result"].format(room=room), result
    elif webhook:
        title = lead = t["title_hook"].format(name=seat_name, room=room)
    else:
        title = t[f"title_{kind}"].format(room=room)
        lead = t[f"body_{kind}"].format(room=room)
    move = move if kind != "result" else ""
    body = f"{lead} — {move}" if move else lead if kind == "result" else f"{lead}."
    return {"title": title, "body": body, "url": url, "off_url": off_url, "off_title": t["off_title"],
            "room": code, "lang": lang}


def page_lang(accept: str) -> str:
    """"de" when Accept-Language prefers German over English, else "en"."""
    best, best_q = "en", -1.0
    for part in accept.split(","):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        lang = tag.strip().lower()[:2]
        if lang in TEXT and weight > best_q:
            best, best_q = lang, weight
    return best


def off_page(lang: str, action: str, done: bool, room: str | None = None, to: str | None = None) -> str:
    """The small "turn off" page: a form whose button POSTs to `action` (already escaped),
    naming the room `room` and where they go `to` (a redacted URL, or None: this browser's Web
    Push) when the token is one; or the confirmation once done."""
    t = TEXT[lang]
    ask = t["page_ask"] if room is None else t["page_ask_of"].format(room=shown_code(room), to=to or t["to_push"])
    inner = (f"<p>{html.escape(t['page_done'])}</p>" if done else
             f"<p>{html.escape(ask)}</p><form method=\"post\" action=\"{action}\">"
             f"<button type=\"submit\">{html.escape(t['page_button'])}</button></form>")
    return (f"<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(t['page_title'])}</title></head><body><main><h1>{html.escape(t['page_title'])}</h1>"
            f"{inner}</main></body></html>")
