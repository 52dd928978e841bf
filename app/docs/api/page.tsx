import { Card } from "@/components/ui/card";
import { openApiDocument } from "@/lib/api/openapi-document";

export const metadata = { title: "API reference" };

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: { type?: string; maximum?: number; default?: unknown } }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};

const methodColour: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-green-100 text-green-800",
  patch: "bg-amber-100 text-amber-800",
  delete: "bg-red-100 text-red-800",
};

/** A readable, server-rendered reference built from the same document as /api/openapi.json. */
export default function ApiReferencePage() {
  const doc = openApiDocument();
  const paths = Object.entries(doc.paths ?? {}) as [string, Record<string, Operation>][];
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-10">
      <header>
        <p className="text-sm font-bold text-brand-600">Certify</p>
        <h1 className="text-3xl font-semibold">{doc.info.title}</h1>
        <p className="mt-2 text-slate-600">{doc.info.description}</p>
        <p className="mt-2 text-sm">
          Machine-readable: <a className="text-brand-600 underline" href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {doc.openapi}).
        </p>
      </header>
      <Card>
        <h2 className="font-semibold">Errors</h2>
        <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
          {`{ "error": { "code": "validation_failed", "message": "…", "request_id": "req_…",\n             "fields": [{ "field": "domains.0", "message": "…" }] } }`}
        </pre>
        <p className="mt-2 text-sm text-slate-600">
          400 malformed JSON · 401 key missing, unknown or revoked · 403 scope missing · 404 absent or not yours · 409 plan limit or
          state · 422 field errors · 429 rate limit (<code>retry_after</code>, <code>Retry-After</code>).
        </p>
      </Card>
      {paths.map(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => (
          <Card key={`${method} ${path}`}>
            <div id={`${method}-${path}`} className="flex flex-wrap items-center gap-2">
              <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${methodColour[method] ?? ""}`}>{method}</span>
              <code className="font-mono text-sm">{path}</code>
              <span className="text-sm text-slate-500">{operation.tags?.join(", ")}</span>
            </div>
            <h2 className="mt-2 font-semibold">{operation.summary}</h2>
            {operation.description ? <p className="mt-1 whitespace-pre-line text-sm text-slate-600">{operation.description}</p> : null}
            {operation.parameters?.length ? (
              <table className="mt-3 w-full text-left text-sm">
                <thead className="text-xs uppercase text-slate-500">
                  <tr>
                    <th className="py-1">Parameter</th>
                    <th>In</th>
                    <th>Type</th>
                    <th>Description</th>
                  </tr>
                </thead>
                <tbody>
                  {operation.parameters.map((parameter) => (
                    <tr key={`${parameter.in}-${parameter.name}`} className="border-t border-slate-100">
                      <td className="py-1 font-mono">
                        {parameter.name}
                        {parameter.required ? " *" : ""}
                      </td>
                      <td>{parameter.in}</td>
                      <td>{parameter.schema?.type ?? ""}</td>
                      <td>{parameter.description ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {operation.requestBody ? <SchemaBlock title="Request body" schema={operation.requestBody.content["application/json"]?.schema} /> : null}
            <ul className="mt-3 space-y-1 text-sm">
              {Object.entries(operation.responses).map(([status, response]) => (
                <li key={status}>
                  <span className="font-mono font-semibold">{status}</span> {response.description}
                </li>
              ))}
            </ul>
            {Object.entries(operation.responses)
              .filter(([status]) => status.startsWith("2"))
              .map(([status, response]) =>
                response.content ? <SchemaBlock key={status} title={`${status} response`} schema={response.content["application/json"]?.schema} /> : null,
              )}
          </Card>
        )),
      )}
      <Card>
        <h2 className="font-semibold">Schemas</h2>
        <SchemaBlock title="components.schemas" schema={doc.components?.schemas} />
      </Card>
    </main>
  );
}

function SchemaBlock({ title, schema }: { title: string; schema: unknown }) {
  return (
    <details className="mt-3">
      <summary className="cursor-pointer text-sm font-medium text-slate-700">{title}</summary>
      <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{JSON.stringify(schema, null, 2)}</pre>
    </details>
  );
}
