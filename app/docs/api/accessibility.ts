// What the API reference page adds to Scalar's so that it passes axe (wcag2a/aa, issue 26):
// colours with enough contrast, the page's language, and names and keyboard access that
// Scalar's markup leaves out. Scalar 1.72 has no option for the last two, hence the script:
// a workaround to drop once Scalar labels its copy buttons and makes its scrolling lists
// focusable itself (e2e/api-reference.spec.ts notices either way).

/**
 * Text colours with at least 4.5:1 on every background Scalar draws them on (white, #fafafa,
 * #e7e7e7 in light mode; black, #1a1a1a, #2a2828 in dark mode). Scalar's Next.js theme uses
 * #757575 and #8e8e8e (3.1–4.4:1). `!important` because this CSS comes before that theme.
 */
export const contrastCss = `
.light-mode, .light-mode .dark-mode {
  --scalar-color-2: #595959 !important;
  --scalar-color-3: #616161 !important;
  --scalar-color-accent: #2456c4 !important;
  --scalar-color-green: #2f6b30 !important;
  --scalar-color-red: #a12c56 !important;
  --scalar-color-yellow: #7a5c00 !important;
  --scalar-color-blue: #2456c4 !important;
  --scalar-color-orange: #9a4f0f !important;
}
.dark-mode {
  --scalar-color-2: rgba(255, 255, 255, 0.75) !important;
  --scalar-color-3: rgba(255, 255, 255, 0.66) !important;
}
`;

/**
 * Runs in the page: names Scalar's icon-only buttons and makes scrolling regions reachable by
 * keyboard, again after each render (Scalar renders lazily as one scrolls and expands).
 * Serialised with Function#toString, so it uses nothing from outside itself.
 */
function labelScalarControls() {
  const label = () => {
    // The code blocks' copy button: an icon, its words hidden (display: none) until hovered.
    for (const button of Array.from(document.querySelectorAll<HTMLElement>("button:not([aria-label]):not([aria-labelledby]):not([title])"))) {
      if (button.innerText.trim() !== "") continue;
      button.setAttribute("aria-label", button.className.toString().includes("copy") ? "Copy code" : "More options");
    }
    // A name must contain the words shown (WCAG 2.5.3): "Show More" is named "Show all Tests endpoints".
    for (const button of Array.from(document.querySelectorAll<HTMLElement>("button[aria-label]"))) {
      const shown = button.innerText.trim().replace(/\s+/g, " ");
      const name = button.getAttribute("aria-label") ?? "";
      if (/[a-z]{2}/i.test(shown) && !name.toLowerCase().includes(shown.toLowerCase())) button.setAttribute("aria-label", `${shown} (${name})`);
    }
    for (const region of Array.from(document.querySelectorAll<HTMLElement>("#app ul, #app ol, #app pre, #app div, #app code, #app table"))) {
      if (region.hasAttribute("tabindex")) continue;
      const scrolls = region.scrollWidth > region.clientWidth + 1 || region.scrollHeight > region.clientHeight + 1;
      if (!scrolls) continue;
      const style = getComputedStyle(region);
      if (!/(auto|scroll)/.test(style.overflowX + style.overflowY)) continue;
      if (region.querySelector("a[href], button, input, select, textarea, [tabindex]")) continue;
      region.tabIndex = 0;
    }
  };
  let queued = false;
  const schedule = () => {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      label();
    }, 100);
  };
  new MutationObserver(schedule).observe(document.body, { childList: true, subtree: true });
  addEventListener("resize", schedule);
  schedule();
}

/** Scalar's HTML page with the language set and the script above before `</body>`. */
export function withAccessibility(html: string): string {
  // A function as the replacement: the script's text is inserted as is (no `$` patterns).
  return html.replace("<html>", '<html lang="en">').replace("</body>", () => `<script>(${labelScalarControls.toString()})();</script>\n  </body>`);
}
