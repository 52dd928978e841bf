import { describe, expect, it } from "vitest";
import { gridDomains, scoreLevel } from "./progress";

describe("scoreLevel", () => {
  it("bands averages: red < 50, amber < 70, green ≥ 70, grey without data", () => {
    expect([null, undefined, 0, 49.9, 50, 69.9, 70, 100].map(scoreLevel)).toEqual(["none", "none", "low", "low", "medium", "medium", "high", "high"]);
  });
});

describe("gridDomains", () => {
  const klass = { certification_id: 7, certification: "Cloud" };

  it("keeps the certification's order, prefers the tested name and appends domains only found in results", () => {
    expect(
      gridDomains(
        klass,
        [
          { id: 1, name: "Renamed" },
          { id: 2, name: "Two" },
        ],
        {
          domains: [
            { id: 9, name: "Gone", certification_id: 7, certification: "Cloud" },
            { id: 1, name: "One", certification_id: 7, certification: "Cloud" },
          ],
        },
      ),
    ).toEqual([
      {
        certification_id: 7,
        certification: "Cloud",
        domains: [
          { id: 1, name: "One" },
          { id: 2, name: "Two" },
          { id: 9, name: "Gone" },
        ],
      },
    ]);
  });

  it("keeps another certification's domains apart, even with the same name, and leaves out a certification without columns", () => {
    const groups = gridDomains(klass, [{ id: 1, name: "Security" }], {
      domains: [
        { id: 1, name: "Security", certification_id: 7, certification: "Cloud" },
        { id: 40, name: "Security", certification_id: 8, certification: "Network" },
        { id: 41, name: "Routing", certification_id: 8, certification: "Network" },
      ],
    });
    expect(groups).toEqual([
      { certification_id: 7, certification: "Cloud", domains: [{ id: 1, name: "Security" }] },
      {
        certification_id: 8,
        certification: "Network",
        domains: [
          { id: 40, name: "Security" },
          { id: 41, name: "Routing" },
        ],
      },
    ]);
    expect(gridDomains(klass, [], { domains: [] })).toEqual([]);
  });
});
