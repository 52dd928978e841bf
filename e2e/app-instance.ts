import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";

/**
 * One more instance of the built app (`npm start`: scripts/serve.mjs serving the `.next` of
 * `npm run build`) on its own port, for a test that needs an app of its own (the outage test
 * points it at a private PostgreSQL cluster). Its output is kept for the failure message. It
 * runs the command of package.json's `start` script, so it is served as `npm start` serves.
 */
export type AppInstance = { baseUrl: string; process: ChildProcess; output(): string; stop(): Promise<void> };

/** `node scripts/serve.mjs …` of package.json's `start` script: its arguments after `node`. */
function startArguments(): string[] {
  const { scripts } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: { start: string } };
  const [program, ...args] = scripts.start.split(/\s+/);
  if (program !== "node" || args[0] !== "scripts/serve.mjs") throw new Error(`npm start is not \`node scripts/serve.mjs …\`: ${scripts.start}`);
  return args;
}

export async function startAppInstance(port: number, env: Record<string, string>): Promise<AppInstance> {
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, [...startArguments(), "-p", String(port)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DEV_MAILBOX: "true",
      AUTH_URL: baseUrl,
      // Production requires AUTH_SECRET (lib/kernel/config/config.ts); the same one as playwright.config.ts.
      AUTH_SECRET: "e2e-only-auth-secret-0123456789abcdef",
      API_LOG: "off",
      WEBHOOK_ALLOW_PRIVATE: "true",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const instance: AppInstance = {
    baseUrl,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/signin`, { redirect: "manual" });
      if (response.status === 200) return instance;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await instance.stop();
      throw new Error(`npm start did not answer within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
