import { createCtf } from "@/lib/ctf/competitions/competitions";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { ctfdExportZip } from "../../ctf/challenges/ctfd-fixture";
import type { Samples } from "./types";

/** A multipart body with the fixture export in the `file` part (the dashboard's form sends this). */
export function ctfdExportForm(zip: Uint8Array = ctfdExportZip()): FormData {
  const form = new FormData();
  form.append("file", new File([zip as BlobPart], "ctfd-export.zip", { type: "application/zip" }));
  return form;
}

export const ctfdImportSamples: Samples = {
  "challenges.import_ctfd": {
    params: async ({ db }, trainer) => {
      const ctf = await createCtf(db, trainer.workspaceId, createCtfInput.parse({ title: "Imported CTF", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z" }));
      return { ctf_id: ctf.id };
    },
    body: () => ctfdExportForm(),
  },
};
