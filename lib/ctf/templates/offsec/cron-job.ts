import { posix } from "node:path";
import { AppError, notFound } from "@/lib/kernel/errors";
import { defineTemplate, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Cron Job (offsec): a misconfigured backup browser (the target) shows the box's filesystem
 * read-only, as the web server's user. A script runs as root every minute with tracing on,
 * and its trace lands somewhere world-readable, token and all. Enumerate: the crontab
 * (easy) or /etc/cron.d (medium+) names the script; the script names its log (easy/medium in
 * the cron line, hard/insane inside the script); insane's trace carries the token in hex.
 * The filesystem lives in memory: paths are normalised as text and never touch a disk.
 */
type Node = { mode: string; owner: string; content?: string };
type State = TargetState & { job: string; script: string; log: string; user: string };

function filesystem(state: State, flag: string): Record<string, Node> {
  const traced = state.difficulty === "hard" || state.difficulty === "insane";
  const cronLine = `* * * * * root ${state.script}${traced ? "" : ` >> ${state.log} 2>&1`}`;
  const token = state.difficulty === "insane" ? Buffer.from(flag).toString("hex") : flag;
  const read = state.difficulty === "insane" ? "xxd -p -c 256 /root/.token" : "cat /root/.token";
  const files: Record<string, Node> = {
    "/etc/hostname": { mode: "-rw-r--r--", owner: "root", content: "backup-01\n" },
    "/etc/passwd": { mode: "-rw-r--r--", owner: "root", content: `root:x:0:0:root:/root:/bin/bash\nwww-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\n${state.user}:x:1000:1000::/home/${state.user}:/bin/bash\n` },
    "/etc/crontab": {
      mode: "-rw-r--r--",
      owner: "root",
      content: `SHELL=/bin/sh\n17 *\t* * *\troot\tcd / && run-parts --report /etc/cron.hourly\n${state.difficulty === "easy" ? `${cronLine}\n` : ""}`,
    },
    "/etc/cron.d/e2scrub_all": { mode: "-rw-r--r--", owner: "root", content: "30 3 * * 0 root test -e /run/systemd/system || /usr/lib/x86_64-linux-gnu/e2fsprogs/e2scrub_all_cron\n" },
    "/root": { mode: "drwx------", owner: "root" },
    "/root/.token": { mode: "-rw-------", owner: "root", content: flag },
    [`/home/${state.user}/notes.txt`]: { mode: "-rw-r--r--", owner: state.user, content: `TODO: the ${state.job} job talks too much, turn its tracing off.\n` },
    [state.script]: {
      mode: "-rwxrwxrwx",
      owner: "root",
      content: `#!/bin/sh\n${traced ? `exec >> ${state.log} 2>&1\n` : ""}set -x\nTOKEN=$(${read})\ntar czf /var/backups/www.tgz /var/www\ncurl -s -T /var/backups/www.tgz -H "X-Token: $TOKEN" https://backup.example/upload\n`,
    },
    [state.log]: {
      mode: "-rw-r--r--",
      owner: "root",
      content: `+ ${read}\n+ TOKEN=${token}\n+ tar czf /var/backups/www.tgz /var/www\n+ curl -s -T /var/backups/www.tgz -H X-Token: ${token} https://backup.example/upload\n`.repeat(3),
    },
    "/var/www/index.html": { mode: "-rw-r--r--", owner: "www-data", content: "<h1>It works!</h1>\n" },
  };
  if (state.difficulty !== "easy") files[`/etc/cron.d/${state.job}`] = { mode: "-rw-r--r--", owner: "root", content: `# ${state.job}: every minute\n${cronLine}\n` };
  return files;
}

/** The entries directly under a directory (the directories implied by the files' paths included). */
function listing(files: Record<string, Node>, directory: string): string[] {
  const prefix = directory === "/" ? "/" : `${directory}/`;
  const names = new Set<string>();
  for (const path of Object.keys(files)) if (path.startsWith(prefix)) names.add(path.slice(prefix.length).split("/")[0]);
  return [...names].sort().map((name) => {
    const node = files[prefix + name];
    const isDirectory = !node?.content && (node === undefined || node.mode.startsWith("d"));
    return `${node?.mode ?? (isDirectory ? "drwxr-xr-x" : "-rw-r--r--")} ${(node?.owner ?? "root").padEnd(8)} ${name}${isDirectory ? "/" : ""}`;
  });
}

export const cronJob = defineTemplate<State>({
  key: "cron-job",
  build({ difficulty, rng }) {
    const job = rng.pick(["backup", "sync-www", "nightly-archive", "offsite"]);
    const dir = rng.pick(["/opt/scripts", "/usr/local/bin", "/opt/maint"]);
    const traced = difficulty === "hard" || difficulty === "insane";
    const state: State = {
      difficulty,
      job,
      script: `${dir}/${job}.sh`,
      log: traced ? `/var/tmp/.${job}.trace` : `/var/log/${job}.log`,
      user: rng.pick(["deploy", "ops", "maria"]),
    };
    return {
      description: "A backup browser left on the box (the target) shows its filesystem, read-only, to anyone. A script runs as root every minute. Find what it gives away.",
      hints: ["Check /etc/crontab, /etc/cron.d and the permissions of what they run.", "set -x writes every command, expanded, to wherever the output goes."],
      solution: [
        `Browse \`files?path=/etc/crontab\`${difficulty === "easy" ? "" : ` and \`files?path=/etc/cron.d/${job}\``}: root runs ${state.script} every minute.`,
        `The script (world-writable) reads /root/.token and traces every command with set -x into ${state.log}${traced ? " (its `exec >>` line)" : " (the cron line's redirection)"}.`,
        `\`files?path=${state.log}\` shows the token${difficulty === "insane" ? " in hex (decode it)" : ""}: the flag. /root itself stays unreadable.`,
      ],
      target: state,
    };
  },
  serve(state, request) {
    if (request.page === "index") return { text: "Backup browser v0.3 (read-only)\n\nBrowse: ./files?path=/\n" };
    if (request.page !== "files") throw notFound("Page");
    const path = posix.normalize(`/${request.query.path ?? "/"}`).replace(/(.)\/$/, "$1");
    const files = filesystem(state, request.flag);
    if (path === "/root" || path.startsWith("/root/")) throw new AppError("forbidden", `Permission denied: ${path} (the browser runs as www-data).`);
    const node = Object.hasOwn(files, path) ? files[path] : undefined;
    if (node?.content !== undefined) return { text: node.content };
    const entries = listing(files, path);
    if (!entries.length && path !== "/") throw notFound("File");
    return { text: `${path}:\n${entries.join("\n")}\n` };
  },
});
