import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** Largest JSON body the API accepts. */
export const MAX_BODY_BYTES = 1_000_000;

/**
 * Reads the body as JSON and validates it. Malformed JSON → 400; a body that does not fit
 * the schema → ZodError (mapped to 422 with every field listed). An empty body is `{}`.
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new AppError("payload_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes.`);
  let value: unknown = {};
  if (text.trim()) {
    try {
      value = JSON.parse(text);
    } catch {
      throw new AppError("invalid_json", "The request body is not valid JSON.");
    }
  }
  return schema.parse(value);
}

/** Validates the query string (single values; a repeated parameter keeps its last value). */
export function readQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams.entries());
  return schema.parse(params);
}

/** A positive integer path id; anything else cannot name a resource, so it is a 404. */
export function intId(value: string, what: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2_147_483_647) {
    throw new AppError("not_found", `${what} not found.`);
  }
  return Number(value);
}
