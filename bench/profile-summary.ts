/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file): where the process
 * spent its time, by package / area and by function (self time), so a benchmark's profile
 * can be read without a browser.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--filter <substring of a URL>]
 *
 * Areas: the project's own code by folder (lib/…, app/…, db/…), each node_modules package,
 * Node's own modules (node:…), and V8's pseudo-nodes ((garbage collector), (program), (idle)).
 * Percentages are of the sampled time without (idle). With --filter, the "inclusive" table
 * lists the functions whose URL contains the substring with their total (self + callees) time.
 */
import fs from "node:fs";
import path from "node:path";

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: Frame; children?: number[]; hitCount?: number };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--") && !/^\d+$/.test(a));
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!file) {
  console.error("usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--filter <url part>]");
  process.exit(2);
}
const top = Number(option("top") ?? 25);
const filter = option("filter");

const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// Self time per node from the samples (each sample's delta is the time until the next one).
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i + 1] ?? 0;
  self.set(id, (self.get(id) ?? 0) + delta);
});

/** The area a frame belongs to: a package, a project folder, Node itself or a V8 pseudo-node. */
function area(frame: Frame): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith("(") ? frame.functionName : "(native)";
  if (url.startsWith("node:")) return "node:" + url.slice(5).split("/")[0];
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  // Next's server bundles name the project's files in their chunk paths only loosely: keep the chunk name.
  const local = url.replace(/^file:\/\//, "");
  const relative = path.relative(process.cwd(), local);
  if (relative.startsWith(".next")) return `.next/${relative.split(path.sep).slice(1, 4).join("/")}`;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts.slice(0, 2).join("/") : relative;
}

const total = [...self.entries()].reduce((sum, [id, us]) => (byId.get(id)!.callFrame.functionName === "(idle)" ? sum : sum + us), 0);
const idle = [...self.entries()].reduce((sum, [id, us]) => (byId.get(id)!.callFrame.functionName === "(idle)" ? sum + us : sum), 0);
const pct = (us: number) => `${((us / total) * 100).toFixed(1)} %`;
const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;

const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, us] of self) {
  const frame = byId.get(id)!.callFrame;
  if (frame.functionName === "(idle)") continue;
  const name = area(frame);
  areas.set(name, (areas.get(name) ?? 0) + us);
  const key = `${frame.functionName || "(anonymous)"}  ${frame.url ? `${frame.url.replace(/^.*node_modules\//, "").replace(process.cwd() + "/", "")}:${frame.lineNumber + 1}` : ""}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
}

const print = (title: string, rows: [string, number][]) => {
  console.log(`\n${title}`);
  for (const [name, us] of rows.sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us).padStart(7)}  ${ms(us).padStart(8)}  ${name}`);
};

const profiledSeconds = Math.round((profile.endTime - profile.startTime) / 1e6);
console.log(`${path.basename(file)}: ${ms(total)} sampled busy, ${ms(idle)} idle (${profiledSeconds} s profiled)`);
print("self time by area (package, project folder, node module):", [...areas]);
print("self time by function:", [...functions]);

if (filter) {
  // Inclusive time of each function whose URL matches: its own samples and those of everything it called.
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!frame.url.includes(filter)) continue;
      const key = `${frame.functionName || "(anonymous)"}  ${frame.url.replace(/^.*node_modules\//, "").replace(process.cwd() + "/", "")}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue; // recursion counts once
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  print(`inclusive time of functions in URLs containing "${filter}":`, [...inclusive]);
}
