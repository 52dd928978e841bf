// The parser lives in lib/ since the API reads class invitations with it too (lib/classes/schemas.ts).
export { parseRecipients, recipientTextProblem, type ParsedRecipient, type ParsedRecipients, type RecipientIssue } from "@/lib/tests/parse-recipients";
