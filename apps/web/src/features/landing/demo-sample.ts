/** The sample the landing demo starts with, its heading in the reader's language (the markup is code, not text). */
export const demoHtml = (
  heading: string,
  lang: string,
) => `<div lang="${lang}" style="font-family:system-ui;height:100%;display:flex;flex-direction:column;justify-content:center;
  padding:48px;background:linear-gradient(135deg,#4f46e5,#0ea5e9);color:white">
  <p style="margin:0;opacity:.8;font-size:22px">Render API</p>
  <h1 style="margin:12px 0 0;font-size:56px;line-height:1.1">${heading}</h1>
</div>`;

/** The size the demo renders at (and its ready image has). */
export const DEMO_SIZE = { width: 800, height: 420 } as const;

/** The sample's image, made once by `scripts/render-hero.mjs` and committed under `public/hero/`. */
export const demoImageUrl = (lang: 'en' | 'fr') => `/hero/demo-${lang}.webp`;
