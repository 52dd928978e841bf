/** Shape of the seeded catalog: plain data, validated by the seed before insert. */
export type SeedQuestion = SingleSeedQuestion | MultipleSeedQuestion;

type SeedQuestionText = {
  /** The question text, one or two sentences. */
  prompt: string;
  /** Why the correct option is right (and, briefly, why a tempting one is wrong). */
  explanation: string;
};

/** One right option among four (the default type). */
export type SingleSeedQuestion = SeedQuestionText & {
  type?: "single";
  /** 4 answer options (plain text, no "A)" prefixes). */
  options: [string, string, string, string];
  /** Index (0-3) of the one correct option. */
  correct: 0 | 1 | 2 | 3;
};

/** "Choose two" as the vendors' exams ask it: 4 or 5 options, 2 right, scored all or nothing. */
export type MultipleSeedQuestion = SeedQuestionText & {
  type: "multiple";
  options: [string, string, string, string] | [string, string, string, string, string];
  /** The right options' indexes, ascending (2, fewer than the options). */
  correct: number[];
};

export type SeedDomain = {
  /** The domain name exactly as the vendor's exam guide names it. */
  name: string;
  questions: SeedQuestion[];
};

export type SeedCertification = {
  /** Stable key used to upsert the certification, e.g. "aws-clf-c02". */
  slug: string;
  vendor: string;
  /** The vendor's exam code, e.g. "CLF-C02". */
  code: string;
  name: string;
  description: string;
  domains: SeedDomain[];
};
