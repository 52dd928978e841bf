import type { UseFormReturn } from "react-hook-form";
import { TextArea, TextInput } from "@/components/forms/inputs";

type Fields = { name: string; vendor: string; code?: string; description?: string };

/** Name, vendor, exam code and description: the fields of a new certification and of its Details form. */
export function CertificationFields<T extends Fields>({ form, idPrefix, placeholders = false }: { form: UseFormReturn<T, unknown, unknown>; idPrefix: string; placeholders?: boolean }) {
  const bound = form as unknown as UseFormReturn<Fields, unknown, unknown>;
  return (
    <>
      <TextInput form={bound} name="name" id={`${idPrefix}-name`} required maxLength={200} placeholder={placeholders ? "e.g. Acme Platform Basics" : undefined} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput form={bound} name="vendor" id={`${idPrefix}-vendor`} required maxLength={100} placeholder={placeholders ? "e.g. Acme Corp" : undefined} />
        <TextInput form={bound} name="code" id={`${idPrefix}-code`} optional maxLength={50} placeholder={placeholders ? "e.g. ACME-101" : undefined} />
      </div>
      <TextArea form={bound} name="description" id={`${idPrefix}-description`} optional maxLength={2000} />
    </>
  );
}
