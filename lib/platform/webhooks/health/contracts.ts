import { contract } from "@/lib/kernel/contract";
import { endpointHealthList, HEALTH_WINDOW_HOURS } from "./schemas";

/** Endpoint health for the dashboard: each endpoint's figures over the last day. */
export const webhookHealthContracts = {
  health: contract({
    id: "webhooks.health",
    method: "GET",
    path: "/api/app/webhooks/health",
    caller: "session",
    status: 200,
    response: endpointHealthList,
    docs: {
      tag: "Dashboard: webhooks",
      summary: "Endpoint health",
      description:
        `Each endpoint of the workspace (competition and test-result): over the last ${HEALTH_WINDOW_HOURS} hours, its attempts, the share answered 2xx and ` +
        "the median attempt duration; since when it has been failing, and when its owner was last e-mailed about it.",
    },
  }),
};
