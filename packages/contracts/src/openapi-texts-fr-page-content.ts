/** French texts of the OpenAPI descriptions of pages for agents (contracts' page-content.ts): see openapi-texts-fr.ts. */
export const PageContentTextsFr: Readonly<Record<string, string>> = {
  'RESOURCE_FAILED: a sub-resource failed to load (HTTP error, unreachable); RESOURCE_REFUSED: refused by the egress policy (private address…); CONSOLE_ERROR: console.error or an uncaught error in the page; SELECTOR_NOT_FOUND: a selector that never matched (errorOnSelectorNotFound: false); MISSING_GLYPH: characters no installed font has, drawn as boxes; FONT_FALLBACK: a font-family the markup asked for is not available, another font was used; PAGE_CUT: a full page taller than the server allows (or the format can hold) was cut; CONTENT_CUT: a page’s text content (format markdown, html or text) was longer than an answer holds and was cut':
    'RESOURCE_FAILED : une sous-ressource n’a pas pu être chargée (erreur HTTP, injoignable) ; RESOURCE_REFUSED : refusée par la politique de sortie réseau (adresse privée…) ; CONSOLE_ERROR : console.error ou une erreur non interceptée dans la page ; SELECTOR_NOT_FOUND : un sélecteur qui n’a jamais correspondu (errorOnSelectorNotFound: false) ; MISSING_GLYPH : des caractères qu’aucune police installée ne contient, dessinés en rectangles ; FONT_FALLBACK : une font-family demandée par le balisage n’est pas disponible, une autre police a été utilisée ; PAGE_CUT : une page entière plus haute que ce que le serveur autorise (ou que le format peut contenir) a été coupée ; CONTENT_CUT : le contenu texte d’une page (format markdown, html ou text) dépassait ce qu’une réponse contient et a été coupé',
  'Screenshot a web page as PNG, JPEG, WebP, AVIF or PDF, or read its main content as markdown, HTML or text':
    'Capturer une page web en PNG, JPEG, WebP, AVIF ou PDF, ou lire son contenu principal en markdown, HTML ou texte',
  'Loads the page in a fresh browser context (no cookies or storage from other calls) as the chosen device and language, waits for its load event (plus `waitForSelector` and `delay`), then captures the viewport, the full page or one element, or prints the page as a PDF document (`format: "pdf"`, with the same page options as the HTML call). Addresses that are not public (loopback, private networks, cloud metadata) are refused. Failures answer 422 with "Failed to capture screenshot: <cause>". `format: "markdown" | "html" | "text"` answers the page’s main content instead of an image (Mozilla Readability, then turndown for markdown), after the same load; `metadata: true` adds the page’s metadata to a JSON answer.':
    'Charge la page dans un contexte de navigateur neuf (aucun cookie ni stockage d’autres appels) comme l’appareil et la langue choisis, attend son événement load (plus `waitForSelector` et `delay`), puis capture la fenêtre, la page entière ou un élément, ou imprime la page en document PDF (`format: "pdf"`, avec les mêmes options de page que l’appel HTML). Les adresses non publiques (bouclage, réseaux privés, métadonnées cloud) sont refusées. Les échecs répondent 422 avec "Failed to capture screenshot: <cause>". `format: "markdown" | "html" | "text"` renvoie le contenu principal de la page au lieu d’une image (Mozilla Readability, puis turndown pour le markdown), après le même chargement ; `metadata: true` ajoute les métadonnées de la page à une réponse JSON.',
  'An image, or the page printed as a PDF document (pdf: the page options below apply; selector is refused, fullPage, quality, scale and transparent do not apply), or the page’s main content: markdown, html (the content as a document) or text (selector and clip are refused)':
    'Une image, ou la page imprimée en document PDF (pdf : les options de page ci-dessous s’appliquent ; selector est refusé, fullPage, quality, scale et transparent ne s’appliquent pas), ou le contenu principal de la page : markdown, html (le contenu en document) ou text (selector et clip sont refusés)',
  'The Model Context Protocol over streamable HTTP, stateless (no Mcp-Session-Id): tools render_html, render_svg, render_chart, render_code, render_screenshot, read_page, list_templates and generate_template_image, described from the same schemas as the render calls. Point an MCP client at this URL with your API key (X-API-Key or Authorization: Bearer). Each tool call is made and billed as the matching API call (one credit per image); images come back as MCP image content, refusals as `isError` results with the API’s message.':
    'Le Model Context Protocol sur HTTP streamable, sans état (pas de Mcp-Session-Id) : les outils render_html, render_svg, render_chart, render_code, render_screenshot, read_page, list_templates et generate_template_image, décrits à partir des mêmes schémas que les appels de rendu. Pointez un client MCP sur cette URL avec votre clé API (X-API-Key ou Authorization: Bearer). Chaque appel d’outil est effectué et facturé comme l’appel d’API correspondant (un crédit par image) ; les images reviennent en contenu image MCP, les refus en résultats `isError` avec le message de l’API.',
  'The document title (<title>)':
    'Le titre du document (<title>)',
  '<meta name="description">':
    '<meta name="description">',
  '<link rel="canonical">, as an absolute URL':
    '<link rel="canonical">, en URL absolue',
  'The lang attribute of <html>':
    'L’attribut lang de <html>',
  'Open Graph tags (<meta property="og:…">) by name without the og: prefix (title, image, type, …)':
    'Les balises Open Graph (<meta property="og:…">) par nom sans le préfixe og: (title, image, type, …)',
  'Twitter card tags (<meta name="twitter:…">) by name without the twitter: prefix (card, title, image, …)':
    'Les balises de carte Twitter (<meta name="twitter:…">) par nom sans le préfixe twitter: (card, title, image, …)',
  'The icon the page declares (<link rel="icon">, else apple-touch-icon), as an absolute URL':
    'L’icône que la page déclare (<link rel="icon">, sinon apple-touch-icon), en URL absolue',
  'The address of the page after redirects':
    'L’adresse de la page après les redirections',
  'The HTTP status of the page’s document':
    'Le statut HTTP du document de la page',
  'The page’s metadata (with metadata: true)':
    'Les métadonnées de la page (avec metadata: true)',
  'A screenshot in format markdown, html or text: the page’s main content (image holds the same, base64)':
    'Une capture au format markdown, html ou text : le contenu principal de la page (image contient le même, en base64)',
  'Add the page’s metadata to the JSON answer (data.metadata): title, description, canonical URL, language, Open Graph and Twitter tags, favicon, final URL and HTTP status. Only with output "json".':
    'Ajoute les métadonnées de la page à la réponse JSON (data.metadata) : titre, description, URL canonique, langue, balises Open Graph et Twitter, favicon, URL finale et statut HTTP. Seulement avec output "json".',
};
