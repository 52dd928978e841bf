import type { z } from "zod";
import { AppError, type FieldError } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { toErrorResponse } from "./http-errors";
import { isStorableText, MAX_BODY_BYTES } from "@/lib/kernel/values";

export { MAX_BODY_BYTES };

const tooLarge = (limit: number) => new AppError("payload_too_large", `The body is larger than ${limit} bytes.`);

/**
 * Refuses a request whose announced `Content-Length` is over the limit, before a byte of
 * its body is read. Every wrapper calls it first, so a route that reads no body refuses one
 * too.
 */
export function rejectOversizedBody(req: Request, limit: number = MAX_BODY_BYTES): void {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw tooLarge(limit);
}

/**
 * Reads the body as text, refusing it on its announced `Content-Length` before a byte is
 * read, and stopping at the limit when the length is not announced (chunked) or is a lie.
 */
export async function readBodyText(req: Request, limit: number = MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBytes(req, limit)).toString("utf8");
}

/** The body's bytes, with the limits of readBodyText (`tooLargeError` makes the 413). */
export async function readBodyBytes(req: Request, limit: number = MAX_BODY_BYTES, tooLargeError: () => Error = () => tooLarge(limit)): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw tooLargeError();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads the body as JSON and validates it. Too large → 413; malformed JSON → 400; a string
 * PostgreSQL cannot store (NUL, an unpaired surrogate) → 422 naming the field; a body that
 * does not fit the schema → ZodError (mapped to 422 with every field listed). An empty
 * body is `{}`.
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S, limit = MAX_BODY_BYTES): Promise<z.output<S>> {
  const text = await readBodyText(req, limit);
  let value: unknown = {};
  if (text.trim()) {
    try {
      value = JSON.parse(text);
    } catch {
      throw new AppError("invalid_json", "The request body is not valid JSON.");
    }
  }
  rejectUnstorableText(value);
  return schema.parse(value);
}

/** Validates the query string (single values; a repeated parameter keeps its last value). */
export function readQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams.entries());
  rejectUnstorableText(params);
  return schema.parse(params);
}

/** A positive integer path id; anything else cannot name a resource, so it is a 404. */
export function intId(value: string, what: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2_147_483_647) {
    throw new AppError("not_found", `${what} not found.`);
  }
  return Number(value);
}

/**
 * Path parameters are the caller's text too: one PostgreSQL cannot store cannot name a
 * resource, so it is a 404 like any other unknown id.
 */
export function rejectUnstorableParams(params: Record<string, unknown>): void {
  for (const value of Object.values(params)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === "string" && !isStorableText(item))) throw new AppError("not_found", "Not found.");
  }
}

/**
 * Every string of a parsed body or query (keys included), checked once at the edge. The
 * walk is iterative: a body nested ten thousand levels deep must not overflow the stack.
 */
function rejectUnstorableText(value: unknown): void {
  type Node = { value: unknown; key: string; parent?: Node };
  const pathOf = (node: Node | undefined): string => {
    const parts: string[] = [];
    for (let at = node; at?.parent; at = at.parent) parts.unshift(at.key);
    return parts.join(".") || "(body)";
  };
  const fields: FieldError[] = [];
  const stack: Node[] = [{ value, key: "" }];
  while (stack.length && fields.length < 20) {
    const node = stack.pop()!;
    if (typeof node.value === "string") {
      if (!isStorableText(node.value)) fields.push({ field: pathOf(node), message: "Must not contain NUL characters or unpaired surrogates." });
    } else if (Array.isArray(node.value)) {
      node.value.forEach((item, index) => stack.push({ value: item, key: String(index), parent: node }));
    } else if (node.value && typeof node.value === "object") {
      for (const [key, item] of Object.entries(node.value)) {
        if (!isStorableText(key)) fields.push({ field: pathOf(node) === "(body)" ? "(key)" : `${pathOf(node)}.(key)`, message: "Keys must not contain NUL characters or unpaired surrogates." });
        else stack.push({ value: item, key, parent: node });
      }
    }
  }
  if (fields.length) throw new AppError("validation_failed", "Some fields must be corrected.", { fields });
}

/**
 * Wraps a handler of a library (Auth.js, Inngest) that reads its own body, so that a body
 * announced over the limit is refused before the library reads it.
 */
export function withBodyLimit<R extends Request, C extends unknown[]>(handler: (req: R, ...rest: C) => Promise<Response>, limit = MAX_BODY_BYTES) {
  return async (req: R, ...rest: C): Promise<Response> => {
    try {
      rejectOversizedBody(req, limit);
    } catch (error) {
      return toErrorResponse(error, newId("req"));
    }
    return handler(req, ...rest);
  };
}
