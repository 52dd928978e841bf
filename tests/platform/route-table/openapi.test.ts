import { describe, expect, it } from "vitest";
import * as openapiRoute from "@/app/api/openapi.json/route";

describe("GET /api/openapi.json", () => {
  it("serves an OpenAPI 3.1 document without a key, with security schemes and the error schema", async () => {
    const response = openapiRoute.GET();
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes).toHaveProperty("ApiKey");
    expect(doc.components.schemas).toHaveProperty("Error");
    const listing = doc.paths["/api/v1/certifications"].get;
    expect(listing.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["vendor", "search", "page", "per_page"]));
    expect(Object.keys(listing.responses)).toEqual(expect.arrayContaining(["200", "401", "422", "429"]));
    expect(listing.responses["200"].headers).toHaveProperty("X-RateLimit-Reset");
  });

  it("documents the date-times a client sends as strings with format date-time (the handler gets a Date)", async () => {
    const doc = await openapiRoute.GET().json();
    const bodyOf = (path: string, method: string) => doc.paths[path][method].requestBody.content["application/json"].schema.properties;
    const dateTime = { type: "string", format: "date-time" };
    expect(bodyOf("/api/v1/ctfs", "post").starts_at).toEqual(dateTime);
    expect(bodyOf("/api/v1/ctfs", "post").ends_at).toEqual(dateTime);
    expect(bodyOf("/api/v1/ctfs/{ctf_id}", "patch").starts_at).toEqual(dateTime);
    expect(bodyOf("/api/v1/deployments", "post").ends_at).toEqual(dateTime);
  });

  it("documents a file upload as multipart/form-data with its file part, and a download's bytes", async () => {
    const doc = await openapiRoute.GET().json();
    const upload = doc.paths["/api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/files"].post;
    expect(upload.requestBody.content["multipart/form-data"].schema).toMatchObject({ type: "object", properties: { file: { type: "string", format: "binary" } }, required: ["file"] });
    expect(upload.requestBody.content["application/json"]).toBeUndefined();
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(["201", "409", "413", "422"]));
    expect(upload.responses["413"].description).toContain("FILE_MAX_BYTES");
    const download = doc.paths["/api/c/{ctf_id}/challenges/{challenge_id}/files/{file_id}"].get;
    expect(download.responses["200"].content).toHaveProperty("application/octet-stream");
    expect(download.security).toEqual([{ Player: [] }]);
  });

  it("documents a question bank's import as a text file (the body, or a multipart part) and its export in each format's type", async () => {
    const doc = await openapiRoute.GET().json();
    const imported = doc.paths["/api/v1/certifications/{id}/import"].post;
    expect(Object.keys(imported.requestBody.content).sort()).toEqual(["application/xml", "multipart/form-data", "text/csv", "text/plain"]);
    expect(imported.requestBody.content["multipart/form-data"].schema).toMatchObject({ properties: { file: { type: "string", format: "binary" } } });
    expect(imported.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(["domain_id", "dry_run", "format", "id"]);
    expect(imported.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/ImportReport");
    expect(Object.keys(imported.responses)).toEqual(expect.arrayContaining(["200", "403", "404", "413", "422"]));
    const exported = doc.paths["/api/v1/certifications/{id}/export"].get;
    expect(Object.keys(exported.responses["200"].content).sort()).toEqual(["application/xml; charset=utf-8", "text/csv; charset=utf-8", "text/plain; charset=utf-8"]);
    const language = doc.components.schemas.TestSettings?.properties?.language ?? doc.paths["/api/v1/tests"].post.requestBody.content["application/json"].schema.properties.language;
    expect(language.enum).toEqual(["auto", "en", "de", "fr", "es"]);
  });
});
