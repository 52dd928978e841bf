import { z } from "zod";
import { documentRoute } from "@/lib/api/openapi";
import { certificationDetail, certificationList, domainList, listCertificationsQuery } from "./schemas";

const idParams = z.object({ id: z.string().meta({ description: "Certification id (integer)." }) });

documentRoute({
  method: "get",
  path: "/certifications",
  tag: "Catalog",
  summary: "List certifications",
  description: "The shared catalog and the caller's own certifications, by vendor then name.",
  query: listCertificationsQuery,
  success: { status: 200, description: "A page of certifications.", schema: certificationList },
});

documentRoute({
  method: "get",
  path: "/certifications/{id}",
  tag: "Catalog",
  summary: "Read a certification with its domains",
  params: idParams,
  success: { status: 200, description: "The certification.", schema: certificationDetail },
});

documentRoute({
  method: "get",
  path: "/certifications/{id}/domains",
  tag: "Catalog",
  summary: "List a certification's domains",
  params: idParams,
  success: { status: 200, description: "Domains with their question counts.", schema: domainList },
});
