import { withBodyLimit } from "@/lib/platform/http/parse";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { handlers } from "@/lib/platform/auth/auth";

export const GET = handlers.GET;
// A sign-in form is a few hundred bytes: anything announced larger is refused unread.
export const POST = withBodyLimit(handlers.POST, 64 * 1024);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
