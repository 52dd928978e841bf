"use client";

import { ErrorPage } from "@/components/unavailable";
import "./globals.css";

// The root layout's own errors: this replaces the whole document, so it brings <html>.
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  return (
    <html lang="en">
      <body className="min-h-screen">
        <ErrorPage error={error} otherwise={{ title: "Something went wrong", body: "Something went wrong on our side. Try again in a moment." }} />
      </body>
    </html>
  );
}
