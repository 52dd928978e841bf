import { describe, expect, it } from "vitest";
import { gridDomains, scoreLevel } from "./progress";

describe("scoreLevel", () => {
  it("bands averages: red < 50, amber < 70, green ≥ 70, grey without data", () => {
    expect([null, undefined, 0, 49.9, 50, 69.9, 70, 100].map(scoreLevel)).toEqual(["none", "none", "low", "low", "medium", "medium", "high", "high"]);
  });
});

describe("gridDomains", () => {
  it("keeps the certification's order, prefers the tested name and appends domains only found in results", () => {
    expect(
      gridDomains(
        [
          { id: 1, name: "Renamed" },
          { id: 2, name: "Two" },
        ],
        { domains: [{ id: 9, name: "Gone" }, { id: 1, name: "One" }] },
      ),
    ).toEqual([
      { id: 1, name: "One" },
      { id: 2, name: "Two" },
      { id: 9, name: "Gone" },
    ]);
  });
});
