/**
 * The shape of the code (issue 22, docs/architecture.md), checked by `npm run lint`:
 *
 *   db/  <  lib/kernel  <  lib/platform  <  lib/certification, lib/ctf (the products)  <  lib/registry
 *
 * Imports point only downward; no module circle and no folder circle; lib/ never imports
 * Next.js; components/ never import db/; db/ imports nothing of lib/. A violation is fixed by
 * moving the symbol down, injecting a function, or splitting a file: never by an exception
 * here.
 *
 * `LAYERS` names each layer's paths. It is the one thing the transitional copy of this file
 * (.dependency-cruiser.today.cjs, used once to measure the tree before the move) changes.
 */
const LAYERS = {
  kernel: "^lib/kernel/",
  platform: "^lib/platform/",
  certification: "^lib/certification/",
  ctf: "^lib/ctf/",
  registry: "^lib/registry/",
  // within the platform: the background pipeline, and the dashboard's webhook pages above it
  pipeline: "^lib/platform/pipeline/",
  webhookPages: "^lib/platform/webhooks/",
  // within the competition platform: the wings that import no other wing
  hosting: "^lib/ctf/hosting/",
  templates: "^lib/ctf/templates/",
};
const products = `${LAYERS.certification}|${LAYERS.ctf}`;
const anyLayer = Object.values(LAYERS).join("|");
const notTests = "\\.test\\.tsx?$";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A module circle: two modules that need each other. Move what both need below them, or inject it.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-folder-circular",
      severity: "error",
      comment: "A folder circle (e.g. lib/ctf/play ↔ lib/ctf/deployments): the wings of an area import one way.",
      scope: "folder",
      from: { path: "^(lib|db)/" },
      to: { circular: true },
    },
    {
      name: "db-imports-nothing-of-lib",
      severity: "error",
      comment: "db/ sits under everything: the schema, the driver, migrations, the seed. Configuration, logging and keys are handed in (lib/platform/database.ts).",
      from: { path: "^db/" },
      to: { path: "^lib/" },
    },
    {
      name: "kernel-imports-nothing-of-lib",
      severity: "error",
      comment: "The kernel (contracts, values, paging, fields, errors, ids, scopes, configuration, logging) imports nothing of lib/ outside itself.",
      from: { path: LAYERS.kernel, pathNot: notTests },
      to: { path: "^lib/", pathNot: LAYERS.kernel },
    },
    {
      name: "platform-not-to-products",
      severity: "error",
      comment: "The platform (HTTP runtime, auth, keys, rate limits, e-mail, storage, the pipeline) knows no product: products hand it what it needs (a function, a catalog).",
      from: { path: LAYERS.platform, pathNot: notTests },
      to: { path: `${products}|${LAYERS.registry}` },
    },
    {
      name: "products-not-to-registry",
      severity: "error",
      comment: "Only the composition roots (route registry, job-handler registry) know every product; products never import them.",
      from: { path: products, pathNot: notTests },
      to: { path: LAYERS.registry },
    },
    {
      name: "products-independent",
      severity: "error",
      comment: "The certification service and the competition platform share only what lies below them.",
      from: { path: LAYERS.certification, pathNot: notTests },
      to: { path: LAYERS.ctf },
    },
    {
      name: "products-independent-ctf",
      severity: "error",
      comment: "The certification service and the competition platform share only what lies below them.",
      from: { path: LAYERS.ctf, pathNot: notTests },
      to: { path: LAYERS.certification },
    },
    {
      name: "lib-in-a-layer",
      severity: "error",
      comment: "Every module of lib/ belongs to a layer (kernel, platform, a product, the registry).",
      from: { path: "^lib/", pathNot: anyLayer },
      to: {},
    },
    {
      name: "pipeline-imports-no-dashboard",
      severity: "error",
      comment: "The delivery engine imports no dashboard view type: the webhook pages read the pipeline, not the reverse.",
      from: { path: LAYERS.pipeline, pathNot: notTests },
      to: { path: LAYERS.webhookPages },
    },
    {
      name: "hosting-imports-no-domain",
      severity: "error",
      comment: "Host adapters import no domain code: what they need (the built-in host's standings) is handed in.",
      from: { path: LAYERS.hosting, pathNot: notTests },
      to: { path: LAYERS.ctf, pathNot: LAYERS.hosting },
    },
    {
      name: "templates-import-no-domain",
      severity: "error",
      comment: "The challenge templates (generators and their artifacts) import no other wing.",
      from: { path: LAYERS.templates, pathNot: notTests },
      to: { path: LAYERS.ctf, pathNot: LAYERS.templates },
    },
    {
      name: "lib-not-to-the-app",
      severity: "error",
      comment: "lib/ and db/ are imported by app/, components/, tests/, never the reverse (a lib unit test may use a tests/ helper).",
      from: { path: "^(lib|db)/", pathNot: notTests },
      to: { path: "^(app|components|tests|e2e|scripts|bench)/" },
    },
    {
      name: "no-next-in-lib",
      severity: "error",
      comment: "The domain takes plain values and a db: HTTP, cookies and headers stay in app/.",
      from: { path: "^(lib|db)/" },
      to: { path: "(^|/)node_modules/next/" },
    },
    {
      name: "components-never-import-db",
      severity: "error",
      comment: "Components read data through the API (and enum values through the contracts), never from db/.",
      from: { path: "^components/" },
      to: { path: "^db/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Unit tests beside the code may use the suite's helpers (tests/): the rules are for the code.
    exclude: { path: "(^|/)(\\.next|node_modules)/|^db/migrations/|\\.test\\.tsx?$|^tests/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".json"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
