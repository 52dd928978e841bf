"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";

/** "12:05" or "1:02:05". */
function clock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** What a screen reader is told, once each, as the end comes near. */
const MILESTONES = [5 * 60_000, 60_000];

/**
 * The time left until the deadline, ticking every second. It runs on the server's clock: the
 * page says what time the server had (`serverNow`) and the difference to this device's clock is
 * kept, so a device set wrong still counts down right. `onExpire` runs once, at zero.
 */
export function Countdown({ deadline, serverNow, onExpire }: { deadline: string; serverNow: string; onExpire: () => void }) {
  const t = useTranslations("taking.countdown");
  const end = Date.parse(deadline);
  const [left, setLeft] = useState(() => end - Date.parse(serverNow));
  /** The time left at the last milestone reached; said in words below. */
  const [announced, setAnnounced] = useState<string | null>(null);
  const expireRef = useRef(onExpire);

  useEffect(() => {
    expireRef.current = onExpire;
  }, [onExpire]);

  useEffect(() => {
    const offset = Date.parse(serverNow) - Date.now();
    const reached = new Set<number>();
    let expired = false;
    const tick = () => {
      const ms = end - (Date.now() + offset);
      setLeft(ms);
      for (const milestone of MILESTONES) {
        if (ms <= milestone && ms > 0 && !reached.has(milestone)) {
          reached.add(milestone);
          setAnnounced(clock(ms));
        }
      }
      if (ms <= 0 && !expired) {
        expired = true;
        clearInterval(timer);
        expireRef.current();
      }
    };
    const timer = setInterval(tick, 1000);
    const first = setTimeout(tick, 0);
    return () => {
      clearInterval(timer);
      clearTimeout(first);
    };
  }, [end, serverNow]);

  const urgent = left <= 60_000;
  return (
    <div className={`rounded-md border px-3 py-2 text-sm ${urgent ? "border-red-300 bg-red-50 text-red-800" : "border-slate-200 bg-white text-slate-700"}`}>
      <span className="font-medium">{t("prefix")} </span>
      <span role="timer" aria-label={t("label")} data-testid="time-left" className="font-semibold tabular-nums">
        {clock(left)}
      </span>
      <span className="sr-only" aria-live="polite">
        {announced === null ? "" : t("announce", { time: announced })}
      </span>
    </div>
  );
}
