/** What the server page of a competition passes down to its dashboard components. */

/** Category and difficulty choices, read on the server from the domain's lists. */
export type CtfOptions = { categories: readonly string[]; difficulties: readonly string[] };
