import { describe, expect, it } from "vitest";
import { translator } from "@/lib/platform/i18n/translator";
import { clockSentence, durationIn, yourTime } from "./your-time";

const words = (locale: "en" | "de" | "fr" | "es") => ({ t: translator(locale, "taking"), common: translator(locale, "common") });
const closesAt = "2026-12-01T18:00:00.000Z";

describe("the recipient's time on the start page, in their language", () => {
  it("keeps the English wording the page always had", () => {
    const { t, common } = words("en");
    expect(yourTime({ timeLimitMinutes: 60, extraTimeMinutes: 30, closesAt: null }, t)).toBe("60 + 30 minutes extra");
    expect(yourTime({ timeLimitMinutes: 1, extraTimeMinutes: 2, closesAt: null }, t)).toBe("1 + 2 minutes extra");
    expect(yourTime({ timeLimitMinutes: null, extraTimeMinutes: 15, closesAt }, t)).toBe("Until the test closes + 15 minutes extra");
    expect(yourTime({ timeLimitMinutes: null, extraTimeMinutes: 15, closesAt: null }, t)).toBeNull();
    expect(yourTime({ timeLimitMinutes: 60, extraTimeMinutes: 0, closesAt }, t)).toBeNull();
    expect(clockSentence({ timeLimitMinutes: 60, extraTimeMinutes: 0, closesAt: null }, t, common)).toBe(
      "The clock starts when you press Start: you then have 1 hour. When the time is up, your answers are submitted as they stand.",
    );
    expect(clockSentence({ timeLimitMinutes: 90, extraTimeMinutes: 30, closesAt }, t, common)).toBe(
      "The clock starts when you press Start: you then have 90 minutes plus 30 minutes of extra time, and at most until the test closes plus your extra time. When the time is up, your answers are submitted as they stand.",
    );
    expect(clockSentence({ timeLimitMinutes: 1, extraTimeMinutes: 0, closesAt }, t, common)).toBe(
      "The clock starts when you press Start: you then have 1 minute, and at most until the test closes. When the time is up, your answers are submitted as they stand.",
    );
  });

  it("says one minute in the singular", () => {
    expect(yourTime({ timeLimitMinutes: 60, extraTimeMinutes: 1, closesAt: null }, words("en").t)).toBe("60 + 1 minute extra");
    expect(yourTime({ timeLimitMinutes: 60, extraTimeMinutes: 1, closesAt: null }, words("de").t)).toBe("60 + 1 Minute zusätzlich");
  });

  it("speaks German, French and Spanish", () => {
    expect(yourTime({ timeLimitMinutes: 60, extraTimeMinutes: 30, closesAt: null }, words("de").t)).toBe("60 + 30 Minuten zusätzlich");
    expect(yourTime({ timeLimitMinutes: 60, extraTimeMinutes: 30, closesAt: null }, words("fr").t)).toBe("60 + 30 minutes supplémentaires");
    expect(yourTime({ timeLimitMinutes: null, extraTimeMinutes: 1, closesAt }, words("es").t)).toBe("Hasta que se cierre la prueba + 1 minuto adicional");
    const fr = words("fr");
    expect(clockSentence({ timeLimitMinutes: 120, extraTimeMinutes: 0, closesAt: null }, fr.t, fr.common)).toBe(
      "Le chrono démarre quand vous cliquez sur «\u00a0Commencer\u00a0»\u00a0: vous disposez alors de 2 heures. Une fois le temps écoulé, vos réponses sont remises en l’état.",
    );
    const de = words("de");
    expect(durationIn(de.common, 45)).toBe("45 Minuten");
    expect(clockSentence({ timeLimitMinutes: 60, extraTimeMinutes: 10, closesAt: null }, de.t, de.common)).toContain("1 Stunde plus 10 Minuten zusätzliche Zeit");
  });
});
