import { z } from "zod";

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

/** `page` (from 1) and `per_page` (1–100, default 25); above 100 is a 422, not clamped. */
export const pagingQuery = z.object({
  page: z.coerce.number().int("page must be a whole number.").min(1, "page starts at 1.").max(100_000).default(1),
  per_page: z.coerce
    .number()
    .int("per_page must be a whole number.")
    .min(1, "per_page must be at least 1.")
    .max(MAX_PER_PAGE, `per_page can be at most ${MAX_PER_PAGE}.`)
    .default(DEFAULT_PER_PAGE),
});
export type Paging = z.output<typeof pagingQuery>;

export function offsetOf(paging: Paging): number {
  return (paging.page - 1) * paging.per_page;
}

export type Page<T> = { data: T[]; pagination: { page: number; per_page: number; total: number } };

export function page<T>(data: T[], paging: Paging, total: number): Page<T> {
  return { data, pagination: { page: paging.page, per_page: paging.per_page, total } };
}

export const paginationSchema = z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() });

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: paginationSchema });
}
