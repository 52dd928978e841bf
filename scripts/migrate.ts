/**
 * npm run db:migrate: applies migrations and the catalog seed to the configured database,
 * then re-seals every sealed link and webhook secret still under an older key than the first
 * of DATA_ENCRYPTION_KEYS (key rotation, docs/security.md "Tokens and secrets at rest").
 */
import "./load-env";
import { resealColumns } from "@/db/sealed";
import { config, ConfigError } from "@/lib/kernel/config/config";
import { currentSealPrefix, reseal } from "@/lib/platform/security/sealing";
import { describeDatabase } from "./describe-database";
import { closeDatabase, getDatabase } from "@/lib/platform/database";

try {
  const target = describeDatabase();
  const database = await getDatabase();
  console.log(`Migrations applied and catalog seeded: ${target}.`);
  // Without DATA_ENCRYPTION_KEYS there is one key (AUTH_SECRET's): nothing can be under another,
  // and the key is not derived at all (on the embedded defaults that would write .data/auth-secret).
  const resealed = config().dataEncryptionKeys.length > 0 ? await resealColumns(database.db, currentSealPrefix(), reseal) : {};
  const total = Object.values(resealed).reduce((sum, count) => sum + count, 0);
  console.log(
    total === 0
      ? "Every sealed value is under the current key."
      : `Re-sealed under the current key: ${Object.entries(resealed)
          .filter(([, count]) => count > 0)
          .map(([table, count]) => `${count} in ${table}`)
          .join(", ")}.`,
  );
  await closeDatabase();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  await closeDatabase().catch(() => {});
  process.exit(1);
}
