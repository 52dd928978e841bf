"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { callApi, uploadFile } from "@/components/api";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { buttonClass } from "@/components/ui/button";
import { Notice } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { urlOf } from "@/lib/kernel/contract";
import { formatBytes } from "@/lib/kernel/values";
import { fileContracts } from "@/lib/ctf/challenges/files/contracts";
import { fileNameProblem, MAX_FILES_PER_CHALLENGE } from "@/lib/ctf/challenges/files/rules";
import type { ChallengeFileView } from "@/lib/ctf/challenges/files/schemas";
import { queryKeys } from "@/components/query-keys";
import { challengeCan } from "./format";
import type { ChallengeView } from "@/lib/ctf/challenges/schemas";

/**
 * The files of one challenge in the organiser's editor: each with its size and a download
 * link, an upload (the chosen file's size shown against the limit, checked by the server's
 * own rules before it is sent) and a delete that asks first. Files change only while the
 * challenge can be edited, as its other fields do.
 */
export function ChallengeFiles({ ctfId, challenge, archived, maxFileBytes }: { ctfId: string; challenge: ChallengeView; archived: boolean; maxFileBytes: number }) {
  const params = { ctf_id: ctfId, challenge_id: challenge.id };
  const key = queryKeys.challengeFiles(ctfId, challenge.id);
  const client = useQueryClient();
  const files = useQuery({ queryKey: key, queryFn: () => callApi(fileContracts.list, { params, query: { per_page: 100 } }) });
  const changeable = !archived && challengeCan("remove", challenge.status);
  const remove = useMutation({
    mutationFn: (file: ChallengeFileView) => callApi(fileContracts.remove, { params: { ...params, file_id: file.id } }),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
  const list = files.data?.data ?? [];

  return (
    <div className="space-y-3" data-testid="challenge-files" data-challenge={challenge.title}>
      <h4 className="text-sm font-semibold">Files of {challenge.title}</h4>
      {files.isLoading ? <p className="text-sm text-slate-600">Loading files…</p> : null}
      <RequestErrorNotice error={files.error} />
      <RequestErrorNotice error={remove.error} />
      {files.data && !list.length ? <p className="text-sm text-slate-600">No files: players get the description only.</p> : null}
      {list.length ? (
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white">
          {list.map((file) => (
            <li key={file.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm" data-testid="challenge-file" data-name={file.name}>
              <a className="min-w-0 flex-1 break-all font-medium text-brand-700 underline-offset-2 hover:underline" href={urlOf(fileContracts.download, { ...params, file_id: file.id })} download={file.name}>
                {file.name}
              </a>
              <span className="tabular-nums text-slate-600" data-testid="file-size">
                {formatBytes(file.size)}
              </span>
              <span className="font-mono text-xs text-slate-500" title={`SHA-256 ${file.sha256}`}>
                {file.sha256.slice(0, 12)}…
              </span>
              {changeable ? (
                <ConfirmButton
                  variant="danger"
                  disabled={remove.isPending}
                  aria-label={`Delete the file ${file.name}`}
                  question={`Delete the file "${file.name}"? Players will no longer be able to download it.`}
                  onConfirm={() => remove.mutate(file)}
                >
                  {remove.isPending && remove.variables?.id === file.id ? "Deleting…" : "Delete"}
                </ConfirmButton>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {changeable ? (
        list.length < MAX_FILES_PER_CHALLENGE ? (
          <UploadForm ctfId={ctfId} challengeId={challenge.id} maxFileBytes={maxFileBytes} onUploaded={() => client.invalidateQueries({ queryKey: key })} />
        ) : (
          <p className="text-sm text-slate-600">A challenge carries at most {MAX_FILES_PER_CHALLENGE} files: delete one to add another.</p>
        )
      ) : (
        <p className="text-sm text-slate-600">{archived ? "The competition is archived: its files are kept as they are." : "Unpublish the challenge to change its files."}</p>
      )}
    </div>
  );
}

function UploadForm({ ctfId, challengeId, maxFileBytes, onUploaded }: { ctfId: string; challengeId: string; maxFileBytes: number; onUploaded: () => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => uploadFile(fileContracts.upload, { params: { ctf_id: ctfId, challenge_id: challengeId }, file }),
    onSuccess: () => {
      setChosen(null);
      if (input.current) input.current.value = "";
      onUploaded();
    },
  });
  // The server's own rules, checked before a byte is sent.
  const problem = chosen ? (chosen.size > maxFileBytes ? `The file is larger than the limit of ${formatBytes(maxFileBytes)}.` : fileNameProblem(chosen.name)) : null;

  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen && !problem) upload.mutate(chosen);
      }}
    >
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        Add a file <span className="font-normal text-slate-500">(at most {formatBytes(maxFileBytes)})</span>
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={input}
          id={inputId}
          type="file"
          className="min-w-0 flex-1 text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
          aria-describedby={chosen ? `${inputId}-chosen` : undefined}
          onChange={(event) => {
            upload.reset();
            setChosen(event.target.files?.[0] ?? null);
          }}
        />
        <button type="submit" className={buttonClass("secondary")} disabled={!chosen || Boolean(problem) || upload.isPending}>
          {upload.isPending ? "Uploading…" : "Upload"}
        </button>
      </div>
      {chosen ? (
        <p id={`${inputId}-chosen`} className="text-sm text-slate-600" data-testid="chosen-file">
          {chosen.name} · {formatBytes(chosen.size)}
        </p>
      ) : null}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      <RequestErrorNotice error={upload.error} />
      {upload.isSuccess ? <Notice tone="success">&ldquo;{upload.data.name}&rdquo; uploaded.</Notice> : null}
    </form>
  );
}
