import type { Db } from "@/db";
import type { Trainer } from "../fixtures";

/** Two workspaces in one database: `owner` makes the calls, `stranger` owns what `owner` must not reach. */
export type SampleWorld = { db: Db; owner: Trainer; stranger: Trainer };

/**
 * How to call one contract successfully, keyed by the contract's id in `samples`: the shared
 * route table (tests/platform/route-table/route-table.test.ts) and the fuzz suite build every request
 * from these, so a new endpoint adds one entry.
 */
export type Sample = {
  /**
   * Path params naming a resource of `trainer`, created fresh on each call (a DELETE must not
   * see one an earlier call removed). Given `world.stranger` it makes the stranger's.
   */
  params?: (world: SampleWorld, trainer: Trainer) => Promise<Record<string, string>>;
  /** A query string that selects something (e.g. `{ ctf_id }`), for `trainer`. */
  query?: (world: SampleWorld, trainer: Trainer) => Promise<Record<string, string>>;
  /** A valid body for `trainer` (given the params just made), for contracts that take one. */
  body?: (world: SampleWorld, trainer: Trainer, params: Record<string, string>) => unknown | Promise<unknown>;
  /**
   * The `Cookie` header of a caller whose credential is a cookie (a player of the competition
   * or of the standalone deployment in `params`), for the params just made.
   */
  cookie?: (params: Record<string, string>) => string | undefined;
  /**
   * Valid bodies for `world.owner` except that one id in them names `world.stranger`'s
   * resource (`class_id`, `certification_id`, `challenge_id`…): each must be refused (404 or
   * 422) and write nothing. Keyed by what they name, e.g. "class_id".
   */
  foreignBodies?: (world: SampleWorld, params: Record<string, string>) => Promise<Record<string, unknown>>;
};

export type Samples = Record<string, Sample>;
