"use server";

import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { JoinState } from "@/components/student/join-form";
import { signOut } from "@/lib/platform/auth/auth";
import { currentUser } from "@/lib/platform/auth/session";
import { joinSignInHref } from "./sign-in-href";
import { toAppError } from "@/lib/kernel/to-app-error";
import { logError } from "@/lib/kernel/log";
import { findInvitation, joinClass } from "@/lib/certification/classes/invitations";
import { getDb } from "@/lib/platform/database";

/** Joins the class as the signed-in user; a refusal comes back as a message in the page's language, success goes to /student. */
export async function joinClassAction(token: string, _state: JoinState, _form: FormData): Promise<JoinState> {
  const user = await currentUser();
  if (!user) redirect(await signInHref(token));
  try {
    await joinClass(await getDb(), token, user);
  } catch (error) {
    return { error: await refusal(token, error) };
  }
  redirect("/student");
}

/**
 * Why joining failed, in the student's words: the domain's messages are the API's (English),
 * so each refusal joinClass can give is said again here — another address than the invited
 * one (409), an invitation cancelled meanwhile (404), anything else our fault.
 */
async function refusal(token: string, error: unknown): Promise<string> {
  const appError = toAppError(error);
  const t = await getTranslations("classes.join");
  if (appError.code === "conflict") {
    const found = await findInvitation(await getDb(), token);
    if (found) return t("wrongAddress", { email: found.invitation.email });
  }
  if (appError.code === "not_found") return t("cancelled");
  if (appError.code === "internal_error") logError("server action", error);
  return t("failed");
}

/** Signs out, then back to sign-in so the student can use the invited address. */
export async function switchAccountAction(token: string): Promise<void> {
  await signOut({ redirectTo: await signInHref(token) });
}

async function signInHref(token: string): Promise<string> {
  const found = await findInvitation(await getDb(), token);
  return joinSignInHref(token, found ? { email: found.invitation.email, className: found.className } : undefined);
}
