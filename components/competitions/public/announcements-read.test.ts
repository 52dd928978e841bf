import { describe, expect, it } from "vitest";
import { markerOf, unreadOf } from "./announcements-read";

const at = (id: string, created_at: string) => ({ id, created_at });

describe("unread announcements", () => {
  const list = [at("ann_03", "2026-12-01T10:00:02.000Z"), at("ann_02", "2026-12-01T10:00:01.000Z"), at("ann_01", "2026-12-01T10:00:01.000Z")];

  it("a first visit has read nothing; after reading the newest, nothing is unread", () => {
    expect(unreadOf(list, "").map((a) => a.id)).toEqual(["ann_03", "ann_02", "ann_01"]);
    expect(unreadOf(list, markerOf(list[0]))).toEqual([]);
  });

  it("orders as the API does: by time, then by id within the same millisecond", () => {
    expect(unreadOf(list, markerOf(list[2])).map((a) => a.id)).toEqual(["ann_03", "ann_02"]);
    expect(unreadOf(list, markerOf(list[1])).map((a) => a.id)).toEqual(["ann_03"]);
    // A later time reads as newer even with a smaller id.
    expect(markerOf(at("ann_00", "2026-12-01T10:00:03.000Z")) > markerOf(list[0])).toBe(true);
  });
});
