// Spielregeln auf Deutsch: dieselben Abschnitte, Regel-Ids und Bilder wie howto-en.js.
export default {
  "howto.sections": [
  { id: "goal", rules: ["R-end-2"], pic: null, title: "Das Ziel",
    text: ["Kauf Waren in Osaka und schick sie per Schiff nach Edo. Kommt ein Schiff an, werden seine Waren gegen " +
      "Siegpunkte (SP) verkauft. Die meisten SP gewinnen."] },
  { id: "cards", rules: ["R-comp-1", "R-comp-2"], pic: "cards", title: "Eine Karte, drei Zwecke",
    text: ["Auf der Hand ist eine Karte Münzen: ihr Wert (2, 3 oder 5). Auf dem Markt ist sie eine Ware ihrer Farbe: " +
      "◆ rot, ■ blau, ▲ gelb, ● grün. Ihre Versicherungssymbole (zwei auf einer 2, eins auf einer 3, keins auf " +
        "einer 5) schützen Waren vor der Schwarzen Flut."] },
  { id: "setup", rules: ["R-setup-2", "R-setup-3", "R-setup-4", "R-setup-5"], pic: null,
    title: "Aufbau und wer beginnt",
    text: ["Fünf Karten kommen auf den Markt, drei auf den Bauernhof. Alle ziehen eine Starthand im Wert von " +
      "mindestens 8, offen für alle. Die kleinste Starthand beginnt (Gleichstand: weniger Karten, dann das Los). " +
        "Ab dem Startspieler nimmt jeder ein Leistungsplättchen einer beliebigen Farbe."] },
  { id: "turn", rules: ["R-turn-1", "R-turn-2", "R-turn-1a", "R-turn-3"], pic: null, title: "Dein Zug: eins von dreien",
    text: ["Liegt auf dem Markt keine Karte, die du nehmen darfst (er ist leer, oder alles ist von anderen " +
      "reserviert), wird zuerst für dich aufgefüllt: der Bauernhof rückt auf den Markt, und neue Karten kommen dazu.",
      "Dann tust du genau eins: eine Münze nehmen, eine Karte reservieren oder kaufen. Nur wenn nichts davon geht " +
        "(beide Stapel sind aufgebraucht), passt du."] },
  { id: "farm", rules: ["R-take-1", "R-reserve-1", "R-reserve-2", "R-reserve-3"], pic: "reserve",
    title: "Nehmen, reservieren und der Bauernhof",
    text: ["Münze nehmen: eine Marktkarte auf die Hand. Der Bauernhof ist die Reihe der nächsten Waren: seine Karten " +
      "kann man reservieren, aber nicht nehmen, und nach jedem Kauf rücken sie auf den Markt.",
      "Reservieren: leg deinen Reservierungsstein auf eine Karte auf dem Markt oder Bauernhof. Dann darf nur noch du " +
        "sie nehmen oder kaufen. Der Stein kommt zurück, wenn du das tust; du hast nur einen."] },
  { id: "buy", rules: ["R-buy-1", "R-buy-2", "R-buy-3", "R-buy-5", "R-refresh-1", "R-refresh-2"], pic: null,
    title: "Kaufen",
    text: ["Du kaufst alle Waren auf dem Markt (nicht die Karten, die andere reserviert haben) und bezahlst ihre " +
      "Summe mit Münzen aus deiner Hand. Es gibt kein Wechselgeld, und die Zahlung muss knapp sein: keine Karte " +
        "darf übrig sein, ohne die der Preis noch gedeckt wäre. Die Seite schlägt eine Zahlung vor.",
      "Für jede gekaufte Farbe fährt ihr Schiff ein Feld Richtung Edo, zwei Felder bei zwei oder mehr Waren dieser " +
        "Farbe. Dann rückt der Bauernhof auf den Markt, zwei neue Karten kommen auf den Markt und drei auf den " +
          "Bauernhof."] },
  { id: "pay", rules: ["R-pay-1", "R-pay-2", "R-pay-3"], pic: "route", title: "Abrechnung in Edo",
    text: ["Erreicht ein Schiff Edo, verkaufen alle ihre Waren dieser Farbe. Preis = deine höchste Karte der Farbe + " +
      "deine Plättchen dieser Farbe. Wert = Preis × Anzahl der Karten, aufgerundet auf ein Vielfaches von 5; je 5 " +
        "ergeben 1 SP. Beispiel: ◆5 ◆5 ◆5 ohne rotes Plättchen: 5 × 3 = 15 → 3 SP.",
      "Für jede Farbe, die du verkauft hast, bekommst du ein weiteres Plättchen dieser Farbe."] },
  { id: "end", rules: ["R-pay-4", "R-end-1"], pic: null, title: "Das Ende kommt nach einer Abrechnung",
    text: ["Hat direkt nach einer Abrechnung jemand 8 oder mehr Leistungsplättchen (alle Farben zusammen), endet das " +
      "Spiel sofort: nichts sinkt, kein Zug mehr."] },
  { id: "tide", rules: ["R-pay-5", "R-pay-6", "R-pay-7", "R-pay-8"], pic: "tide",
    title: "Schwarze Flut und Versicherung",
    text: ["Bei jeder Abrechnung, die das Spiel nicht beendet, sinken die Schiffe auf den beiden Wellenfeldern " +
      "(Enshunada I und II). Ihre Waren gehen verloren, wenn sie nicht versichert sind: beginnend beim Käufer darf " +
        "jeder Betroffene Handkarten einer sinkenden Farbe ablegen; jedes Versicherungssymbol rettet eine Ware der " +
        "Kartenfarbe. Anori (⚓) ist ein sicherer Hafen.",
      "Eine versicherte Ware bleibt versichert: sie übersteht jede spätere Schwarze Flut, bis sie verkauft wird."] },
  { id: "ships", rules: ["R-pay-9"], pic: null, title: "Die Schiffe kehren zurück",
    text: ["Nach der Abrechnung fahren Schiffe in Edo zurück nach Osaka, und gesunkene Schiffe zurück nach Anori."] },
  { id: "win", rules: ["R-end-2", "R-end-3"], pic: null, title: "Wer gewinnt",
    text: ["Die meisten SP gewinnen. Bei Gleichstand gewinnen die meisten Leistungsplättchen; ist es dann noch " +
      "gleich, teilen sich alle Gleichstehenden den Sieg. Waren und Münzen, die am Ende übrig sind, zählen " +
        "nichts."] },
],
};
