"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const dashboardSections = [
  { href: "/tests", label: "Tests" },
  { href: "/classes", label: "Classes" },
  { href: "/certifications", label: "Certifications" },
  { href: "/competitions", label: "Competitions" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/api-keys", label: "API keys" },
  { href: "/settings", label: "Settings" },
] as const;

export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Trainer area" className="flex gap-1 overflow-x-auto md:flex-col">
      {dashboardSections.map((section) => {
        const active = pathname === section.href || pathname.startsWith(`${section.href}/`);
        return (
          <Link
            key={section.href}
            href={section.href}
            aria-current={active ? "page" : undefined}
            className={`whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium ${
              active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"
            }`}
          >
            {section.label}
          </Link>
        );
      })}
    </nav>
  );
}
