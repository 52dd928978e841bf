/**
 * The process's database: opened once from the configuration (lib/kernel/config), migrated
 * and seeded, watched for outages. db/ below knows no configuration, logger or key: they are
 * handed in from here (the driver settings, the sealing function of the migrations).
 */
import path from "node:path";
import { databaseKnownDown, isConnectionLost, markDatabaseDown, markDatabaseUp } from "@/db/availability";
import { errorCodes } from "@/db/error-codes";
import { logger } from "@/lib/kernel/log";
import { seal } from "./security/sealing";
import { openDatabase as openDriver, postgresDriverSettings, type DriverSettings } from "@/db/client";
import { migrateDatabase, withAdvisoryLock } from "@/db/migrate";
import { seedCatalog } from "@/db/seed";
import type { Database, Db, OpenOptions } from "@/db/types";
import { config, type Config, parseConfig } from "@/lib/kernel/config/config";

type Holder = { ready?: Promise<Database> };

// One database per process, kept on globalThis so dev-mode reloads do not open a second one.
const holder = ((globalThis as { __certifyDb?: Holder }).__certifyDb ??= {});

/**
 * Opens the configured database once per process, applies migrations and seeds the catalog.
 * A failed opening is forgotten, so the next call tries again: a process started while the
 * database is down serves it once it is back. Once open, the pool reconnects by itself.
 */
export function getDatabase(): Promise<Database> {
  holder.ready ??= prepare().catch((error) => {
    holder.ready = undefined;
    throw error;
  });
  return holder.ready;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

async function prepare(): Promise<Database> {
  const database = await openDatabase(configuredDatabase());
  try {
    await prepareDatabase(database);
  } catch (error) {
    // Not kept: the next call opens a fresh pool (and PGlite's lock is released).
    await database.close().catch(() => {});
    throw error;
  }
  return database;
}

const PROBE_MS = 1_000;

/**
 * Called with an error met while using the database. A lost connection marks the database
 * down (pages are then answered 503 at once, see proxy.ts) and starts a probe (at once, then
 * every second) that marks it up again as soon as one query succeeds.
 */
export function reportDatabaseError(error: unknown): void {
  if (!isConnectionLost(error) || !markDatabaseDown()) return;
  // The code only: a wrapped query error's message carries the query's parameter values.
  logger().error({ context: "database", code: errorCodes(error)[0] ?? "unknown", probe_ms: PROBE_MS }, "database unavailable; probing");
  const since = Date.now();
  const probe = async () => {
    try {
      await (await getDatabase()).query("select 1");
      markDatabaseUp();
      logger().info({ context: "database", down_ms: Date.now() - since }, "database available again");
    } catch {
      if (databaseKnownDown()) setTimeout(probe, PROBE_MS).unref();
    }
  };
  // The first probe at once: a connection that died with an earlier outage (the server is
  // back) must not keep pages on the unavailable page for a whole interval.
  setTimeout(probe, 0).unref();
}

/**
 * Migrations (with their data steps: the upgrade to sealed tokens needs the application key,
 * handed in here), then the catalog seed; safe to run from several instances at once.
 */
export async function prepareDatabase(database: Database): Promise<void> {
  await migrateDatabase(database, { seal });
  await withAdvisoryLock(database, (db) => seedCatalog(db));
}

/** Tests and scripts install their own database as the process's one. */
export function installDatabase(database: Database): void {
  holder.ready = Promise.resolve(database);
}

export async function closeDatabase(): Promise<void> {
  const ready = holder.ready;
  holder.ready = undefined;
  if (ready) await (await ready).close();
}

/** The configured database's options: DATABASE_URL, DATABASE_DIRECT_URL, DATABASE_POOLED… */
export function configuredDatabase(settings: Config["database"] = config().database): OpenOptions {
  return { url: settings.url, directUrl: settings.directUrl, pooled: settings.pooled, poolMax: settings.poolMax };
}

/** The driver's settings from the configuration (db/client.ts reads none itself). */
function driverSettings(settings: Config["database"] = config().database): DriverSettings {
  return {
    connectTimeoutSeconds: settings.connectTimeoutSeconds,
    statementTimeoutMs: settings.statementTimeoutMs,
    poolMax: settings.poolMax,
    dataDir: settings.pgliteDataDir ?? path.join(process.cwd(), ".data", "pglite"),
  };
}

/** Opens the database `options` name with the configured driver settings; without options, the configured one. */
export function openDatabase(options: OpenOptions = {}): Promise<Database> {
  return openDriver(options, driverSettings());
}

/** The postgres.js settings of the configuration, or of `env` (db/client.ts, postgresDriverSettings). */
export function postgresSettings(env?: Record<string, string | undefined>) {
  return postgresDriverSettings(env ? parseConfig(env).database : config().database);
}

export function defaultDataDir(): string {
  return driverSettings().dataDir;
}
