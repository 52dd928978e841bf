import createNextIntlPlugin from "next-intl/plugin";

/**
 * Security headers on every response (pages, route handlers, 404s):
 * - `X-Content-Type-Options: nosniff`: a response is only ever what its Content-Type says.
 * - No framing by any site (`frame-ancestors 'none'`, and `X-Frame-Options` for older
 *   browsers): nothing here is meant to be embedded, so no clickjacking of the dashboard,
 *   the test page's Submit or an invitation's Accept button.
 * - `Referrer-Policy: strict-origin-when-cross-origin`: other sites learn at most our origin,
 *   never a path; pages whose path is a capability (a recipient's /t/{token}, invitation
 *   links) send no Referer at all, not even to our own origin.
 */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
];
const pagePolicies = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

/**
 * Routes whose answers carry policies of their own: challenge files and generated artifacts
 * (downloads, lib/platform/http/download.ts and lib/ctf/templates/responses.ts) and the pages of a
 * generated challenge's web target, all with `Content-Security-Policy: default-src 'none';
 * sandbox` and `Referrer-Policy: no-referrer`. A header set here wins over the same header
 * set by a route handler (Next.js does not send the handler's), so `pagePolicies` skip these
 * paths: their own policies reach the wire (e2e/security.spec.ts checks both kinds). Their
 * error answers (JSON) keep nosniff and X-Frame-Options: DENY.
 */
const sandboxedRoutes =
  "api/(?:c/[^/]+/challenges/[^/]+|d/[^/]+|v1/ctfs/[^/]+/challenges/[^/]+)/(?:files/[^/]+|artifact/file|target/[^/]+)";

const tokenPages = ["/t/:token*", "/api/t/:token*", "/join/:token*", "/c/join/:token*"];

/**
 * `.ci/run` builds a fresh clone beside its typecheck step (`npm run typecheck`, over the same
 * tsconfig.json; a type error fails that step) and throws the clone away afterwards. It sets
 * CI_FRESH_BUILD=1 so that build neither checks the types a second time nor writes Turbopack's
 * build cache, which no later build would read. Every other build does both.
 */
const ciFreshBuild = process.env.CI_FRESH_BUILD === "1";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  ...(ciFreshBuild ? { typescript: { ignoreBuildErrors: true }, experimental: { turbopackFileSystemCacheForBuild: false } } : {}),
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      { source: `/:path((?!${sandboxedRoutes}$).*)`, headers: pagePolicies },
      // Later entries win for the same header.
      ...tokenPages.map((source) => ({ source, headers: [{ key: "Referrer-Policy", value: "no-referrer" }] })),
    ];
  },
};

// next-intl: the locale and texts of recipient and student pages (app/_i18n/request.ts).
const withNextIntl = createNextIntlPlugin("./app/_i18n/request.ts");

export default withNextIntl(nextConfig);
