import { announcementSamples } from "./announcements";
import { certificationSamples } from "./certification";
import { classSamples } from "./classes";
import { ctfSamples } from "./ctf";
import { ctfdImportSamples } from "./ctfd-import";
import { deploymentPlaySamples } from "./deployment-play";
import { emailSamples } from "./email";
import { fileSamples } from "./files";
import { generatedSamples } from "./generated";
import { keySamples } from "./keys";
import { playSamples } from "./play";
import { teamSamples } from "./teams";
import { scoreboardSamples } from "./scoreboard";
import { testSamples } from "./tests";
import type { Samples } from "./types";
import { webhookSamples } from "./webhooks";
import { workspaceSamples } from "./workspaces";

/** How to call each contract successfully, by contract id (see ./types.ts). */
export const samples: Samples = {
  ...certificationSamples,
  ...testSamples,
  ...classSamples,
  ...webhookSamples,
  ...ctfSamples,
  ...playSamples,
  ...deploymentPlaySamples,
  ...fileSamples,
  ...generatedSamples,
  ...keySamples,
  ...workspaceSamples,
  ...emailSamples,
  ...scoreboardSamples,
  ...ctfdImportSamples,
  ...announcementSamples,
  ...teamSamples,
};
