import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { ApiScope } from "@/lib/keys/scopes";

/** Every /api/v1 route registers here, from the same zod schemas the route parses with. */
export const registry = new OpenAPIRegistry();

registry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-API-KEY" });
registry.registerComponent("securitySchemes", "Bearer", { type: "http", scheme: "bearer" });

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "Machine-readable code, e.g. not_found, validation_failed." }),
      message: z.string(),
      request_id: z.string().meta({ example: "req_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
      fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      retry_after: z.number().int().optional().meta({ description: "Seconds to wait (429; also 503, with the Retry-After header)." }),
    }),
  })
  .meta({ id: "Error" });

const errorDescriptions: Record<number, string> = {
  400: "Malformed JSON body (invalid_json), or a path that is not valid percent-encoding (invalid_path).",
  401: "API key missing, unknown or revoked.",
  403: "The key lacks the required scope.",
  404: "Not found, or not the caller's (indistinguishable).",
  409: "Beyond the plan, or the resource's state forbids it.",
  422: "Field errors, all listed in error.fields.",
  413: "The body is over 1,000,000 bytes (refused on its Content-Length, before it is read).",
  429: "Rate limit exceeded (see Retry-After).",
  503: "The database is unreachable, or too many concurrent changes to the workspace; nothing was changed. Retry after Retry-After seconds.",
};

const rateHeaders = z.object({
  "X-Request-Id": z.string().meta({ description: "Identifier of this request (req_…)." }),
  "X-RateLimit-Limit": z.string().meta({ description: "Requests per 60-second window (120)." }),
  "X-RateLimit-Remaining": z.string().meta({ description: "Requests left in the window." }),
  "X-RateLimit-Reset": z.string().meta({ description: "Unix time when the oldest counted request leaves the window." }),
});

type Method = "get" | "post" | "patch" | "put" | "delete";

export type RouteDoc = {
  method: Method;
  /** OpenAPI path under /api/v1, e.g. "/certifications/{id}". */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  scope?: ApiScope;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  success: { status: number; description: string; schema?: z.ZodType };
  errors?: number[];
};

export const API_PREFIX = "/api/v1";

export function documentRoute(route: RouteDoc): void {
  const errors = new Set([401, 404, 429, 503, ...(route.scope ? [403] : []), ...(route.body ? [400, 413, 422] : []), ...(route.errors ?? [])]);
  if (route.query) errors.add(422);
  const responses: Record<number, { description: string; headers?: typeof rateHeaders; content?: object }> = {
    [route.success.status]: {
      description: route.success.description,
      headers: rateHeaders,
      ...(route.success.schema ? { content: { "application/json": { schema: route.success.schema } } } : {}),
    },
  };
  for (const status of [...errors].sort()) {
    responses[status] = {
      description: errorDescriptions[status] ?? "Error.",
      headers: rateHeaders,
      content: { "application/json": { schema: errorSchema } },
    };
  }
  const scopeNote = route.scope ? `Requires the \`${route.scope}\` scope.` : "Any active key of the workspace.";
  registry.registerPath({
    method: route.method,
    path: API_PREFIX + route.path,
    summary: route.summary,
    description: [route.description, scopeNote].filter(Boolean).join("\n\n"),
    tags: [route.tag],
    security: [{ ApiKey: [] }, { Bearer: [] }],
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.body ? { body: { content: { "application/json": { schema: route.body } }, required: true } } : {}),
    },
    responses,
  });
}

export function generateOpenApiDocument() {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Certify & CTF API",
      version: "1.0.0",
      description:
        "Certification test delivery and competition platform. Every call carries an API key " +
        "(`X-API-KEY` or `Authorization: Bearer`). 120 requests per sliding 60 s per key; " +
        "creating tests or classes also counts against 30 per 60 s. Errors share one shape. " +
        "Text fields never accept NUL characters or unpaired UTF-16 surrogates (422), and integer " +
        "ids in bodies fit a 32-bit signed integer (422 above 2147483647).",
    },
    servers: [{ url: "/" }],
  });
}
