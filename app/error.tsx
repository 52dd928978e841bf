"use client";

import { ErrorPage } from "@/components/unavailable";

// Errors of every page and of layouts below the root (the dashboard's session lookup).
export default function AppError({ error }: { error: Error & { digest?: string } }) {
  return <ErrorPage error={error} otherwise={{ title: "Something went wrong", body: "Something went wrong on our side. Try again in a moment." }} />;
}
