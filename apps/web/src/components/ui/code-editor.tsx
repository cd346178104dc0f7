import type { EditorView } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';

export type EditorLanguage = 'html' | 'xml' | 'json' | 'javascript' | 'python' | 'text';

interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  language: EditorLanguage;
  /** The id of the visible label naming this editor. */
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  minHeight?: string;
}

/**
 * CodeMirror 6 for HTML, SVG, JSON and code. Escape then Tab leaves the editor (CodeMirror's own
 * convention), so keyboard users are never trapped; Ctrl/Cmd+Enter bubbles up to run Generate.
 * CodeMirror (~200 KB gzipped with its grammars) loads after the page has painted: until then the code is
 * shown as text in the editor's box and colours, so the page is readable at once and nothing moves.
 */
export function CodeEditor({ value, onChange, onBlur, language, labelledBy, describedBy, invalid, minHeight = '12rem' }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const placeholder = useRef<HTMLPreElement>(null);
  const latest = useRef({ onChange, onBlur, value });
  latest.current = { onChange, onBlur, value };
  const [ready, setReady] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is created once per language; value changes are synced below.
  useEffect(() => {
    let cancelled = false;
    let editor: EditorView | null = null;
    void import('./code-mirror-setup.ts')
      .then(({ createEditorView }) =>
        createEditorView({
          parent: host.current!,
          doc: latest.current.value,
          language,
          minHeight,
          labelledBy,
          describedBy,
          invalid,
          onChange: (next) => latest.current.onChange(next),
          onBlur: () => latest.current.onBlur?.(),
        }),
      )
      .then((created) => {
        if (cancelled) return created.destroy();
        // The editor was appended below the placeholder: hide it in the same task, before a frame can show both
        // (React removes it on the next render, which may come after a paint and would move the editor up).
        if (placeholder.current) placeholder.current.style.display = 'none';
        editor = created;
        view.current = created;
        setReady(true);
      });
    return () => {
      cancelled = true;
      editor?.destroy();
      view.current = null;
      setReady(false);
    };
  }, [language, invalid, describedBy]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  return (
    <div
      ref={host}
      className={`overflow-hidden rounded-md border ${invalid ? 'border-red-600' : 'border-zinc-800'} bg-[#282c34] [&_.cm-editor]:max-h-[28rem] [&_.cm-scroller]:overflow-auto`}
    >
      {!ready && (
        <pre
          ref={placeholder}
          aria-hidden
          style={{ minHeight }}
          className="m-0 max-h-[28rem] overflow-hidden whitespace-pre-wrap break-words py-1 pr-0.5 pl-[2.6rem] font-mono text-[13px] leading-[1.4] text-[#c3c8d1]"
        >
          {value}
        </pre>
      )}
    </div>
  );
}
