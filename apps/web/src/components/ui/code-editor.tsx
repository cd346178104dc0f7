import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { python } from '@codemirror/lang-python';
import { xml } from '@codemirror/lang-xml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState, type Extension, Prec } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, keymap } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

/**
 * One Dark's colours where they reach AA contrast on its background, lighter where they do not
 * (comments, keywords, tag and property names), so the editors pass the same axe check as the pages.
 */
const readableHighlight = HighlightStyle.define([
  { tag: [tags.comment, tags.meta], color: '#9ba3b4', fontStyle: 'italic' },
  { tag: [tags.keyword, tags.operatorKeyword, tags.modifier], color: '#d7a6f0' },
  { tag: [tags.tagName, tags.name, tags.deleted, tags.character, tags.propertyName, tags.macroName], color: '#f0939a' },
  { tag: [tags.attributeName, tags.number, tags.bool, tags.null, tags.atom], color: '#e0a978' },
  { tag: [tags.string, tags.inserted, tags.processingInstruction], color: '#a8d08d' },
  { tag: [tags.typeName, tags.className, tags.changed, tags.annotation], color: '#e5c07b' },
  { tag: [tags.function(tags.variableName), tags.labelName], color: '#7bbdf2' },
  { tag: [tags.operator, tags.url, tags.escape, tags.regexp, tags.link], color: '#6cc4cf' },
  { tag: [tags.punctuation, tags.separator, tags.bracket, tags.angleBracket], color: '#c3c8d1' },
]);

export type EditorLanguage = 'html' | 'xml' | 'json' | 'javascript' | 'python' | 'text';

const LANGUAGES: Record<EditorLanguage, () => Extension> = {
  html: () => html(),
  xml: () => xml(),
  json: () => json(),
  javascript: () => javascript({ typescript: true }),
  python: () => python(),
  text: () => [],
};

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
 */
export function CodeEditor({ value, onChange, onBlur, language, labelledBy, describedBy, invalid, minHeight = '12rem' }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, onBlur });
  latest.current = { onChange, onBlur };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is created once per language; value changes are synced below.
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          // Ctrl/Cmd+Enter belongs to the page (Generate), not to CodeMirror's insert-blank-line.
          Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => true }])),
          oneDark,
          LANGUAGES[language](),
          EditorView.lineWrapping,
          // One Dark's gutter grey is below AA contrast on its background; this one passes (and must win over One Dark).
          Prec.highest(syntaxHighlighting(readableHighlight)),
          Prec.highest(
            EditorView.theme({
              '&': { minHeight, fontSize: '13px' },
              '.cm-scroller': { fontFamily: 'var(--font-mono)' },
              '.cm-gutters': { color: '#a0a8b7' },
              '.cm-activeLineGutter': { color: '#d7dae0' },
            }),
          ),
          EditorView.contentAttributes.of({
            'aria-labelledby': labelledBy,
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
            ...(invalid ? { 'aria-invalid': 'true' } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
            if (update.focusChanged && !update.view.hasFocus) latest.current.onBlur?.();
          }),
        ],
      }),
    });
    // The scroller must be reachable by keyboard on its own (axe: scrollable-region-focusable).
    editor.scrollDOM.tabIndex = 0;
    view.current = editor;
    return () => editor.destroy();
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
    />
  );
}
