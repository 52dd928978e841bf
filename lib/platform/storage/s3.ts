import { AwsClient } from "aws4fetch";
import { assertStorageKey, storageUnavailable, type FileStorage } from "./types";

export type S3Settings = {
  /** Base URL of the service, e.g. https://s3.eu-west-1.amazonaws.com or http://minio:9000. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `{endpoint}/{bucket}/{key}` (MinIO and most self-hosted stores) instead of `{bucket}.{host}/{key}`. */
  pathStyle: boolean;
  /** How long to wait for the store to answer (default 30 s). */
  timeoutMs?: number;
};

/** Where an object lives: path-style `{endpoint}/{bucket}/{key}` or virtual-hosted `{bucket}.{host}/{key}`. */
export function objectUrl(settings: Pick<S3Settings, "endpoint" | "bucket" | "pathStyle">, key: string): string {
  const url = new URL(settings.endpoint);
  const base = url.pathname.replace(/\/+$/, "");
  if (settings.pathStyle) url.pathname = `${base}/${settings.bucket}/${key}`;
  else {
    url.hostname = `${settings.bucket}.${url.hostname}`;
    url.pathname = `${base}/${key}`;
  }
  url.search = "";
  return url.toString();
}

/**
 * Any S3-compatible object store, through its REST API (PUT, GET, DELETE object) signed
 * with AWS Signature Version 4 by aws4fetch. A put signs its payload's SHA-256 (the store
 * checks the bytes it got); a store that answers 5xx or 429 is tried twice more, then the
 * request is answered 503.
 */
export function s3Storage(settings: S3Settings): FileStorage {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    service: "s3",
    region: settings.region,
    retries: 2,
    initRetryMs: 100,
  });
  const timeoutMs = settings.timeoutMs ?? 30_000;

  /** Sends one signed request; the deadline covers the answer's headers (a download may stream for longer). */
  async function send(method: string, key: string, init: { body?: Uint8Array; headers?: Record<string, string> } = {}): Promise<Response> {
    assertStorageKey(key);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`the object store did not answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      return await client.fetch(objectUrl(settings, key), { method, body: init.body as BodyInit | undefined, headers: init.headers, signal: controller.signal, redirect: "manual" });
    } catch (error) {
      throw storageUnavailable("s3", method, error);
    } finally {
      clearTimeout(timer);
    }
  }

  async function refused(operation: string, response: Response): Promise<never> {
    const text = await response.text().catch(() => "");
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1] ?? null;
    throw storageUnavailable("s3", operation, new Error(`the object store answered ${response.status}`), { status: response.status, s3_code: code });
  }

  return {
    kind: "s3",
    async put(key, bytes, meta) {
      const response = await send("PUT", key, {
        body: bytes,
        headers: { "Content-Type": meta.contentType, "X-Amz-Content-Sha256": meta.sha256 },
      });
      if (!response.ok) return refused("PUT", response);
      await response.body?.cancel();
    },
    async get(key) {
      const response = await send("GET", key);
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok || !response.body) return refused("GET", response);
      const size = Number(response.headers.get("content-length"));
      if (!Number.isSafeInteger(size) || size < 0) {
        await response.body.cancel();
        throw storageUnavailable("s3", "GET", new Error("the object store answered without a Content-Length"));
      }
      return { size, body: response.body };
    },
    async delete(key) {
      const response = await send("DELETE", key);
      if (!response.ok && response.status !== 404) return refused("DELETE", response);
      await response.body?.cancel();
    },
  };
}
