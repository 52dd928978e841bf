import { z } from "zod";
import { prefixedParam } from "@/lib/kernel/contract";
export const deploymentParams = z.object({ deployment_id: prefixedParam("dep", "Deployment") });
