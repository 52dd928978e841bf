// Importing each area's route documentation registers it; the document is built once.
import "@/lib/certification/openapi";
import "@/lib/webhooks/openapi";
import "@/lib/tests/openapi";
import "@/lib/classes/openapi";
import "@/lib/ctf/openapi";
import { generateOpenApiDocument } from "./openapi";

let document: ReturnType<typeof generateOpenApiDocument> | undefined;

export function openApiDocument() {
  document ??= generateOpenApiDocument();
  return document;
}
