import { afterEach, describe, expect, it, vi } from "vitest";
import { isoToLocalInput, localInputToBody, localInputToIso, localZoneLabel } from "./date-input";

describe("localInputToIso", () => {
  // Node follows a change of TZ at once; vi.stubEnv sets it and unstubAllEnvs puts it back.
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("reads a datetime-local value in the machine's zone and keeps that zone's offset on that day", () => {
    vi.stubEnv("TZ", "Europe/Paris");
    expect(localInputToIso("2026-12-01T18:00")).toBe("2026-12-01T18:00:00+01:00");
    expect(localInputToIso("2026-07-01T18:00:30")).toBe("2026-07-01T18:00:30+02:00");
    expect(Date.parse(localInputToIso("2026-12-01T18:00")!)).toBe(Date.parse("2026-12-01T17:00:00Z"));
    vi.stubEnv("TZ", "America/St_Johns");
    expect(localInputToIso(" 2026-01-31T00:05 ")).toBe("2026-01-31T00:05:00-03:30");
    vi.stubEnv("TZ", "UTC");
    expect(localInputToIso("2026-12-01T18:00")).toBe("2026-12-01T18:00:00+00:00");
  });

  it("refuses blanks, other shapes, days that do not exist and hours a clock change skips", () => {
    vi.stubEnv("TZ", "Europe/Paris");
    for (const value of ["", "2026-12-01", "18:00", "2026-02-30T10:00", "2026-12-01T24:00", "2026-13-01T10:00", "2026-12-01T18:00Z", "2026-03-29T02:30"]) {
      expect(localInputToIso(value), value).toBeNull();
    }
  });

  it("round-trips with isoToLocalInput", () => {
    vi.stubEnv("TZ", "Europe/Paris");
    expect(isoToLocalInput("2026-12-01T18:00:00.000Z")).toBe("2026-12-01T19:00");
    expect(Date.parse(localInputToIso(isoToLocalInput("2027-03-04T05:06:00Z"))!)).toBe(Date.parse("2027-03-04T05:06:00Z"));
  });

  it("names the zone and its offset for the form", () => {
    vi.stubEnv("TZ", "Europe/Paris");
    expect(localZoneLabel(new Date("2026-12-01T12:00:00Z"))).toBe("Europe/Paris, UTC+01:00");
    expect(localZoneLabel(new Date("2026-07-01T12:00:00Z"))).toBe("Europe/Paris, UTC+02:00");
  });
});

describe("localInputToBody", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("is null when blank, the instant of a time of this zone, and the text as typed otherwise", () => {
    vi.stubEnv("TZ", "Europe/Paris");
    expect(localInputToBody("  ")).toBeNull();
    expect(localInputToBody("2099-03-02T08:00")).toBe("2099-03-02T08:00:00+01:00");
    expect(localInputToBody("2026-03-29T02:30")).toBe("2026-03-29T02:30");
  });
});
