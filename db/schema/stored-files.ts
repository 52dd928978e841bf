import { customType, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Raw bytes: a Buffer in, a Buffer out (postgres.js answers a Buffer, PGlite a Uint8Array); every bytea column of the schema uses it. */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * The bytes of stored files when the file storage is the database (lib/platform/storage/database.ts,
 * the default with PostgreSQL): one row per storage key. What a file is (its name, its
 * challenge) is said by the table that holds its key, e.g. `challenge_files`.
 */
export const storedFiles = pgTable("stored_files", {
  key: text("key").primaryKey(),
  bytes: bytea("bytes").notNull(),
  size: integer("size").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type StoredFile = typeof storedFiles.$inferSelect;
