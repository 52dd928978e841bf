"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { inputClass, TextField } from "@/components/ui/field";
import type { ChallengeView, CtfView } from "@/lib/ctf/schemas";
import { queryKeys } from "@/lib/query-keys";
import { type CtfOptions } from "./api";
import { challengeCan, cleanHints, isTransitional } from "./format";
import { ErrorNotice, SelectField, StatusBadge, TextAreaField } from "./ui";
import { callApi } from "@/components/api";
import { ctfContracts } from "@/lib/ctf/contracts";
import type { GenerateChallengeInput } from "@/lib/ctf/schemas";

export function useChallenges(ctfId: string) {
  return useQuery({
    queryKey: queryKeys.ctfChallenges(ctfId),
    queryFn: () => callApi(ctfContracts.challenges, { params: { ctf_id: ctfId }, query: { per_page: 100 } }),
    refetchInterval: (query) => (query.state.data?.data.some((challenge) => isTransitional(challenge.status)) ? 2_000 : false),
  });
}

export function ChallengesSection({ ctf, options }: { ctf: CtfView; options: CtfOptions }) {
  const challenges = useChallenges(ctf.id);
  const archived = ctf.status === "archived";
  return (
    <section aria-labelledby="challenges-title" className="space-y-4">
      <h2 id="challenges-title" className="text-lg font-semibold">
        Challenges
      </h2>
      {archived ? null : (
        <div className="grid gap-4 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <CreateChallengeForm ctf={ctf} options={options} />
          </div>
          <GenerateForm ctf={ctf} options={options} />
        </div>
      )}
      <ChallengeTable ctf={ctf} challenges={challenges.data?.data} loading={challenges.isLoading} error={challenges.error} />
    </section>
  );
}

type HintRow = { text: string; cost: string };

function CreateChallengeForm({ ctf, options }: { ctf: CtfView; options: CtfOptions }) {
  const client = useQueryClient();
  const [title, setTitle] = useState("");
  const [category, setCategory] = useState(options.categories[0] ?? "");
  const [difficulty, setDifficulty] = useState("");
  const [description, setDescription] = useState("");
  const [points, setPoints] = useState("100");
  const [flag, setFlag] = useState("");
  const [hints, setHints] = useState<HintRow[]>([]);
  const [created, setCreated] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => callApi(ctfContracts.createChallenge, { params: { ctf_id: ctf.id }, body: body as never }),
    onMutate: () => setCreated(null),
    onSuccess: (challenge) => {
      setCreated(challenge.title);
      setTitle("");
      setDescription("");
      setPoints("100");
      setFlag("");
      setHints([]);
      client.invalidateQueries({ queryKey: queryKeys.ctfChallenges(ctf.id) });
      client.invalidateQueries({ queryKey: queryKeys.ctf(ctf.id), exact: true });
      client.invalidateQueries({ queryKey: queryKeys.ctfList() });
    },
    // The flag is never kept longer than needed, also when the request fails.
    onSettled: () => setFlag(""),
  });

  return (
    <Card>
      <h3 className="font-semibold">Add a challenge</h3>
      <form
        className="mt-3 space-y-4"
        autoComplete="off"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({
            title,
            category,
            ...(difficulty ? { difficulty } : {}),
            description,
            points: points.trim() === "" ? undefined : Number(points),
            flag,
            hints: cleanHints(hints),
          });
        }}
      >
        <TextField label="Title" id="challenge-title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField label="Category" id="challenge-category" value={category} onChange={(e) => setCategory(e.target.value)} required>
            {options.categories.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </SelectField>
          <SelectField label="Difficulty" id="challenge-difficulty" value={difficulty} onChange={(e) => setDifficulty(e.target.value)}>
            <option value="">Not set</option>
            {options.difficulties.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </SelectField>
          <TextField label="Points" id="challenge-points" type="number" min={1} max={10000} step={1} value={points} onChange={(e) => setPoints(e.target.value)} required />
        </div>
        <TextAreaField label="Description" id="challenge-description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={10000} />
        <TextField
          label="Flag"
          id="challenge-flag"
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          value={flag}
          onChange={(e) => setFlag(e.target.value)}
          required
          maxLength={500}
          placeholder="CTF{…}"
          hint="Stored hashed (and sealed for an external host); it is never shown again."
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Hints (optional)</legend>
          {hints.map((hint, index) => (
            <div key={index} className="flex flex-wrap items-end gap-2" data-testid="hint-row">
              <div className="min-w-48 flex-1">
                <label htmlFor={`hint-${index}-text`} className="sr-only">
                  Hint {index + 1}
                </label>
                <input
                  id={`hint-${index}-text`}
                  className={inputClass}
                  placeholder={`Hint ${index + 1}`}
                  value={hint.text}
                  maxLength={1000}
                  onChange={(e) => setHints((rows) => rows.map((row, i) => (i === index ? { ...row, text: e.target.value } : row)))}
                />
              </div>
              <div className="w-28">
                <label htmlFor={`hint-${index}-cost`} className="block text-xs text-slate-500">
                  Cost (points)
                </label>
                <input
                  id={`hint-${index}-cost`}
                  className={inputClass}
                  type="number"
                  min={0}
                  max={10000}
                  value={hint.cost}
                  onChange={(e) => setHints((rows) => rows.map((row, i) => (i === index ? { ...row, cost: e.target.value } : row)))}
                />
              </div>
              <Button type="button" variant="ghost" aria-label={`Remove hint ${index + 1}`} onClick={() => setHints((rows) => rows.filter((_, i) => i !== index))}>
                Remove
              </Button>
            </div>
          ))}
          {hints.length < 10 ? (
            <Button type="button" variant="secondary" onClick={() => setHints((rows) => [...rows, { text: "", cost: "0" }])}>
              Add a hint
            </Button>
          ) : null}
        </fieldset>
        {created ? <Notice tone="success">Challenge &ldquo;{created}&rdquo; added as a draft.</Notice> : null}
        {create.error ? <ErrorNotice error={create.error} /> : null}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add challenge"}
        </Button>
      </form>
    </Card>
  );
}

function GenerateForm({ ctf, options }: { ctf: CtfView; options: CtfOptions }) {
  const client = useQueryClient();
  const [category, setCategory] = useState(options.categories[0] ?? "");
  const [difficulty, setDifficulty] = useState(options.difficulties[0] ?? "");
  const generate = useMutation({
    mutationFn: () => callApi(ctfContracts.generateChallenge, { params: { ctf_id: ctf.id }, body: { category, difficulty } as GenerateChallengeInput }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: queryKeys.ctfChallenges(ctf.id) });
      client.invalidateQueries({ queryKey: queryKeys.ctf(ctf.id), exact: true });
      client.invalidateQueries({ queryKey: queryKeys.ctfList() });
    },
  });
  return (
    <Card>
      <h3 className="font-semibold">Generate a challenge</h3>
      <p className="mt-1 text-sm text-slate-600">
        Built from the shipped templates: title, description, hints and points scaled to the difficulty, with a fresh random flag.
      </p>
      <form
        className="mt-3 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          generate.mutate();
        }}
      >
        <SelectField label="Category" id="generate-category" value={category} onChange={(e) => setCategory(e.target.value)} required>
          {options.categories.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Difficulty" id="generate-difficulty" value={difficulty} onChange={(e) => setDifficulty(e.target.value)} required>
          {options.difficulties.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        {generate.error ? <ErrorNotice error={generate.error} /> : null}
        <Button type="submit" variant="secondary" disabled={generate.isPending}>
          {generate.isPending ? "Requesting…" : "Generate"}
        </Button>
      </form>
    </Card>
  );
}

function ChallengeTable({ ctf, challenges, loading, error }: { ctf: CtfView; challenges?: ChallengeView[]; loading: boolean; error: Error | null }) {
  const client = useQueryClient();
  const act = useMutation({
    mutationFn: ({ challenge, action }: { challenge: ChallengeView; action: "publish" | "unpublish" | "delete" }): Promise<unknown> =>
      action === "delete"
        ? callApi(ctfContracts.deleteChallenge, { params: { ctf_id: ctf.id, challenge_id: challenge.id } })
        : callApi(ctfContracts[action], { params: { ctf_id: ctf.id, challenge_id: challenge.id } }),
    onSettled: (_result, _error, { action }) => {
      client.invalidateQueries({ queryKey: queryKeys.ctfChallenges(ctf.id) });
      if (action === "delete") {
        client.invalidateQueries({ queryKey: queryKeys.ctf(ctf.id), exact: true });
        client.invalidateQueries({ queryKey: queryKeys.ctfList() });
      }
    },
  });
  const deployed = ctf.status === "deployed";
  const archived = ctf.status === "archived";

  if (loading) return <p className="text-sm text-slate-600">Loading challenges…</p>;
  if (error && !challenges) return <Notice tone="error">{error.message}</Notice>;
  return (
    <Card className="p-0">
      {!deployed && !archived && challenges?.some((challenge) => challengeCan("publish", challenge.status)) ? (
        <p className="border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm text-slate-600">Challenges can be published once the competition is deployed.</p>
      ) : null}
      {act.error ? (
        <div className="px-4 pt-3">
          <ErrorNotice error={act.error} />
        </div>
      ) : null}
      {!challenges?.length ? (
        <p className="p-5 text-sm text-slate-600">No challenges yet{archived ? "." : ": add one or generate one above."}</p>
      ) : (
        <div className="overflow-x-auto" role="region" aria-label="Challenges" tabIndex={0}>
          <table className="w-full min-w-[760px] text-left text-sm">
            <caption className="sr-only">Challenges of {ctf.title}, newest first</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-2">Title</th>
                <th scope="col" className="px-4 py-2">Category</th>
                <th scope="col" className="px-4 py-2 text-right">Points</th>
                <th scope="col" className="px-4 py-2">Status</th>
                <th scope="col" className="px-4 py-2 text-right">Platform ID</th>
                <th scope="col" className="px-4 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {challenges.map((challenge) => {
                const busy = act.isPending && act.variables?.challenge.id === challenge.id;
                return (
                  <tr key={challenge.id} data-testid="challenge-row" data-title={challenge.title} data-status={challenge.status} className="align-top">
                    <th scope="row" className="px-4 py-3 font-medium">
                      <span className="break-words">{challenge.title}</span>
                      {challenge.description ? <span className="mt-0.5 line-clamp-2 block text-xs font-normal text-slate-500">{challenge.description}</span> : null}
                      {challenge.hints.length ? (
                        <span className="block text-xs font-normal text-slate-500">{challenge.hints.length === 1 ? "1 hint" : `${challenge.hints.length} hints`}</span>
                      ) : null}
                      {challenge.last_error && challenge.status.endsWith("_failed") ? (
                        <span className="mt-1 block break-words text-xs font-normal text-red-700">{challenge.last_error}</span>
                      ) : null}
                    </th>
                    <td className="px-4 py-3 text-slate-600">
                      {challenge.category}
                      {challenge.difficulty ? <span className="block text-xs text-slate-500">{challenge.difficulty}</span> : null}
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{challenge.points}</td>
                    <td className="px-4 py-3">
                      <StatusBadge status={challenge.status} />
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums" data-testid="platform-challenge-id">
                      {challenge.platform_challenge_id ?? <span className="text-slate-400">—</span>}
                    </td>
                    <td className="px-4 py-3">
                      {archived ? null : (
                        <div className="flex flex-wrap justify-end gap-2">
                          {challengeCan("publish", challenge.status) ? (
                            <Button
                              type="button"
                              variant="secondary"
                              disabled={act.isPending || !deployed}
                              title={deployed ? undefined : "Deploy the competition first"}
                              aria-label={`Publish ${challenge.title}`}
                              onClick={() => act.mutate({ challenge, action: "publish" })}
                            >
                              {busy ? "Publishing…" : "Publish"}
                            </Button>
                          ) : null}
                          {challengeCan("unpublish", challenge.status) ? (
                            <Button
                              type="button"
                              variant="secondary"
                              disabled={act.isPending}
                              aria-label={`Unpublish ${challenge.title}`}
                              onClick={() => act.mutate({ challenge, action: "unpublish" })}
                            >
                              {busy ? "Unpublishing…" : "Unpublish"}
                            </Button>
                          ) : null}
                          {challengeCan("remove", challenge.status) ? (
                            <Button
                              type="button"
                              variant="danger"
                              disabled={act.isPending}
                              aria-label={`Delete ${challenge.title}`}
                              onClick={() => {
                                if (window.confirm(`Delete the challenge "${challenge.title}"?`)) act.mutate({ challenge, action: "delete" });
                              }}
                            >
                              Delete
                            </Button>
                          ) : null}
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
