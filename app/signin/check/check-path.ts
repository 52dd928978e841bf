/**
 * The "check your e-mail" page for a link just sent to `email`: the address rides in the query
 * (shown as text, never trusted), and so does where the sign-in returns to when it is not the
 * trainer area, so "use another address" keeps it.
 */
export function checkPath(email: string, redirectTo: string): string {
  const query = new URLSearchParams({ email: email.slice(0, 200) });
  if (redirectTo !== "/tests") query.set("callbackUrl", redirectTo);
  return `/signin/check?${query}`;
}
