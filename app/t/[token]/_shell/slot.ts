/**
 * What proxy.ts and the recipient's first page share across their bundles (the proxy is
 * bundled apart from the app, so module state is not shared; globalThis is, in one process).
 * No imports: this runs in the proxy bundle.
 *
 * - `answer`: the first page of a personal link from its shell (./first-page.ts), handed in by
 *   instrumentation.ts at start; until then, and in tests, every page is rendered.
 * - `secret`: proves that a request for a shell comes from this process (the header below).
 */
export type FirstPageAnswer = (token: string, headers: Headers) => Promise<Response | undefined>;

type Slot = { answer?: FirstPageAnswer; secret: string };

export const firstPageSlot: Slot = ((globalThis as { __certifyFirstPage?: Slot }).__certifyFirstPage ??= {
  secret: Array.from(crypto.getRandomValues(new Uint8Array(24)), (b) => b.toString(16).padStart(2, "0")).join(""),
});

/** The header of the process's own request for a shell: `<secret> <shell key hash>`. */
export const SHELL_REQUEST_HEADER = "x-certify-page-shell";

/** For the page: the key asked for when this request is this process's own request for a shell. */
export function requestedShellKey(headers: Headers): string | undefined {
  const [secret, key] = (headers.get(SHELL_REQUEST_HEADER) ?? "").split(" ");
  return secret === firstPageSlot.secret && key ? key : undefined;
}
