import { ApiReference } from "@scalar/nextjs-api-reference";

// GET /docs/api – the API reference: Scalar's renderer over /api/openapi.json (the document
// generated from the contracts). Everything it loads comes from this app: the bundle from
// /docs/api/standalone.js (not Scalar's CDN), no web fonts, no telemetry, no proxy.
export const GET = ApiReference({
  url: "/api/openapi.json",
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
});
