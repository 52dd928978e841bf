import { describe, expect, it } from "vitest";
import { formatPercent } from "./percent";

describe("formatPercent", () => {
  it("writes a result's percent as each language does, with at most the scorer's one decimal", () => {
    expect(formatPercent("en", 72.5)).toBe("72.5%");
    expect(formatPercent("en", 80)).toBe("80%");
    expect(formatPercent("en", 66.7)).toBe("66.7%");
    // German, French and Spanish: a decimal comma and a no-break space before "%" (French's is narrow in newer ICU data).
    expect(formatPercent("de", 72.5)).toBe("72,5\u00a0%");
    expect(formatPercent("es", 0)).toBe("0\u00a0%");
    expect(formatPercent("fr", 100)).toMatch(/^100[\u00a0\u202f]%$/);
  });
});
