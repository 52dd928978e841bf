import { notFound } from "@/lib/kernel/errors";
import { defineTemplate, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Redirect Roulette (web): `start` sends the browser through a chain of redirects to a page
 * with nothing on it; the flag was in the chain's `Location` headers, which a browser
 * follows without showing. Every hop stays inside the target (no redirect to another site).
 * easy: the flag in one hop; medium: base64 in one hop; hard: in 4 ordered parts; insane: in
 * 6 hex parts over 12 hops.
 */
type State = TargetState & { hops: number; carriers: number[] };

const plan = { easy: { hops: 3, parts: 1 }, medium: { hops: 5, parts: 1 }, hard: { hops: 8, parts: 4 }, insane: { hops: 12, parts: 6 } } as const;

/** The flag's parts as each difficulty carries them. */
function parts(state: State, flag: string): string[] {
  const count = state.carriers.length;
  if (state.difficulty === "easy") return [`token=${encodeURIComponent(flag)}`];
  if (state.difficulty === "medium") return [`token=${encodeURIComponent(Buffer.from(flag).toString("base64"))}`];
  const size = Math.ceil(flag.length / count);
  return Array.from({ length: count }, (_, index) => {
    const piece = flag.slice(index * size, (index + 1) * size);
    return `part=${index + 1}-${state.difficulty === "insane" ? Buffer.from(piece).toString("hex") : encodeURIComponent(piece)}`;
  });
}

export const redirectRoulette = defineTemplate<State>({
  key: "redirect-roulette",
  build({ difficulty, rng }) {
    const { hops, parts: count } = plan[difficulty];
    // Which hop carries which part, in order of the parts (a part's number says where it goes).
    const carriers = rng.shuffle(Array.from({ length: hops }, (_, index) => index + 1)).slice(0, count);
    const how = {
      easy: "One hop's Location has `token=` with the flag (URL-encoded).",
      medium: "One hop's Location has `token=` with the flag in base64.",
      hard: "Four hops' Locations have `part=<n>-<text>`: join the parts by their number.",
      insane: "Six hops' Locations have `part=<n>-<hex>`: decode each from hex and join them by their number.",
    }[difficulty];
    return {
      description: "The target's `start` page redirects you somewhere, through a few hops. The destination is empty; the journey is not. Follow it carefully.",
      hints: ["Read every Location header: do not let the browser follow them for you.", "curl -v, or your browser's network panel with 'preserve log'."],
      solution: ["Request `start` without following redirects (curl without -L), then each `Location` in turn until `end`.", how],
      target: { difficulty, hops, carriers },
    };
  },
  serve(state, request) {
    switch (request.page) {
      case "index":
        return { text: "Redirect Roulette\n\nStart here: ./start\n" };
      case "start":
        return { status: 302, location: "hop?n=1" };
      case "end":
        return { text: "You have arrived. There is nothing here.\n" };
      case "hop": {
        const n = Number(request.query.n);
        if (!Number.isInteger(n) || n < 1 || n > state.hops) throw notFound("Hop");
        const carried = state.carriers.indexOf(n);
        const extra = carried >= 0 ? `&${parts(state, request.flag)[carried]}` : "";
        return { status: 302, location: n === state.hops ? `end?from=${n}${extra}` : `hop?n=${n + 1}${extra}` };
      }
      default:
        throw notFound("Page");
    }
  },
});
