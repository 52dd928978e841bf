import type { PlanName } from "@/db/schema";

export type PlanLimits = {
  /** Recipients one test may have. */
  seats: number;
  classes: number;
  /** Students across all classes, invited and joined. */
  students: number;
  /** Active API keys. */
  apiKeys: number;
};

/** Free is fixed by the specification; Pro is this project's choice (see docs/decisions.md). */
export const plans: Record<PlanName, PlanLimits> = {
  free: { seats: 5, classes: 1, students: 2, apiKeys: 5 },
  pro: { seats: 1000, classes: 100, students: 1000, apiKeys: 5 },
};

export function planLimits(plan: PlanName): PlanLimits {
  return plans[plan];
}
