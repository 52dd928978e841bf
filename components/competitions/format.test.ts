import { describe, expect, it } from "vitest";
import { challengeCan, cleanHints, ctfActions, formatWindow, isoToUtcInput, isTransitional, utcInputToIso } from "./format";

describe("utcInputToIso", () => {
  it("reads a datetime-local value as UTC, whatever the machine's zone", () => {
    expect(utcInputToIso("2026-12-01T18:00")).toBe("2026-12-01T18:00:00.000Z");
    expect(utcInputToIso("2026-12-01T18:00:30")).toBe("2026-12-01T18:00:30.000Z");
    expect(utcInputToIso(" 2026-01-31T00:05 ")).toBe("2026-01-31T00:05:00.000Z");
  });

  it("refuses blanks, other shapes and days that do not exist", () => {
    for (const value of ["", "2026-12-01", "18:00", "2026-02-30T10:00", "2026-12-01T24:00", "2026-13-01T10:00", "2026-12-01T18:00Z"]) {
      expect(utcInputToIso(value), value).toBeNull();
    }
  });

  it("round-trips with isoToUtcInput", () => {
    expect(isoToUtcInput("2026-12-01T18:00:00.000Z")).toBe("2026-12-01T18:00");
    expect(utcInputToIso(isoToUtcInput("2027-03-04T05:06:00Z"))).toBe("2027-03-04T05:06:00.000Z");
  });
});

describe("formatWindow", () => {
  it("names both ends in UTC, the end day only when it differs", () => {
    expect(formatWindow("2026-12-01T18:00:00Z", "2026-12-02T18:00:00Z")).toBe("1 Dec 2026, 18:00 – 2 Dec 2026, 18:00 UTC");
    expect(formatWindow("2026-12-01T18:00:00Z", "2026-12-01T20:30:00Z")).toBe("1 Dec 2026, 18:00 – 20:30 UTC");
  });
});

describe("state rules", () => {
  it("offers the actions the domain accepts in each competition state", () => {
    expect(ctfActions("draft")).toEqual(["deploy", "delete"]);
    expect(ctfActions("deploying")).toEqual([]);
    expect(ctfActions("deployed")).toEqual(["stop", "archive"]);
    expect(ctfActions("deploy_failed")).toEqual(["deploy", "delete"]);
    expect(ctfActions("stopped")).toEqual(["deploy", "archive", "delete"]);
    expect(ctfActions("archived")).toEqual(["delete"]);
  });

  it("knows the transitional states and the challenge rules", () => {
    expect(["deploying", "generating", "publishing", "unpublishing"].every(isTransitional)).toBe(true);
    expect(["draft", "deployed", "published", "live"].some(isTransitional)).toBe(false);
    expect(challengeCan("publish", "draft")).toBe(true);
    expect(challengeCan("publish", "published")).toBe(false);
    expect(challengeCan("unpublish", "published")).toBe(true);
    expect(challengeCan("remove", "published")).toBe(false);
  });
});

describe("form helpers", () => {
  it("drops blank hints and reads costs", () => {
    expect(cleanHints([{ text: " Look closer ", cost: "" }, { text: "  ", cost: "5" }, { text: "XOR", cost: "25" }])).toEqual([
      { text: "Look closer", cost: 0 },
      { text: "XOR", cost: 25 },
    ]);
  });
});
