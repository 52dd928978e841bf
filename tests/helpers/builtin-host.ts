import { afterAll, beforeAll, beforeEach, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "./db";
import { createTrainer, type Trainer } from "./fixtures";

/**
 * A competition test file on the built-in host (no CTFd configured; `env` stubs more
 * variables): one database for the file, dropped after it, and a fresh trainer before each
 * test. Call it before the file's own hooks (they run in the order registered) and read
 * `world.database` and `world.trainer` inside them and the tests.
 */
export function builtinHostWorld(env: Record<string, string> = {}): { readonly database: TestDatabase; readonly trainer: Trainer } {
  const world = {} as { database: TestDatabase; trainer: Trainer };
  beforeAll(async () => {
    vi.stubEnv("CTFD_URL", "");
    vi.stubEnv("CTFD_TOKEN", "");
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    world.database = await createTestDatabase();
  });
  beforeEach(async () => {
    world.trainer = await createTrainer(world.database.db);
  });
  afterAll(async () => {
    await world.database?.drop();
    vi.unstubAllEnvs();
  });
  return world;
}
