// Texte der Anleitung „Spielen lernen" (learn.js; mit ihm geladen: i18n.js loadPart("learn"));
// dieselben Schlüssel wie learn-en.js.
export default {
  "learn.title": "Spielen lernen",
  "learn.count": "Tipp {n} von {all}",
  "learn.next": "Weiter",
  "learn.skip": "Anleitung überspringen",
  "learn.skipped": "Anleitung übersprungen: Das Spiel geht ohne Tipps weiter.",
  "learn.done.h": "Alle Regeln erklärt",
  "learn.done.text": "Das waren alle Regeln: Das Spiel gehört dir. Spiel es zu Ende "
    + "oder beginne auf der Startseite ein echtes.",
  "learn.draft.h": "Die Plättchenwahl",
  "learn.draft.text": "Zuerst wählt jeder ein Leistungsplättchen einer Farbe: Es erhöht den Preis jedes Verkaufs "
    + "dieser Farbe. Öffne die Wahl und nimm die markierte Farbe.",
  "learn.take.h": "Eine Münze nehmen",
  "learn.take.text": "Jede Karte ist auch Geld: Eine Marktkarte auf die Hand zu nehmen ist ein ganzer Zug. "
    + "Klicke die markierte Karte an und drücke Nehmen (oder „So spielen“).",
  "learn.reserve.h": "Eine Karte reservieren",
  "learn.reserve.text": "Dein Reservierungsstein hält eine Markt- oder Bauernhofkarte nur für dich, bis du sie kaufst "
    + "oder nimmst. Klicke die markierte Karte an und drücke Reservieren.",
  "learn.buy.h": "Den ganzen Markt kaufen",
  "learn.buy.text": "Beim Kauf nimmst du alle Karten des Markts auf einmal als Waren und zahlst mit Handkarten, "
    + "die mindestens ihre Summe wert sind (kein Wechselgeld). Drücke „Zahlung vorschlagen“, dann Kaufen.",
  "learn.ships.h": "Schiffe fahren",
  "learn.ships.text": "Jede gekaufte Farbe bewegt ihr Schiff Richtung Edo: einen Schritt für eine Ware, zwei für "
    + "zwei oder mehr. Erreicht ein Schiff Edo, verkaufen alle diese Farbe.",
  "learn.payment.h": "Eine Auszahlung in Edo",
  "learn.payment.text": "Wer Waren einer Farbe hat, deren Schiff in Edo ist, verkauft sie: höchste Karte plus die "
    + "Plättchen dieser Farbe, mal die Anzahl der Karten, aufgerundet auf 5, ergibt einen SP je 5. Jeder "
    + "Verkäufer bekommt dazu ein Plättchen der Farbe, spätere Verkäufe bringen also mehr.",
  "learn.tide.h": "Die Schwarze Flut",
  "learn.tide.text": "Bei jeder Auszahlung sinken Schiffe auf den beiden Enshunada-Feldern, ihre unversicherten "
    + "Waren gehen verloren. Vorher darf man Handkarten mit Versicherungssymbolen abwerfen, um Waren ihrer Farbe "
    + "zu versichern.",
  "learn.insure.h": "Waren versichern",
  "learn.insure.text": "Deine Waren einer sinkenden Farbe sind in Gefahr: Jedes Symbol auf einer abgeworfenen "
    + "Karte dieser Farbe rettet eine Ware. Öffne die Wahl; die markierten Karten sind der Vorschlag.",
  "learn.refresh.h": "Das Auffüllen",
  "learn.refresh.text": "Nach einem Kauf wandern die Karten des Bauernhofs in den Markt, dann kommen 2 neue Karten in "
    + "den Markt und 3 in den Bauernhof. Reservierte Karten bleiben, wo sie sind.",
  "learn.end.h": "Das Ende bei 8 Plättchen",
  "learn.end.text": "Das Spiel endet sofort, wenn jemand 8 Leistungsplättchen hat. Dann gewinnen die meisten SP; "
    + "bei Gleichstand die meisten Plättchen.",
};
