import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bankFormats, readBank, writeBank, type BankQuestion } from "@/lib/certification/own/formats/bank";

/**
 * Export then import gives the same questions back. Texts are made of words (with the
 * characters each format must escape, non-ASCII, and things that look like syntax) joined by
 * one space, or by a line break in multi-line texts: trimmed and non-empty, as our rules keep
 * them. Runs of spaces are not generated: GIFT (gift-pegjs) reads them as one space.
 */

const tricky = ["/", "//", "{", "}", "~", "=", "#", ":", "::", "\\", "\\n", "<", "&", "&amp;", '"', "'", ",", ";", "%50%", "->", "[html]", "$course$", "ANSWER:", "A.", "é", "ünï", "字", "🙂", "]]>", "--", "+1", "@x", "T", "TRUE", "F", "//x", "$CATEGORY:", "####", "a\tb"];
const word = fc.oneof(fc.constantFrom(...tricky), fc.stringMatching(/^[A-Za-z0-9?.!()]{1,8}$/));
const oneLineText = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(" "));
const multiLineText = fc.array(oneLineText, { minLength: 1, maxLength: 3 }).map((lines) => lines.join("\n"));

const domainName = oneLineText.filter((name) => name.length <= 200);

function questionArbitrary(domains: string[], text: fc.Arbitrary<string>): fc.Arbitrary<BankQuestion> {
  return fc
    .record({
      domain: fc.constantFrom<string | null>(...domains, null),
      prompt: text,
      options: fc.uniqueArray(text, { minLength: 2, maxLength: 8, selector: (option) => option.toLowerCase() }),
      explanation: fc.oneof(fc.constant(""), text),
      multiple: fc.boolean(),
      seed: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      pick: fc.nat(),
    })
    .map(({ domain, prompt, options, explanation, multiple, seed, pick }) => {
      const count = options.length;
      if (!multiple || count < 3) return { domain, prompt, options, type: "single" as const, correct: pick % count, explanation };
      // 2 to count - 1 right options, from the seed.
      let rights = seed.slice(0, count).flatMap((right, index) => (right ? [index] : []));
      if (rights.length < 2) rights = [0, 1];
      if (rights.length === count) rights = rights.slice(1);
      return { domain, prompt, options, type: "multiple" as const, correct: rights, explanation };
    });
}

const bankArbitrary = (text: fc.Arbitrary<string>) =>
  fc.uniqueArray(domainName, { minLength: 1, maxLength: 4 }).chain((domains) => fc.array(questionArbitrary(domains, text), { minLength: 1, maxLength: 8 }));

describe("round trips: writeBank then readBank gives the same questions", () => {
  for (const format of bankFormats.filter((name) => name !== "aiken")) {
    it(format, async () => {
      await fc.assert(
        fc.asyncProperty(bankArbitrary(multiLineText), async (questions) => {
          const { text, left_out } = writeBank(format, questions);
          expect(left_out).toEqual([]);
          const read = await readBank(format, text);
          expect(read.skipped).toEqual([]);
          expect(read.questions.map((item) => item.question)).toEqual(questions);
        }),
        { numRuns: 100 },
      );
    });
  }

  it("aiken: the single questions, with no domain and no explanation", async () => {
    await fc.assert(
      fc.asyncProperty(bankArbitrary(oneLineText), async (questions) => {
        const { text, left_out } = writeBank("aiken", questions);
        const singles = questions.filter((question) => question.type === "single");
        expect(left_out.map((item) => item.index)).toEqual(questions.flatMap((question, index) => (question.type === "multiple" ? [index] : [])));
        if (singles.length === 0) return;
        const read = await readBank("aiken", text);
        expect(read.skipped).toEqual([]);
        expect(read.questions.map((item) => item.question)).toEqual(singles.map((question) => ({ ...question, domain: null, explanation: "" })));
      }),
      { numRuns: 100 },
    );
  });
});
