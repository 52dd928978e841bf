import { createHash } from "node:crypto";
import type { StartView } from "@/components/taking/start-panel";
import type { TakingView } from "@/lib/certification/taking/taking";

/** What the start page shows of a recipient's view (and all its client component is given). */
export function startViewOf(view: TakingView, name = view.name): StartView {
  return { certification: view.certification, name, test: view.test, window: view.window, recordIntegrity: view.recordIntegrity };
}

/**
 * The key of a start page's shell: everything the page shows but the recipient's name and
 * token — whether there is a name, the token's length, the locale and the rest of the start
 * view (the test's settings and window, this recipient's extra time and count of
 * multiple-response questions). Recipients with the same key get the same page but for those
 * two; a change of anything shown (a window that closes, a new extra time) is another key.
 */
export function startShellKey(view: TakingView, locale: string, tokenLength: number): string {
  return createHash("sha256")
    .update(JSON.stringify(["start", locale, tokenLength, view.name !== "", startViewOf(view, "")]))
    .digest("hex");
}
