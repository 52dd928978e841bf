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

/**
 * An ISO 8601 date-time with its offset, handed on as a Date, in the years 2000–9999: a date
 * PostgreSQL and every client hold alike (PostgreSQL has no year 0, and two-digit years are
 * read as 19xx or 20xx by some drivers, so `0099-…` would be stored as 1999). `what` names the
 * field in the message (default: "Must be …").
 */
export const isoDateTime = (what?: string) =>
  z.iso
    .datetime({ offset: true, message: `${what ? `${what} must` : "Must"} be an ISO 8601 date-time with an offset, e.g. 2026-12-01T18:00:00Z.` })
    .transform((value) => new Date(value))
    .refine((date) => date.getUTCFullYear() >= 2000 && date.getUTCFullYear() <= 9999, `${what ? `${what} must` : "Must"} be a date between the years 2000 and 9999.`);
