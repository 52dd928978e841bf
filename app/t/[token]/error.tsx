"use client";

import { ErrorPage } from "@/components/unavailable";

export default function TestError({ error }: { error: Error & { digest?: string } }) {
  return (
    <ErrorPage
      error={error}
      otherwise={{
        title: "The test could not be loaded",
        body: "Something went wrong on our side. The answers you saved are safe; try again in a moment.",
      }}
    />
  );
}
