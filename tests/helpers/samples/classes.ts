import { eq } from "drizzle-orm";
import { classInvitations, users } from "@/db/schema";
import { createClass } from "@/lib/certification/classes/classes";
import { createClassInput } from "@/lib/certification/classes/schemas";
import type { Db } from "@/db";
import type { Trainer } from "../fixtures";
import { invitationToken } from "../tokens";
import { catalogCertification, freshEmail, ownCertification } from "./common";
import type { Samples } from "./types";
import { joinClass } from "@/lib/certification/classes/invitations";

/** A class of the trainer's (catalog certification) with one pending invitation. */
async function ownClass(db: Db, trainer: Trainer) {
  const klass = await createClass(db, trainer.workspaceId, createClassInput.parse({ name: "Class", certification_id: (await catalogCertification(db)).id, emails: [freshEmail()] }));
  return { id: String(klass.id), invitation_id: String(klass.invitations[0].id) };
}

/** A class of the trainer's whose one invitation was accepted: `student_id` names the student. */
async function classWithStudent(db: Db, trainer: Trainer) {
  const { id, invitation_id } = await ownClass(db, trainer);
  const [invitation] = await db.select().from(classInvitations).where(eq(classInvitations.id, Number(invitation_id)));
  const [user] = await db.insert(users).values({ email: invitation.email }).returning();
  await joinClass(db, invitationToken(invitation), { id: user.id, email: invitation.email });
  return { id, student_id: invitation_id };
}

export const classSamples: Samples = {
  "classes.list": {},
  "classes.create": {
    body: async ({ db }) => ({ name: "Evening group", certification_id: (await catalogCertification(db)).id, emails: [] }),
    foreignBodies: async ({ db, stranger }) => ({
      certification_id: { name: "Theirs", certification_id: (await ownCertification(db, stranger)).id, emails: [] },
    }),
  },
  "classes.get": { params: ({ db }, trainer) => ownClass(db, trainer).then(({ id }) => ({ id })) },
  "classes.invite": { params: ({ db }, trainer) => ownClass(db, trainer).then(({ id }) => ({ id })), body: () => ({ emails: [`New Student <${freshEmail()}>`] }) },
  "classes.invitations.resend": { params: ({ db }, trainer) => ownClass(db, trainer) },
  "classes.invitations.cancel": { params: ({ db }, trainer) => ownClass(db, trainer) },
  "classes.students.remove": { params: ({ db }, trainer) => classWithStudent(db, trainer) },
  "classes.progress": { params: ({ db }, trainer) => ownClass(db, trainer).then(({ id }) => ({ id })) },
};
