import { AppError } from "@/lib/kernel/errors";
import type { Trainer } from "./fixtures";

/**
 * A stand-in for `@/lib/platform/auth/session` in tests of the dashboard routes, which read the
 * signed-in user from Auth.js. A test file replaces the module with this one and signs a
 * trainer in:
 *
 *   vi.mock("@/lib/platform/auth/session", () => import("../helpers/session"));
 *   signInAs(trainer);
 */
let current: Trainer | undefined;

export function signInAs(trainer: Trainer | undefined): void {
  current = trainer;
}

export async function currentUser() {
  return current ? { id: current.userId, email: current.email } : undefined;
}

export async function requireWorkspace() {
  if (!current) throw new AppError("unauthorized", "Sign in first.");
  return { user: { id: current.userId, email: current.email }, workspace: current.workspace };
}

/** No cookies in these tests: whoever `signInAs` named is looked up. */
export function mayBeSignedIn(): boolean {
  return true;
}
