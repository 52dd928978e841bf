import { otherMethods } from "@/lib/platform/http/unrouted";
import { certificateFilename, certificateLocale, certificatePdf } from "@/lib/certification/certificates/pdf";
import { getDb } from "@/lib/platform/database";
import { certificateAnswer } from "../answer";

export const dynamic = "force-dynamic";

// GET /certificates/{id}/pdf – the certificate as a PDF (A4 landscape), public
export function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return certificateAnswer(params, async (certificate) => {
    // In the test's language (the workspace's default for an `auto` test), whoever downloads it.
    const bytes = await certificatePdf(certificate, await certificateLocale(await getDb(), certificate));
    return new Response(Buffer.from(bytes), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${certificateFilename(certificate)}"`,
        "X-Robots-Tag": "noindex",
      },
    });
  });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET }, { public: true });
