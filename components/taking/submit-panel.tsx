"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";

type Props = {
  total: number;
  left: number;
  saving: number;
  confirming: boolean;
  submitting: boolean;
  error: string | null;
  onStart: () => void;
  onCancel: () => void;
  onConfirm: () => void;
};

/** Submit is possible once every answer is given and saved, and asks for confirmation. */
export function SubmitPanel({ total, left, saving, confirming, submitting, error, onStart, onCancel, onConfirm }: Props) {
  const ready = left === 0 && saving === 0;
  const confirmRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  return (
    <Card>
      <h2 className="text-lg font-semibold">Finish</h2>
      {error ? (
        <div className="mt-3">
          <Notice tone="error">{error}</Notice>
        </div>
      ) : null}
      {confirming ? (
        <div role="group" aria-labelledby="confirm-submit" className="mt-3 space-y-3">
          <p id="confirm-submit" ref={confirmRef} tabIndex={-1} className="text-sm text-slate-800">
            Submit your {total} answers now? You will not be able to change them afterwards.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" className="min-h-11" onClick={onConfirm} disabled={submitting || !ready}>
              {submitting ? "Submitting…" : "Yes, submit my answers"}
            </Button>
            <Button type="button" variant="secondary" className="min-h-11" onClick={onCancel} disabled={submitting}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="mt-2 space-y-3">
          <p className="text-sm text-slate-600">
            {left > 0
              ? `Answer all ${total} questions to submit: ${left} left.`
              : saving > 0
                ? "Saving your last answers…"
                : "All questions are answered. Submit when you are ready."}
          </p>
          <Button type="button" data-testid="submit-test" className="min-h-11 w-full sm:w-auto" disabled={!ready} onClick={onStart}>
            Submit the test
          </Button>
        </div>
      )}
    </Card>
  );
}
