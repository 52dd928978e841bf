import { unknownPath } from "@/lib/platform/http/unrouted";

// Any path under /api that no route serves: 404 in the error shape, whatever the method
// (Next.js would answer its HTML not-found page). More specific routes always win over this one.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPath;
