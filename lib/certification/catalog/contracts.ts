import { z } from "zod";
import { contract, intParam } from "@/lib/kernel/contract";
import { certificationDetail, certificationList, domainList, listCertificationsQuery } from "./schemas";

const id = z.object({ id: intParam("Certification") });

/** The catalog: the shared certifications and the workspace's own (read-only here; editing own ones is under ./manage-contracts.ts). */
export const certificationContracts = {
  list: contract({
    id: "certifications.list",
    method: "GET",
    path: "/api/v1/certifications",
    caller: "workspace",
    scope: "cert:read",
    query: listCertificationsQuery,
    status: 200,
    response: certificationList,
    docs: { tag: "Catalog", summary: "List certifications", description: "The shared catalog and the caller's own certifications, by vendor then name." },
  }),
  get: contract({
    id: "certifications.get",
    method: "GET",
    path: "/api/v1/certifications/{id}",
    caller: "workspace",
    scope: "cert:read",
    params: id,
    status: 200,
    response: certificationDetail,
    docs: { tag: "Catalog", summary: "Read a certification with its domains" },
  }),
  domains: contract({
    id: "certifications.domains",
    method: "GET",
    path: "/api/v1/certifications/{id}/domains",
    caller: "workspace",
    scope: "cert:read",
    params: id,
    status: 200,
    response: domainList,
    docs: { tag: "Catalog", summary: "List a certification's domains", description: "Domains with their question counts." },
  }),
};
