import { z } from "zod";
import { pageSchema } from "@/lib/kernel/paging";

/** A file of a challenge, as the organiser sees it (`GET /api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/files`). */
export const challengeFileView = z
  .object({
    id: z.string().meta({ example: "fil_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
    challenge_id: z.string(),
    name: z.string().meta({ description: "The file name as uploaded; players download it under this name." }),
    size: z.number().int().meta({ description: "In bytes." }),
    content_type: z.string().meta({ description: "As uploaded (`type/subtype`); downloads use it only when it is a safe type, else `application/octet-stream`." }),
    sha256: z.string().meta({ description: "Hex SHA-256 of the bytes." }),
    created_at: z.string(),
  })
  .meta({ id: "ChallengeFile" });
export type ChallengeFileView = z.infer<typeof challengeFileView>;
export const challengeFileList = pageSchema(challengeFileView).meta({ id: "ChallengeFileList" });

/** What a player's page lists under a challenge. */
export type PlayerFileView = Pick<ChallengeFileView, "id" | "name" | "size" | "sha256">;
