import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as competitionTargetRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/target/[page]/route";
import * as deploymentAttemptsRoute from "@/app/api/d/[deployment_id]/attempts/route";
import * as deploymentTargetRoute from "@/app/api/d/[deployment_id]/target/[page]/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { deploymentPlayerOf, liveDeploymentOf, liveGeneratedDeployment } from "../../helpers/samples/deployment-play";
import { publishedGenerated } from "../../helpers/samples/generated";
import { playerOf, runningCtf } from "../../helpers/samples/play";
import { expectStatus } from "../../helpers/competition";

/**
 * Issue 21's two holes, sent through the real route handlers: a LIKE with many `%` in Search
 * Party's search (it was a RegExp, exponential in the `%`s: 15.8 s with 12, 68 s with 40) and
 * a flag attempt against `CTF\{(?:a|a){28}\}` (10 s for 33 characters on a backtracking
 * engine). Here: the answers are right. How fast they come is `npm run bench:redos`'s job.
 */

let database: TestDatabase;
let trainer: Trainer;
const origin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
});
beforeEach(async () => {
  trainer = await createTrainer(database.db);
});
afterAll(async () => {
  await database?.drop();
  vi.unstubAllEnvs();
});

/** `q` closes the query's string, then asks whether a's LIKE a run of `%` then `!`: false, so the first condition decides. */
const hostileSearch = (percents: number, text = "a".repeat(24)) => `' OR '${text}' LIKE '${"%".repeat(percents)}!`;
const flagShape = /launch code CTF\{[0-9a-f]{24}\}/;

/** The products a Search Party answer lists (one `name | price` line each). */
const listed = (text: string) => text.split("\n").filter((line) => / \| \d+$/.test(line));

describe("a hostile LIKE in Search Party's search", () => {
  it("on a deployment (/api/d/…/target/search): answers the visible products, and the hidden one once the LIKE holds", async () => {
    const { deploymentId } = await liveGeneratedDeployment(database.db, trainer, "search-party");
    const { cookie } = await deploymentPlayerOf(database.db, deploymentId);
    const search = async (q: string) => {
      const reply = await call(deploymentTargetRoute.GET, `/api/d/${deploymentId}/target/search`, { params: { deployment_id: deploymentId, page: "search" }, query: { q }, headers: { cookie } });
      expect(reply.status).toBe(200);
      return reply.body as string;
    };
    const ordinary = listed(await search(""));
    expect(ordinary).toHaveLength(7);
    for (const percents of [12, 40]) {
      const text = await search(hostileSearch(percents));
      expect(text).toMatch(/^Results for "' OR 'a{24}' LIKE '%+!":/);
      expect(listed(text)).toEqual(ordinary);
      expect(text).not.toMatch(flagShape);
    }
    // A text that ends in `!`: the LIKE holds, every row is listed, the hidden product with the flag among them.
    const leaked = await search(hostileSearch(40, `${"a".repeat(24)}!`));
    expect(listed(leaked)).toHaveLength(8);
    expect(leaked).toMatch(flagShape);
  });

  it("on a competition (/api/c/…/target/search): the same answers", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    const challengeId = await publishedGenerated(database.db, trainer, ctfId, "search-party");
    const { cookie } = await playerOf(database.db, trainer, ctfId);
    const search = async (q: string) => {
      const path = `/api/c/${ctfId}/challenges/${challengeId}/target/search`;
      const reply = await call(competitionTargetRoute.GET, path, { params: { ctf_id: ctfId, challenge_id: challengeId, page: "search" }, query: { q }, headers: { cookie } });
      expect(reply.status).toBe(200);
      return reply.body as string;
    };
    const ordinary = listed(await search(""));
    expect(ordinary).toHaveLength(7);
    const text = await search(hostileSearch(40));
    expect(listed(text)).toEqual(ordinary);
    expect(text).not.toMatch(flagShape);
    expect(await search(hostileSearch(12, `${"a".repeat(24)}!`))).toMatch(flagShape);
  });
});

describe("a hostile flag attempt on a deployment", () => {
  it("against `CTF\\{(?:a|a){28}\\}`: 33 characters that almost match are incorrect; the right flag is correct", async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer, { flag: "CTF\\{(?:a|a){28}\\}", flag_mode: "regex" });
    const { cookie } = await deploymentPlayerOf(database.db, deploymentId);
    const submit = async (flag: string) => {
      const reply = await call(deploymentAttemptsRoute.POST, `/api/d/${deploymentId}/attempts`, { method: "POST", params: { deployment_id: deploymentId }, body: { flag }, headers: { ...origin, cookie } });
      return (expectStatus(reply, 200) as { status: string }).status;
    };
    const hostile = `CTF{${"a".repeat(28)}!`;
    expect(hostile).toHaveLength(33);
    expect(await submit(hostile)).toBe("incorrect");
    expect(await submit(`CTF{${"a".repeat(29)}}`)).toBe("incorrect");
    expect(await submit(`CTF{${"a".repeat(28)}}`)).toBe("correct");
  });
});
