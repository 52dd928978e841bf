import { z } from "zod";
import { documentRoute } from "@/lib/api/openapi";
import { pagingQuery } from "@/lib/api/paging";
import { classList, classProgressView, classView, createClassInput, inviteStudentsInput } from "./schemas";

const idParams = z.object({ id: z.string().meta({ description: "Class id (integer)." }) });

documentRoute({
  method: "get",
  path: "/classes",
  tag: "Classes",
  summary: "List classes",
  query: pagingQuery,
  success: { status: 200, description: "A page of classes.", schema: classList },
});

documentRoute({
  method: "post",
  path: "/classes",
  tag: "Classes",
  summary: "Create a class and invite its students",
  description:
    "Each address gets an e-mail with a join link; students join with a free account. Plan limits (free: 1 class, 2 students counting pending invitations) → 409 with nothing changed. Counts against the 30-creations-per-60-s limit.",
  body: createClassInput,
  errors: [409],
  success: { status: 201, description: "The class.", schema: classView },
});

documentRoute({
  method: "get",
  path: "/classes/{id}",
  tag: "Classes",
  summary: "Read a class with its students and pending invitations",
  description:
    "Each pending invitation also carries `email_delivery` (not in the specification, additive): the status of the latest invitation " +
    "e-mail (queued, sent, delivered, delivery_delayed, bounced, complained, failed, dropped) with its reason and time; a bounced address is flagged there.",
  params: idParams,
  success: { status: 200, description: "The class.", schema: classView },
});

documentRoute({
  method: "post",
  path: "/classes/{id}/invitations",
  tag: "Classes",
  summary: "Invite more students",
  description: "An address already invited to the class is a field error (re-send its invitation instead). Beyond the plan's students → 409.",
  params: idParams,
  body: inviteStudentsInput,
  errors: [409],
  success: { status: 201, description: "The class after the invitations.", schema: classView },
});

documentRoute({
  method: "get",
  path: "/classes/{id}/progress",
  tag: "Classes",
  summary: "Progress of each student",
  description: "Per student: tests of this class sent, started, completed, the average percent overall and per domain, the last activity.",
  params: idParams,
  success: { status: 200, description: "Progress.", schema: classProgressView },
});
