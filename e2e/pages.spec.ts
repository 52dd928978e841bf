import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { answerShown, api, expectNoSeriousViolations, mailboxLink, pollStatus, signIn, uniqueEmail } from "./helpers";

/**
 * Every page people use, at 1280×800 and on a 360×740 phone (issue 26): no serious or critical
 * axe violation at either width, and on the phone no page wider than the screen (nothing
 * scrolls sideways). The trainer's pages, the recipient's (start, a question, the result, the
 * certificate), the student area and a class invitation, the public competition page as a
 * visitor and as a player (its challenges and scoreboard are sections of that page), a
 * standalone deployment's page, sign-in and the API reference. The data is made once, through
 * /api/v1 with the trainer's session (the calls the dashboard makes), with long addresses: the
 * kind that pushed tables wider than a phone.
 */

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** A long address of its own: what widened the class and results tables. */
const longEmail = (label: string) => uniqueEmail(`${label}-with-a-rather-long-address`).replace("@example.com", "@training.example-university.com");
/** An address whose parts between dots are longer than a phone's width in a card. */
const longerEmail = (label: string) => uniqueEmail(`averyveryveryverylongaddressnamethatkeepsgoing.${label}.with.dots`).replace("@example.com", "@subdomain.example-organisation-with-long-name.com");
/** Names with no space to break at, as long as each field allows: a page must wrap them, not widen. */
const LONG_WORD = "Supercalifragilisticexpialidocious";

/** The innermost elements whose right edge passes the screen's: what to fix when a page is too wide. */
async function widerThanScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      if (element.getBoundingClientRect().right <= width + 0.5) continue;
      if ([...element.children].some((child) => child.getBoundingClientRect().right > width + 0.5)) continue; // innermost only
      const classes = typeof element.className === "string" && element.className ? `.${element.className.trim().split(/\s+/).slice(0, 4).join(".")}` : "";
      found.push(`<${element.tagName.toLowerCase()}${classes}> right edge ${Math.round(element.getBoundingClientRect().right)} px: "${(element.textContent ?? "").trim().slice(0, 40)}"`);
      if (found.length === 5) break;
    }
    return found;
  });
}

/** The checks of one page as it is now: axe at any width; on the phone, no sideways scrolling. */
async function checkPage(page: Page, what: string, phone: boolean) {
  const where = `${what} at ${phone ? "360" : "1280"} px`;
  if (phone) {
    // Polled: a page still laying out (a list arriving) may be wide for a moment; one that stays wide fails, naming what passes the edge.
    const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    await expect.poll(scrollWidth, { timeout: 5_000 }).toBeLessThanOrEqual(360).catch(async () => {
      expect(await scrollWidth(), `${where} scrolls sideways; wider than the screen: ${(await widerThanScreen(page)).join("; ")}`).toBeLessThanOrEqual(360);
    });
  }
  await expectNoSeriousViolations(page, where);
}

type Visit = { what: string; path: string; ready: (page: Page) => Locator };

/** Opens each page in the context and checks it once `ready` is visible. */
async function visitAll(context: BrowserContext, phone: boolean, visits: Visit[]) {
  const page = await context.newPage();
  for (const visit of visits) {
    await page.goto(visit.path);
    await expect(visit.ready(page), `${visit.what} shows`).toBeVisible();
    await checkPage(page, visit.what, phone);
  }
  await page.close();
}

const h1 = (name?: string | RegExp) => (page: Page) => page.getByRole("heading", { level: 1, ...(name ? { name } : {}) }).first();

async function newContexts(browser: Browser, storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>) {
  return [
    { phone: false, context: await browser.newContext({ ...DESKTOP, storageState }) },
    { phone: true, context: await browser.newContext({ ...PHONE, storageState }) },
  ];
}

test("every page fits a 360 px phone without scrolling sideways and has no serious accessibility violation at 1280 or 360 px", async ({ browser, page }) => {
  test.setTimeout(420_000);
  const opened: BrowserContext[] = [];
  const contexts = async (storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>) => {
    const made = await newContexts(browser, storageState);
    opened.push(...made.map(({ context }) => context));
    return made;
  };
  try {
    // The data, once: a trainer with a test (one recipient done, one not), a class with an invitation, an own certification, a running public competition with a player and a deployment, a key and endpoints.
    await signIn(page, longEmail("pages-trainer"));
    const [certification] = (await api(page, "GET", "/api/v1/certifications?search=Cloud%20Practitioner")).data;
    const domains = (await api(page, "GET", `/api/v1/certifications/${certification.id}/domains`)).data.map((domain: { id: number }) => domain.id);
    const created = await api(page, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains,
      questions: 4,
      pass_mark: 0,
      certificate: true,
      recipients: [{ email: longEmail("pages-done"), name: "Ada Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessen" }, { email: longEmail("pages-new") }],
      send_email: false,
    });
    const [done, fresh] = created.recipients as { link: string }[];
    const own = await api(page, "POST", "/api/v1/certifications", { name: `Acme ${LONG_WORD.repeat(4)}`, vendor: "Acme", domains: ["Routing", "Switching"] });
    await api(page, "POST", `/api/v1/certifications/${own.id}/domains/${own.domains[0].id}/questions`, {
      prompt: "Which two numbers are even?",
      type: "multiple",
      options: ["Two", "Three", "Four", "Five"],
      correct: [0, 2],
      explanation: "Two and four divide by two.",
    });
    const studentEmail = longerEmail("pages-student");
    const klass = await api(page, "POST", "/api/v1/classes", { name: "Pages class", certification_id: certification.id, emails: [studentEmail] });
    const now = Date.now();
    const ctf = await api(page, "POST", "/api/v1/ctfs", {
      title: "Pages CTF",
      description: "A running competition to check its pages.",
      starts_at: new Date(now - 60_000).toISOString(),
      ends_at: new Date(now + 86_400_000).toISOString(),
      is_public: true,
    });
    await api(page, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
    await pollStatus(page, `/api/v1/ctfs/${ctf.id}`, "deployed");
    const challenge = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges`, {
      title: "Cookie Jar",
      category: "web",
      points: 150,
      description: "The admin panel trusts a cookie.",
      flag: `CTF{pages-${now}}`,
      hints: [{ text: "Look at what the server sets after login.", cost: 20 }],
    });
    await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/publish`);
    await pollStatus(page, `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}`, "published");
    const solo = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges`, { title: "Lone Cookie", category: "crypto", points: 80, description: "One cookie, one flag.", flag: `CTF{solo-${now}}` });
    const deployment = await api(page, "POST", "/api/v1/deployments", { challenge_id: solo.id, duration_minutes: 60 });
    await pollStatus(page, `/api/v1/deployments/${deployment.id}`, "live");
    const playerEmail = longEmail("pages-player");
    await api(page, "POST", `/api/v1/ctfs/${ctf.id}/members`, { email: playerEmail });
    await api(page, "POST", `/api/v1/ctfs/${ctf.id}/members`, { email: longEmail("pages-invited") }); // stays invited: its row has Re-invite
    await api(page, "POST", "/api/app/keys", { name: "W".repeat(64) });
    await api(page, "POST", "/api/v1/webhooks", { url: "https://example.com/hooks/competition-events" });
    await api(page, "POST", "/api/app/test-result-webhooks", { url: "https://example.com/hooks/test-results" });

    // Links from e-mails: the class invitation, the player's invitation (accepted under a display name).
    const joinLink = await mailboxLink(page, studentEmail, { subject: /Pages class/ });
    const playerLink = await mailboxLink(page, playerEmail, { timeout: 20_000 });
    const player = await browser.newContext(DESKTOP);
    opened.push(player);
    const accepting = await player.newPage();
    await accepting.goto(playerLink);
    await accepting.getByLabel("Display name").fill(`Ann${"W".repeat(40)}`);
    await accepting.getByRole("button", { name: "Accept invitation" }).click();
    await expect(accepting.getByTestId("joined-message")).toBeVisible();
    await accepting.close();
    const players = await contexts(await player.storageState());
    const anonymous = await contexts();

    // The recipient who is done: through the test to the result (its certificate too).
    const taker = await anonymous[0].context.newPage();
    await taker.goto(done.link);
    await taker.getByRole("button", { name: "Start", exact: true }).click();
    for (let n = 1; n <= 4; n++) {
      await expect(taker.getByRole("heading", { name: `Question ${n} of 4` })).toBeVisible();
      await answerShown(taker);
      await taker.getByRole("button", { name: n < 4 ? /^Next/ : /^Review/ }).first().click();
    }
    await taker.getByTestId("submit-test").click();
    await taker.getByRole("button", { name: "Yes, submit my answers" }).click();
    await expect(taker.getByRole("heading", { name: "Your result" })).toBeVisible();
    await taker.close();
    const stored = await api(page, "GET", `/api/v1/tests/${created.code}`);
    const certificateUrl: string = stored.recipients.find((recipient: { link: string }) => recipient.link === done.link).result.certificate_url;
    expect(certificateUrl, "the passed recipient's certificate page").toMatch(/\/certificates\//);

    // The trainer's pages (and the trainer's own student area).
    const trainerVisits: Visit[] = [
      { what: "Tests", path: "/tests", ready: (p) => p.getByRole("link", { name: /Cloud Practitioner/ }).first() },
      { what: "New test", path: "/tests/new", ready: h1("New test") },
      { what: "a test's results", path: `/tests/${created.code}`, ready: (p) => p.getByTestId("recipient-row").nth(1) },
      { what: "Classes", path: "/classes", ready: (p) => p.getByTestId("class-row").first() },
      { what: "a class", path: `/classes/${klass.id}`, ready: (p) => p.getByTestId("invitation-row").first() },
      { what: "Certifications", path: "/certifications", ready: h1("Certifications") },
      { what: "New certification", path: "/certifications/new", ready: h1() },
      { what: "a catalog certification's preview", path: `/certifications/${certification.id}/preview`, ready: h1() },
      { what: "an own certification's editor", path: `/certifications/${own.id}`, ready: (p) => p.getByTestId("question-row").first() },
      { what: "Competitions", path: "/competitions", ready: (p) => p.getByTestId("ctf-row").first() },
      { what: "a competition", path: `/competitions/${ctf.id}`, ready: (p) => p.locator('[data-testid="challenge-row"][data-title="Cookie Jar"]') },
      { what: "API keys", path: "/api-keys", ready: (p) => p.getByTestId("api-key-row").first() },
      { what: "Webhooks", path: "/webhooks", ready: h1("Webhooks") },
      { what: "Settings", path: "/settings", ready: h1("Settings") },
      { what: "the student area", path: "/student", ready: h1() },
    ];
    for (const { phone, context } of await contexts(await page.context().storageState())) await visitAll(context, phone, trainerVisits);

    // The recipient who has not started: the start page, then a question (started on the desktop, resumed on the phone).
    for (const { phone, context } of anonymous) await visitAll(context, phone, [{ what: "the recipient's start page", path: fresh.link, ready: (p) => p.getByRole("button", { name: "Start", exact: true }) }]);
    for (const { phone, context } of anonymous) {
      const recipient = await context.newPage();
      await recipient.goto(fresh.link);
      if (!phone) await recipient.getByRole("button", { name: "Start", exact: true }).click();
      await expect(recipient.getByRole("heading", { name: "Question 1 of 4" })).toBeVisible();
      await checkPage(recipient, "a question of the test", phone);
      await recipient.close();
    }

    // Pages anyone opens: the result, the certificate, a class invitation, the competition and a deployment as a visitor, sign-in, the API reference.
    const publicVisits: Visit[] = [
      { what: "the recipient's result", path: done.link, ready: (p) => p.getByRole("heading", { name: "Your result" }) },
      { what: "a certificate", path: new URL(certificateUrl).pathname, ready: (p) => p.getByTestId("certificate-name") },
      { what: "a class invitation", path: new URL(joinLink).pathname, ready: h1("Pages class") },
      { what: "the public competition page", path: `/c/${ctf.id}`, ready: (p) => p.locator('[data-testid="public-challenge"][data-title="Cookie Jar"]') },
      { what: "a deployment's page", path: `/d/${deployment.id}`, ready: h1("Lone Cookie") },
      { what: "Sign in", path: "/signin", ready: h1("Sign in") },
      { what: "the API reference", path: "/docs/api", ready: (p) => p.getByRole("heading").first() },
    ];
    for (const { phone, context } of anonymous) await visitAll(context, phone, publicVisits);

    // The player's view of the competition: the challenge's content, the flag box, the scoreboard.
    const playerVisits: Visit[] = [{ what: "the competition page as a player", path: `/c/${ctf.id}`, ready: (p) => p.getByRole("textbox", { name: "Flag for Cookie Jar" }) }];
    for (const { phone, context } of players) await visitAll(context, phone, playerVisits);
  } finally {
    for (const context of opened) await context.close();
  }
});
