/**
 * The sign-in page's address for a class invitation: back to the invitation afterwards, and,
 * for display only (the sign-in page trusts them for nothing else), the invited address to
 * pre-fill and the class's name to say what is being joined.
 */
export function joinSignInHref(token: string, invitation?: { email: string; className: string }): string {
  const query = new URLSearchParams({ callbackUrl: `/join/${token}` });
  if (invitation) {
    query.set("email", invitation.email);
    query.set("joining", invitation.className);
  }
  return `/signin?${query}`;
}
