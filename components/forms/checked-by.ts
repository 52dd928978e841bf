import type { z } from "zod";

/**
 * Checks a form's body with a contract's own schema and keeps the body as it is: the
 * server's rules, with their errors at the body's paths, but the value stays what a client
 * sends (`z.input`, e.g. a date as its ISO string), since the server parses it again.
 * Use as `.superRefine(checkedBy(createCtfInput))` after the form's transform.
 */
export function checkedBy<S extends z.ZodType>(schema: S) {
  return (body: z.input<S>, ctx: z.RefinementCtx<z.input<S>>): void => {
    const parsed = schema.safeParse(body);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  };
}
