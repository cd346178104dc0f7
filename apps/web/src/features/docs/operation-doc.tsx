import { useTranslation } from 'react-i18next';
import { accessOf, fieldRows, jsonBodySchema, type OpenApiDocument, type OperationView } from './openapi-fields.ts';

// The fields table's columns, by their catalog key (table.*).
const COLUMNS = ['field', 'type', 'default', 'bounds'] as const;

const METHOD_COLOURS: Record<string, string> = {
  GET: 'bg-emerald-100 text-emerald-800',
  POST: 'bg-accent-100 text-accent-800',
  PUT: 'bg-amber-100 text-amber-900',
  DELETE: 'bg-red-100 text-red-800',
};

/** One call: method, path, summary, who may call it, its body's field table and its answers. */
export function OperationDoc({ view, doc }: { view: OperationView; doc: OpenApiDocument }) {
  const { t } = useTranslation('docs');
  const { operation } = view;
  const rows = fieldRows(jsonBodySchema(operation), doc, (key, values) => t(key, values ?? {}));
  const caption = t('table.caption', { path: view.path });
  const access = t(`access.${accessOf(operation)}`);
  return (
    <article className="scroll-mt-20" id={`${view.method}-${view.path}`.replace(/[^\w-]+/g, '-')}>
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${METHOD_COLOURS[view.method] ?? 'bg-zinc-100 text-zinc-800'}`}>
          {view.method}
        </span>
        <span className="break-all text-zinc-900">{view.path}</span>
      </h3>
      {operation.summary && <p className="mt-2 text-sm text-zinc-700">{operation.summary}</p>}
      <p className="mt-1 text-xs text-zinc-600">{access}</p>
      {rows.length > 0 && (
        <>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls sideways, keyboards must reach it (axe) */}
          <section className="mt-4 overflow-x-auto rounded-lg border border-zinc-200" tabIndex={0} aria-label={caption}>
            <table className="w-full min-w-[560px] text-left text-sm">
              <caption className="sr-only">{caption}</caption>
              <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600">
                <tr>
                  {COLUMNS.map((column) => (
                    <th key={column} scope="col" className="px-3 py-2">
                      {t(`table.${column}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-200">
                {rows.map((row) => (
                  <tr key={row.name} className="align-top">
                    <td className="px-3 py-2">
                      <code className="font-mono text-xs text-zinc-900">{row.name}</code>
                      {row.required && <span className="ml-1.5 text-xs font-medium text-red-700">{t('table.required')}</span>}
                      {row.description && <p className="mt-1 text-xs text-zinc-600">{row.description}</p>}
                    </td>
                    <td className="px-3 py-2 font-mono text-xs text-zinc-700">{row.type}</td>
                    <td className="px-3 py-2 font-mono text-xs text-zinc-700">{row.defaultValue ?? '—'}</td>
                    <td className="px-3 py-2 text-xs text-zinc-700">{row.bounds ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
      {operation.responses && (
        <p className="mt-3 text-xs text-zinc-600">
          {t('responses')}{' '}
          {Object.keys(operation.responses).map((status) => (
            <code
              key={status}
              className="mr-1 rounded bg-zinc-100 px-1 py-0.5 font-mono text-zinc-800"
              title={operation.responses?.[status]?.description}
            >
              {status}
            </code>
          ))}
        </p>
      )}
    </article>
  );
}
