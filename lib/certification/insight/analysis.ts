import { asc, eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { answers, recipients, testDomains, testQuestions } from "@/db/schema";
import { HARD_BELOW_PERCENT, LOW_DISCRIMINATION_BELOW, type QuestionAnalysisView, type TestAnalysisView } from "./schemas";
import { answerKeyShown } from "@/lib/certification/catalog/catalog";
import { findTest } from "@/lib/certification/tests/tests";

type QuestionRow = {
  id: number;
  domain_id: number;
  position: number;
  prompt: string;
  options: string[];
  correct_index: number;
  type: "single" | "multiple";
  correct_indexes: number[] | string | null;
  given: number;
  answered: number;
  correct: number;
  discrimination: number | string | null;
  chosen: Record<string, number> | string;
  completed: number;
  in_progress: number;
};

/**
 * Every figure per question in one statement (one snapshot, one round trip), aggregated by
 * the database: a test of 1,000 recipients × 20 questions sends 20 rows, not 20,000 answers.
 *
 * - counted: the recipients who completed the test (an attempt in progress would bias both
 *   the difficulty and the totals);
 * - given_to: each counted recipient's questions (their question_order: on a per_recipient
 *   test their own set out of the pool, on a per_test one every question);
 * - scored: their answers, 1 when right, 0 when wrong;
 * - totals: each counted recipient's total score (right answers; none answered → 0);
 * - items: per question over the counted recipients given it (an unanswered question scores 0, as in
 *   the result): given, answered, right, and Pearson's correlation of the 0/1 item score x with the
 *   total y, which is the point-biserial, from sums (offered: n, Σy, Σy² over the recipients given
 *   the question; hits: Σx = Σx², Σxy over its answers, x being 0 for the rest):
 *   (nΣxy − ΣxΣy) / √((nΣx² − (Σx)²)(nΣy² − (Σy)²)) — what `corr()` computes, from two hash
 *   aggregates instead of a join of every (recipient, question) with every answer (a sort of
 *   hundreds of thousands of rows at 10,000 recipients). Every sum is of whole numbers, exact in
 *   float8. Null with no variance on either side;
 * - picks: per question, how many counted recipients chose each option (each option of a
 *   multiple-response answer's set counts once; scored right only for the exact set).
 */
function analysisQuery(testId: number, perRecipient: boolean) {
  return sql`
    with counted as (
      select id, question_order from ${recipients} where test_id = ${testId} and status = 'completed'
    ),
    given_to as (
      select c.id as recipient_id, e.question_id::int as question_id
      from counted c cross join lateral jsonb_array_elements_text(c.question_order) as e(question_id)
    ),
    scored as (
      select a.recipient_id, a.question_id, a.option_index, a.option_indexes,
             case when q.type = 'multiple' then (case when a.option_indexes = q.correct_indexes then 1 else 0 end)
                  when a.option_index = q.correct_index then 1 else 0 end as ok
      from ${answers} a
      join counted c on c.id = a.recipient_id
      join ${testQuestions} q on q.id = a.question_id
    ),
    totals as (
      select c.id as recipient_id, coalesce(r.total, 0)::float8 as total
      from counted c left join (select recipient_id, sum(ok) as total from scored group by recipient_id) r on r.recipient_id = c.id
    ),
    offered as (
      select g.question_id as id, count(*)::float8 as n, sum(t.total) as sy, sum(t.total * t.total) as syy
      from given_to g join totals t on t.recipient_id = g.recipient_id
      group by g.question_id
    ),
    hits as (
      select s.question_id as id, count(*)::int as answered, sum(s.ok)::float8 as sx, sum(s.ok * t.total) as sxy
      from scored s join totals t on t.recipient_id = s.recipient_id
      group by s.question_id
    ),
    items as (
      select o.id, o.n::int as given, coalesce(h.answered, 0) as answered, coalesce(h.sx, 0)::int as correct,
             case when o.n * coalesce(h.sx, 0) - coalesce(h.sx, 0) * coalesce(h.sx, 0) > 0 and o.n * o.syy - o.sy * o.sy > 0
                  then (o.n * coalesce(h.sxy, 0) - coalesce(h.sx, 0) * o.sy)
                       / sqrt((o.n * coalesce(h.sx, 0) - coalesce(h.sx, 0) * coalesce(h.sx, 0)) * (o.n * o.syy - o.sy * o.sy))
             end as discrimination
      from offered o left join hits h on h.id = o.id
    ),
    picks as (
      select question_id, jsonb_object_agg(option_index::text, n) as chosen
      from (select question_id, picked::int as option_index, count(*)::int as n
            from scored cross join lateral jsonb_array_elements_text(coalesce(option_indexes, jsonb_build_array(option_index))) as o(picked)
            group by question_id, picked::int) by_option
      group by question_id
    )
    select q.id, q.domain_id, q.position, q.prompt, q.options, q.correct_index, q.type, q.correct_indexes,
           coalesce(i.given, 0) as given,
           coalesce(i.answered, 0) as answered,
           coalesce(i.correct, 0) as correct,
           i.discrimination,
           coalesce(p.chosen, '{}'::jsonb) as chosen,
           (select count(*)::int from counted) as completed,
           (select count(*)::int from ${recipients} where test_id = ${testId} and status = 'started') as in_progress
    from ${testQuestions} q
    left join items i on i.id = q.id
    left join picks p on p.question_id = q.id
    where q.test_id = ${testId}
      ${perRecipient ? sql`and q.id in (select (jsonb_array_elements_text(question_order))::int from ${recipients} where test_id = ${testId})` : sql``}
    order by q.position`;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
/** A share in percent to one decimal, halves up: counts multiplied first, so 1323 of 2000 is 66.2 (not 66.1 from 66.14999… in floating point). */
const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part * 1000) / whole) / 10 : null);

/** The parsed jsonb/float8 a driver may hand back as text (postgres.js and PGlite differ). */
const asObject = (value: Record<string, number> | string): Record<string, number> => (typeof value === "string" ? JSON.parse(value) : value);
const asArray = (value: string[] | string): string[] => (typeof value === "string" ? JSON.parse(value) : value);

/** The right option, or a multiple-response question's right set. */
function rightOptions(row: Pick<QuestionRow, "type" | "correct_index" | "correct_indexes">): number[] {
  const set = typeof row.correct_indexes === "string" ? (JSON.parse(row.correct_indexes) as number[] | null) : row.correct_indexes;
  return row.type === "multiple" && set ? set : [row.correct_index];
}

/**
 * The question analysis of a test (`GET /tests/{code}/analysis`) over the recipients who
 * completed it: per question how many answered, the difficulty (percent right), the
 * discrimination (point-biserial) and how often each option was chosen, with the weak
 * questions and the suspect distractors flagged; per domain the average percent.
 */
export async function testAnalysis(db: Db, workspaceId: string, code: string): Promise<TestAnalysisView> {
  const test = await findTest(db, workspaceId, code);
  const [result, domainRows, answerKey] = await Promise.all([
    // Without PostgreSQL's JIT: past its cost threshold (a test of thousands) compiling the plan
    // took longer than running it (≈ 0.45 s of 1 s at 10,000 recipients, bench:scale).
    db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('jit', 'off', true)`);
      return tx.execute(analysisQuery(test.id, test.draw === "per_recipient"));
    }),
    db.select().from(testDomains).where(eq(testDomains.testId, test.id)).orderBy(asc(testDomains.position)),
    answerKeyShown(db, workspaceId, test.certificationId),
  ]);
  const rows = rowsOf<QuestionRow>(result);
  const completed = Number(rows[0]?.completed ?? 0);
  const inProgress = Number(rows[0]?.in_progress ?? 0);
  const domainName = new Map(domainRows.map((domain) => [domain.domainId, domain.name]));

  const questions = rows.map((row, index): QuestionAnalysisView => {
    const given = Number(row.given);
    const answered = Number(row.answered);
    const correct = Number(row.correct);
    const percentCorrect = percentOf(correct, given);
    const r = row.discrimination === null ? null : Number(row.discrimination);
    // corr() can come out a hair beyond ±1 in floating point.
    const discrimination = r === null || !Number.isFinite(r) || given < 2 ? null : round3(Math.max(-1, Math.min(1, r)));
    const chosen = asObject(row.chosen);
    const options = asArray(row.options);
    const rightSet = rightOptions(row);
    // The least-chosen right option: a wrong one chosen more often is suspect (the one right option on a single question).
    const rightCount = Math.min(...rightSet.map((option) => Number(chosen[String(option)] ?? 0)));
    const flags: QuestionAnalysisView["flags"] = [];
    if (percentCorrect !== null && percentCorrect < HARD_BELOW_PERCENT) flags.push("hard");
    if (discrimination !== null && discrimination < LOW_DISCRIMINATION_BELOW) flags.push("low_discrimination");
    return {
      question_id: row.id,
      position: index + 1,
      domain: { id: row.domain_id, name: domainName.get(row.domain_id) ?? "" },
      prompt: row.prompt,
      type: row.type,
      choose: rightSet.length,
      given,
      answered,
      correct,
      percent_correct: percentCorrect,
      discrimination,
      flags,
      weak: flags.length > 0,
      options: options.map((text, option) => {
        const count = Number(chosen[String(option)] ?? 0);
        const isRight = rightSet.includes(option);
        let flag: QuestionAnalysisView["options"][number]["flag"] = null;
        if (!isRight && answered > 0) flag = count > rightCount ? "chosen_over_correct" : count === 0 ? "never_chosen" : null;
        // A test of the shared catalog: neither the right option nor the distractor flags
        // (which single out the wrong options) are shown, only how often each was chosen.
        return { index: option, text, correct: answerKey ? isRight : null, chosen: count, percent: percentOf(count, answered), flag: answerKey ? flag : null };
      }),
    };
  });

  const rightAnswers = questions.reduce((sum, question) => sum + question.correct, 0);
  const givenOf = (list: QuestionAnalysisView[]) => list.reduce((sum, question) => sum + question.given, 0);
  return {
    test: test.code,
    answer_key: answerKey,
    completed,
    in_progress: inProgress,
    average_percent: percentOf(rightAnswers, givenOf(questions)),
    thresholds: { hard_below_percent: HARD_BELOW_PERCENT, low_discrimination_below: LOW_DISCRIMINATION_BELOW },
    // Every counted recipient has the same number of questions in a domain (per_recipient too),
    // so the mean of their domain percents is the domain's right answers over the questions given.
    domains: domainRows.map((domain) => {
      const inDomain = questions.filter((question) => question.domain.id === domain.domainId);
      const right = inDomain.reduce((sum, question) => sum + question.correct, 0);
      return { id: domain.domainId, name: domain.name, questions: inDomain.length, average_percent: percentOf(right, givenOf(inDomain)) };
    }),
    questions,
  };
}
