import { describe, expect, it, vi } from "vitest";
import { ShellCache } from "./shell-cache";

type Shell = { bytes: number; id: string };
const shell = (id: string, bytes = 10): Shell => ({ id, bytes });

function cache(options: Partial<ConstructorParameters<typeof ShellCache>[0]> = {}) {
  let now = 0;
  const c = new ShellCache<Shell>({ maxEntries: 3, maxBytes: 100, retryAfterMs: 1_000, now: () => now, ...options });
  return { c, advance: (ms: number) => (now += ms) };
}

describe("shell cache", () => {
  it("builds a key once, for every caller that asks meanwhile, then answers from memory", async () => {
    const { c } = cache();
    let release!: (s: Shell) => void;
    const build = vi.fn(() => new Promise<Shell>((resolve) => (release = resolve)));
    const asked = [c.get("a", build), c.get("a", build), c.get("a", build)];
    release(shell("a"));
    expect((await Promise.all(asked)).map((s) => s?.id)).toEqual(["a", "a", "a"]);
    expect((await c.get("a", build))?.id).toBe("a");
    expect(build).toHaveBeenCalledTimes(1);
  });

  it("keeps at most maxEntries, the least recently used out first", async () => {
    const { c } = cache();
    for (const key of ["a", "b", "c"]) await c.get(key, async () => shell(key));
    await c.get("a", async () => shell("a2")); // a is used: b is now the oldest
    await c.get("d", async () => shell("d"));
    expect(c.size.entries).toBe(3);
    expect((await c.get("b", async () => shell("b2")))?.id).toBe("b2"); // b was dropped and is built again
    expect((await c.get("a", async () => shell("a3")))?.id).toBe("a");
  });

  it("keeps at most maxBytes together, and never a shell larger than that", async () => {
    const { c } = cache({ maxEntries: 10 });
    await c.get("a", async () => shell("a", 60));
    await c.get("b", async () => shell("b", 30));
    expect(c.size).toEqual({ entries: 2, bytes: 90 });
    await c.get("c", async () => shell("c", 30)); // 120 > 100: a (the oldest) goes
    expect(c.size).toEqual({ entries: 2, bytes: 60 });
    expect(await c.get("huge", async () => shell("huge", 101))).toBeUndefined();
    expect(c.size).toEqual({ entries: 2, bytes: 60 });
  });

  it("does not build a key again until retryAfterMs after a build that failed or threw", async () => {
    const onBuildError = vi.fn();
    const { c, advance } = cache({ onBuildError });
    const failing = vi.fn(async (): Promise<Shell | undefined> => undefined);
    expect(await c.get("a", failing)).toBeUndefined();
    expect(await c.get("a", failing)).toBeUndefined();
    expect(failing).toHaveBeenCalledTimes(1);
    const throwing = vi.fn(async (): Promise<Shell> => {
      throw new Error("render failed");
    });
    expect(await c.get("b", throwing)).toBeUndefined();
    expect(onBuildError).toHaveBeenCalledWith("b", expect.any(Error));
    advance(999);
    expect(await c.get("b", async () => shell("b"))).toBeUndefined();
    advance(1);
    expect((await c.get("a", async () => shell("a")))?.id).toBe("a");
    expect((await c.get("b", async () => shell("b")))?.id).toBe("b");
  });

  it("forgets the shells whose key matches", async () => {
    const { c } = cache();
    for (const key of ["t1:a", "t1:b", "t2:a"]) await c.get(key, async () => shell(key));
    c.forget((key) => key.startsWith("t1:"));
    expect(c.size).toEqual({ entries: 1, bytes: 10 });
    expect((await c.get("t1:a", async () => shell("new")))?.id).toBe("new");
  });
});
