"use client";

import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { inputClass } from "@/components/ui/field";

/** How long typing may pause before a certification filter applies (here and in the new test's certification step). */
export const FILTER_DELAY_MS = 300;

/** `value`, once it has stopped changing for `delay` ms. */
export function useDebounced<T>(value: T, delay = FILTER_DELAY_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * The catalog's search and vendor filter: applied as the trainer types (after a short pause)
 * or picks a vendor, with the address updated so the filtered list can be reloaded or shared.
 * Without JavaScript the form still submits as a GET.
 */
export function CatalogFilter({ search: initialSearch, vendor: initialVendor, vendors }: { search: string; vendor: string; vendors: string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const [search, setSearch] = useState(initialSearch);
  const [vendor, setVendor] = useState(initialVendor);
  const applied = useRef({ search: initialSearch.trim(), vendor: initialVendor });

  useEffect(() => {
    const next = { search: search.trim(), vendor };
    if (next.search === applied.current.search && next.vendor === applied.current.vendor) return;
    const timer = setTimeout(
      () => {
        applied.current = next;
        const query = new URLSearchParams();
        if (next.search) query.set("search", next.search);
        if (next.vendor) query.set("vendor", next.vendor);
        router.replace(query.size ? `${pathname}?${query}` : pathname, { scroll: false });
      },
      next.vendor !== applied.current.vendor ? 0 : FILTER_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [search, vendor, pathname, router]);

  return (
    <form className="mb-4 flex flex-wrap items-end gap-3" role="search" aria-label="Certifications" onSubmit={(event) => event.preventDefault()}>
      <div className="min-w-48 flex-1">
        <label htmlFor="search" className="block text-sm font-medium text-slate-700">
          Search
        </label>
        <input id="search" name="search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} className={inputClass} placeholder="Name, exam code…" />
      </div>
      <div>
        <VendorFilter id="vendor" name="vendor" vendors={vendors} value={vendor} onChange={setVendor} />
      </div>
    </form>
  );
}

/** The vendor filter of a certification list (here and in the new test's certification step): all vendors, or one. */
export function VendorFilter({ vendors, value, onChange, ...select }: { id: string; name?: string; vendors: string[]; value: string; onChange: (vendor: string) => void }) {
  return (
    <>
      <label htmlFor={select.id} className="block text-sm font-medium text-slate-700">
        Vendor
      </label>
      <select {...select} value={value} onChange={(e) => onChange(e.target.value)} className={inputClass}>
        <option value="">All vendors</option>
        {vendors.map((name) => (
          <option key={name}>{name}</option>
        ))}
      </select>
    </>
  );
}
