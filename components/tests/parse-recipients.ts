// The parser lives in lib/ since the API reads class invitations with it too (lib/certification/classes/schemas.ts).
export { parseRecipients, recipientTextProblem, type ParsedRecipient, type ParsedRecipients, type RecipientIssue } from "@/lib/certification/tests/parse-recipients";
