import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { locales, planNames } from "./statuses";

export { locales, planNames };

export type PlanName = (typeof planNames)[number];
export type Locale = (typeof locales)[number];

/** A user's own area (the "trainer area"): everything else belongs to one. */
export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  ownerUserId: text("owner_user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  plan: text("plan").$type<PlanName>().notNull().default("free"),
  /** Printed on certificates as the issuer; empty: the workspace's name. */
  organisationName: text("organisation_name").notNull().default(""),
  /** The person who signs certificates (name and title, one line); empty: none printed. */
  certificateSigner: text("certificate_signer").notNull().default(""),
  /** The language of recipients' e-mails for tests whose language is `auto`, and of class invitations. */
  defaultLanguage: text("default_language").$type<Locale>().notNull().default("en"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type Workspace = typeof workspaces.$inferSelect;
