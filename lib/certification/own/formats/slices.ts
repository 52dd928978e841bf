/**
 * Reading a bank file of 4 MB takes a second or more of CPU (GIFT's parser, the XML parser,
 * html-to-text, the question rules). Node serves every request on one thread: done in one go,
 * that second stalls every other request of the server. So the readers are written as
 * generators that `yield` wherever they may pause (between blocks, lines, elements, every few
 * KB of a scan), and `runInSlices` runs them, giving the event loop back whenever a slice has
 * run SLICE_MS. A pause point costs one generator step, so they can be frequent.
 */

/** A piece of work cut in steps: it yields (nothing) where it may pause, and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/** How long a slice runs before the event loop gets its turn: well under the ~20 ms a request may wait. */
export const SLICE_MS = 10;

/** Lets every callback that is due (I/O, timers) run, then resumes. */
export const giveWay = () =>
  new Promise<void>((resolve) => {
    if (typeof setImmediate === "function") setImmediate(resolve);
    else setTimeout(resolve, 0);
  });

/** Runs the steps, yielding to the event loop each time a slice has run SLICE_MS. A throw of the steps rejects. */
export async function runInSlices<T>(steps: Steps<T>): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= SLICE_MS) {
      await giveWay();
      sliceStart = performance.now();
    }
  }
}

/** Runs the steps in one go, for callers that hold no server (a small text, a test). */
export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
