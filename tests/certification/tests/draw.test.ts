import { describe, expect, it } from "vitest";
import { drawForRecipient, sample, shuffle, splitEvenly } from "@/lib/certification/tests/draw";

/**
 * The draw's pure pieces (lib/certification/tests/draw.ts). Here rather than beside the
 * module: lib/certification/tests/ holds the most files a folder may (15, architecture test).
 */

describe("sample", () => {
  it("picks the asked count of distinct items out of the pool, nothing from outside it", () => {
    const pool = Array.from({ length: 30 }, (_, i) => i * 7);
    for (let round = 0; round < 200; round++) {
      const picked = sample(pool, 6);
      expect(picked).toHaveLength(6);
      expect(new Set(picked).size).toBe(6);
      for (const item of picked) expect(pool).toContain(item);
    }
  });

  it("gives every item a fair chance (each of 10 items within 20% of its share over 20,000 picks of 3)", () => {
    const pool = Array.from({ length: 10 }, (_, i) => i);
    const seen = new Array<number>(10).fill(0);
    for (let round = 0; round < 20_000; round++) for (const item of sample(pool, 3)) seen[item]++;
    const share = (20_000 * 3) / 10;
    for (const count of seen) expect(Math.abs(count - share) / share).toBeLessThan(0.2);
  });

  it("takes the whole pool when asked for all of it, none for 0, and refuses more than there is", () => {
    expect(sample([1, 2, 3], 3).sort()).toEqual([1, 2, 3]);
    expect(sample([1, 2, 3], 0)).toEqual([]);
    expect(() => sample([1, 2], 3)).toThrow(RangeError);
  });

  it("leaves the pool it was given as it was", () => {
    const pool = [1, 2, 3, 4, 5];
    sample(pool, 4);
    expect(pool).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("drawForRecipient", () => {
  const pools = new Map([
    [10, Array.from({ length: 12 }, (_, i) => 100 + i)],
    [20, Array.from({ length: 8 }, (_, i) => 200 + i)],
  ]);
  const counts = new Map([
    [10, 3],
    [20, 2],
  ]);
  const domainOf = (id: number) => (id < 200 ? 10 : 20);

  it("gives each domain its count, from its own pool, without repeats", () => {
    for (let round = 0; round < 100; round++) {
      const drawn = drawForRecipient(pools, counts);
      expect(drawn).toHaveLength(5);
      expect(new Set(drawn).size).toBe(5);
      expect(drawn.filter((id) => domainOf(id) === 10)).toHaveLength(3);
      expect(drawn.filter((id) => domainOf(id) === 20)).toHaveLength(2);
      for (const id of drawn) expect(pools.get(domainOf(id))).toContain(id);
    }
  });

  it("draws sets that differ from one recipient to the next, and mixes the domains", () => {
    const sets = new Set(Array.from({ length: 50 }, () => [...drawForRecipient(pools, counts)].sort().join(",")));
    // 220 × 28 possible sets: 50 draws all alike would be a broken draw.
    expect(sets.size).toBeGreaterThan(30);
    const orders = Array.from({ length: 200 }, () => drawForRecipient(pools, counts).map(domainOf).join(","));
    expect(new Set(orders).size).toBeGreaterThan(1);
  });
});

describe("shuffle and splitEvenly (unchanged)", () => {
  it("keeps the items and splits the remainder to the first domains", () => {
    expect(shuffle([3, 1, 2]).sort()).toEqual([1, 2, 3]);
    expect([...splitEvenly(7, [1, 2, 3]).values()]).toEqual([3, 2, 2]);
  });
});
