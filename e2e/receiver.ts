import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { raw: Buffer; headers: http.IncomingHttpHeaders };

/**
 * A real webhook receiver on 127.0.0.1 that keeps every request's raw bytes and answers the
 * given statuses in turn (then 200).
 */
export async function startReceiver(options: { path?: string; statuses?: number[] } = {}) {
  const statuses = options.statuses ?? [];
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(statuses[received.length - 1] ?? 200, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? "/hook"}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function hmacMatches(raw: Buffer, hex: string, secret: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  return timingSafeEqual(createHmac("sha256", secret).update(raw).digest(), Buffer.from(hex, "hex"));
}

/** As the certification spec tells a receiver: hex HMAC-SHA256 of the raw bytes, constant-time compare. */
export function verifyCertification(raw: Buffer, signature: string | undefined, secret: string): boolean {
  return Boolean(signature) && hmacMatches(raw, signature!, secret);
}

/** As the competition spec tells a receiver: `sha256=` + hex HMAC-SHA256 of the raw bytes. */
export function verifyCompetition(raw: Buffer, header: string | undefined, secret: string): boolean {
  return Boolean(header?.startsWith("sha256=")) && hmacMatches(raw, header!.slice("sha256=".length), secret);
}
