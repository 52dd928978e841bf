/**
 * Where to send a user after sign-in (or any other step that takes a return address from
 * input): only a path of this app, never another site.
 *
 * Prefix checks on the raw string are not enough: browsers read `/\evil.example` and
 * `/<tab>/evil.example` as `//evil.example`, and `/.//evil.example` normalises to
 * `//evil.example`. So the target is parsed the way a browser would (WHATWG `URL`, against
 * the app's origin), accepted only when it stays on that origin, and returned as
 * path + query + fragment — re-checked, so the path itself cannot be read as
 * protocol-relative.
 *
 * @param target   the requested address (query parameter, form field, cookie); anything not a string falls back
 * @param appOrigin the app's own origin (or any URL on it), e.g. `http://localhost:3000`
 * @param fallback  where to go when the target is refused (a path of this app)
 */
export function safeRedirectPath(target: unknown, appOrigin: string, fallback = "/tests"): string {
  const origin = new URL(appOrigin).origin;
  if (typeof target !== "string" || target.length === 0) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(target, origin);
  } catch {
    return fallback;
  }
  if (resolved.origin !== origin) return fallback;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // The result is used as a relative reference: it must resolve to this origin again.
  if (!path.startsWith("/") || path.startsWith("//") || new URL(path, origin).origin !== origin) return fallback;
  return path;
}

/**
 * Auth.js's `callbacks.redirect`: every return address it takes from input (the
 * `callbackUrl` field or query parameter, its cookie, the Referer) goes through
 * `safeRedirectPath`; refused ones go to the app's root.
 */
export function authRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  return `${new URL(baseUrl).origin}${safeRedirectPath(url, baseUrl, "/")}`;
}
