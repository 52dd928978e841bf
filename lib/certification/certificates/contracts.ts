import { contract } from "@/lib/kernel/contract";
import { recipient } from "@/lib/certification/tests/contracts";
import { certificateView } from "./schemas";

const tag = "Certificates";

/** A recipient's certificate (a test's `certificate` setting): read it, revoke it. Public pages and the credential are outside /api (docs/certification-api.md, "Certificates"). */
export const certificateContracts = {
  get: contract({
    id: "tests.recipients.certificate",
    method: "GET",
    path: "/api/v1/tests/{code}/recipients/{id}/certificate",
    caller: "workspace",
    scope: "cert:read",
    params: recipient,
    status: 200,
    response: certificateView,
    docs: {
      tag,
      summary: "Read a recipient's certificate",
      description:
        "Not in the specification (additive). The certificate a passing recipient was issued (tests with `certificate: true`): its frozen facts, " +
        "whether it is valid or revoked, and its public URLs (verification page, PDF, Open Badges 3.0 credential). No certificate → 404.",
    },
  }),

  revoke: contract({
    id: "tests.recipients.certificate.revoke",
    method: "DELETE",
    path: "/api/v1/tests/{code}/recipients/{id}/certificate",
    caller: "workspace",
    scope: "cert:write",
    params: recipient,
    status: 200,
    response: certificateView,
    docs: {
      tag,
      summary: "Revoke a recipient's certificate",
      description:
        "Not in the specification (additive). The verification page then says revoked, with the date; the PDF is marked revoked; the credential " +
        "still verifies cryptographically and its `credentialStatus` list (/certificates/{id}/status) names it revoked. Answers the certificate " +
        "(200). Idempotent: revoking a revoked certificate answers it again, with its first revocation date. No certificate → 404. It cannot be " +
        "un-revoked.",
    },
  }),
};
