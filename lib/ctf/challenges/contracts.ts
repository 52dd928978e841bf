import { prefixedParam } from "@/lib/kernel/contract";
import { ctfParams } from "@/lib/ctf/competitions/contracts";

export const challengeParams = ctfParams.extend({ challenge_id: prefixedParam("chl", "Challenge") });
