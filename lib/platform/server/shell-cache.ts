/**
 * The page shells one process keeps (./page-shell.ts), by key. A key names everything a shell
 * shows (the caller builds it from what it would render), so a change of what a page shows
 * is a new key: the old shell is no longer asked for and ages out. Bounded by count and by
 * size, least recently used first out.
 *
 * A missing shell is built once (one build per key at a time; whoever asks meanwhile waits for
 * it); a build that fails is not tried again for the key until `retryAfterMs` has passed, so a
 * page that cannot be shelled costs one extra render per interval, not one per request.
 */
export type ShellCacheOptions = {
  /** At most this many shells. */
  maxEntries: number;
  /** At most this many bytes of shells together (a shell larger than this is never kept). */
  maxBytes: number;
  /** After a failed build (undefined or thrown), how long the key is not built again. */
  retryAfterMs: number;
  now?: () => number;
  /** Told about a build that threw (not about one that answered undefined). */
  onBuildError?: (key: string, error: unknown) => void;
};

export class ShellCache<S extends { bytes: number }> {
  private readonly ready = new Map<string, S>();
  private readonly building = new Map<string, Promise<S | undefined>>();
  private readonly failedAt = new Map<string, number>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(private readonly options: ShellCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The shell for `key`: the one kept, else the one being built (waited for), else `build`'s
   * (started now and waited for) — undefined when it gives none, throws, or failed for this key
   * less than `retryAfterMs` ago. Concurrent callers share one build.
   */
  async get(key: string, build: () => Promise<S | undefined>): Promise<S | undefined> {
    const shell = this.ready.get(key);
    if (shell) {
      // Most recently used last: a Map keeps insertion order.
      this.ready.delete(key);
      this.ready.set(key, shell);
      return shell;
    }
    let running = this.building.get(key);
    if (!running) {
      const failed = this.failedAt.get(key);
      if (failed !== undefined && this.now() - failed < this.options.retryAfterMs) return undefined;
      this.failedAt.delete(key);
      running = this.run(key, build).finally(() => this.building.delete(key));
      this.building.set(key, running);
    }
    return running;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.ready.size, bytes: this.bytes };
  }

  /** Drops every shell whose key matches (e.g. all of one test's). */
  forget(matches: (key: string) => boolean): void {
    for (const key of [...this.ready.keys()]) if (matches(key)) this.remove(key);
    for (const key of [...this.failedAt.keys()]) if (matches(key)) this.failedAt.delete(key);
  }

  private async run(key: string, build: () => Promise<S | undefined>): Promise<S | undefined> {
    let shell: S | undefined;
    try {
      shell = await build();
    } catch (error) {
      this.options.onBuildError?.(key, error);
    }
    if (!shell || shell.bytes > this.options.maxBytes) {
      this.failedAt.set(key, this.now());
      if (this.failedAt.size > this.options.maxEntries) this.failedAt.delete(this.failedAt.keys().next().value!);
      return undefined;
    }
    this.remove(key);
    this.ready.set(key, shell);
    this.bytes += shell.bytes;
    while (this.ready.size > this.options.maxEntries || this.bytes > this.options.maxBytes) this.remove(this.ready.keys().next().value!);
    return shell;
  }

  private remove(key: string): void {
    const shell = this.ready.get(key);
    if (!shell) return;
    this.ready.delete(key);
    this.bytes -= shell.bytes;
  }
}
