import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { FormatSyntaxError, readBank, writeBank, type ReadBank } from "@/lib/certification/own/formats/bank";

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/formats/${name}`, import.meta.url), "utf8");

const catchSyntax = async (text: string) => {
  try {
    await readBank("moodle_xml", text);
  } catch (error) {
    if (error instanceof FormatSyntaxError) return error;
    throw error;
  }
  throw new Error("no FormatSyntaxError");
};

describe("Moodle XML: the examples of Moodle's documentation", () => {
  let bank: ReadBank;
  beforeAll(async () => {
    bank = await readBank("moodle_xml", fixture("moodle-docs.xml"));
  });

  it("imports multichoice (one and several right) and truefalse, with names, categories, HTML as text and feedback", () => {
    expect(bank.questions).toEqual([
      {
        line: 10,
        name: "Name of question",
        question: {
          domain: "Moodle/XML/Examples",
          prompt: "What is the answer to this question?",
          options: ["The correct answer", "A distractor", "Another distractor"],
          type: "single",
          correct: 0,
          explanation: "Correct!",
        },
      },
      {
        line: 34,
        name: "Two right",
        question: {
          domain: "Moodle/XML/Examples",
          prompt: "Which are prime numbers & odd?",
          options: ["3", "5", "2", "4 < 5"],
          type: "multiple",
          correct: [0, 1],
          explanation: "3 and 5 are odd primes; 2 is even.",
        },
      },
      {
        line: 59,
        name: "True or false",
        question: { domain: "Moodle/XML/Examples", prompt: "The sun rises in the East.", options: ["True", "False"], type: "single", correct: 0, explanation: "Correct!" },
      },
    ]);
  });

  it("skips the other types by name, and a one-answer question with no 100% answer", () => {
    expect(bank.skipped).toEqual([
      { line: 82, name: "Short", reason: "Short-answer questions are not delivered here; skipped." },
      { line: 91, name: "Numerical", reason: "Numerical questions are not delivered here; skipped." },
      { line: 100, name: "Matching", reason: "Matching questions are not delivered here; skipped." },
      { line: 113, name: "Essay", reason: "Essay questions are not delivered here; skipped." },
      { line: 119, name: "Description", reason: "Descriptions (text with no answers) are not delivered here; skipped." },
      { line: 124, name: "Cloze", reason: "Cloze questions (embedded answers) are not delivered here; skipped." },
      { line: 129, name: "Partial only", reason: expect.stringContaining("No option is worth 100%") },
    ]);
  });

  it("reads a truefalse question whose right answer is false", async () => {
    const xml = `<quiz><question type="truefalse"><questiontext format="plain_text"><text>Cats bark.</text></questiontext>
      <answer fraction="0"><text>true</text></answer><answer fraction="100"><text>false</text><feedback><text>They meow.</text></feedback></answer></question></quiz>`;
    expect((await readBank("moodle_xml", xml)).questions[0].question).toEqual({ domain: null, prompt: "Cats bark.", options: ["True", "False"], type: "single", correct: 1, explanation: "They meow." });
  });

  it("decodes character references outside CDATA and keeps CDATA as written", async () => {
    const xml = `<quiz><question type="multichoice"><questiontext format="plain_text"><text>caf&#233; &#x2603; &amp;amp; <![CDATA[&#233; <b>]]></text></questiontext>
      <answer fraction="100" format="plain_text"><text>a</text></answer><answer fraction="0" format="plain_text"><text>b</text></answer></question></quiz>`;
    expect((await readBank("moodle_xml", xml)).questions[0].question.prompt).toBe("café ☃ &amp; &#233; <b>");
  });
});

describe("Moodle XML: malformed and unsafe files", () => {
  it("gives the line of a tag that is not closed", async () => {
    const error = await catchSyntax('<?xml version="1.0"?>\n<quiz>\n<question type="multichoice">\n<name><text>x</text></name>\n</quiz>\n');
    expect(error.line).toBe(5);
  });

  it("refuses text that is not XML, and XML whose root is not <quiz>", async () => {
    expect((await catchSyntax("What is 2 + 2?\nA. 4\n")).line).toBe(1);
    const error = await catchSyntax('<?xml version="1.0"?>\n\n<questions><question/></questions>');
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/root element must be <quiz>/);
  });

  it("refuses a DOCTYPE that declares entities (no entity expansion, no billion laughs)", async () => {
    const bomb = ['<?xml version="1.0"?>', '<!DOCTYPE quiz [', '  <!ENTITY lol "lol">', '  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">', "]>", "<quiz>&lol2;</quiz>"].join("\n");
    const error = await catchSyntax(bomb);
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/entities/);
  });

  it("refuses an empty file", async () => {
    expect((await catchSyntax("")).message).toBe("The file is empty.");
  });

  // Each <question> is checked on its own (the file is read in slices): the lines must still be the file's.
  const good = (n: number) => `<question type="truefalse"><name><text>G${n}</text></name>\n<questiontext format="plain_text"><text>Q${n}</text></questiontext>\n<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>`;
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<!-- a comment with <question> in it -->\n';

  it("gives the file's line of an error inside a later question", async () => {
    // good(1) spans lines 4-6, good(2) lines 7-9; the broken question starts on line 10, its mismatched tag is on line 12.
    const error = await catchSyntax(`${head}${good(1)}\n${good(2)}\n<question type="multichoice">\n<name><text>x</text></name>\n<questiontext><text>y</questiontext>\n</question>\n</quiz>\n`);
    expect(error.line).toBe(12);
    expect(error.message).toMatch(/^Line 12: this is not well-formed XML/);
  });

  it("gives the line of an element the file ends inside", async () => {
    const error = await catchSyntax(`${head}${good(1)}\n<question type="multichoice">\n<name><text>x</text></name>\n`);
    expect(error.message).toBe("Line 7: this is not well-formed XML (the <question> element that starts here is never closed).");
    expect((await catchSyntax(`${head}${good(1)}\n`)).message).toMatch(/^Line 2: the <quiz> element that starts here is never closed/);
  });

  it("refuses content after </quiz>, a declaration inside it, and an XML declaration that is not at the start", async () => {
    expect((await catchSyntax(`${head}${good(1)}\n</quiz>\n<quiz></quiz>\n`)).line).toBe(8);
    expect((await catchSyntax(`${head}${good(1)}\n</quiz>\ntext\n`)).line).toBe(8);
    expect((await catchSyntax(`${head}<question type="truefalse">\n<!DOCTYPE x>\n</question></quiz>`)).line).toBe(5);
    expect((await catchSyntax(`\n<?xml version="1.0"?>\n<quiz></quiz>`)).line).toBe(2);
  });

  it("reads CDATA, comments and processing instructions that hold markup, and a '>' inside an attribute", async () => {
    const xml = `${head}<?pi <question type="essay"> ?>\n<question type="multichoice" note="a > b"><name><text><![CDATA[</question>]]></text></name>
      <questiontext format="plain_text"><text>Q<!-- </question> --></text></questiontext>
      <answer fraction="100"><text>a</text></answer><answer fraction="0"><text>b</text></answer></question>\n</quiz>\n`;
    const bank = await readBank("moodle_xml", xml);
    expect(bank.skipped).toEqual([]);
    expect(bank.questions).toEqual([{ line: 5, name: "</question>", question: { domain: null, prompt: "Q", options: ["a", "b"], type: "single", correct: 0, explanation: "" } }]);
  });
});

describe("Moodle XML: export", () => {
  it("writes a category per domain, multichoice questions in plain text with Moodle's fractions and the explanation", () => {
    const { text, left_out } = writeBank("moodle_xml", [
      { domain: "Net/Sec & <Ops>", prompt: "Pick <one>", options: ["a & b", "c"], type: "single", correct: 1, explanation: "Because." },
      { domain: "Net/Sec & <Ops>", prompt: "Pick three", options: ["a", "b", "c", "d"], type: "multiple", correct: [0, 2, 3], explanation: "" },
    ]);
    expect(left_out).toEqual([]);
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n')).toBe(true);
    expect(text.match(/<question type="category">/g)).toHaveLength(1);
    expect(text).toContain("<text>$course$/top/Net//Sec &amp; &lt;Ops&gt;</text>");
    expect(text).toContain('<questiontext format="plain_text">\n      <text>Pick &lt;one&gt;</text>');
    expect(text).toContain("<single>true</single>");
    expect(text).toContain("<single>false</single>");
    expect(text).toContain("<shuffleanswers>true</shuffleanswers>");
    expect(text).toContain("<answernumbering>abc</answernumbering>");
    expect(text).toContain('<generalfeedback format="plain_text">\n      <text>Because.</text>');
    expect(text.match(/fraction="[^"]+"/g)).toEqual(['fraction="0"', 'fraction="100"', 'fraction="33.33333"', 'fraction="-100"', 'fraction="33.33333"', 'fraction="33.33333"']);
  });
});
