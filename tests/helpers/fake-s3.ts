import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for an S3-compatible object store (127.0.0.1 only), path-style
 * (`/{bucket}/{key}`): PUT, GET and DELETE of objects. Every request must carry an AWS
 * Signature Version 4 `Authorization` header, which this fake verifies itself, written
 * from AWS's description of SigV4 (not with the client's library): the canonical request
 * from what actually arrived (method, path, query, the signed headers, the payload hash),
 * the string to sign, the key derived from the secret, date, region and service. A wrong
 * method, path, bucket, region, key or secret, or a body whose SHA-256 is not the one
 * signed, is refused as S3 refuses it (403 SignatureDoesNotMatch / InvalidAccessKeyId,
 * 400 XAmzContentSHA256Mismatch, 404 NoSuchBucket). It can be told to fail the next
 * requests with a status.
 */

export type S3Call = { method: string; path: string; status: number; contentType?: string; payloadHash?: string; code?: string };

export type FakeS3 = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, { bytes: Buffer; contentType: string }>;
  calls: S3Call[];
  /** Answer the next `count` requests with `status` (an S3 error body) before looking at them. */
  failNext(status: number, count?: number): void;
  close(): Promise<void>;
};

const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

/** RFC 3986 encoding, as SigV4 wants it (everything but A–Z a–z 0–9 - _ . ~). */
const uriEncode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function errorXml(code: string, message: string) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/** Checks the SigV4 signature of a request; answers the S3 error code that refuses it, or null. */
function verify(req: http.IncomingMessage, body: Buffer, rawPath: string, query: URLSearchParams, expected: { accessKeyId: string; secretAccessKey: string; region: string }): string | null {
  const authorization = req.headers.authorization ?? "";
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!match) return "AccessDenied";
  const [, accessKeyId, date, region, service, signedHeaders, signature] = match;
  if (accessKeyId !== expected.accessKeyId) return "InvalidAccessKeyId";
  if (service !== "s3" || region !== expected.region) return "SignatureDoesNotMatch";
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== date) return "AccessDenied";
  // A request older or newer than 15 minutes is refused (RequestTimeTooSkewed).
  const sent = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  if (Math.abs(Date.now() - sent) > 15 * 60_000) return "RequestTimeTooSkewed";
  const names = signedHeaders.split(";");
  if (!names.includes("host") || !names.includes("x-amz-date")) return "AccessDenied";
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (!payloadHash) return "InvalidRequest";
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256Hex(body)) return "XAmzContentSHA256Mismatch";

  const canonicalPath = rawPath.split("/").map((segment) => uriEncode(decodeURIComponent(segment))).join("/");
  const canonicalQuery = [...query.entries()]
    .map(([name, value]) => [uriEncode(name), uriEncode(value)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalHeaders = names.map((name) => `${name}:${String(req.headers[name] ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  const canonicalRequest = [req.method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${expected.secretAccessKey}`, date), region), service), "aws4_request");
  const computed = createHmac("sha256", key).update(stringToSign, "utf8").digest();
  return timingSafeEqual(computed, Buffer.from(signature, "hex")) ? null : "SignatureDoesNotMatch";
}

const statusOf: Record<string, number> = {
  AccessDenied: 403,
  InvalidAccessKeyId: 403,
  SignatureDoesNotMatch: 403,
  RequestTimeTooSkewed: 403,
  InvalidRequest: 400,
  XAmzContentSHA256Mismatch: 400,
  NoSuchBucket: 404,
  NoSuchKey: 404,
  MethodNotAllowed: 405,
  InternalError: 500,
  SlowDown: 503,
};

export async function startFakeS3(options: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? "ctf-files";
  const region = options.region ?? "eu-west-3";
  const accessKeyId = options.accessKeyId ?? "AKIAFAKES3TESTKEY0001";
  const secretAccessKey = options.secretAccessKey ?? "fake/S3+secret/key/for/tests/only/0123456";
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  const calls: S3Call[] = [];
  let failures: { status: number; left: number } | undefined;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const [rawPath, rawQuery = ""] = (req.url ?? "/").split("?");
      const call: S3Call = { method: req.method ?? "", path: rawPath, status: 200, contentType: req.headers["content-type"], payloadHash: req.headers["x-amz-content-sha256"] as string | undefined };
      calls.push(call);
      const fail = (code: string) => {
        call.status = statusOf[code];
        call.code = code;
        res.writeHead(call.status, { "content-type": "application/xml" }).end(errorXml(code, code));
      };
      if (failures && failures.left > 0) {
        failures.left -= 1;
        return fail(failures.status >= 500 ? (failures.status === 503 ? "SlowDown" : "InternalError") : "AccessDenied");
      }
      const refused = verify(req, body, rawPath, new URLSearchParams(rawQuery), { accessKeyId, secretAccessKey, region });
      if (refused) return fail(refused);
      const [, bucketName, ...keyParts] = rawPath.split("/");
      if (bucketName !== bucket) return fail("NoSuchBucket");
      const key = decodeURIComponent(keyParts.join("/"));
      if (!key) return fail("MethodNotAllowed");
      if (req.method === "PUT") {
        objects.set(key, { bytes: body, contentType: String(req.headers["content-type"] ?? "binary/octet-stream") });
        res.writeHead(200, { etag: `"${createHash("md5").update(body).digest("hex")}"` }).end();
      } else if (req.method === "GET") {
        const object = objects.get(key);
        if (!object) return fail("NoSuchKey");
        res.writeHead(200, { "content-type": object.contentType, "content-length": object.bytes.length }).end(object.bytes);
      } else if (req.method === "DELETE") {
        objects.delete(key);
        call.status = 204;
        res.writeHead(204).end();
      } else fail("MethodNotAllowed");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    objects,
    calls,
    failNext(status, count = 1) {
      failures = { status, left: count };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
