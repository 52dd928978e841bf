import { z } from "zod";
import { flagModes } from "@/db/schema/statuses";
import { targetQueryNames } from "@/lib/ctf/templates/kit/target-query";

/** `POST /api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/reveal`: the organiser confirms, every time. */
export const revealInput = z.object({
  confirm: z.literal(true, { error: "Confirm the reveal: send confirm: true." }).meta({ description: "Must be `true`: the flag is shown only on a deliberate request." }),
});
export type RevealInput = z.output<typeof revealInput>;

export const revealView = z
  .object({
    challenge_id: z.string(),
    template: z.string().meta({ description: "The shipped template the challenge was built from." }),
    flag: z.string().meta({ description: "The generated flag, `CTF{…}`." }),
    flag_mode: z.enum(flagModes),
    solution: z.array(z.string()).meta({ description: "The solution's steps, in order, as the template knows them." }),
    revealed_at: z.string().meta({ description: "When this reveal happened (UTC); kept as the challenge's last reveal." }),
  })
  .meta({ id: "ChallengeReveal" });
export type RevealView = z.infer<typeof revealView>;

/** `GET /api/c/{ctf_id}/challenges/{challenge_id}/artifact`: what a player of a generated challenge works on. */
export const playerArtifactView = z
  .object({
    challenge_id: z.string(),
    file: z
      .object({
        name: z.string(),
        content_type: z.string().meta({ description: "What the file is (text/plain, image/png); the download itself is served as application/octet-stream." }),
        size: z.number().int().meta({ description: "Bytes." }),
        url: z.string().meta({ description: "The download (same cookie): `…/artifact/file`." }),
      })
      .nullable(),
    target: z.object({ url: z.string().meta({ description: "The web target's first page (same cookie): `…/target/index`." }) }).nullable(),
  })
  .meta({ id: "ChallengeArtifact" });
export type PlayerArtifactView = z.infer<typeof playerArtifactView>;

/** The query a web target may read: each template reads the few it needs, the rest is ignored. */
export const targetQuery = z.object(
  Object.fromEntries(targetQueryNames.map((name) => [name, z.string().max(500).optional()])) as Record<(typeof targetQueryNames)[number], z.ZodOptional<z.ZodString>>,
);
