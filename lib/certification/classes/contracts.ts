import { z } from "zod";
import { contract, intParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import { classList, classProgressView, classView, createClassInput, inviteStudentsInput } from "./schemas";

const id = z.object({ id: intParam("Class") });
const invitation = id.extend({ invitation_id: intParam("Invitation") });
const student = id.extend({ student_id: intParam("Student") });

/** Classes of students: /api/v1, called with an API key or by the dashboard with its session. */
export const classContracts = {
  list: contract({
    id: "classes.list",
    method: "GET",
    path: "/api/v1/classes",
    caller: "workspace",
    scope: "cert:read",
    query: pagingQuery,
    status: 200,
    response: classList,
    docs: { tag: "Classes", summary: "List classes", description: "Newest first, each with its joined and pending counts." },
  }),
  create: contract({
    id: "classes.create",
    method: "POST",
    path: "/api/v1/classes",
    caller: "workspace",
    scope: "cert:write",
    creation: true,
    body: createClassInput,
    status: 201,
    response: classView,
    docs: {
      tag: "Classes",
      summary: "Create a class and invite its students",
      description:
        "Each address gets an e-mail with a join link; students join with a free account. Plan limits (free: 1 class, 2 students counting pending invitations) → 409 with nothing changed. Counts against the 30-creations-per-60-s limit.",
      errors: [409],
    },
  }),
  get: contract({
    id: "classes.get",
    method: "GET",
    path: "/api/v1/classes/{id}",
    caller: "workspace",
    scope: "cert:read",
    params: id,
    status: 200,
    response: classView,
    docs: {
      tag: "Classes",
      summary: "Read a class with its students and pending invitations",
      description:
        "Each pending invitation also carries `email_delivery` (not in the specification, additive): the status of the latest invitation " +
        "e-mail (queued, sent, delivered, delivery_delayed, bounced, complained, failed, dropped) with its reason and time; a bounced address is flagged there.",
    },
  }),
  invite: contract({
    id: "classes.invite",
    method: "POST",
    path: "/api/v1/classes/{id}/invitations",
    caller: "workspace",
    scope: "cert:write",
    params: id,
    body: inviteStudentsInput,
    status: 201,
    response: classView,
    docs: {
      tag: "Classes",
      summary: "Invite more students",
      description: "An address already invited to the class is a field error (re-send its invitation instead). Beyond the plan's students → 409.",
      errors: [409],
    },
  }),
  resendInvitation: contract({
    id: "classes.invitations.resend",
    method: "POST",
    path: "/api/v1/classes/{id}/invitations/{invitation_id}/resend",
    caller: "workspace",
    scope: "cert:write",
    params: invitation,
    status: 202,
    response: classView,
    docs: {
      tag: "Classes",
      summary: "Re-send a pending invitation",
      description:
        "Not in the specification (additive): e-mails the same join link again and answers the class, the invitation's `email_delivery` now `queued`. A student who already joined → 409.",
      errors: [409],
    },
  }),
  cancelInvitation: contract({
    id: "classes.invitations.cancel",
    method: "DELETE",
    path: "/api/v1/classes/{id}/invitations/{invitation_id}",
    caller: "workspace",
    scope: "cert:write",
    params: invitation,
    status: 200,
    response: classView,
    docs: {
      tag: "Classes",
      summary: "Cancel a pending invitation",
      description:
        "Not in the specification (additive): the invitation is deleted, its join link stops working and its place among the plan's students is free again " +
        "(unless the address is invited to another class of the workspace). Answers the class without it. An invitation already cancelled is gone: 404, as a missing one. " +
        "An invitation the student accepted → 409 (remove the student instead). An invitation e-mail already queued may still arrive; its link then says the invitation does not exist.",
      errors: [409],
    },
  }),
  removeStudent: contract({
    id: "classes.students.remove",
    method: "DELETE",
    path: "/api/v1/classes/{id}/students/{student_id}",
    caller: "workspace",
    scope: "cert:write",
    params: student,
    status: 200,
    response: classView,
    docs: {
      tag: "Classes",
      summary: "Remove a student from the class",
      description:
        "Not in the specification (additive). `{student_id}` is `student_list[].id` of the class. The membership is deleted: the student's place among the plan's students is free again " +
        "(unless the address is in another class of the workspace), later tests sent to the class do not go to them, they leave the progress view and the class leaves their student area. " +
        "Tests already sent to them are kept with their results (the test, its CSV, their student area); an unfinished one can still be completed. " +
        "Answers the class without them. A student already removed (or a pending invitation's id) → 404.",
    },
  }),
  progress: contract({
    id: "classes.progress",
    method: "GET",
    path: "/api/v1/classes/{id}/progress",
    caller: "workspace",
    scope: "cert:read",
    params: id,
    status: 200,
    response: classProgressView,
    docs: {
      tag: "Classes",
      summary: "Progress of each student",
      description: "Per student: tests of this class sent, started, completed, the average percent overall and per domain, the last activity.",
    },
  }),
};
