import { describe, expect, it } from "vitest";
import type { AttemptIntegrity } from "@/db/schema";
import { integrityCsvCells, integrityFlagged, integrityView } from "./summary";

const quiet: AttemptIntegrity = {
  recipientId: 1,
  startAddress: "203.0.113.7",
  startBrowser: "UA",
  submitAddress: null,
  submitBrowser: null,
  browsers: ["a1"],
  hiddenCount: 0,
  hiddenMs: 0,
  copyCount: 0,
  fullscreenExits: 0,
  updatedAt: new Date(),
};

describe("integrityFlagged", () => {
  it("is false with nothing seen, or without a record", () => {
    expect(integrityFlagged(quiet)).toBe(false);
    expect(integrityFlagged(undefined)).toBe(false);
    // A submit from the same address, or none (submitted by the server at the deadline), is not a change.
    expect(integrityFlagged({ ...quiet, submitAddress: "203.0.113.7" })).toBe(false);
  });

  it("is true on each signal alone", () => {
    expect(integrityFlagged({ ...quiet, browsers: ["a1", "b2"] })).toBe(true);
    expect(integrityFlagged({ ...quiet, submitAddress: "198.51.100.4" })).toBe(true);
    expect(integrityFlagged({ ...quiet, hiddenCount: 1 })).toBe(true);
    expect(integrityFlagged({ ...quiet, copyCount: 1 })).toBe(true);
    expect(integrityFlagged({ ...quiet, fullscreenExits: 1 })).toBe(true);
  });
});

describe("integrityView", () => {
  it("reads the row for the answer sheet: seconds rounded down, no submit before one", () => {
    expect(integrityView({ ...quiet, hiddenCount: 2, hiddenMs: 61_999 })).toEqual({
      start: { address: "203.0.113.7", browser: "UA" },
      submit: null,
      browsers: 1,
      address_changed: false,
      hidden: { count: 2, seconds: 61 },
      copy_attempts: 0,
      fullscreen_exits: 0,
      flagged: true,
    });
    expect(integrityView(undefined)).toBeNull();
  });

  it("gives the CSV's cells, empty without a record", () => {
    expect(integrityCsvCells({ ...quiet, submitAddress: "198.51.100.4", copyCount: 3 })).toEqual([1, 0, 0, 3, 0, "true"]);
    expect(integrityCsvCells(undefined)).toEqual([null, null, null, null, null, null]);
  });
});
