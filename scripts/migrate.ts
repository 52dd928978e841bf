/** npm run db:migrate: applies migrations and the catalog seed to the configured database. */
import "./load-env";
import { closeDatabase, getDatabase } from "@/db";
import { ConfigError } from "@/lib/config";
import { describeDatabase } from "./describe-database";

try {
  const target = describeDatabase();
  await getDatabase();
  console.log(`Migrations applied and catalog seeded: ${target}.`);
  await closeDatabase();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  await closeDatabase().catch(() => {});
  process.exit(1);
}
