/** npm run db:migrate: applies migrations and the catalog seed to the configured database. */
import { closeDatabase, getDatabase } from "@/db";

const database = await getDatabase();
console.log(`Migrations applied and catalog seeded (${database.kind}).`);
await closeDatabase();
