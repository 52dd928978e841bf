import { fetchJson, RequestError } from "@/components/fetch-json";
import type { AnswerValue } from "./answer-value";

export type SaveState =
  | { kind: "saving" }
  | { kind: "saved" }
  /** Connection or server trouble: the choice is kept on this device and retried automatically. */
  | { kind: "retrying"; reason: "offline" | "server" }
  /**
   * The server refused the answer; retrying by hand is still possible. `ended`: the test was
   * submitted or its time is up (a 409), which the page words itself; otherwise the server's `message`.
   */
  | { kind: "failed"; ended: boolean; message: string };

type Listener = {
  state: (questionId: number, state: SaveState) => void;
  pending: (count: number) => void;
  /** The test was submitted meanwhile (e.g. in another tab): answers can no longer change. */
  closed: () => void;
};

const MAX_DELAY_MS = 30_000;

/**
 * Saves answers one by one as they are chosen. Per question only the latest choice matters
 * and at most one request is in flight, so a slow earlier request never overwrites a later
 * choice. Unsaved choices are kept in localStorage until the server has them, and retried
 * with back-off (and at once when the browser comes back online).
 */
export class AnswerQueue {
  private readonly unsaved = new Map<number, AnswerValue>();
  private readonly inFlight = new Set<number>();
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly token: string,
    private readonly listener: Listener,
  ) {}

  private get storageKey(): string {
    return `certify:unsaved-answers:${this.token}`;
  }

  /** Choices left unsaved by an earlier visit (only those that still fit the test); re-sent now. */
  restore(isValid: (questionId: number, value: unknown) => boolean): Record<number, AnswerValue> {
    const restored: Record<number, AnswerValue> = {};
    for (const [key, option] of Object.entries(this.readStorage())) {
      const questionId = Number(key);
      if (Number.isInteger(questionId) && isValid(questionId, option) && !this.unsaved.has(questionId)) {
        this.unsaved.set(questionId, option);
        restored[questionId] = option;
      }
    }
    this.changed();
    this.retryAll();
    return restored;
  }

  /** A whole answer: an option's position, or the set of a multiple-response question. */
  choose(questionId: number, option: AnswerValue): void {
    this.unsaved.set(questionId, option);
    this.changed();
    void this.send(questionId);
  }

  retryAll(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const questionId of this.unsaved.keys()) void this.send(questionId);
  }

  /** After submission nothing is left to save. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unsaved.clear();
    this.changed();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async send(questionId: number): Promise<void> {
    if (this.inFlight.has(questionId)) return; // the running request re-checks when it ends
    const option = this.unsaved.get(questionId);
    if (option === undefined) return;
    this.inFlight.add(questionId);
    this.listener.state(questionId, { kind: "saving" });
    try {
      await fetchJson(`/api/t/${encodeURIComponent(this.token)}/answers`, {
        method: "PUT",
        body: JSON.stringify(typeof option === "number" ? { question_id: questionId, option } : { question_id: questionId, options: option }),
      });
      this.failures = 0;
      this.inFlight.delete(questionId);
      if (this.unsaved.get(questionId) === option) {
        this.unsaved.delete(questionId);
        this.changed();
        this.listener.state(questionId, { kind: "saved" });
      } else {
        void this.send(questionId); // a newer choice arrived meanwhile
      }
    } catch (error) {
      this.inFlight.delete(questionId);
      if (this.unsaved.get(questionId) !== option) {
        void this.send(questionId);
        return;
      }
      this.failed(questionId, error);
    }
  }

  private failed(questionId: number, error: unknown): void {
    if (error instanceof RequestError && isPermanent(error.status)) {
      this.listener.state(questionId, { kind: "failed", ended: error.status === 409, message: error.fields[0]?.message ?? error.message });
      if (error.status === 409) {
        this.clear();
        this.listener.closed();
      }
      return;
    }
    this.failures += 1;
    const offline = !(error instanceof RequestError) || (typeof navigator !== "undefined" && !navigator.onLine);
    this.listener.state(questionId, { kind: "retrying", reason: offline ? "offline" : "server" });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** Math.min(this.failures - 1, 5));
    this.timer = setTimeout(() => this.retryAll(), delay);
  }

  private changed(): void {
    this.writeStorage();
    this.listener.pending(this.unsaved.size);
  }

  private readStorage(): Record<string, AnswerValue> {
    try {
      const value: unknown = JSON.parse(window.localStorage.getItem(this.storageKey) ?? "{}");
      return value && typeof value === "object" ? (value as Record<string, AnswerValue>) : {};
    } catch {
      return {};
    }
  }

  private writeStorage(): void {
    try {
      if (this.unsaved.size) window.localStorage.setItem(this.storageKey, JSON.stringify(Object.fromEntries(this.unsaved)));
      else window.localStorage.removeItem(this.storageKey);
    } catch {
      // Storage may be unavailable (private mode, quota): the in-memory copy still retries.
    }
  }
}

/** 4xx other than timeout and rate limit: sending the same answer again will not help. */
function isPermanent(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
