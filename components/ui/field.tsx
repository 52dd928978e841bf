import type { InputHTMLAttributes } from "react";

export const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:border-brand-600";
// No focus style of its own: the global `:focus-visible` outline (app/globals.css) rings inputs as it rings buttons.

export function TextField({ label, id, hint, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string; hint?: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input id={id} className={inputClass} {...props} />
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}
