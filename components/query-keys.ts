/** Every TanStack Query key of the dashboard, from one factory; mutations invalidate by these. */
export const queryKeys = {
  apiKeys: () => ["api-keys"] as const,
  webhooks: () => ["webhooks"] as const,
  testResultWebhooks: () => ["webhooks", "test-results"] as const,
  deliveries: (endpointId: string) => ["webhooks", endpointId, "deliveries"] as const,
  /** Every endpoint's figures over the last day (under `webhooks`: what changes endpoints refreshes them). */
  webhookHealth: () => ["webhooks", "health"] as const,
  certifications: (filters: { vendor?: string; search?: string; page?: number } = {}) => ["certifications", filters] as const,
  certification: (id: number) => ["certification", id] as const,
  tests: () => ["tests"] as const,
  testList: (page: number) => ["tests", "list", page] as const,
  test: (code: string) => ["tests", "detail", code] as const,
  /** Under the test's key: the test with one page of its recipients (the trainer's page). */
  testPage: (code: string, page: number) => ["tests", "detail", code, "page", page] as const,
  /** Under the test's key; `version` (status and answered count) refetches it as the attempt moves on. */
  answerSheet: (code: string, recipientId: number, version: string) => ["tests", "detail", code, "answers", recipientId, version] as const,
  /** Under the test's key: one recipient's certificate (valid or revoked). */
  certificate: (code: string, recipientId: number) => ["tests", "detail", code, "certificate", recipientId] as const,
  /** Under the test's key; refetched when the number of completed recipients changes. */
  testAnalysis: (code: string, completed: number) => ["tests", "detail", code, "analysis", completed] as const,
  usage: () => ["usage"] as const,
  /** Under `usage`: the settings carry the usage too, so whatever takes or frees a place refreshes both. */
  workspace: () => ["usage", "workspace"] as const,
  classOptions: () => ["classes", "options"] as const,
  /** Prefix of every certification list (catalog pages and select options). */
  certificationLists: () => ["certifications"] as const,
  certificationOptions: () => ["certifications", "options"] as const,
  classes: () => ["classes"] as const,
  classList: () => ["classes", "list"] as const,
  classDetail: (id: number) => ["classes", "detail", id] as const,
  classProgress: (id: number) => ["classes", "detail", id, "progress"] as const,
  ownCertification: (id: number) => ["my-certifications", id] as const,
  ownQuestions: (id: number) => ["my-certifications", id, "questions"] as const,
  /** Prefix of every competition query (lists and details). */
  ctfs: () => ["ctfs"] as const,
  ctfList: () => ["ctfs", "list"] as const,
  ctf: (id: string) => ["ctfs", "detail", id] as const,
  ctfChallenges: (id: string) => ["ctfs", "detail", id, "challenges"] as const,
  challengeFiles: (ctfId: string, challengeId: string) => ["ctfs", "detail", ctfId, "challenges", challengeId, "files"] as const,
  ctfMembers: (id: string) => ["ctfs", "detail", id, "members"] as const,
  ctfTeams: (id: string) => ["ctfs", "detail", id, "teams"] as const,
  ctfDeployments: (id: string) => ["ctfs", "detail", id, "deployments"] as const,
  ctfSnapshot: (id: string) => ["ctfs", "detail", id, "snapshot"] as const,
  deploymentSolves: (id: string) => ["deployments", id, "solves"] as const,
  /** The live scoreboard of a competition's public page. */
  scoreboard: (ctfId: string) => ["play", ctfId, "scoreboard"] as const,
  /** Under the scoreboard's key: the score graph, read again when the board's top changes (`version`). */
  scoreGraph: (ctfId: string, version: string) => ["play", ctfId, "scoreboard", "graph", version] as const,
  /** The announcements of a competition's public page (polled). */
  announcements: (ctfId: string) => ["play", ctfId, "announcements"] as const,
  /** The organiser's list of a competition's announcements. */
  ctfAnnouncements: (id: string) => ["ctfs", "detail", id, "announcements"] as const,
} as const;
