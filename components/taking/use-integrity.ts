"use client";

import { useEffect } from "react";
import type { IntegrityEvent } from "@/lib/certification/integrity/schemas";

/** The server takes at most this many events per post (MAX_EVENTS_PER_POST). */
const MAX_PER_POST = 50;
/** A copy or a full-screen exit waits this long for company before it is posted. */
const BATCH_MS = 2_000;

/** Tokens whose page already said "opened" in this page load (a refresh after Start, or React's double effects, must not say it twice). */
const opened = new Set<string>();

/**
 * Posts events as `navigator.sendBeacon` does (a Blob typed application/json), so a post made
 * while the page closes still arrives; a fetch with keepalive where the beacon is refused.
 */
function post(token: string, events: IntegrityEvent[]): void {
  const url = `/api/t/${encodeURIComponent(token)}/events`;
  const body = JSON.stringify({ events });
  if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon(url, new Blob([body], { type: "application/json" }))) return;
  void fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json" }, keepalive: true }).catch(() => {});
}

/**
 * The page's part of the integrity record (a test's `record_integrity`; the start page says
 * what is recorded): "opened" once per page load; during the attempt (`attempt`), each span
 * the page was hidden (another tab or window) with its length, copy and cut events (nothing
 * is prevented), and leaving full screen after having been in it. Events are batched and
 * flushed when the page is hidden or closed (pagehide), so they reach the server even then.
 */
export function useIntegrity(token: string, attempt: boolean): void {
  useEffect(() => {
    if (opened.has(token)) return;
    opened.add(token);
    post(token, [{ type: "opened" }]);
  }, [token]);

  useEffect(() => {
    if (!attempt) return;
    const queue: IntegrityEvent[] = [];
    let hiddenSince: number | null = document.visibilityState === "hidden" ? performance.now() : null;
    let inFullscreen = document.fullscreenElement != null;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      while (queue.length) post(token, queue.splice(0, MAX_PER_POST));
    };
    const later = () => {
      timer ??= setTimeout(flush, BATCH_MS);
    };
    const endHidden = () => {
      if (hiddenSince === null) return;
      queue.push({ type: "hidden", ms: Math.max(0, Math.round(performance.now() - hiddenSince)) });
      hiddenSince = null;
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") hiddenSince ??= performance.now();
      else endHidden();
      flush();
    };
    const onPageHide = () => {
      endHidden();
      flush();
    };
    const onCopy = () => {
      queue.push({ type: "copy" });
      later();
    };
    const onFullscreen = () => {
      const now = document.fullscreenElement != null;
      if (inFullscreen && !now) {
        queue.push({ type: "fullscreen_exit" });
        later();
      }
      inFullscreen = now;
    };

    document.addEventListener("visibilitychange", onVisibility);
    document.addEventListener("copy", onCopy);
    document.addEventListener("cut", onCopy);
    document.addEventListener("fullscreenchange", onFullscreen);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      document.removeEventListener("copy", onCopy);
      document.removeEventListener("cut", onCopy);
      document.removeEventListener("fullscreenchange", onFullscreen);
      window.removeEventListener("pagehide", onPageHide);
      endHidden();
      flush();
    };
  }, [token, attempt]);
}
