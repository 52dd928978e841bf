import type { Db } from "@/db";
import { postAnnouncement } from "@/lib/ctf/announcements/announcements";
import type { Trainer } from "../fixtures";
import { runningCtf } from "./play";
import type { Samples } from "./types";

const announcement = { title: "Welcome", body: "The **first** hint drops at noon." };

/** A running competition of `trainer` with one announcement posted. */
async function announced(db: Db, trainer: Trainer) {
  const ctf_id = await runningCtf(db, trainer);
  const { id } = await postAnnouncement(db, trainer.workspaceId, ctf_id, announcement);
  return { ctf_id, announcement_id: id };
}

export const announcementSamples: Samples = {
  "announcements.list": { params: async ({ db }, trainer) => ({ ctf_id: await runningCtf(db, trainer) }) },
  "announcements.create": { params: async ({ db }, trainer) => ({ ctf_id: await runningCtf(db, trainer) }), body: () => announcement },
  "announcements.delete": { params: ({ db }, trainer) => announced(db, trainer) },
  "play.announcements": { params: ({ db }, trainer) => announced(db, trainer).then(({ ctf_id }) => ({ ctf_id })) },
};
