import { AppError, type CodeCatalogResponse, CodeThemeAliases } from '@render/contracts';
// Metadata only: these modules list ids and lazy import functions; no grammar or theme is loaded here.
import { bundledLanguagesInfo } from 'shiki/langs';
import { bundledThemesInfo } from 'shiki/themes';

/** shiki highlights these as plain text without a grammar; `text` is the canonical one. */
const PLAIN_TEXT = ['text', 'plaintext', 'txt', 'plain'];

const languageIds = new Map<string, string>();
for (const info of bundledLanguagesInfo) {
  languageIds.set(info.id.toLowerCase(), info.id);
  for (const alias of info.aliases ?? []) languageIds.set(alias.toLowerCase(), info.id);
}
for (const name of PLAIN_TEXT) languageIds.set(name, 'text');

const themeIds = new Map<string, string>();
for (const info of bundledThemesInfo) themeIds.set(info.id.toLowerCase(), info.id);
for (const [alias, target] of Object.entries(CodeThemeAliases)) {
  if (themeIds.has(target)) themeIds.set(alias.toLowerCase(), target);
}

const CATALOG_PATH = 'GET /api/code-to-img/languages';

/** The canonical shiki language id for a name or alias (case-insensitive); a 400 that says where to look otherwise. */
export function resolveCodeLanguage(name: string): string {
  const id = languageIds.get(name.trim().toLowerCase());
  if (id) return id;
  throw new AppError(
    'VALIDATION_ERROR',
    `Unknown language "${name}". Use a shiki language id such as typescript, python, go, java, bash or text; see ${CATALOG_PATH}`,
  );
}

/** The shiki theme for a name or alias (vs2015 → dark-plus); a 400 that says where to look otherwise. */
export function resolveCodeTheme(name: string): string {
  const id = themeIds.get(name.trim().toLowerCase());
  if (id) return id;
  throw new AppError(
    'VALIDATION_ERROR',
    `Unknown theme "${name}". Use a shiki theme such as monokai, github-dark, github-light, dracula or vs2015; see ${CATALOG_PATH}`,
  );
}

let catalog: CodeCatalogResponse | undefined;

export function codeCatalog(): CodeCatalogResponse {
  catalog ??= {
    success: true,
    data: {
      languages: [...bundledLanguagesInfo.map((l) => l.id), 'text'].sort(),
      themes: bundledThemesInfo.map((t) => t.id).sort(),
      themeAliases: Object.fromEntries(Object.entries(CodeThemeAliases).filter(([, target]) => themeIds.has(target))),
    },
  };
  return catalog;
}
