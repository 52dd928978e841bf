"use client";

import { useTranslations } from "next-intl";
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
  const t = useTranslations("taking.submit");
  const ready = left === 0 && saving === 0;
  const confirmRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  return (
    <Card>
      <h2 className="text-lg font-semibold">{t("heading")}</h2>
      {error ? (
        <div className="mt-3">
          <Notice tone="error">{error}</Notice>
        </div>
      ) : null}
      {confirming ? (
        <div role="group" aria-labelledby="confirm-submit" className="mt-3 space-y-3">
          <p id="confirm-submit" ref={confirmRef} tabIndex={-1} className="text-sm text-slate-800">
            {t("confirm", { total })}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" className="min-h-11" onClick={onConfirm} disabled={submitting || !ready}>
              {submitting ? t("submitting") : t("yes")}
            </Button>
            <Button type="button" variant="secondary" className="min-h-11" onClick={onCancel} disabled={submitting}>
              {t("cancel")}
            </Button>
          </div>
        </div>
      ) : (
        <div className="mt-2 space-y-3">
          <p className="text-sm text-slate-600">
            {left > 0 ? t("left", { total, left }) : saving > 0 ? t("savingLast") : t("ready")}
          </p>
          <Button type="button" data-testid="submit-test" className="min-h-11 w-full sm:w-auto" disabled={!ready} onClick={onStart}>
            {t("button")}
          </Button>
        </div>
      )}
    </Card>
  );
}
