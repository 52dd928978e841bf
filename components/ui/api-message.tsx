import Link from "next/link";
import { PLAN_SETTINGS_HINT, PLAN_SETTINGS_PATH } from "@/lib/kernel/errors";

/**
 * A message of the API as the dashboard shows it: a plan-limit message ends with where the
 * plans are compared (lib/kernel/errors.ts), shown here as a link to that page.
 */
export function ApiMessage({ text }: { text: string }) {
  if (!text.endsWith(PLAN_SETTINGS_HINT)) return <>{text}</>;
  return (
    <>
      {text.slice(0, -PLAN_SETTINGS_HINT.length)}
      <Link href={PLAN_SETTINGS_PATH} className="font-medium underline" data-testid="plan-settings-link">
        See your plan, its usage and what a higher plan allows
      </Link>
      .
    </>
  );
}
