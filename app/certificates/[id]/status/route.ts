import { otherMethods } from "@/lib/platform/http/unrouted";
import { revocationList } from "@/lib/certification/certificates/credential";
import { certificateAnswer } from "../answer";

export const dynamic = "force-dynamic";

// GET /certificates/{id}/status – the credential's revocation list (its credentialStatus), public
export function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return certificateAnswer(params, (certificate) => Response.json(revocationList(certificate), { headers: { "X-Robots-Tag": "noindex" } }));
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET }, { public: true });
