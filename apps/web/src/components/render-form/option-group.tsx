import type { ReactNode } from 'react';

/** A titled group of a render form's options (content, size, output, …). */
export function OptionGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-xl border border-zinc-200 bg-white p-4">
      <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-zinc-600">{legend}</legend>
      {children}
    </fieldset>
  );
}
