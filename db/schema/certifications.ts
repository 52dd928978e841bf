import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";
import { questionTypes } from "./statuses";

export { questionTypes };
export type QuestionType = (typeof questionTypes)[number];

/** A certification: catalog ones have no workspace; a workspace's own ones are private to it. */
export const certifications = pgTable(
  "certifications",
  {
    id: serial("id").primaryKey(),
    workspaceId: text("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    slug: text("slug"),
    vendor: text("vendor").notNull(),
    code: text("code").notNull().default(""),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when an own certification that tests or classes use is deleted: it is gone from the catalog, its sent tests keep their copies. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("certifications_slug_idx").on(t.slug),
    index("certifications_workspace_idx").on(t.workspaceId),
  ],
);

export const domains = pgTable(
  "domains",
  {
    id: serial("id").primaryKey(),
    certificationId: integer("certification_id")
      .notNull()
      .references(() => certifications.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [index("domains_certification_idx").on(t.certificationId, t.position)],
);

export const questions = pgTable(
  "questions",
  {
    id: serial("id").primaryKey(),
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id, { onDelete: "cascade" }),
    prompt: text("prompt").notNull(),
    options: jsonb("options").$type<string[]>().notNull(),
    /** `single`: `correct_index` is the right option. `multiple`: `correct_indexes` is the right set (two or more, ascending); `correct_index` is its first. */
    type: text("type").$type<QuestionType>().notNull().default("single"),
    correctIndex: integer("correct_index").notNull(),
    /** The right options of a `multiple` question, ascending; null on a `single` one. */
    correctIndexes: jsonb("correct_indexes").$type<number[]>(),
    explanation: text("explanation").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("questions_domain_idx").on(t.domainId)],
);

export type Certification = typeof certifications.$inferSelect;
export type Domain = typeof domains.$inferSelect;
export type Question = typeof questions.$inferSelect;
