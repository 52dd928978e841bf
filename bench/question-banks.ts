/**
 * On-demand benchmark of the question-bank formats (lib/certification/own/formats): for each
 * format, a generated bank of BENCH_QUESTIONS questions (8 options, long texts) is written, then
 * read back while the event loop's delay is recorded. `longest stall` is what any other request
 * of the server would have waited at worst during the read (monitorEventLoopDelay's max): it
 * must stay near the readers' slice (10 ms), whatever the read's total time.
 *
 *   npm run bench:banks
 *   BENCH_QUESTIONS=500 npm run bench:banks
 *
 * No server, no database: the readers and writers only. Nothing is written to disk.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { bankFormats, readBank, writeBank, type BankQuestion } from "@/lib/certification/own/formats/bank";
import { intEnv, textTable } from "./support";

const questionCount = intEnv("BENCH_QUESTIONS", 2000, 1, 2000);

/** Questions as long as a real bank's: a 400-character prompt, 8 options of about 60 characters, an explanation; every tenth multiple-response. */
function generatedBank(count: number): BankQuestion[] {
  return Array.from({ length: count }, (_, i) => ({
    domain: `Domain ${i % 20}`,
    prompt: `Question ${i}: which of these statements about topic ${i} holds in the situation described here? `.repeat(4).trim(),
    options: Array.from({ length: 8 }, (_, j) => `Option ${j} of question ${i}: a reasonably long answer text`),
    type: i % 10 === 0 ? "multiple" : "single",
    correct: i % 10 === 0 ? [0, 2, 5] : i % 8,
    explanation: `Because of reason ${i}, explained in a sentence or two that a learner reads after the test.`,
  }));
}

/** Milliseconds since `started`, one decimal. */
const since = (started: number) => (performance.now() - started).toFixed(1);

async function main() {
  const bank = generatedBank(questionCount);
  const rows: string[][] = [];
  for (const format of bankFormats) {
    let started = performance.now();
    const { text, left_out } = writeBank(format, bank);
    const writeMs = since(started);

    const delay = monitorEventLoopDelay({ resolution: 1 });
    // A timer that should tick every 5 ms: its longest gap is the stall as another request sees it.
    let lastTick = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - lastTick);
      lastTick = now;
    }, 5);
    delay.enable();
    started = performance.now();
    const read = await readBank(format, text);
    const readMs = since(started);
    delay.disable();
    clearInterval(ticker);

    rows.push([
      format,
      `${(Buffer.byteLength(text) / 1024 / 1024).toFixed(2)} MB`,
      String(bank.length - left_out.length),
      String(read.questions.length),
      writeMs,
      readMs,
      (delay.max / 1e6).toFixed(1),
      longestGap.toFixed(1),
    ]);
  }
  console.log(`question banks: ${questionCount} questions, 8 options each (Aiken leaves out the multiple-response ones)\n`);
  console.log(textTable(["format", "file", "written", "read", "write ms", "read ms", "longest stall ms", "longest 5 ms tick gap"], rows));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
