/**
 * A tiny, self-contained interpreter for the one query Search Party builds by hand — it
 * reproduces how a string-concatenated SQL query reacts to injection (quotes that break it,
 * `OR 1=1`, comments, `UNION SELECT` from other tables, SQLite's error messages) over
 * in-memory tables, without any database. Grammar: `SELECT cols [FROM table] [WHERE expr]`
 * joined by `UNION [ALL]`, then `[ORDER BY n] [LIMIT n]`; expressions with OR, AND, NOT,
 * comparisons, LIKE and IS [NOT] NULL. Input is bounded by the caller, so is the work: no
 * RegExp is built from it, and LIKE (./like.ts) takes at most (|pattern| + 1) · (|text| + 1) steps.
 */

import { likeMatches } from "./like";

export type Value = string | number | null;
export type Table = { columns: string[]; rows: Value[][] };
export type Result = { columns: string[]; rows: Value[][] };

export class SqlError extends Error {}

type Token = { kind: "word" | "string" | "number" | "symbol" | "end"; text: string; value?: Value };

const SYMBOLS = ["<>", "<=", ">=", "==", "!=", "||", ",", "(", ")", "*", "=", "<", ">", ";", "."];

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < sql.length) {
    const char = sql[at];
    if (/\s/.test(char)) {
      at++;
    } else if (sql.startsWith("--", at)) {
      const end = sql.indexOf("\n", at);
      at = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith("/*", at)) {
      const end = sql.indexOf("*/", at + 2);
      at = end < 0 ? sql.length : end + 2;
    } else if (char === "'") {
      let value = "";
      let end = at + 1;
      for (;;) {
        if (end >= sql.length) throw new SqlError(`unrecognized token: "${sql.slice(at)}"`);
        if (sql[end] === "'") {
          if (sql[end + 1] === "'") {
            value += "'";
            end += 2;
            continue;
          }
          break;
        }
        value += sql[end++];
      }
      tokens.push({ kind: "string", text: sql.slice(at, end + 1), value });
      at = end + 1;
    } else if (/[0-9]/.test(char)) {
      const match = /^[0-9]+(?:\.[0-9]+)?/.exec(sql.slice(at))![0];
      tokens.push({ kind: "number", text: match, value: Number(match) });
      at += match.length;
    } else if (/[A-Za-z_]/.test(char)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(at))![0];
      tokens.push({ kind: "word", text: match });
      at += match.length;
    } else {
      const symbol = SYMBOLS.find((candidate) => sql.startsWith(candidate, at));
      if (!symbol) throw new SqlError(`unrecognized token: "${char}"`);
      tokens.push({ kind: "symbol", text: symbol });
      at += symbol.length;
    }
  }
  tokens.push({ kind: "end", text: "" });
  return tokens;
}

type Expr =
  | { kind: "literal"; value: Value }
  | { kind: "column"; name: string }
  | { kind: "binary"; op: string; left: Expr; right: Expr }
  | { kind: "not"; operand: Expr }
  | { kind: "isnull"; operand: Expr; negated: boolean };

/** `table` null: a SELECT without FROM (one row, no columns: `SELECT 1, 2`). */
type Select = { columns: Expr[] | "*"; table: string | null; where?: Expr };
type Query = { selects: { select: Select; all: boolean }[]; orderBy?: number; limit?: number };

const KEYWORDS = new Set(["select", "from", "where", "union", "all", "order", "by", "limit", "and", "or", "not", "like", "is", "null"]);

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.at];
  }
  private isWord(word: string): boolean {
    const token = this.peek();
    return token.kind === "word" && token.text.toLowerCase() === word;
  }
  private isSymbol(symbol: string): boolean {
    const token = this.peek();
    return token.kind === "symbol" && token.text === symbol;
  }
  private fail(): never {
    const token = this.peek();
    throw new SqlError(token.kind === "end" ? "incomplete input" : `near "${token.text}": syntax error`);
  }
  private expectWord(word: string): void {
    if (!this.isWord(word)) this.fail();
    this.at++;
  }

  query(): Query {
    const selects = [{ select: this.select(), all: false }];
    while (this.isWord("union")) {
      this.at++;
      const all = this.isWord("all");
      if (all) this.at++;
      selects.push({ select: this.select(), all });
    }
    const query: Query = { selects };
    if (this.isWord("order")) {
      this.at++;
      this.expectWord("by");
      query.orderBy = this.integer();
    }
    if (this.isWord("limit")) {
      this.at++;
      query.limit = this.integer();
    }
    if (this.isSymbol(";")) {
      this.at++;
      if (this.peek().kind !== "end") throw new SqlError("You can only execute one statement at a time.");
    }
    if (this.peek().kind !== "end") this.fail();
    return query;
  }

  private integer(): number {
    const token = this.peek();
    if (token.kind !== "number" || !Number.isInteger(token.value)) this.fail();
    this.at++;
    return token.value as number;
  }

  private select(): Select {
    this.expectWord("select");
    let columns: Expr[] | "*";
    if (this.isSymbol("*")) {
      this.at++;
      columns = "*";
    } else {
      columns = [this.expr()];
      while (this.isSymbol(",")) {
        this.at++;
        columns.push(this.expr());
      }
    }
    let table: string | null = null;
    if (this.isWord("from")) {
      this.at++;
      const name = this.peek();
      if (name.kind !== "word" || KEYWORDS.has(name.text.toLowerCase())) this.fail();
      this.at++;
      table = name.text;
    } else if (columns === "*") this.fail();
    const select: Select = { columns, table };
    if (this.isWord("where")) {
      this.at++;
      select.where = this.expr();
    }
    return select;
  }

  private expr(): Expr {
    let left = this.and();
    while (this.isWord("or")) {
      this.at++;
      left = { kind: "binary", op: "or", left, right: this.and() };
    }
    return left;
  }
  private and(): Expr {
    let left = this.not();
    while (this.isWord("and")) {
      this.at++;
      left = { kind: "binary", op: "and", left, right: this.not() };
    }
    return left;
  }
  private not(): Expr {
    if (this.isWord("not")) {
      this.at++;
      return { kind: "not", operand: this.not() };
    }
    return this.comparison();
  }
  private comparison(): Expr {
    const left = this.primary();
    const token = this.peek();
    if (token.kind === "symbol" && ["=", "==", "!=", "<>", "<", ">", "<=", ">="].includes(token.text)) {
      this.at++;
      return { kind: "binary", op: token.text === "==" ? "=" : token.text === "<>" ? "!=" : token.text, left, right: this.primary() };
    }
    if (this.isWord("like")) {
      this.at++;
      return { kind: "binary", op: "like", left, right: this.primary() };
    }
    if (this.isWord("is")) {
      this.at++;
      const negated = this.isWord("not");
      if (negated) this.at++;
      this.expectWord("null");
      return { kind: "isnull", operand: left, negated };
    }
    return left;
  }
  private primary(): Expr {
    const token = this.peek();
    if (token.kind === "number" || token.kind === "string") {
      this.at++;
      return { kind: "literal", value: token.value ?? null };
    }
    if (token.kind === "word" && token.text.toLowerCase() === "null") {
      this.at++;
      return { kind: "literal", value: null };
    }
    if (token.kind === "word" && !KEYWORDS.has(token.text.toLowerCase())) {
      this.at++;
      return { kind: "column", name: token.text };
    }
    if (this.isSymbol("(")) {
      this.at++;
      const inner = this.expr();
      if (!this.isSymbol(")")) this.fail();
      this.at++;
      return inner;
    }
    return this.fail();
  }
}

const asNumber = (value: Value): number | null => {
  if (value === null) return null;
  if (typeof value === "number") return value;
  const match = /^\s*-?[0-9]+(?:\.[0-9]+)?/.exec(value);
  return match ? Number(match[0]) : 0;
};
const truthy = (value: Value) => {
  const number = asNumber(value);
  return number !== null && number !== 0;
};

/** SQLite's order of values: numbers (and numeric text compared with a number) before text; NULL compares to nothing. */
function compare(left: Value, right: Value): number | null {
  if (left === null || right === null) return null;
  const numeric = (value: Value) => typeof value === "number" || /^\s*-?[0-9]+(?:\.[0-9]+)?\s*$/.test(value as string);
  if (typeof left === "number" || typeof right === "number") {
    if (numeric(left) && numeric(right)) return Number(left) - Number(right);
    return typeof left === "number" ? -1 : 1;
  }
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `value LIKE pattern`: ./like.ts (no RegExp: both sides are the player's). */
function like(value: Value, pattern: Value): Value {
  if (value === null || pattern === null) return null;
  return likeMatches(String(value), String(pattern)) ? 1 : 0;
}

function evaluate(expr: Expr, row: Record<string, Value>): Value {
  switch (expr.kind) {
    case "literal":
      return expr.value;
    case "column":
      return row[expr.name.toLowerCase()];
    case "not": {
      const value = evaluate(expr.operand, row);
      return value === null ? null : truthy(value) ? 0 : 1;
    }
    case "isnull": {
      const isNull = evaluate(expr.operand, row) === null;
      return (expr.negated ? !isNull : isNull) ? 1 : 0;
    }
    case "binary": {
      if (expr.op === "and") return truthy(evaluate(expr.left, row)) && truthy(evaluate(expr.right, row)) ? 1 : 0;
      if (expr.op === "or") return truthy(evaluate(expr.left, row)) || truthy(evaluate(expr.right, row)) ? 1 : 0;
      const [left, right] = [evaluate(expr.left, row), evaluate(expr.right, row)];
      if (expr.op === "like") return like(left, right);
      const order = compare(left, right);
      if (order === null) return null;
      const outcome = { "=": order === 0, "!=": order !== 0, "<": order < 0, ">": order > 0, "<=": order <= 0, ">=": order >= 0 }[expr.op];
      return outcome ? 1 : 0;
    }
  }
}

/** Every column an expression names must be the table's: SQLite's "no such column". */
function checkColumns(expr: Expr, columns: string[]): void {
  if (expr.kind === "column" && !columns.includes(expr.name.toLowerCase())) throw new SqlError(`no such column: ${expr.name}`);
  if (expr.kind === "binary") {
    checkColumns(expr.left, columns);
    checkColumns(expr.right, columns);
  }
  if (expr.kind === "not" || expr.kind === "isnull") checkColumns(expr.operand, columns);
}

function runSelect(select: Select, tables: Record<string, Table>): Result {
  const name = select.table?.toLowerCase();
  const table = name === undefined ? { columns: [], rows: [[]] } : Object.hasOwn(tables, name) ? tables[name] : undefined;
  if (!table) throw new SqlError(`no such table: ${select.table}`);
  const columns = table.columns.map((name) => name.toLowerCase());
  const exprs: Expr[] = select.columns === "*" ? columns.map((name) => ({ kind: "column", name })) : select.columns;
  for (const expr of exprs) checkColumns(expr, columns);
  if (select.where) checkColumns(select.where, columns);
  const rows: Value[][] = [];
  for (const values of table.rows) {
    const row = Object.fromEntries(columns.map((name, index) => [name, values[index]]));
    if (select.where && !truthy(evaluate(select.where, row))) continue;
    rows.push(exprs.map((expr) => evaluate(expr, row)));
  }
  const names = exprs.map((expr) => (expr.kind === "column" ? expr.name : expr.kind === "literal" ? String(expr.value) : "expr"));
  return { columns: names, rows };
}

/** Runs one query over the tables (names lower-case); errors are SqlError with SQLite's wording. */
export function runQuery(sql: string, tables: Record<string, Table>): Result {
  const query = new Parser(tokenize(sql)).query();
  const [first, ...rest] = query.selects.map(({ select, all }) => ({ result: runSelect(select, tables), all }));
  let rows = first.result.rows;
  for (const { result, all } of rest) {
    if (result.columns.length !== first.result.columns.length) throw new SqlError("SELECTs to the left and right of UNION do not have the same number of result columns");
    rows = [...rows, ...result.rows];
    if (!all) rows = rows.filter((row, index) => rows.findIndex((other) => JSON.stringify(other) === JSON.stringify(row)) === index);
  }
  if (query.orderBy !== undefined) {
    const column = query.orderBy;
    if (column < 1 || column > first.result.columns.length) throw new SqlError(`1st ORDER BY term out of range - should be between 1 and ${first.result.columns.length}`);
    rows = [...rows].sort((a, b) => compare(a[column - 1], b[column - 1]) ?? 0);
  }
  if (query.limit !== undefined) rows = rows.slice(0, query.limit);
  return { columns: first.result.columns, rows };
}
