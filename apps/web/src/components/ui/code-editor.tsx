import type { EditorView } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import type { EditorLanguage } from './editor-language.ts';

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
    const waiting = whenEditorWanted(host.current!);
    void waiting.wanted
      .then(() => import('./code-mirror-setup.ts'))
      .then(({ createEditorView }) =>
        // Unmounted while waiting (another page, or the language changed): no editor to make.
        cancelled || !host.current
          ? undefined
          : createEditorView({
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
        if (!created) return;
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
      waiting.cancel();
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

/**
 * When to load CodeMirror: once the page has loaded and the main thread is idle, or at once when the visitor
 * reaches for the editor (pointer over it, a touch, focus). Its parse and set-up are the playgrounds' longest
 * task; after the load they no longer compete with hydration (issue 28: TBT), and the text shown meanwhile is
 * the same size, so nothing moves. `cancel` stops waiting (the editor unmounted first).
 */
function whenEditorWanted(box: HTMLElement): { wanted: Promise<void>; cancel: () => void } {
  const events = ['pointerenter', 'pointerdown', 'touchstart', 'focusin'] as const;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idleHandle: number | undefined;
  let resolveWanted = () => {};
  const wanted = new Promise<void>((resolve) => {
    resolveWanted = resolve;
  });
  const stop = () => {
    for (const event of events) box.removeEventListener(event, go);
    window.removeEventListener('load', afterLoad);
    if (timer !== undefined) clearTimeout(timer);
    if (idleHandle !== undefined) window.cancelIdleCallback(idleHandle);
  };
  function go() {
    stop();
    resolveWanted();
  }
  function afterLoad() {
    if (typeof window.requestIdleCallback === 'function') idleHandle = window.requestIdleCallback(go, { timeout: 2_000 });
    else timer = setTimeout(go, 200);
  }
  for (const event of events) box.addEventListener(event, go, { passive: true });
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return { wanted, cancel: stop };
}
