"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

function remaining(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const clock = [Math.floor((total % 86_400) / 3600), Math.floor((total % 3600) / 60), total % 60].map((n) => String(n).padStart(2, "0")).join(":");
  return days ? `${days} d ${clock}` : clock;
}

/** Time left until the start; at zero the page is read again (the challenges open). */
export function Countdown({ until }: { until: string }) {
  const router = useRouter();
  const target = Date.parse(until);
  const [now, setNow] = useState(() => Date.now());
  const refreshed = useRef(false);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (now < target || refreshed.current) return;
    refreshed.current = true;
    router.refresh();
  }, [now, target, router]);
  return (
    <p className="text-2xl font-semibold tabular-nums" data-testid="countdown" role="timer" aria-live="off">
      Starts in {remaining(target - now)}
    </p>
  );
}
