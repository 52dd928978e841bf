/** Readable labels of the field errors of the certification editor's forms. */
export function certificationFieldLabel(field: string, domains: string[] = []): string {
  const domain = /^domains\.(\d+)$/.exec(field);
  if (domain) return `Domain ${Number(domain[1]) + 1}${domains[Number(domain[1])] ? ` (${domains[Number(domain[1])]})` : ""}`;
  const option = /^options\.(\d+)$/.exec(field);
  if (option) return `Option ${String.fromCharCode(65 + Number(option[1]))}`;
  const row = /^rows\.(\d+)(?:\.(\w+))?$/.exec(field);
  if (row) return row[2] ? `Row ${row[1]}, ${row[2]}` : `Row ${row[1]}`;
  const labels: Record<string, string> = {
    name: "Name",
    vendor: "Vendor",
    code: "Exam code",
    description: "Description",
    domains: "Domains",
    prompt: "Question",
    options: "Options",
    correct: "Correct option",
    explanation: "Explanation",
    csv: "CSV",
  };
  return labels[field] ?? field;
}
