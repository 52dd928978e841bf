/** The query parameters a web target may read (the target route's contract lists them; browser-safe). */
export const targetQueryNames = ["q", "n", "user", "password", "name", "repo", "id", "path", "input", "msg", "lat", "lon"] as const;
export type TargetQuery = Partial<Record<(typeof targetQueryNames)[number], string>>;
