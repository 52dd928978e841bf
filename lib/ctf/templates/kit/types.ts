import type { Difficulty, TemplateKey } from "@/lib/ctf/templates/catalog";
import type { Rng } from "./rng";
import type { TargetQuery } from "./target-query";

/** A file the player downloads (kept small: it lives in the database with its challenge). */
export type ArtifactFile = { name: string; contentType: string; data: Buffer };

/** A web target's state: JSON stored with the challenge, never holding the flag itself (it is handed to `serve` per request). */
export type TargetState = { difficulty: Difficulty } & Record<string, unknown>;

/** What a template builds for one challenge: what the player gets, and the steps the organiser may reveal. */
export type Built<S extends TargetState = TargetState> = {
  description: string;
  hints: string[];
  solution: string[];
  file?: ArtifactFile;
  target?: S;
};


export type TargetRequest = {
  /** The page, the last path segment: `index`, `login`, `search`… */
  page: string;
  query: TargetQuery;
  cookie(name: string): string | undefined;
  /** The challenge's flag, unsealed for this request only. */
  flag: string;
  /** The target's path (`/api/c/{ctf_id}/challenges/{challenge_id}/target`, or a deployment's `/api/d/{deployment_id}/target`), for cookies scoped to it. */
  basePath: string;
};

/** A target's answer: a page of text, or a redirect; refusals are thrown as AppError (the one error shape). */
export type TargetAnswer = { text: string; status?: 200 } | { status: 302; location: string; text?: string };
export type TargetReply = TargetAnswer & { setCookies?: string[] };

export type Template<S extends TargetState = TargetState> = {
  key: TemplateKey;
  build(input: { flag: string; difficulty: Difficulty; rng: Rng }): Built<S>;
  /** Serves the web target's pages; only templates that build a target have one. */
  serve?(state: S, request: TargetRequest): TargetReply;
};

/** Declares a template with its own state type; the registry holds them all alike. */
export function defineTemplate<S extends TargetState>(template: Template<S>): Template {
  return template as unknown as Template;
}

/** A text file artifact (UTF-8). */
export const textFile = (name: string, text: string): ArtifactFile => ({ name, contentType: "text/plain; charset=utf-8", data: Buffer.from(text, "utf8") });

/** The `CTF{…}` flags of the templates' decoys: the same shape as the real one, so none stands out. */
export const fakeFlag = (rng: Rng) => `CTF{${rng.hex(12)}}`;

/** Relative links to a target's pages, for its index page. */
export const pageList = (pages: readonly string[]) => pages.map((page) => `./${page}`).join(", ");
