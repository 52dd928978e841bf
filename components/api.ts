import { urlOf, type AnyContract, type ContractBody, type ContractReply } from "@/lib/kernel/contract";
import { fetchJson } from "./fetch-json";

type Body<C extends AnyContract> = ContractBody<C>;
type Reply<C extends AnyContract> = ContractReply<C>;

export type CallInput<C extends AnyContract> = {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  body?: Body<C>;
};

/**
 * Calls an endpoint of the app from the dashboard, by its contract (lib/<area>/contracts.ts):
 * the method, the path and the answer's type come from the same declaration the server
 * validates with. The session cookie goes along (same origin); a non-2xx answer throws a
 * RequestError with the API's message and field errors.
 */
export function callApi<C extends AnyContract>(contract: C, input: CallInput<C> = {}): Promise<Reply<C>> {
  return fetchJson<Reply<C>>(urlOf(contract, input.params, input.query), {
    method: contract.method,
    ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
  });
}

/**
 * Sends one file to an upload endpoint (a contract with `upload`), as multipart/form-data in
 * the part the contract names: the browser sets the boundary.
 */
export function uploadFile<C extends AnyContract & { upload: { field: string } }>(contract: C, input: { params?: Record<string, string | number>; file: File }): Promise<Reply<C>> {
  const form = new FormData();
  form.append(contract.upload.field, input.file);
  return fetchJson<Reply<C>>(urlOf(contract, input.params), { method: contract.method, body: form });
}

/**
 * Sends one text file to a contract with `textFile` (a question bank…), as multipart/form-data
 * in the part it names; pasted text goes as a file of its own.
 */
export function sendTextFile<C extends AnyContract & { textFile: { field: string } }>(
  contract: C,
  input: { params?: Record<string, string | number>; query?: Record<string, string | number | undefined>; file: File | string },
): Promise<Reply<C>> {
  const form = new FormData();
  const file = typeof input.file === "string" ? new File([input.file], "pasted.txt", { type: "text/plain" }) : input.file;
  form.append(contract.textFile.field, file);
  return fetchJson<Reply<C>>(urlOf(contract, input.params, input.query), { method: contract.method, body: form });
}

/** Sends one binary file (an archive) to a contract with `binaryFile`, as multipart/form-data in the part it names. */
export function sendBinaryFile<C extends AnyContract & { binaryFile: { field: string } }>(
  contract: C,
  input: { params?: Record<string, string | number>; query?: Record<string, string | number | undefined>; file: File },
): Promise<Reply<C>> {
  const form = new FormData();
  form.append(contract.binaryFile.field, input.file);
  return fetchJson<Reply<C>>(urlOf(contract, input.params, input.query), { method: contract.method, body: form });
}
