export type { Database, Db } from "./types";
export { rowsOf } from "./rows";

