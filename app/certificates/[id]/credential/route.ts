import { otherMethods } from "@/lib/platform/http/unrouted";
import { CREDENTIAL_MEDIA_TYPE, credentialJwt } from "@/lib/certification/certificates/credential";
import { certificateAnswer } from "../answer";

export const dynamic = "force-dynamic";

// GET /certificates/{id}/credential – the Open Badges 3.0 AchievementCredential as a VC-JWT, public
export function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return certificateAnswer(params, async (certificate) => new Response(await credentialJwt(certificate), { headers: { "Content-Type": CREDENTIAL_MEDIA_TYPE, "X-Robots-Tag": "noindex" } }));
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET }, { public: true });
