import { generateOpenApiDocument } from "@/lib/platform/http/openapi";
import { allContracts } from "./routes";

let document: ReturnType<typeof generateOpenApiDocument> | undefined;

/** The OpenAPI document of every contract, built once per process. */
export function openApiDocument() {
  document ??= generateOpenApiDocument(allContracts);
  return document;
}
