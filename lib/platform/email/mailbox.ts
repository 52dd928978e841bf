import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { emailMessages } from "@/db/schema";

/** The dev mailbox: messages kept by the mailbox transport, newest first. */
export async function listMailbox(db: Db, limit = 100) {
  return db
    .select({
      id: emailMessages.id,
      to: emailMessages.to,
      subject: emailMessages.subject,
      kind: emailMessages.kind,
      links: emailMessages.links,
      createdAt: emailMessages.createdAt,
    })
    .from(emailMessages)
    .where(eq(emailMessages.transport, "mailbox"))
    .orderBy(desc(emailMessages.createdAt))
    .limit(limit);
}

export async function getMailboxMessage(db: Db, id: string) {
  const [message] = await db.select().from(emailMessages).where(eq(emailMessages.id, id));
  return message?.transport === "mailbox" ? message : undefined;
}
