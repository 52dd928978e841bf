import { describe, expect, it } from "vitest";
import { challengeCan, cleanHints, ctfActions, isTransitional } from "./format";

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
