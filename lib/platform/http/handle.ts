import type { Db } from "@/db";
import { AppError } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { setRateHeaders, uncountedRate } from "@/lib/platform/ratelimit";
import { admitCaller, admittedBy, callerAdmitters, type Admitted, type Admitters, type CallerOf, type PlayerCaller, type PlayerCallers, type Players } from "./callers";
import type { AnyContract, CallerKind, Contract, ContractResult, ParsedPart } from "@/lib/kernel/contract";
import { toErrorResponse } from "./http-errors";
import { logRequest } from "./request-log";
import { readBodyText, readJson, readQuery, rejectOversizedBody, rejectUnstorableParams } from "./parse";
import { readBinaryFile, readTextFile, readUpload, rejectOversizedUpload, type UploadedFile } from "./upload";
import { getDatabase } from "@/lib/platform/database";

/** What a handler is given: the request, the database, the admitted caller and the parsed input. */
export type HandlerContext<C extends Contract, P extends Players = Players> = {
  req: Request;
  requestId: string;
  db: Db;
  params: ParsedPart<C, "params">;
  query: ParsedPart<C, "query">;
  body: C extends { rawBody: true } ? string : C extends { upload: object } ? UploadedFile : C extends { textFile: object } ? string : C extends { binaryFile: object } ? Uint8Array : ParsedPart<C, "body">;
} & CallerOf<C["caller"], P>;

export type RouteHandler = ((req: Request, context?: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>) & {
  contract: AnyContract;
};

/**
 * The one wrapper of every route handler of the app, whoever calls it: request id → body
 * size → the caller (./callers.ts: API key, session, token, player or nobody) → params,
 * query and body parsed from the contract, once → the handler → the contract's status →
 * headers (request id, rate limit, no-store) and one log line. Every response, errors
 * included, leaves through `finish`. The products' players are signed in by `players`: the
 * route registry makes the app's one `handle` (lib/registry/handle.ts).
 */
export function createHandle<Player, DeploymentPlayer>(players: { player: PlayerCaller<Player>; deployment_player: PlayerCaller<DeploymentPlayer> }) {
  type P = { player: Player; deployment_player: DeploymentPlayer };
  const admitters = callerAdmitters(players as PlayerCallers<Players>);
  return function handle<C extends Contract>(contract: C, run: (ctx: HandlerContext<C, P>) => Promise<ContractResult<C>>): RouteHandler {
    return handleWith(admitters, contract, run as (ctx: HandlerContext<C>) => Promise<ContractResult<C>>);
  };
}

function handleWith<C extends Contract>(admitters: Admitters, contract: C, run: (ctx: HandlerContext<C>) => Promise<ContractResult<C>>): RouteHandler {
  const handler = async (req: Request, context?: { params: Promise<Record<string, string | string[]>> }): Promise<Response> => {
    const started = performance.now();
    const requestId = newId("req");
    let admitted: Admitted | undefined;
    let response: Response;
    try {
      // An upload route's limit is the configured file size; every other route's, its own or 1 MB.
      if (contract.upload) rejectOversizedUpload(req);
      else rejectOversizedBody(req, contract.maxBodyBytes);
      const database = await getDatabase();
      const rawParams = (await context?.params) ?? {};
      admitted = await admitCaller(contract.caller as CallerKind, { database, req, contract, params: rawParams }, admitters);
      const input = await parseInput(contract, req, rawParams);
      const result = await run({ req, requestId, db: database.db, ...input, ...admitted.context } as HandlerContext<C>);
      response = result instanceof Response ? result : respond(contract, result);
    } catch (error) {
      admitted ??= admittedBy(error);
      response = toErrorResponse(error, requestId, req);
    }
    return finish(req, response, { contract, requestId, started, admitted });
  };
  return Object.assign(handler, { contract: contract as AnyContract });
}

/**
 * Parses what the contract declares, in the order a client would fix it: the path (a value
 * that cannot name a resource is a 404 with the contract's message, as for a missing one),
 * then the query and the body (422 with every field listed; 400 for malformed JSON).
 */
async function parseInput(contract: AnyContract, req: Request, raw: Record<string, string | string[]>) {
  rejectUnstorableParams(raw);
  let params: unknown = raw;
  if (contract.params) {
    const parsed = contract.params.safeParse(raw);
    if (!parsed.success) throw new AppError("not_found", parsed.error.issues[0]?.message ?? "Not found.");
    params = parsed.data;
  }
  const query = contract.query ? readQuery(req, contract.query) : {};
  let body: unknown = {};
  if (contract.upload) body = await readUpload(req, contract.upload.field);
  else if (contract.rawBody) body = await readBodyText(req, contract.maxBodyBytes);
  else if (contract.textFile) body = await readTextFile(req, contract.textFile.field, contract.maxBodyBytes);
  else if (contract.binaryFile) body = await readBinaryFile(req, contract.binaryFile.field, contract.maxBodyBytes);
  else if (contract.body) body = await readJson(req, contract.body, contract.maxBodyBytes);
  return { params, query, body };
}

function respond(contract: AnyContract, result: unknown): Response {
  if (!contract.response || result === undefined) return new Response(null, { status: contract.status === 200 ? 204 : contract.status });
  return Response.json(result, { status: contract.status });
}

function finish(req: Request, response: Response, meta: { contract: AnyContract; requestId: string; started: number; admitted?: Admitted }): Response {
  const { contract, admitted } = meta;
  response.headers.set("X-Request-Id", meta.requestId);
  const rate = admitted?.rate ?? (contract.caller === "workspace" && !admitted ? uncountedRate() : undefined);
  if (rate) setRateHeaders(response.headers, rate);
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  logRequest({
    method: req.method,
    // A token in the path is a credential: such routes log their template, never the value.
    url: contract.caller === "recipient" ? `http://localhost${contract.path}` : req.url,
    status: response.status,
    durationMs: performance.now() - meta.started,
    requestId: meta.requestId,
    keyPrefix: admitted?.keyPrefix,
    caller: admitted?.kind,
  });
  return response;
}

