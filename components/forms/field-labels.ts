/**
 * The one source of human labels for the fields of every form and API body, so that an error
 * never reads "url: url must be…" but "Address: …". A path such as "recipients.2.email" is
 * labelled from its parts ("Recipient 3, e-mail"); `itemName` may name an item of a list
 * ("emails", 1) → "b@x.io", so the label says which one: "E-mail 2 (b@x.io)".
 */
const labels: Record<string, string> = {
  // Certifications and tests
  certification_id: "Certification",
  domains: "Domains",
  domain_id: "Domain",
  questions: "Questions",
  questions_per_domain: "Questions per domain",
  recipients: "Recipients",
  class_id: "Class",
  send_email: "Send e-mails",
  name: "Name",
  time_limit_minutes: "Time limit (minutes)",
  opens_at: "Opens",
  closes_at: "Closes",
  pass_mark: "Pass mark (%)",
  shuffle_options: "Shuffle options",
  show_answers: "Show answers",
  reminder_after_hours: "Reminder after (hours)",
  send_result: "E-mail the result",
  record_integrity: "Record integrity signals",
  certificate: "Issue a certificate on a pass",
  organisation_name: "Organisation name",
  certificate_signer: "Signed by",
  vendor: "Vendor",
  code: "Exam code",
  description: "Description",
  prompt: "Question",
  options: "Options",
  correct: "Correct option",
  explanation: "Explanation",
  csv: "CSV",
  rows: "Rows",
  // Classes
  emails: "Students’ e-mail addresses",
  // Webhooks and keys
  url: "Address",
  events: "Events",
  secret: "Secret",
  scopes: "Scopes",
  // Competitions
  title: "Title",
  starts_at: "Start",
  ends_at: "End",
  is_public: "Public",
  category: "Category",
  difficulty: "Difficulty",
  template: "Template",
  confirm: "Confirmation",
  points: "Points",
  flag: "Flag",
  flag_mode: "Flag check",
  hints: "Hints",
  text: "text",
  cost: "cost",
  email: "E-mail address",
  challenge_id: "Challenge",
  duration_minutes: "Duration (minutes)",
  mode: "Mode",
  team_size_max: "Team size limit",
  freeze_at: "Scoreboard freeze",
  scoring: "Scoring",
  initial: "Initial points",
  minimum: "Minimum points",
  decay: "Solves to reach the minimum",
  requires: "Prerequisites",
  max_attempts: "Max wrong tries",
  tags: "Tags",
  // An announcement's Markdown text
  body: "Message",
};

/** What one item of a list is called ("recipients" → "Recipient"). */
const itemLabels: Record<string, string> = {
  recipients: "Recipient",
  domains: "Domain",
  questions_per_domain: "Domain",
  emails: "E-mail",
  hints: "Hint",
  rows: "Row",
  events: "Event",
  scopes: "Scope",
  tags: "Tag",
  requires: "Prerequisite",
};

export type ItemName = (list: string, index: number) => string | undefined;

export function fieldLabel(path: string, itemName?: ItemName): string {
  if (path === "(body)" || path === "") return "Form";
  const parts = path.split(".");
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = parts[i + 1];
    if (next !== undefined && /^\d+$/.test(next)) {
      const index = Number(next);
      const name = itemName?.(part, index);
      words.push(name ? `${itemOf(part, index)} (${name})` : itemOf(part, index));
      i++;
    } else {
      words.push(words.length ? (labels[part] ?? part).toLowerCase() : (labels[part] ?? humanize(part)));
    }
  }
  return words.join(", ");
}

/** Values of a field that appear in its messages, as the form offers them. */
const valueLabels: Record<string, string> = {
  after_submit: "After they submit",
  after_close: "After the test closes",
  case_insensitive: "Any case",
};

/**
 * The API's words that read as code in a form (a server's 422 carries messages, not codes; the
 * browser's own checks are put in words by `formErrorMap`): a blank number field "or null" is
 * left blank, a date is entered in a picker, not written in ISO 8601, and zod's default messages
 * of a field the contract left without one of its own.
 */
const apiPhrases: [RegExp, string][] = [
  [/^(?:[a-z][a-z0-9_]* must|Must) be an ISO 8601 date-time\b.*$/s, "Enter a date and time."],
  [/, or null\.$/, ", or leave it blank."],
  [/^Too small: expected string to have >=1 characters?$/, "Fill this in."],
  [/^Too small: expected string to have >=(\d+) characters$/, "Use at least $1 characters."],
  [/^Too big: expected string to have <=(\d+) characters$/, "Use at most $1 characters."],
  [/^Too small: expected (?:array|set) to have >=1 items?$/, "Choose or add at least one."],
  [/^Too big: expected (?:array|set) to have <=(\d+) items$/, "At most $1."],
  [/^Too small: expected number to be >=(\S+)$/, "Enter $1 or more."],
  [/^Too big: expected number to be <=(\S+)$/, "Enter $1 or less."],
  [/^Invalid input: expected \w+, received (?:undefined|null|NaN)$/, "Fill this in."],
  [/^Invalid input: expected (?:number|int), received \w+$/, "Enter a number."],
  [/^Invalid email address$/, "Enter an e-mail address, such as ada@example.com."],
  [/^Invalid URL$/, "Enter a web address starting with https://."],
  [/^(?:url must|Must) be an absolute http:\/\/ or https:\/\/ URL\.$/, "Enter a full web address starting with https:// (or http://)."],
  [/^Invalid option: expected one of .*$/, "Choose one of the options offered."],
];

const leadingKey = /^([a-z][a-z0-9_]*) (must|is|needs|cannot|may)\b/;
const snakeWord = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

/**
 * A message in the form's words. The API names fields by their keys ("url must be an absolute
 * http:// or https:// URL.", "Must be after opens_at."), which suits an integrator; a form shows
 * the message under the field's label, so a leading key is dropped ("Must be an absolute…") and
 * any other key or value reads as the form names it ("Must be after “Opens”.").
 */
export function fieldMessage(message: string): string {
  const phrase = apiPhrases.find(([pattern]) => pattern.test(message));
  if (phrase) message = message.replace(phrase[0], phrase[1]);
  const lead = leadingKey.exec(message);
  let text = message;
  if (lead && Object.hasOwn(labels, lead[1])) {
    const rest = message.slice(lead[1].length + 1);
    text = rest.charAt(0).toUpperCase() + rest.slice(1);
  }
  return text.replace(snakeWord, (word) => {
    const label = Object.hasOwn(labels, word) ? labels[word] : Object.hasOwn(valueLabels, word) ? valueLabels[word] : undefined;
    return label ? `“${label}”` : word;
  });
}

function itemOf(list: string, index: number): string {
  // Options are lettered as the forms show them; rows are numbered as the CSV's lines are.
  if (list === "options") return `Option ${String.fromCharCode(65 + index)}`;
  if (list === "rows") return `Row ${index}`;
  return `${itemLabels[list] ?? labels[list] ?? humanize(list)} ${index + 1}`;
}

function humanize(name: string): string {
  const spaced = name.replace(/_/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
