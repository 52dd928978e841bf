import { otherMethods } from "@/lib/platform/http/unrouted";
import { scoreGraphContracts } from "@/lib/ctf/play/contracts";
import { scoreGraph } from "@/lib/ctf/play/graph";
import { handle } from "@/lib/registry/handle";

// The score graph of the public competition page (the top ten over time; names only).
export const GET = handle(scoreGraphContracts.scoreGraph, ({ db, params }) => scoreGraph(db, params.ctf_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
