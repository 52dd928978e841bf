// Types of scripts/http-server.mjs (plain JavaScript, run by `node` alone), for its test.
import type { IncomingMessage, Server, ServerResponse } from "node:http";

export declare const KEEP_ALIVE_TIMEOUT_MS: number;
export declare const TIMEOUT_CHECK_INTERVAL_MS: number;
export declare const serverVariables: Record<"HTTP_HEADERS_TIMEOUT_MS" | "HTTP_REQUEST_TIMEOUT_MS", { fallback: number; min: number; max: number }>;

export type ServerSettings = { trustProxy: number; headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };

export declare function parseTrustProxy(raw: string | undefined): number;
export declare function parseMilliseconds(name: keyof typeof serverVariables, raw: string | undefined): number;
export declare function serverSettings(env: Record<string, string | undefined>): ServerSettings;
export declare function forwardedFor(received: string | string[] | undefined, socketAddress: string | undefined, trustProxy: number): string | undefined;
export declare function createAppServer(settings: ServerSettings, handler: (req: IncomingMessage, res: ServerResponse) => unknown): Server;
