import { defineConfig } from "drizzle-kit";

// Only `npm run db:generate` writes migrations; they serve PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
