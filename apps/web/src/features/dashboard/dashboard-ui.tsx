import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

/** A card: 1 px border, small radius, a heading with an optional action on the right. */
export function Card({
  title,
  icon,
  action,
  children,
  className = '',
  testId,
}: {
  title: string;
  icon?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <section className={`min-w-0 rounded-lg border border-zinc-200 bg-white p-5 sm:p-6 ${className}`} data-testid={testId}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 className="flex items-center gap-2 text-base font-semibold text-zinc-900">
          {icon}
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** A number large, its label small. */
export function Stat({
  label,
  value,
  hint,
  testId,
  size = 'lg',
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  testId?: string;
  /** 'md' for words and dates rather than numbers. */
  size?: 'lg' | 'md';
}) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-zinc-600">{label}</dt>
      <dd
        className={`mt-1 font-semibold tabular-nums tracking-tight break-words text-zinc-900 ${size === 'lg' ? 'text-3xl' : 'text-xl'}`}
        data-testid={testId}
      >
        {value}
      </dd>
      {hint && <dd className="mt-0.5 text-xs text-zinc-600">{hint}</dd>}
    </div>
  );
}

export function Skeleton({ className = '' }: { className?: string }) {
  return <div className={`animate-pulse rounded-md bg-zinc-100 ${className}`} aria-hidden />;
}

/** A loading card's body: grey bars where the content will be, announced once. */
export function LoadingBlock({ label, lines = 3 }: { label: string; lines?: number }) {
  return (
    <div role="status" className="space-y-3">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} className={i === 0 ? 'h-8 w-1/3' : 'h-4 w-full'} />
      ))}
    </div>
  );
}

export function ErrorNote({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p
      className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
      role="alert"
      data-testid={testId}
    >
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{children}</span>
    </p>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'success' | 'warning' | 'accent'; children: ReactNode }) {
  const tones = {
    neutral: 'bg-zinc-100 text-zinc-700',
    success: 'bg-green-50 text-green-800 ring-green-200',
    warning: 'bg-amber-50 text-amber-900 ring-amber-200',
    accent: 'bg-accent-50 text-accent-700 ring-accent-100',
  };
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ring-transparent ${tones[tone]}`}
    >
      {children}
    </span>
  );
}
