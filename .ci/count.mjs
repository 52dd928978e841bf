// Prints "<passed> <failed>" from a vitest or Playwright JSON report.
import fs from "node:fs";

const report = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
if ("numPassedTests" in report) {
  console.log(`${report.numPassedTests} ${report.numFailedTests}`);
} else if (report.stats) {
  const { expected = 0, unexpected = 0, flaky = 0 } = report.stats;
  console.log(`${expected + flaky} ${unexpected}`);
} else {
  process.exit(1);
}
