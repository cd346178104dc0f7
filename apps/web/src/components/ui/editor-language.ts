/** The languages the code editor highlights (code-mirror-setup.ts loads each one's grammar on demand). */
export type EditorLanguage = 'html' | 'xml' | 'json' | 'javascript' | 'python' | 'text';
