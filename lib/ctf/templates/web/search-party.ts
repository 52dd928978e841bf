import { notFound } from "@/lib/kernel/errors";
import { runQuery, SqlError, type Table } from "./mini-sql";
import { defineTemplate, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Search Party (web): a product search that pastes the search text into its SQL. No SQL
 * runs: ./mini-sql.ts interprets the built query over in-memory tables and answers like
 * SQLite would, so the injection behaves as it would against a real database.
 * easy/medium: a hidden product holds the flag (`' OR 1=1 --`); hard/insane: the flag is in
 * another table, found through `sqlite_master` and read with `UNION SELECT`. Insane never
 * shows the query it ran.
 */
type State = TargetState & { products: { name: string; price: number }[]; prototype: string; secretTable: string; secretColumn: string };

const MAX_SEARCH = 300;

function tables(state: State, flag: string): Record<string, Table> {
  const split = state.difficulty === "hard" || state.difficulty === "insane";
  const hidden = split ? `${state.prototype} (its launch code was moved to a table of its own)` : `${state.prototype} — launch code ${flag}`;
  const products: Table = {
    columns: ["id", "name", "price", "hidden"],
    rows: [...state.products.map((product, index) => [index + 1, product.name, product.price, 0]), [state.products.length + 1, hidden, 0, 1]],
  };
  const schema: Table = {
    columns: ["type", "name", "tbl_name", "sql"],
    rows: [["table", "products", "products", "CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL, hidden INTEGER)"]],
  };
  const all: Record<string, Table> = { products, sqlite_master: schema };
  if (split) {
    schema.rows.push(["table", state.secretTable, state.secretTable, `CREATE TABLE ${state.secretTable} (id INTEGER PRIMARY KEY, product TEXT, ${state.secretColumn} TEXT)`]);
    all[state.secretTable] = { columns: ["id", "product", state.secretColumn], rows: [[1, state.prototype, flag]] };
  }
  return all;
}

export const searchParty = defineTemplate<State>({
  key: "search-party",
  build({ difficulty, rng }) {
    const catalogue = ["Desk lamp", "Walnut desk", "Office chair", "Monitor arm", "Cable tray", "Notebook", "Fountain pen", "Standing mat", "Webcam cover", "Headphone stand"];
    const products = rng.shuffle(catalogue).slice(0, 7).map((name) => ({ name, price: rng.between(5, 400) }));
    const secretTable = rng.pick(["launch_codes", "vault", "internal_notes", "staff_only"]);
    const secretColumn = rng.pick(["code", "secret", "value", "token"]);
    const split = difficulty === "hard" || difficulty === "insane";
    return {
      description: "The shop's product search builds its SQL by hand. Somewhere behind it sits a product nobody is meant to find. Search: the target's `search` page, `?q=`.",
      hints: ["What happens with a single quote?", split ? "UNION has friends; sqlite_master lists the tables." : "A condition that is always true shows every row."],
      solution: [
        "Search for `'`: the error shows the query is `… WHERE hidden = 0 AND name LIKE '%<q>%' …`, built from the text.",
        ...(split
          ? [
              "`' UNION SELECT name, sql FROM sqlite_master --` lists the tables and their columns (the query has two columns).",
              `\`' UNION SELECT product, ${secretColumn} FROM ${secretTable} --\` returns the flag.`,
            ]
          : ["`' OR 1=1 --` makes the condition always true and comments out the rest: the hidden product's name holds the flag."]),
      ],
      target: { difficulty, products, prototype: rng.pick(["Prototype X-9", "Project Nightjar", "Model Zero"]), secretTable, secretColumn },
    };
  },
  serve(state, request) {
    if (request.page === "index") return { text: "The Shop\n\nSearch our products: ./search?q=lamp\n" };
    if (request.page !== "search") throw notFound("Page");
    const search = (request.query.q ?? "").slice(0, MAX_SEARCH);
    const sql = `SELECT name, price FROM products WHERE hidden = 0 AND name LIKE '%${search}%' LIMIT 20`;
    try {
      const result = runQuery(sql, tables(state, request.flag));
      const lines = result.rows.slice(0, 50).map((row) => row.map((value) => (value === null ? "NULL" : String(value))).join(" | "));
      return { text: `Results for "${search}":\n\n${lines.length ? lines.join("\n") : "No products match."}\n` };
    } catch (error) {
      if (!(error instanceof SqlError)) throw error;
      const echo = state.difficulty === "insane" ? "" : `\nQuery: ${sql}\n`;
      return { text: `Database error: ${error.message}\n${echo}` };
    }
  },
});
