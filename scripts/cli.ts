/**
 * Admin command line for operators and tests:
 *   npm run cli -- key:create --email <e-mail> [--name N] [--scopes cert:read,ctf:read]
 *   npm run cli -- plan:set --email <e-mail> --plan <free|pro>
 * Reads the same env files as Next.js (scripts/load-env.ts). Uses DATABASE_URL when set,
 * otherwise the embedded database (stop the app first: PGlite is one process's database).
 * Says which database on stderr; stdout's last line is the command's result.
 */
import "./load-env";
import { parseArgs } from "node:util";
import { z } from "zod";
import { planNames } from "@/db/schema";
import { createApiKey } from "@/lib/platform/keys";
import { createApiKeyInput } from "@/lib/platform/keys/schemas";
import { ConfigError } from "@/lib/kernel/config/config";
import { ensureUserWorkspace, setPlan } from "@/lib/platform/workspaces";
import { describeDatabase } from "./describe-database";
import { toAppError } from "@/lib/kernel/to-app-error";
import { closeDatabase, getDb } from "@/lib/platform/database";

const usage = `Usage:
  npm run cli -- key:create --email <e-mail> [--name <name>] [--scopes cert:read,cert:write,cert:admin,ctf:read,ctf:write,ctf:deploy,ctf:admin]
  npm run cli -- plan:set --email <e-mail> --plan <${planNames.join("|")}>`;

const email = z.email("--email must be an e-mail address.");

/**
 * The command line is an edge, as a route is: its flags are parsed here with the route's own
 * schema, and each refusal is printed on its line, named by its flag. Null when refused.
 */
function readFlags<S extends z.ZodType>(schema: S, value: Record<string, unknown>): z.output<S> | null {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const [field, index] = issue.path;
    const given = typeof index === "number" ? ` "${(value[String(field)] as unknown[])[index]}"` : "";
    console.error(`--${String(field)}${given}: ${issue.message}`);
  }
  return null;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: "string" }, name: { type: "string" }, scopes: { type: "string" }, plan: { type: "string" } },
  });
  const command = positionals[0];
  if (command === "key:create" || command === "plan:set") console.error(`Database: ${describeDatabase()}`);
  if (command === "key:create") {
    const address = email.parse(values.email);
    const input = readFlags(createApiKeyInput, { name: values.name ?? "CLI key", scopes: values.scopes ? values.scopes.split(",").map((s) => s.trim()) : null });
    if (!input) return 2;
    const db = await getDb();
    const { workspace } = await ensureUserWorkspace(db, address);
    const { key, secret } = await createApiKey(db, workspace.id, input);
    console.log(`Created key ${key.id} (${key.prefix}…) for ${address} in ${workspace.id}, scopes: ${key.scopes?.join(",") ?? "full access"}`);
    console.log(secret);
    return 0;
  }
  if (command === "plan:set") {
    const address = email.parse(values.email);
    const plan = z.enum(planNames).parse(values.plan);
    const db = await getDb();
    const { workspace } = await ensureUserWorkspace(db, address);
    const updated = await setPlan(db, workspace.id, plan);
    console.log(`Workspace ${updated.id} of ${address} is now on the ${updated.plan} plan.`);
    return 0;
  }
  console.error(usage);
  return 2;
}

main(process.argv.slice(2))
  .then(async (code) => {
    await closeDatabase();
    process.exit(code);
  })
  .catch(async (error) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
      await closeDatabase().catch(() => {});
      process.exit(1);
    }
    const appError = toAppError(error);
    const detail = appError.fields?.map((f) => `${f.field}: ${f.message}`).join("; ");
    console.error(`Error: ${appError.code === "internal_error" ? (error as Error).message : appError.message}${detail ? ` (${detail})` : ""}`);
    await closeDatabase().catch(() => {});
    process.exit(1);
  });
