import { describe, expect, it } from "vitest";
import { offsetOf, page, pagingQuery } from "./paging";

describe("paging", () => {
  it("defaults to page 1 of 25", () => {
    expect(pagingQuery.parse({})).toEqual({ page: 1, per_page: 25 });
  });

  it("reads query strings as numbers", () => {
    const paging = pagingQuery.parse({ page: "3", per_page: "100" });
    expect(paging).toEqual({ page: 3, per_page: 100 });
    expect(offsetOf(paging)).toBe(200);
  });

  it("refuses per_page above 100 and other nonsense instead of clamping", () => {
    for (const bad of [{ per_page: "101" }, { per_page: "0" }, { page: "0" }, { page: "-1" }, { page: "1.5" }, { per_page: "abc" }]) {
      expect(pagingQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("wraps data with its pagination", () => {
    expect(page(["a"], { page: 2, per_page: 1 }, 5)).toEqual({ data: ["a"], pagination: { page: 2, per_page: 1, total: 5 } });
  });
});
