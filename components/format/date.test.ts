import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatWindow } from "./date";

describe("formatDateTime", () => {
  it("writes every time one way, in UTC, whatever the input's offset", () => {
    expect(formatDateTime("2026-11-23T02:13:00Z")).toBe("23 Nov 2026, 02:13 UTC");
    expect(formatDateTime("2026-11-23T03:13:00+01:00")).toBe("23 Nov 2026, 02:13 UTC");
    expect(formatDateTime(new Date("2026-11-23T02:13:00Z"))).toBe("23 Nov 2026, 02:13 UTC");
    expect(formatDateTime("2026-11-23T02:22:07Z", { seconds: true })).toBe("23 Nov 2026, 02:22:07 UTC");
  });

  it("says when there is no time", () => {
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime(undefined, { missing: "Never" })).toBe("Never");
  });
});

describe("formatDate and formatWindow", () => {
  it("use the same day and time style", () => {
    expect(formatDate("2026-11-23T23:30:00-05:00")).toBe("24 Nov 2026");
    expect(formatWindow("2026-12-01T18:00:00Z", "2026-12-02T18:00:00Z")).toBe("1 Dec 2026, 18:00 – 2 Dec 2026, 18:00 UTC");
    expect(formatWindow("2026-12-01T18:00:00Z", "2026-12-01T20:30:00Z")).toBe("1 Dec 2026, 18:00 – 20:30 UTC");
  });
});

describe("formatWindow", () => {
  it("names both ends in UTC, the end day only when it differs", () => {
    expect(formatWindow("2026-12-01T18:00:00Z", "2026-12-02T18:00:00Z")).toBe("1 Dec 2026, 18:00 – 2 Dec 2026, 18:00 UTC");
    expect(formatWindow("2026-12-01T18:00:00Z", "2026-12-01T20:30:00Z")).toBe("1 Dec 2026, 18:00 – 20:30 UTC");
  });

  it("shows the same window in another zone, which it names", () => {
    expect(formatWindow("2026-12-01T18:00:00Z", "2026-12-01T20:30:00Z", "Europe/Paris")).toBe("1 Dec 2026, 19:00 – 21:30 (Europe/Paris)");
    expect(formatWindow("2026-12-01T22:30:00Z", "2026-12-01T23:30:00Z", "Europe/Paris")).toBe("1 Dec 2026, 23:30 – 2 Dec 2026, 00:30 (Europe/Paris)");
  });
});

