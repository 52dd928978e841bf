"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useId, useRef, useState } from "react";

export const dashboardSections = [
  { href: "/tests", label: "Tests" },
  { href: "/classes", label: "Classes" },
  { href: "/certifications", label: "Certifications" },
  { href: "/competitions", label: "Competitions" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/api-keys", label: "API keys" },
  { href: "/settings", label: "Settings" },
] as const;

/**
 * The trainer area's sections: a column beside the page from `md` up; on a phone one "Menu"
 * button naming the current section, which opens the sections in two columns (issue 26: a
 * row of tabs cut "Competitio…" and took a screen's top before any content).
 */
export function DashboardNav() {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const current = dashboardSections.find((section) => pathname === section.href || pathname.startsWith(`${section.href}/`));
  return (
    <nav
      aria-label="Trainer area"
      onKeyDown={(event) => {
        // Escape closes the phone menu from anywhere in it, the focus back on its button (a disclosure's usual keys).
        if (event.key !== "Escape" || !open) return;
        setOpen(false);
        toggle.current?.focus();
      }}
    >
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center justify-between rounded-md border border-slate-200 bg-white px-3 py-2 text-sm font-medium text-slate-800 md:hidden"
      >
        <span>
          Menu{current ? <span className="font-normal text-slate-600"> · {current.label}</span> : null}
        </span>
        <span aria-hidden="true">{open ? "▴" : "▾"}</span>
      </button>
      <ul id={listId} className={`${open ? "grid" : "hidden"} mt-1 grid-cols-2 gap-1 md:mt-0 md:flex md:flex-col`}>
        {dashboardSections.map((section) => {
          const active = section === current;
          return (
            <li key={section.href}>
              <Link
                href={section.href}
                aria-current={active ? "page" : undefined}
                onClick={() => setOpen(false)}
                className={`block rounded-md px-3 py-2 text-sm font-medium ${active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
