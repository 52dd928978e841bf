import { z } from "zod";
import { contract, prefixedParam } from "@/lib/kernel/contract";
import { createDeploymentInput, ctfDeploymentList, deploymentList, deploymentView, listDeploymentsQuery } from "./schemas";
export const deploymentParams = z.object({ deployment_id: prefixedParam("dep", "Deployment") });

export const deploymentContracts = {
  deployments: contract({
    id: "deployments.list",
    method: "GET",
    path: "/api/v1/deployments",
    caller: "workspace",
    scope: "ctf:read",
    query: listDeploymentsQuery,
    status: 200,
    response: z.union([deploymentList, ctfDeploymentList]),
    docs: { tag: "Deployments", summary: "List standalone deployments", description: "A page of deployments." },
  }),
  createDeployment: contract({
    id: "deployments.create",
    method: "POST",
    path: "/api/v1/deployments",
    caller: "workspace",
    scope: "ctf:deploy",
    body: createDeploymentInput,
    status: 202,
    response: deploymentView,
    docs: { tag: "Deployments", summary: "Deploy one challenge for a time window", description: "Give `duration_minutes` or `ends_at`. Asynchronous: `deploying`, then `live` with a `url` and `deployment.deployed`; when the window elapses it stops by itself (`deployment.stopped`, reason `window_elapsed`), across restarts.", errors: [409] },
  }),
  deployment: contract({
    id: "deployments.get",
    method: "GET",
    path: "/api/v1/deployments/{deployment_id}",
    caller: "workspace",
    scope: "ctf:read",
    params: deploymentParams,
    status: 200,
    response: deploymentView,
    docs: { tag: "Deployments", summary: "Read a deployment", description: "The deployment." },
  }),
  stopDeployment: contract({
    id: "deployments.stop",
    method: "POST",
    path: "/api/v1/deployments/{deployment_id}/stop",
    caller: "workspace",
    scope: "ctf:deploy",
    params: deploymentParams,
    status: 200,
    response: deploymentView,
    docs: { tag: "Deployments", summary: "Stop a live deployment early", description: "`deployment.stopped` with reason `stopped_by_request`. From live (else 409).", errors: [409] },
  }),
};
