import { cache } from "react";
import { openTest } from "@/lib/certification/taking/taking";
import { getDb } from "@/lib/platform/database";

/** A recipient's test as their page reads it, once per request: the page and its locale (./request.ts) share the read. */
export const openTestOnce = cache(async (token: string) => openTest(await getDb(), token));
