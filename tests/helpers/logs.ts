import { writeLogsTo } from "@/lib/kernel/log";

export type LogLine = Record<string, unknown> & { level: string; msg: string };

/**
 * Captures what the app logs (pino's JSON lines) instead of writing it to stdout, until
 * `restore()`. `text()` is every line as written, for "does not contain" checks.
 */
export function captureLogs(): { lines: LogLine[]; text(): string; restore(): void } {
  const raw: string[] = [];
  writeLogsTo((line) => void raw.push(line));
  return {
    get lines() {
      return raw.map((line) => JSON.parse(line) as LogLine);
    },
    text: () => raw.join(""),
    restore: () => writeLogsTo(undefined),
  };
}
