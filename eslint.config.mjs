import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", ".data/**", "e2e/artifacts/**", "bench/results/**", "next-env.d.ts", "db/migrations/**"] },
  js.configs.recommended,
  { files: ["**/*.mjs"], languageOptions: { globals: globals.node } },
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs", globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The domain never imports Next.js: HTTP, cookies and headers stay in app/.
    files: ["lib/**/*.ts", "lib/**/*.tsx", "db/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["next/*", "next"], message: "lib/ and db/ must not import Next.js." }] }],
    },
  },
  {
    // Sizes (docs/architecture.md): a function does one thing; seed data, migrations and tests aside.
    files: ["lib/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "db/**/*.ts"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "db/seed/catalog/**", "db/migrations/**"],
    rules: { "max-lines-per-function": ["error", { max: 120 }] },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: { "max-lines": ["error", { max: 300 }] },
  },
  {
    files: ["tests/**/*.ts", "**/*.test.ts", "e2e/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
