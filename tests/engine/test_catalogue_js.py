"""The client's card catalogue is the engine's (R-comp-1, R-comp-2, R-comp-3; issue 10: card
arithmetic lives in one place). static/js/catalogue.js is generated from ``engine.catalogue()``
by tests/engine/catalogue_js.py; static/js/cards.js reads it instead of computing."""
from __future__ import annotations

import json
import re

from catalogue_js import PATH, ROOT, render
from engine import CARD_COLORS, CARD_ICONS, CARD_VALUES, COLORS, catalogue
from osaka_builders import color_of, icons_of, value_of


def test_r_comp_1_2_catalogue_matches_the_card_id_contract():
    cat = catalogue()
    assert cat["colors"] == list(COLORS) == ["red", "blue", "yellow", "green"]
    assert len(cat["cards"]) == 108
    for cid, card in enumerate(cat["cards"]):
        assert card == {"color": color_of(cid), "value": value_of(cid), "icons": icons_of(cid)}
        assert (COLORS[CARD_COLORS[cid]], CARD_VALUES[cid], CARD_ICONS[cid]) == \
            (card["color"], card["value"], card["icons"])
    per_colour = {(c["color"], c["value"]) for c in cat["cards"]}
    assert len(per_colour) == 12
    assert cat["route"][0] == "Osaka" and cat["route"][cat["edo"]] == "Edo"
    assert cat["waves"] == [3, 4]  # R-comp-3: the two Enshunada spaces


def test_catalogue_js_is_generated_from_the_engine():
    """Regenerate with ``python tests/engine/catalogue_js.py`` after a catalogue change."""
    text = PATH.read_text(encoding="utf-8")
    assert text == render(), "static/js/catalogue.js is out of date"
    body = text[text.index("Object.freeze(") + len("Object.freeze("):text.rindex(");")]
    assert json.loads(body) == catalogue()


def test_cards_js_reads_the_catalogue_instead_of_computing():
    js = (ROOT / "static" / "js" / "cards.js").read_text(encoding="utf-8")
    assert re.search(r'import \{ CATALOGUE \} from "\./catalogue\.js"', js)
    assert not re.search(r"\b27\b", js), "card arithmetic belongs to the engine's catalogue"
