import { ApiReference } from "@scalar/nextjs-api-reference";
import { openApiDocument } from "@/lib/registry/openapi-document";
import { contrastCss, withAccessibility } from "./accessibility";

// GET /docs/api – the API reference: Scalar's renderer over the document generated from the
// contracts (the one /api/openapi.json serves). Everything it loads comes from this app: the
// bundle from /docs/api/standalone.js (not Scalar's CDN), no web fonts, no telemetry, no proxy.
//
// The document is written into the page rather than fetched from /api/openapi.json: Scalar
// renders without a second round trip and without animating its loading state meanwhile
// (measured in Chromium on a 2-core machine: ~7 s of CPU with the fetch, ~4 s inline). Scalar
// puts the configuration into an inline <script> as JSON without escaping it, so the document
// goes in as a JSON string with every `<` escaped: no text of it can end that script element.
let inlineDocument: string | undefined;
const documentForScript = () => (inlineDocument ??= JSON.stringify(openApiDocument()).replace(/</g, "\\u003c"));

const reference = ApiReference({
  content: documentForScript,
  cdn: "/docs/api/standalone.js",
  pageTitle: "Certify API reference",
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  defaultOpenAllTags: false,
  documentDownloadType: "json",
  persistAuth: false,
  metaData: { title: "Certify API reference", description: "The REST API of the certification and competition services." },
  customCss: contrastCss,
});

// Scalar's page, made to pass axe (./accessibility.ts): lang, contrast, names, keyboard access.
let referencePage: string | undefined;
export async function GET(): Promise<Response> {
  referencePage ??= withAccessibility(await reference().text());
  return new Response(referencePage, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
