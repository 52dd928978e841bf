import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { authRedirect, safeRedirectPath } from "./redirect";

const APP = "http://localhost:3000";

describe("safeRedirectPath", () => {
  // Each of these would take a browser to another site if used as a Location as given.
  const attacks = [
    "/%5Cevil.example/phish", // as it arrives still encoded: harmless, but see the decoded form below
    "/\\evil.example/phish", // what `/%5Cevil.example` is after the query string is decoded
    "/\\/evil.example",
    "\\\\evil.example",
    "//evil.example",
    "///evil.example",
    "//evil.example/%2e%2e",
    "/\t/evil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/.//evil.example", // normalises to //evil.example
    "/..//evil.example",
    "https://evil.example",
    "HTTPS://EVIL.EXAMPLE/x",
    "hTTp://evil.example",
    "http:evil.example",
    "https:/evil.example",
    "//localhost:3000@evil.example",
    "http://localhost:3000@evil.example/",
    "http://localhost:3001/tests",
    "https://localhost:3000/tests",
    "javascript:alert(document.cookie)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "/%255Cevil.example", // encoded twice
    "%2F%2Fevil.example", // relative reference, stays here — checked separately below
  ];

  it.each(attacks)("%j never leaves the app's origin", (target) => {
    const path = safeRedirectPath(target, APP);
    expect(path.startsWith("/")).toBe(true);
    expect(path.startsWith("//")).toBe(false);
    // How a browser reads the Location header: relative to the current page.
    expect(new URL(path, `${APP}/signin?x=1`).origin).toBe(APP);
    // And as Auth.js uses it: appended to the base URL.
    expect(new URL(`${APP}${path}`).origin).toBe(APP);
  });

  it.each([
    "/\\evil.example/phish",
    "/\t/evil.example",
    "//evil.example",
    "/.//evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
  ])("%j falls back to the default", (target) => {
    expect(safeRedirectPath(target, APP)).toBe("/tests");
    expect(safeRedirectPath(target, APP, "/student")).toBe("/student");
  });

  it("keeps same-origin paths with their query and fragment", () => {
    expect(safeRedirectPath("/join/abc_DEF-123", APP)).toBe("/join/abc_DEF-123");
    expect(safeRedirectPath("/tests?page=2#recipients", APP)).toBe("/tests?page=2#recipients");
    expect(safeRedirectPath("/student", APP)).toBe("/student");
    expect(safeRedirectPath(`${APP}/classes/cls_1`, APP)).toBe("/classes/cls_1");
    expect(safeRedirectPath("http://LOCALHOST:3000/tests", APP)).toBe("/tests");
    // Encoded backslashes stay encoded: a path on this origin, not a host.
    expect(safeRedirectPath("/%5Cevil.example/phish", APP)).toBe("/%5Cevil.example/phish");
    expect(safeRedirectPath("/%255Cevil.example", APP)).toBe("/%255Cevil.example");
  });

  it("falls back for anything that is not a non-empty string", () => {
    for (const value of [undefined, null, "", ["/tests", "//evil.example"], 42, {}]) {
      expect(safeRedirectPath(value, APP)).toBe("/tests");
    }
  });

  it("accepts the app origin with a path or trailing slash", () => {
    expect(safeRedirectPath("/tests", `${APP}/`)).toBe("/tests");
    expect(safeRedirectPath("//evil.example", `${APP}/signin`)).toBe("/tests");
  });

  it("whatever the input, the result stays on the app's origin (property)", () => {
    const pieces = fc.constantFrom("/", "\\", "//", "\t", "\n", " ", "%5C", "%2F", "%09", ".", "..", "@", ":", "evil.example", "javascript:", "https:", "localhost:3000", "?", "#");
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join(""))), (target) => {
        const path = safeRedirectPath(target, APP);
        expect(path.startsWith("/") && !path.startsWith("//")).toBe(true);
        expect(new URL(path, `${APP}/signin`).origin).toBe(APP);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("authRedirect (Auth.js callbacks.redirect)", () => {
  it("keeps same-origin return addresses, absolute as Auth.js wants them", () => {
    expect(authRedirect({ url: "/join/abc", baseUrl: APP })).toBe(`${APP}/join/abc`);
    expect(authRedirect({ url: `${APP}/tests?x=1`, baseUrl: APP })).toBe(`${APP}/tests?x=1`);
  });

  it.each(["/\\evil.example/phish", "//evil.example", "/\t/evil.example", "https://evil.example", "javascript:alert(1)"])(
    "sends %j to the app's root",
    (url) => {
      expect(authRedirect({ url, baseUrl: APP })).toBe(`${APP}/`);
    },
  );
});
