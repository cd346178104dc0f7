import type { ReactNode } from 'react';
import { onCtrlEnter } from './use-render-run.ts';

interface RenderFormPageProps {
  header: ReactNode;
  /** The form's accessible name. */
  formLabel: string;
  formClassName: string;
  onGenerate: () => void;
  /** The option groups and the submit row. */
  children: ReactNode;
  /** The result column: the image, then the request as code. */
  result: ReactNode;
  /** Keep the result in view while the options scroll (wide screens). */
  stickyResult?: boolean;
  /** Dialogs and the like, after the two panes. */
  after?: ReactNode;
}

/**
 * The render form both the playgrounds and a template's generate page show (design brief: options on the
 * left, the real render on the right, the request under it); Ctrl/Cmd+Enter anywhere runs Generate.
 */
export function RenderFormPage({
  header,
  formLabel,
  formClassName,
  onGenerate,
  children,
  result,
  stickyResult,
  after,
}: RenderFormPageProps) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl/Cmd+Enter anywhere on the page runs Generate.
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6" onKeyDown={onCtrlEnter(onGenerate)}>
      {header}
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,440px)_minmax(0,1fr)]">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onGenerate();
          }}
          className={formClassName}
          aria-label={formLabel}
        >
          {children}
        </form>
        <div className={stickyResult ? 'min-w-0 space-y-6 lg:sticky lg:top-20 lg:self-start' : 'min-w-0 space-y-6'}>{result}</div>
      </div>
      {after}
    </div>
  );
}
