import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState, type Extension, Prec } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, keymap } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import type { EditorLanguage } from './editor-language.ts';

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

// Each grammar is its own chunk: an SVG playground never downloads Python's.
const LANGUAGES: Record<EditorLanguage, () => Promise<Extension>> = {
  html: () => import('@codemirror/lang-html').then((m) => m.html()),
  xml: () => import('@codemirror/lang-xml').then((m) => m.xml()),
  json: () => import('@codemirror/lang-json').then((m) => m.json()),
  javascript: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ typescript: true })),
  python: () => import('@codemirror/lang-python').then((m) => m.python()),
  text: () => Promise.resolve([]),
};

export interface EditorSetup {
  parent: HTMLElement;
  doc: string;
  language: EditorLanguage;
  minHeight: string;
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  onChange: (value: string) => void;
  onBlur: () => void;
}

/** The CodeMirror view behind `CodeEditor`, loaded with this module only by pages that show an editor. */
export async function createEditorView(setup: EditorSetup): Promise<EditorView> {
  const grammar = await LANGUAGES[setup.language]();
  const editor = new EditorView({
    parent: setup.parent,
    state: EditorState.create({
      doc: setup.doc,
      extensions: [
        basicSetup,
        // Ctrl/Cmd+Enter belongs to the page (Generate), not to CodeMirror's insert-blank-line.
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => true }])),
        oneDark,
        grammar,
        EditorView.lineWrapping,
        // One Dark's gutter grey is below AA contrast on its background; this one passes (and must win over One Dark).
        Prec.highest(syntaxHighlighting(readableHighlight)),
        Prec.highest(
          EditorView.theme({
            '&': { minHeight: setup.minHeight, fontSize: '13px' },
            '.cm-scroller': { fontFamily: 'var(--font-mono)' },
            '.cm-gutters': { color: '#a0a8b7' },
            '.cm-activeLineGutter': { color: '#d7dae0' },
          }),
        ),
        EditorView.contentAttributes.of({
          'aria-labelledby': setup.labelledBy,
          ...(setup.describedBy ? { 'aria-describedby': setup.describedBy } : {}),
          ...(setup.invalid ? { 'aria-invalid': 'true' } : {}),
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) setup.onChange(update.state.doc.toString());
          if (update.focusChanged && !update.view.hasFocus) setup.onBlur();
        }),
      ],
    }),
  });
  // The scroller must be reachable by keyboard on its own (axe: scrollable-region-focusable).
  editor.scrollDOM.tabIndex = 0;
  return editor;
}
