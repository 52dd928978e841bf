#!/usr/bin/env node
/**
 * `npm start`: the production build (`npm run build`) served by Next.js behind the HTTP
 * server of scripts/http-server.mjs — client addresses taken from the connection, timeouts
 * for slow clients, keep-alive 65 s. `npm run dev` runs the same server in development mode
 * (Turbopack, hot reload).
 *
 *   node scripts/serve.mjs [--dev] [-p|--port PORT] [-H|--hostname HOST]
 *
 * PORT is read from the environment too (default 3000); the env files (.env, .env.local,
 * .env.$NODE_ENV…) are loaded first, with Next.js's own loader, as `next start` does.
 */
import nextEnv from "@next/env";
import { createAppServer, serverSettings } from "./http-server.mjs";

function parseArguments(argv) {
  const options = { dev: false, port: undefined, hostname: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--dev") options.dev = true;
    else if (arg === "-p" || arg === "--port") options.port = argv[++i];
    else if (arg === "-H" || arg === "--hostname") options.hostname = argv[++i];
    else {
      console.error(`serve.mjs: unknown argument ${arg}\nusage: node scripts/serve.mjs [--dev] [-p PORT] [-H HOSTNAME]`);
      process.exit(2);
    }
  }
  return options;
}

const options = parseArguments(process.argv.slice(2));
// As the `next` CLI does: an explicit NODE_ENV wins (NODE_ENV=test reads .env.test*).
process.env.NODE_ENV ||= options.dev ? "development" : "production";
process.env.NEXT_RUNTIME ||= "nodejs";
// A CommonJS bundle: Node's ESM loader cannot see its named exports.
nextEnv.loadEnvConfig(process.cwd(), options.dev, { info: () => {}, error: (...args) => console.error(...args) });

let settings;
try {
  settings = serverSettings(process.env);
} catch (error) {
  process.stderr.write(`\n${error.message}\n\n`);
  process.exit(1);
}
const port = Number(options.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  process.stderr.write(`\nThe port must be a whole number from 1 to 65535, not ${JSON.stringify(options.port ?? process.env.PORT)}.\n\n`);
  process.exit(1);
}
process.env.PORT = String(port);

// Imported once NODE_ENV is settled: Next.js reads it as its modules load.
const { default: next } = await import("next");
let handle = async () => {
  throw new Error("Next.js is not ready");
};
const server = createAppServer(settings, (req, res) => handle(req, res));
// `httpServer`: Next.js attaches its upgrade handler (hot reload's WebSocket in development) to it.
const app = next({ dev: options.dev, dir: process.cwd(), hostname: options.hostname ?? "localhost", port, httpServer: server });

try {
  await app.prepare();
} catch (error) {
  console.error(error);
  process.exit(1);
}
handle = app.getRequestHandler();

server.on("error", (error) => {
  console.error("Failed to start the server:", error);
  process.exit(1);
});
server.listen(port, options.hostname, () => {
  const shown = !options.hostname || options.hostname === "0.0.0.0" || options.hostname === "::" ? "localhost" : options.hostname;
  console.log(
    `Ready on http://${shown}:${port} (${options.dev ? "development" : "production"}; TRUST_PROXY=${settings.trustProxy}, ` +
      `headers within ${settings.headersTimeoutMs} ms, whole request within ${settings.requestTimeoutMs} ms, keep-alive ${settings.keepAliveTimeoutMs} ms)`,
  );
});

// On SIGTERM or SIGINT, stop taking connections and let requests in flight finish; the app's
// own handler (lib/platform/server/start.ts) stops the background work, closes the database and exits.
// Should nothing else hold the process, it ends once the server has closed.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close();
    server.closeIdleConnections();
    if (options.dev) server.closeAllConnections();
  });
}
