import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { AnyContract, CallerKind } from "@/lib/kernel/contract";
import { MAX_BODY_BYTES } from "@/lib/kernel/values";

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "Machine-readable code, e.g. not_found, validation_failed." }),
      message: z.string(),
      request_id: z.string().meta({ example: "req_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
      fields: z
        .array(z.object({ field: z.string(), message: z.string() }))
        .optional()
        .meta({ description: "With 422: every field to correct, by its path in the body (`recipients.2.email`)." }),
      retry_after: z.number().int().optional().meta({ description: "Seconds to wait (429; also 503, with the Retry-After header)." }),
    }),
  })
  .meta({
    id: "Error",
    example: { error: { code: "validation_failed", message: "Some fields must be corrected.", request_id: "req_01JD6S1B9R8W6H3KX1ZJ0V5N2Q", fields: [{ field: "questions", message: "Too small: expected number to be >=1" }] } },
  });

const errorDescriptions: Record<number, string> = {
  400: "Malformed JSON body (invalid_json), or a path that is not valid percent-encoding (invalid_path).",
  401: "Credentials missing, unknown or revoked: no API key and no signed-in session (unauthorized).",
  403: "The API key lacks the required scope, or a browser request that changes something came from another origin (forbidden).",
  404: "Not found, or not the caller's: the two are never told apart (not_found).",
  409: "Beyond the plan (plan_limit_exceeded), or the resource's state forbids it (conflict).",
  413: `The body is over ${MAX_BODY_BYTES.toLocaleString("en")} bytes (payload_too_large), refused on its Content-Length before it is read.`,
  422: "Field errors, all listed in error.fields (validation_failed).",
  429: "Rate limit exceeded (rate_limit_exceeded); wait Retry-After seconds.",
  503: "The database is unreachable, or too many concurrent changes to the workspace; nothing was changed (service_unavailable). Retry after Retry-After seconds.",
};

const requestIdHeader = { "X-Request-Id": z.string().meta({ description: "Identifier of this request (req_…)." }) };
const rateHeaders = z.object({
  ...requestIdHeader,
  "X-RateLimit-Limit": z.string().meta({ description: "Requests per 60-second window (120)." }),
  "X-RateLimit-Remaining": z.string().meta({ description: "Requests left in the window." }),
  "X-RateLimit-Reset": z.string().meta({ description: "Unix time when the oldest counted request leaves the window." }),
});
const plainHeaders = z.object(requestIdHeader);

/** Credentials by caller kind (contract.ts); a recipient's token is in the path itself. */
const security: Record<CallerKind, Record<string, string[]>[]> = {
  workspace: [{ ApiKey: [] }, { Bearer: [] }, { Session: [] }],
  session: [{ Session: [] }],
  recipient: [],
  player: [{ Player: [] }],
  deployment_player: [{ DeploymentPlayer: [] }],
  public: [],
  provider: [],
};

const callerNotes: Record<CallerKind, (contract: AnyContract) => string> = {
  workspace: (contract) =>
    (contract.scope ? `Requires the \`${contract.scope}\` scope.` : "Any active key of the workspace.") +
    " The dashboard calls it with its signed-in session (same origin; changes count against the user's own 120-per-60-s bucket).",
  session: () => "Dashboard only: a signed-in session of the same origin. Changes count against the user's 120-per-60-s bucket.",
  recipient: () => "No account: the personal token in the path is the credential. Never cached.",
  player: () => "A joined player of the competition: the HttpOnly cookie `ctf_player_{ctf_id}` set when the invitation was accepted (401 without it). Changes must come from a page of this app (same Origin).",
  deployment_player: () =>
    "A player of the standalone deployment: the HttpOnly cookie `dep_player_{deployment_id}` set when a display name was entered on its page (401 without it). Changes must come from a page of this app (same Origin).",
  public: () => "No credentials. Changes must come from a page of this app (same Origin).",
  provider: () => "Called by a provider, server to server; its signature over the raw body is the credential (401 when it does not verify).",
};

function expectedErrors(contract: AnyContract): number[] {
  const errors = new Set<number>([503, ...(contract.docs.errors ?? [])]);
  if (contract.caller === "workspace" || contract.caller === "session") [401, 429].forEach((s) => errors.add(s));
  if (contract.caller === "workspace" && contract.scope) errors.add(403);
  if (contract.method !== "GET" && contract.caller !== "recipient" && contract.caller !== "provider") errors.add(403);
  if (contract.caller === "provider" || contract.caller === "player" || contract.caller === "deployment_player") errors.add(401);
  if (contract.params) errors.add(404);
  if (contract.query) errors.add(422);
  if (contract.body) [400, 413, 422].forEach((s) => errors.add(s));
  if (contract.rawBody) errors.add(413);
  if (contract.upload || contract.textFile || contract.binaryFile) [413, 422].forEach((s) => errors.add(s));
  return [...errors].sort((a, b) => a - b);
}

const uploadTooLarge =
  "The file is over the configured limit (FILE_MAX_BYTES, 10 MB by default) (payload_too_large), refused on its Content-Length before it is read when announced.";

/** A multipart body of one file part. */
function uploadSchema(upload: NonNullable<AnyContract["upload"]>) {
  return z.object({ [upload.field]: z.string().meta({ format: "binary", description: upload.description }) });
}

/** A file as the whole body (in any of its media types) or as one multipart part. */
function textFileContent(file: NonNullable<AnyContract["textFile"] | AnyContract["binaryFile"]>, binary = false) {
  const whole = Object.fromEntries(file.mediaTypes.map((type) => [type, { schema: z.string().meta({ ...(binary ? { format: "binary" } : {}), description: file.description }) }]));
  return { ...whole, "multipart/form-data": { schema: uploadSchema(file) } };
}

function register(registry: OpenAPIRegistry, contract: AnyContract): void {
  const headers = contract.caller === "workspace" ? rateHeaders : plainHeaders;
  const success = contract.response
    ? { content: { "application/json": { schema: contract.response } } }
    : contract.produces
      ? { content: Object.fromEntries([contract.produces].flat().map((type) => [type, { schema: z.string() }])) }
      : {};
  const responses: Record<string, object> = {
    [contract.status]: { description: contract.docs.summary, headers, ...success },
  };
  for (const status of expectedErrors(contract)) {
    const description = status === 413 && contract.upload ? uploadTooLarge : (errorDescriptions[status] ?? "Error.");
    responses[status] = { description, headers, content: { "application/json": { schema: errorSchema } } };
  }
  registry.registerPath({
    operationId: contract.id,
    method: contract.method.toLowerCase() as "get",
    path: contract.path,
    summary: contract.docs.summary,
    description: [contract.docs.description, callerNotes[contract.caller](contract)].filter(Boolean).join("\n\n"),
    tags: [contract.docs.tag],
    security: security[contract.caller],
    request: {
      ...(contract.params ? { params: contract.params as z.ZodObject } : {}),
      ...(contract.query ? { query: contract.query as z.ZodObject } : {}),
      ...(contract.body ? { body: { content: { "application/json": { schema: contract.body } }, required: true } } : {}),
      ...(contract.rawBody ? { body: { content: { "application/json": { schema: z.string() } }, required: true } } : {}),
      ...(contract.upload ? { body: { content: { "multipart/form-data": { schema: uploadSchema(contract.upload) } }, required: true } } : {}),
      ...(contract.textFile ? { body: { content: textFileContent(contract.textFile), required: true } } : {}),
      ...(contract.binaryFile ? { body: { content: textFileContent(contract.binaryFile, true), required: true } } : {}),
    },
    responses,
  });
}

/** The OpenAPI 3.1 document of the given endpoints (lib/registry/routes.ts lists them all). */
export function generateOpenApiDocument(contracts: readonly AnyContract[]) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-API-KEY" });
  registry.registerComponent("securitySchemes", "Bearer", { type: "http", scheme: "bearer" });
  registry.registerComponent("securitySchemes", "Session", {
    type: "apiKey",
    in: "cookie",
    name: "authjs.session-token",
    description: "The dashboard's signed-in session (Auth.js); same-origin requests only.",
  });
  registry.registerComponent("securitySchemes", "Player", {
    type: "apiKey",
    in: "cookie",
    name: "ctf_player_{ctf_id}",
    description: "A competition player's HttpOnly cookie, one per competition (named with its id), set when the invitation is accepted.",
  });
  registry.registerComponent("securitySchemes", "DeploymentPlayer", {
    type: "apiKey",
    in: "cookie",
    name: "dep_player_{deployment_id}",
    description: "A standalone deployment's player's HttpOnly cookie, one per deployment (named with its id), set when a display name is entered on its page.",
  });
  for (const contract of contracts) if (!contract.docs.hidden) register(registry, contract);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Certify & CTF API",
      version: "1.0.0",
      description:
        "Certification test delivery and competition platform. Every `/api/v1` call carries an API key " +
        "(`X-API-KEY` or `Authorization: Bearer`). 120 requests per sliding 60 s per key; " +
        "creating tests or classes also counts against 30 per 60 s. Errors share one shape, and every " +
        "answer under `/api` is JSON: a path no endpoint has is a 404 `not_found`, a method the path " +
        "does not serve a 405 `method_not_allowed` whose `Allow` header lists the ones it does " +
        "(`OPTIONS` answers 204 with the same `Allow`), a method no endpoint can serve (`PROPFIND`…) a 501 `not_implemented`. " +
        "Text fields never accept NUL characters or unpaired UTF-16 surrogates (422), and integer " +
        "ids in bodies fit a 32-bit signed integer (422 above 2147483647). The dashboard's own routes " +
        "(`/api/app`, signed-in session), the recipient's (`/api/t/{token}`) and the public forms' " +
        "are listed too, under their own tags.",
    },
    servers: [{ url: "/" }],
  });
}
