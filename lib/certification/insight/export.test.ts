import { describe, expect, it } from "vitest";
import { csvField, resultsFilename, testResultsCsv } from "./export";
import type { TestView } from "@/lib/certification/tests/schemas";

const recipient = (over: Partial<TestView["recipients"][number]>): TestView["recipients"][number] => ({
  id: 1,
  email: "ada@example.com",
  name: "Ada",
  status: "sent",
  link: "http://localhost/t/x",
  extra_time_minutes: 0,
  deadline: null,
  integrity_flagged: false,
  sent_at: "2025-01-01T10:00:00.000Z",
  last_emailed_at: null,
  started_at: null,
  completed_at: null,
  answered: 0,
  email_delivery: { status: "sent", detail: null, updated_at: null },
  ...over,
});

describe("csvField", () => {
  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("Doe, Jane")).toBe('"Doe, Jane"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(null)).toBe("");
    expect(csvField(66.7)).toBe("66.7");
  });

  it("defuses text a spreadsheet would run as a formula", () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
  });
});

describe("testResultsCsv", () => {
  it("writes one row per recipient and one percent column per domain", () => {
    const csv = testResultsCsv({
      domains: [
        { id: 7, name: "Threats, attacks", questions: 3 },
        { id: 9, name: "Operations", questions: 2 },
      ],
      recipients: [
        recipient({}),
        recipient({
          id: 2,
          email: "bob@example.com",
          name: "Bob",
          status: "completed",
          started_at: "2025-01-01T11:00:00.000Z",
          completed_at: "2025-01-01T11:10:00.000Z",
          result: {
            percent: 60,
            correct: 3,
            questions: 5,
            domains: [
              { id: 9, name: "Operations", percent: 50, correct: 1, questions: 2 },
              { id: 7, name: "Threats, attacks", percent: 66.7, correct: 2, questions: 3 },
            ],
            passed: false,
            certificate_url: null,
          },
        }),
      ],
    });
    expect(csv.split("\r\n")).toEqual([
      'email,name,status,sent_at,started_at,completed_at,percent,correct,questions,passed,"Threats, attacks %",Operations %,certificate_url,browsers,hidden_count,hidden_seconds,copy_attempts,fullscreen_exits,address_changed,email_delivery',
      "ada@example.com,Ada,sent,2025-01-01T10:00:00.000Z,,,,,,,,,,,,,,,,sent",
      "bob@example.com,Bob,completed,2025-01-01T10:00:00.000Z,2025-01-01T11:00:00.000Z,2025-01-01T11:10:00.000Z,60,3,5,false,66.7,50,,,,,,,,sent",
      "",
    ]);
  });

  it("adds the integrity record's columns, empty without a record", () => {
    const seen = {
      recipientId: 2,
      startAddress: "203.0.113.7",
      startBrowser: "UA one",
      submitAddress: "198.51.100.4",
      submitBrowser: "UA one",
      browsers: ["aaaa", "bbbb"],
      hiddenCount: 3,
      hiddenMs: 12_999,
      copyCount: 1,
      fullscreenExits: 0,
      updatedAt: new Date(),
    };
    const csv = testResultsCsv({ domains: [], recipients: [recipient({}), recipient({ id: 2, email: "bob@example.com", name: "Bob" })] }, new Map([[2, seen]]));
    const [header, ada, bob] = csv.split("\r\n");
    expect(header.split(",").slice(-7, -1)).toEqual(["browsers", "hidden_count", "hidden_seconds", "copy_attempts", "fullscreen_exits", "address_changed"]);
    expect(ada.split(",").slice(-7, -1)).toEqual(["", "", "", "", "", ""]);
    expect(bob.split(",").slice(-7, -1)).toEqual(["2", "3", "12", "1", "0", "true"]);
  });

  it("says which links were handed over rather than e-mailed: sent_at empty, email_delivery not_sent", () => {
    const handed = recipient({ sent_at: null, email_delivery: { status: "not_sent", detail: null, updated_at: null } });
    const [header, row] = testResultsCsv({ domains: [], recipients: [handed] }).split("\r\n");
    const cells = Object.fromEntries(header.split(",").map((column, index) => [column, row.split(",")[index]]));
    expect(cells).toMatchObject({ status: "sent", sent_at: "", email_delivery: "not_sent" });
  });

  it("names the file after the code only", () => {
    expect(resultsFilename("K7Q2M9XR")).toBe("test-K7Q2M9XR-results.csv");
    expect(resultsFilename('a"b/c')).toBe("test-abc-results.csv");
  });
});
