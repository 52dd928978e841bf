import { z } from "zod";
import type { ApiScope } from "@/lib/kernel/scopes";
import { isIdShaped, MAX_INT32 } from "./values";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call an endpoint, and so which credentials the one wrapper (./handle.ts) admits:
 * - `workspace`: an API key (admit → scope → rate limit), or a same-origin signed-in session
 *   (the dashboard, with its own per-user bucket for changes). Every `/api/v1` route.
 * - `session`: a same-origin signed-in session only: dashboard-only operations (key
 *   management, own-certification editing, …) under `/api/app`.
 * - `recipient`: the personal token of a test recipient, in the path (`/api/t/{token}`).
 * - `player`: the player cookie of a competition (`/api/c/{ctf_id}/…`).
 * - `deployment_player`: the player cookie of a standalone deployment (`/api/d/{deployment_id}/…`).
 * - `public`: nobody; public pages' forms (changes must come from our own origin).
 * - `provider`: another service calling us server to server (Resend's signed events); the
 *   handler verifies the signature over the raw body.
 */
export type CallerKind = "workspace" | "session" | "recipient" | "player" | "deployment_player" | "public" | "provider";

/**
 * One endpoint, declared once: the route's validation and status (./handle.ts), the OpenAPI
 * document (./openapi.ts) and the auth/tenant/scope test table are all derived from it.
 */
export type Contract = {
  /** Stable name, e.g. "tests.create": the OpenAPI operationId and the key of test fixtures. */
  id: string;
  method: HttpMethod;
  /** The full path with `{param}` placeholders, e.g. "/api/v1/tests/{code}". */
  path: string;
  caller: CallerKind;
  /** Scope an API key must hold (certification routes need none beyond an active key). */
  scope?: ApiScope;
  /** Counts against the 30-per-60-s creations log of an API key as well. */
  creation?: boolean;
  /** Path parameters; a value that does not parse names no resource: 404 with the message. */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body is read as text and handed over unparsed (a signature is over the exact bytes). */
  rawBody?: boolean;
  /** Largest body accepted (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /**
   * The body is one file sent as `multipart/form-data` in the part named `field` (./upload.ts):
   * the handler gets it as an UploadedFile. The configured file limit (FILE_MAX_BYTES)
   * applies instead of `maxBodyBytes`.
   */
  upload?: { field: string; description: string };
  /**
   * The body is one UTF-8 text file, sent either as the whole body (any content type) or as
   * `multipart/form-data` in the part named `field` (./upload.ts readTextFile): the handler gets
   * its text. `maxBodyBytes` (default 1 MB) is the file's limit.
   */
  textFile?: { field: string; description: string; mediaTypes: string[] };
  /**
   * The body is one binary file (an archive), sent either as the whole body (any content type)
   * or as `multipart/form-data` in the part named `field` (./upload.ts readBinaryFile): the
   * handler gets its bytes. `maxBodyBytes` (default 1 MB) is the file's limit.
   */
  binaryFile?: { field: string; description: string; mediaTypes: string[] };
  status: number;
  /** The success body; absent: the response has none (204) or is not JSON (a file). */
  response?: z.ZodType;
  /** What a successful answer is when it is not JSON (e.g. "text/csv"). */
  produces?: string | readonly string[];
  docs: {
    tag: string;
    summary: string;
    description?: string;
    /** Error statuses beyond those every endpoint of its caller kind can answer. */
    errors?: number[];
    /** Kept out of the OpenAPI document (an internal protocol, not an interface). */
    hidden?: boolean;
  };
};

export type AnyContract = Contract;

/** Declares an endpoint; the identity function, there to keep the declaration's exact types. */
export function contract<const C extends Contract>(definition: C): C {
  return definition;
}

/** The parsed output of a contract's params, query or body (an empty object when it declares none). */
export type ParsedPart<C, K extends "params" | "query" | "body"> = C extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : Record<string, never>;

/** What a contract's handler returns: its response's input side (the view objects of lib/), or a Response of its own. */
export type ContractResult<C> = C extends { response: infer R extends z.ZodType } ? z.input<R> | Response : void | Response;

/** The body a client sends to a contract. */
export type ContractBody<C> = C extends { body: infer S extends z.ZodType } ? z.input<S> : never;

/** The success body a client receives from a contract. */
export type ContractReply<C> = C extends { response: infer R extends z.ZodType } ? z.output<R> : void;

/** The placeholders of a path, in order: "/a/{x}/b/{y}" → ["x", "y"]. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
}

/** The URL of a contract's path with its parameters filled in (encoded) and a query string. */
export function urlOf(contract: Pick<AnyContract, "path">, params: Record<string, string | number> = {}, query: Record<string, string | number | undefined> = {}): string {
  const path = contract.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

// ---------------------------------------------------------------------------------------
// Path parameters. A value that cannot name a resource is a 404 with the same message as a
// resource that does not exist (or is another workspace's): the two are never told apart.

/** A positive integer id in the path (a certification, a class, a recipient…). */
export const intParam = (what: string) =>
  z
    .string({ error: `${what} not found.` })
    .regex(/^[1-9][0-9]{0,9}$/, `${what} not found.`)
    .transform(Number)
    .refine((value) => value <= MAX_INT32, `${what} not found.`)
    .meta({ description: `${what} id (a positive integer).`, example: "42" });

/** A prefixed id in the path (`ctf_…`, `chl_…`): its shape is checked, its existence by the domain. */
export const prefixedParam = (prefix: string, what: string) =>
  z
    .string({ error: `${what} not found.` })
    .refine((value) => isIdShaped(value, prefix), `${what} not found.`)
    .meta({ description: `${what} id (\`${prefix}_…\`).`, example: `${prefix}_01JD6S1B9R8W6H3KX1ZJ0V5N2Q` });

/** Any other path value (a test code, a token): bounded, its shape checked by the domain. */
export const textParam = (what: string, description?: string) =>
  z
    .string({ error: `${what} not found.` })
    .min(1, `${what} not found.`)
    .max(200, `${what} not found.`)
    .meta({ description: description ?? what });
