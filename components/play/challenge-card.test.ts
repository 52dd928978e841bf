import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { playOf } from "@/components/competitions/public/challenge-list";
import { ChallengeCard, type ChallengePlay } from "./challenge-card";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => undefined }) }));

const challenge = { id: "chl_1", title: "Vault", category: "web", difficulty: null, points: 100, hints: [{ cost: 5 }], tags: ["beginner"], requires: [], max_attempts: null };
const html = (play?: ChallengePlay) =>
  renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(ChallengeCard, { ctfId: "ctf_1", challenge, play })));
const open: ChallengePlay = { description: "The **secret** door.", solved: false, hints: {}, files: [] };

describe("a challenge's card (issue 27)", () => {
  it("locked: what opens it, none of its content, no hint and no flag box", () => {
    const out = html(playOf({ progress: { solved: [], hints: [], locked: { chl_1: ["Gate", "Key"] } }, descriptions: { chl_1: "The **secret** door." }, files: null, artifacts: null })("chl_1"));
    expect(out).toContain('data-locked="true"');
    expect(out.replace(/<[^>]+>/g, "")).toContain("Locked — solve “Gate”, “Key” first.");
    expect(out).not.toContain("secret");
    expect(out).not.toContain("Unlock hint");
    expect(out).not.toContain("Flag for Vault");
  });

  it("shows its tags", () => {
    expect(html(open)).toContain(">beginner</span>");
    expect(html(undefined)).toContain(">beginner</span>");
  });

  it("capped: the wrong tries left with the flag box, then closed without it", () => {
    const left = html({ ...open, cap: { used: 1, max: 3, closed: false } });
    expect(left).toContain("2 of 3 wrong tries left");
    expect(left).toContain("Flag for Vault");
    const closed = html({ ...open, cap: { used: 3, max: 3, closed: true } });
    expect(closed).toContain('data-closed="true"');
    expect(closed).toContain("Closed: 3 wrong tries used.");
    expect(closed).not.toContain("Flag for Vault");
    // One try: singular.
    expect(html({ ...open, cap: { used: 0, max: 1, closed: false } })).toContain("1 of 1 wrong try left");
    expect(html({ ...open, cap: { used: 1, max: 1, closed: true } })).toContain("Closed: 1 wrong try used.");
  });

  it("teams mode: no flag box nor hints before a team; a team's solve shows solved", () => {
    const teamless = html({ ...open, teamRequired: true });
    expect(teamless).toContain("Create or join a team to submit flags and unlock hints.");
    expect(teamless).not.toContain("Flag for Vault");
    expect(teamless).not.toContain("Unlock hint");
    const solved = html(playOf({ progress: { solved: ["chl_1"], hints: [], locked: {}, caps: {} }, descriptions: { chl_1: "x" }, files: null, artifacts: null })("chl_1"));
    expect(solved).toContain('data-solved="true"');
    expect(solved).not.toContain("Flag for Vault");
  });
});
