/** The dashboard's competition routes (/api/app/ctfs/**), and what the server page passes down. */
export const ctfUrl = (id: string) => `/api/app/ctfs/${encodeURIComponent(id)}`;

/** Category and difficulty choices, read on the server from the domain's lists. */
export type CtfOptions = { categories: readonly string[]; difficulties: readonly string[] };
