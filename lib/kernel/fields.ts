import { z } from "zod";
import { isStorableText, MAX_INT32 } from "./values";

/**
 * The id of a row in a body (certification_id, class_id, domain and question ids): a
 * positive whole number that fits PostgreSQL's `integer`, so a larger one is a field error,
 * not a database error.
 */
export const rowId = (required = "Give an id (a whole number).") =>
  z.number({ error: required }).int(required).positive("No such id.").max(MAX_INT32, "No such id.");

/**
 * Text PostgreSQL can store (no NUL, no unpaired surrogate), for schemas parsed outside
 * `readJson`/`readQuery` — a page's search parameters, say.
 */
export const storableText = () => z.string().refine(isStorableText, "Must not contain NUL characters or unpaired surrogates.");
