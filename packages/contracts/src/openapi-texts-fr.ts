import { HighchartsExportTextsFr } from './highcharts-export-texts-fr.ts';
import { BatchTextsFr } from './openapi-texts-fr-batches.ts';
import { PageContentTextsFr } from './openapi-texts-fr-page-content.ts';
import { QuickChartTextsFr } from './openapi-texts-fr-quickchart.ts';
import { RenderLinkTextsFr } from './openapi-texts-fr-render-links.ts';
import { ScreenshotInteractionTextsFr } from './openapi-texts-fr-screenshot-interactions.ts';
import { VideoTextsFr } from './openapi-texts-fr-video.ts';

/**
 * The French text of every `summary` and `description` of the OpenAPI document, keyed by its English text
 * (the document is written in English where each schema is declared). The docs page shows the French ones on
 * the French site; `services/gateway/test/openapi-texts.test.ts` fails when a text of the document has no
 * French here, or when an entry is no longer in the document.
 */
export const OpenApiTextsFr: Readonly<Record<string, string>> = {
  ...QuickChartTextsFr,
  ...HighchartsExportTextsFr,
  ...VideoTextsFr,
  ...ScreenshotInteractionTextsFr,
  ...PageContentTextsFr,
  ...RenderLinkTextsFr,
  ...BatchTextsFr,
  'Turn HTML, SVG, charts, code and web pages into images.\n\nErrors are RFC 9457 problems (`application/problem+json`) that keep the API’s `success: false`, `message` and `code`, with the request’s `requestId` and, for a refused body, every refused field in `errors`; `type` links to the code on the docs’ errors page. Every answer carries `X-Request-Id` (send your own, up to 128 characters of `A-Za-z0-9._~:+/=@-`, to trace a call). The calls that create something take an `Idempotency-Key` header (a retry within 24 h gets the first answer). `output` and `outputType` are one field: every convert call accepts either. JSON, SVG and text answers are compressed (gzip, brotli) when `Accept-Encoding` allows.':
    'Transformez du HTML, du SVG, des graphiques, du code et des pages web en images.\n\nLes erreurs sont des problèmes RFC 9457 (`application/problem+json`) qui gardent les champs `success: false`, `message` et `code` de l’API, avec le `requestId` de la requête et, pour un corps refusé, chaque champ refusé dans `errors` ; `type` renvoie au code sur la page des erreurs de la documentation. Chaque réponse porte `X-Request-Id` (envoyez le vôtre, jusqu’à 128 caractères parmi `A-Za-z0-9._~:+/=@-`, pour suivre un appel). Les appels qui créent quelque chose acceptent un en-tête `Idempotency-Key` (une nouvelle tentative dans les 24 h reçoit la première réponse). `output` et `outputType` sont un même champ : chaque appel de conversion accepte l’un ou l’autre. Les réponses JSON, SVG et texte sont compressées (gzip, brotli) quand `Accept-Encoding` le permet.',
  'Your API key (also accepted as Authorization: Bearer rk_…)': 'Votre clé API (acceptée aussi en Authorization: Bearer rk_…)',
  'A session token from login, or an API key': 'Un jeton de session obtenu à la connexion, ou une clé API',
  'This OpenAPI 3.1 document': 'Ce document OpenAPI 3.1',
  'Default Response': 'Réponse par défaut',
  'Liveness check': 'Vérification que le service répond',
  'The limits of anonymous calls and of each plan, and whether the launch period is on':
    'Les limites des appels anonymes et de chaque offre, et si la période de lancement est en cours',
  'Without credentials a render costs quota units by its size and format (one per started 1024 × 1024 pixels, at least one, times the format weight) against a per-minute and a per-day quota per address; answers subject to them carry RateLimit-Policy and RateLimit headers. With an API key each delivered image is one credit.':
    'Sans identifiants, un rendu coûte des unités de quota selon sa taille et son format (une par tranche entamée de 1024 × 1024 pixels, au moins une, multipliée par le poids du format), décomptées d’un quota par minute et d’un quota par jour par adresse ; les réponses concernées portent les en-têtes RateLimit-Policy et RateLimit. Avec une clé API, chaque image livrée coûte un crédit.',
  'The launch period is on: Free accounts have no credit limit (Pro and administrators never do)':
    'La période de lancement est en cours : les comptes Free n’ont pas de limite de crédits (Pro et les administrateurs n’en ont jamais)',
  'Quota units per minute per address (RateLimit-Policy "anon-minute")':
    'Unités de quota par minute et par adresse (RateLimit-Policy "anon-minute")',
  'Quota units per day per address (RateLimit-Policy "anon-day")': 'Unités de quota par jour et par adresse (RateLimit-Policy "anon-day")',
  'Renders in flight at once per address (RateLimit-Policy "anon-in-flight")':
    'Rendus simultanés par adresse (RateLimit-Policy "anon-in-flight")',
  'Largest image without credentials: width × height × scale²': 'La plus grande image sans identifiants : largeur × hauteur × échelle²',
  'A render costs one unit per started block of this many pixels, at least one':
    'Un rendu coûte une unité par tranche entamée de ce nombre de pixels, au moins une',
  'Units are multiplied by the output format’s weight': 'Les unités sont multipliées par le poids du format de sortie',
  'Credits per window; null during the launch period': 'Crédits par période ; null pendant la période de lancement',
  'What went wrong, in a sentence to show as is (the first refused field’s, for a validation error)':
    'Ce qui n’a pas marché, en une phrase à afficher telle quelle (celle du premier champ refusé, pour une erreur de validation)',
  'The error code (VALIDATION_ERROR, UNAUTHORIZED, QUEUE_FULL, …): branch on this':
    'Le code d’erreur (VALIDATION_ERROR, UNAUTHORIZED, QUEUE_FULL, …) : c’est sur lui qu’il faut brancher',
  'The stable id of `message` (`auth.emailTaken`) when it is one of the API’s catalogued sentences: translate by this, as the English words may change':
    'L’identifiant stable de `message` (`auth.emailTaken`) quand c’est l’une des phrases cataloguées de l’API : traduisez d’après lui, car les mots anglais peuvent changer',
  'The message’s id in the message catalog, when it is a catalogued sentence':
    'L’identifiant du message dans le catalogue des messages, quand c’est une phrase cataloguée',
  'RFC 9457 problem type: a URI reference to the code on the documentation’s errors page (`/docs?tab=errors#<code>`)':
    'Type de problème RFC 9457 : une référence d’URI vers le code sur la page des erreurs de la documentation (`/docs?tab=errors#<code>`)',
  'RFC 9457: a short summary of the problem type': 'RFC 9457 : un court résumé du type de problème',
  'RFC 9457: the HTTP status': 'RFC 9457 : le statut HTTP',
  'RFC 9457: this occurrence explained (the same text as `message`)': 'RFC 9457 : cette occurrence expliquée (le même texte que `message`)',
  'RFC 9457: the request’s path (without its query string)': 'RFC 9457 : le chemin de la requête (sans sa chaîne de requête)',
  'The request’s `X-Request-Id`: quote it when reporting a problem': 'Le `X-Request-Id` de la requête : citez-le pour signaler un problème',
  'Validation errors: each refused field with its message': 'Erreurs de validation : chaque champ refusé avec son message',
  'The refused field: its path in the body or query (`width`, `clip.x`), `body` for the whole':
    'Le champ refusé : son chemin dans le corps ou la requête (`width`, `clip.x`), `body` pour l’ensemble',
  'The status of an async render (a convert call with `webhook`)': 'L’état d’un rendu asynchrone (un appel de conversion avec `webhook`)',
  'queued → rendering → done (imageUrl serves the image until expiresAt) or failed (error says why; nothing is charged). Kept for ASYNC_RESULT_TTL_SECONDS (24 h by default) after submission.':
    'queued → rendering → done (imageUrl sert l’image jusqu’à expiresAt) ou failed (error dit pourquoi ; rien n’est facturé). Conservé ASYNC_RESULT_TTL_SECONDS (24 h par défaut) après l’envoi.',
  'The render id': 'L’identifiant du rendu',
  'html, svg, chart, code, screenshot or template': 'html, svg, chart, code, screenshot ou template',
  'The output format asked for (the image made, once done)': 'Le format de sortie demandé (celui de l’image produite, une fois terminée)',
  'queued (accepted), rendering (handed to the render pipeline), done (imageUrl serves it), failed (see error; not charged)':
    'queued (accepté), rendering (confié au rendu), done (imageUrl le sert), failed (voir error ; non facturé)',
  'The error code a synchronous call would have answered': 'Le code d’erreur qu’un appel synchrone aurait renvoyé',
  'image size in bytes': 'taille de l’image en octets',
  'When the render and its image are forgotten': 'Quand le rendu et son image sont oubliés',
  'GET it (with the same credentials) for the image bytes, once done':
    'Faites un GET (avec les mêmes identifiants) pour obtenir les octets de l’image, une fois terminée',
  'The image of a finished async render, while it is kept': 'L’image d’un rendu asynchrone terminé, tant qu’elle est conservée',
  '409 while the render is queued or rendering, or when it failed (the status says why); 404 once it has expired.':
    '409 tant que le rendu est en file ou en cours, ou s’il a échoué (l’état dit pourquoi) ; 404 une fois expiré.',
  'The image bytes, with their media type': 'Les octets de l’image, avec leur type de média',
  'The latest webhook delivery attempts of the account, newest first':
    'Les dernières tentatives de livraison de webhook du compte, les plus récentes d’abord',
  'Each attempt with its HTTP status or error; the last 100 are kept for 7 days.':
    'Chaque tentative avec son statut HTTP ou son erreur ; les 100 dernières sont conservées 7 jours.',
  'Newest first': 'Les plus récentes d’abord',
  'Attempt number (1 for the first)': 'Numéro de la tentative (1 pour la première)',
  'When the attempt was made (ISO 8601)': 'Quand la tentative a eu lieu (ISO 8601)',
  'A 2xx answer: delivered': 'Une réponse 2xx : livré',
  'The HTTP status the webhook answered': 'Le statut HTTP renvoyé par le webhook',
  'Why no answer was had (refused address, timeout, connection error)':
    'Pourquoi aucune réponse n’a été obtenue (adresse refusée, délai dépassé, erreur de connexion)',
  'The kind of `error`, stable for programs': 'Le type d’`error`, stable pour les programmes',
  'No further attempt follows (delivered, refused, or retries used up)':
    'Aucune autre tentative ne suivra (livré, refusé, ou tentatives épuisées)',
  'Render HTML to PNG, JPEG, WebP, AVIF or PDF': 'Rendre du HTML en PNG, JPEG, WebP, AVIF ou PDF',
  'Renders the HTML in a viewport of width × height CSS pixels and captures it as an image, or prints it as a PDF document (`format: "pdf"`): paper pages (pageSize or pageWidth/pageHeight, landscape, margin, pageRanges, header and footer templates), or with `fitToContent` one page the size of the content. For PDF the answer\'s width and height are those of the (first) page in CSS pixels (1/96 in).':
    'Rend le HTML dans une fenêtre de largeur × hauteur pixels CSS et la capture en image, ou l’imprime en document PDF (`format: "pdf"`) : des pages de papier (pageSize ou pageWidth/pageHeight, landscape, margin, pageRanges, modèles d’en-tête et de pied de page), ou avec `fitToContent` une seule page à la taille du contenu. En PDF, la largeur et la hauteur de la réponse sont celles de la (première) page en pixels CSS (1/96 de pouce).',
  'HTML document or fragment to render': 'Document ou fragment HTML à rendre',
  'An image, or a PDF document (pdf: the page options below apply; width sets the layout width of fitToContent)':
    'Une image, ou un document PDF (pdf : les options de page ci-dessous s’appliquent ; width fixe la largeur de mise en page de fitToContent)',
  'width in CSS pixels': 'largeur en pixels CSS',
  'height in CSS pixels': 'hauteur en pixels CSS',
  'JPEG, WebP and AVIF quality (1–100); ignored for PNG, SVG and PDF': 'Qualité JPEG, WebP et AVIF (1–100) ; ignorée pour PNG, SVG et PDF',
  'PNG only: lossless optimisation (maximum compression, adaptive filtering, a palette when one holds the image exactly). The decoded pixels are identical and the file usually smaller; it adds encoding time. Other formats ignore it.':
    'PNG seulement : optimisation sans perte (compression maximale, filtrage adaptatif, une palette quand elle représente l’image exactement). Les pixels décodés sont identiques et le fichier généralement plus petit ; l’encodage prend plus de temps. Les autres formats l’ignorent.',
  'Device scale factor: the image is width×scale by height×scale pixels; width × height × scale² must not exceed 16,000,000 (a 400 otherwise)':
    'Facteur d’échelle de l’appareil : l’image mesure largeur×échelle sur hauteur×échelle pixels ; largeur × hauteur × échelle² ne doit pas dépasser 16 000 000 (sinon une 400)',
  '`json` answers base64 in JSON; `binary` (the default) the image bytes. `output` and `outputType` are one field under the two names the specification uses: every convert call accepts either (both only when they agree).':
    '`json` renvoie l’image en base64 dans du JSON ; `binary` (par défaut) les octets de l’image. `output` et `outputType` sont un même champ sous les deux noms qu’emploie la spécification : chaque appel de conversion accepte l’un ou l’autre (les deux seulement s’ils concordent).',
  'Seconds to keep the image for identical requests (same caller, same body): those are answered from the cache with X-Cache: HIT and cost no credit, and identical requests arriving together render once. 0 or absent: no cache.':
    'Secondes pendant lesquelles l’image est gardée pour les requêtes identiques (même appelant, même corps) : elles reçoivent la réponse du cache avec X-Cache: HIT et ne coûtent aucun crédit, et des requêtes identiques arrivées ensemble ne sont rendues qu’une fois. 0 ou absent : pas de cache.',
  'Render in the background: the call answers 202 with the render id at once, the outcome is POSTed (signed with your webhook secret, header X-Render-Signature) to this http(s) URL, and GET /api/renders/{id} gives the status. Needs an API key or a session; private, loopback and reserved addresses are refused. `cache` does not apply.':
    'Rendu en arrière-plan : l’appel répond aussitôt 202 avec l’identifiant du rendu, le résultat est envoyé en POST (signé avec votre secret de webhook, en-tête X-Render-Signature) à cette URL http(s), et GET /api/renders/{id} donne l’état. Demande une clé API ou une session ; les adresses privées, de bouclage et réservées sont refusées. `cache` ne s’applique pas.',
  'PDF only. Paper size (A4 210×297 mm, Letter 8.5×11 in, Legal 8.5×14 in, A3, A5, Tabloid 11×17 in); pageWidth and pageHeight override it':
    'PDF seulement. Format du papier (A4 210×297 mm, Letter 8,5×11 in, Legal 8,5×14 in, A3, A5, Tabloid 11×17 in) ; pageWidth et pageHeight le remplacent',
  'PDF only. Custom page width with its unit (px, in, cm, mm), between 1in and 200in; needs pageHeight':
    'PDF seulement. Largeur de page personnalisée avec son unité (px, in, cm, mm), entre 1in et 200in ; demande pageHeight',
  'PDF only. Custom page height with its unit (px, in, cm, mm), between 1in and 200in; needs pageWidth':
    'PDF seulement. Hauteur de page personnalisée avec son unité (px, in, cm, mm), entre 1in et 200in ; demande pageWidth',
  'PDF only. Landscape orientation: the page’s width and height swap':
    'PDF seulement. Orientation paysage : la largeur et la hauteur de la page sont échangées',
  'PDF only. Page margins with their units ("1cm", "0.5in"); 0 when left out':
    'PDF seulement. Marges de la page avec leurs unités ("1cm", "0.5in") ; 0 si omises',
  'Top margin': 'Marge du haut',
  'Right margin': 'Marge de droite',
  'Bottom margin': 'Marge du bas',
  'Left margin': 'Marge de gauche',
  'PDF only. Print background colours and images': 'PDF seulement. Imprimer les couleurs et images d’arrière-plan',
  'PDF only. Pages to keep, e.g. "1-3, 5" or "2-" (all pages when left out); pages past the end are ignored':
    'PDF seulement. Pages à garder, par exemple "1-3, 5" ou "2-" (toutes si omis) ; les pages au-delà de la fin sont ignorées',
  'PDF only. HTML printed in the top margin of every page (setting it turns headers and footers on; the other one is then empty). Elements with the classes pageNumber, totalPages, date, title and url get those values. Runs without scripts and loads nothing from the network: use inline styles and data: images. Give the page a top margin to make room for it.':
    'PDF seulement. HTML imprimé dans la marge du haut de chaque page (le renseigner active les en-têtes et pieds de page ; l’autre est alors vide). Les éléments portant les classes pageNumber, totalPages, date, title et url reçoivent ces valeurs. S’exécute sans scripts et ne charge rien du réseau : utilisez des styles en ligne et des images data:. Donnez à la page une marge du haut pour lui faire de la place.',
  'PDF only. HTML printed in the bottom margin of every page (setting it turns headers and footers on; the other one is then empty). Elements with the classes pageNumber, totalPages, date, title and url get those values. Runs without scripts and loads nothing from the network: use inline styles and data: images. Give the page a bottom margin to make room for it.':
    'PDF seulement. HTML imprimé dans la marge du bas de chaque page (le renseigner active les en-têtes et pieds de page ; l’autre est alors vide). Les éléments portant les classes pageNumber, totalPages, date, title et url reçoivent ces valeurs. S’exécute sans scripts et ne charge rien du réseau : utilisez des styles en ligne et des images data:. Donnez à la page une marge du bas pour lui faire de la place.',
  'PDF only. One page exactly the size of the content (laid out at the viewport width), instead of paper pages; a page taller than 200 in is cut there. pageSize, pageWidth, pageHeight, landscape and pageRanges are then ignored.':
    'PDF seulement. Une seule page exactement à la taille du contenu (mis en page à la largeur de la fenêtre), au lieu de pages de papier ; une page de plus de 200 in de haut y est coupée. pageSize, pageWidth, pageHeight, landscape et pageRanges sont alors ignorés.',
  PDF: 'PDF',
  'Makes a retry safe: within 24 hours the same key with the same credentials, path and body gets the first answer again (with Idempotent-Replayed: true) and is charged once; with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first is still being answered, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Only successful answers are kept: after an error the same key may be sent again.':
    'Rend une nouvelle tentative sûre : pendant 24 heures, la même clé avec les mêmes identifiants, le même chemin et le même corps reçoit de nouveau la première réponse (avec Idempotent-Replayed: true) et n’est facturée qu’une fois ; avec un autre corps, 422 IDEMPOTENCY_KEY_REUSED ; tant que la première est encore en cours, 409 IDEMPOTENCY_KEY_IN_USE avec Retry-After. Seules les réponses réussies sont gardées : après une erreur, la même clé peut être renvoyée.',
  'The image (binary by default, JSON with base64 when output/outputType is "json")':
    'L’image (binaire par défaut, JSON avec base64 quand output/outputType vaut "json")',
  'The limits this call counts against (IETF httpapi RateLimit draft), e.g. `"anon-minute";q=20;w=60, "anon-day";q=40;w=86400, "anon-in-flight";q=2;qu="concurrent-requests"` without credentials, `"free-in-flight";q=4;qu="concurrent-requests"` with a Free key':
    'Les limites que cet appel décompte (brouillon IETF httpapi RateLimit), par exemple `"anon-minute";q=20;w=60, "anon-day";q=40;w=86400, "anon-in-flight";q=2;qu="concurrent-requests"` sans identifiants, `"free-in-flight";q=4;qu="concurrent-requests"` avec une clé Free',
  'What is left of each: `r` quota units (anonymous renders cost one per started 1024 × 1024 pixels, AVIF ×4, PDF ×2), `t` seconds until the next unit comes back':
    'Ce qui reste de chacune : `r` unités de quota (un rendu anonyme coûte une unité par tranche entamée de 1024 × 1024 pixels, AVIF ×4, PDF ×2), `t` secondes avant le retour de la prochaine unité',
  'With credentials: the plan’s credits per rolling 30 days, or `unlimited`':
    'Avec identifiants : les crédits de l’offre par période glissante de 30 jours, ou `unlimited`',
  'With credentials: credits left after this call, or `unlimited`':
    'Avec identifiants : les crédits restants après cet appel, ou `unlimited`',
  'Milliseconds the worker spent rendering (0 for a cached image)':
    'Millisecondes passées par le worker à rendre (0 pour une image en cache)',
  'Milliseconds the job waited in the queue': 'Millisecondes d’attente de la tâche dans la file',
  'The same timings as the standard header browsers show: `queue;dur=12, render;dur=48.3` (render to 0.1 ms)':
    'Les mêmes durées dans l’en-tête standard qu’affichent les navigateurs : `queue;dur=12, render;dur=48.3` (le rendu au dixième de milliseconde)',
  'With `cache` in the body: HIT when answered from the cache (no credit charged), MISS when rendered':
    'Avec `cache` dans le corps : HIT quand la réponse vient du cache (aucun crédit facturé), MISS quand l’image a été rendue',
  'How many render warnings there were (failed or refused sub-resources, console errors, a selector not found, missing glyphs, fonts that fell back); the JSON answer lists them in `data.warnings`':
    'Le nombre d’avertissements du rendu (sous-ressources en échec ou refusées, erreurs de console, sélecteur introuvable, glyphes manquants, polices de remplacement) ; la réponse JSON les liste dans `data.warnings`',
  'base64-encoded image': 'image encodée en base64',
  'image width in pixels (a PDF: its first page’s width in CSS pixels, 1/96 in)':
    'largeur de l’image en pixels (un PDF : la largeur de sa première page en pixels CSS, 1/96 de pouce)',
  'image height in pixels (a PDF: its first page’s height in CSS pixels, 1/96 in)':
    'hauteur de l’image en pixels (un PDF : la hauteur de sa première page en pixels CSS, 1/96 de pouce)',
  'What went wrong in a render that still produced the image (empty when nothing did)':
    'Ce qui s’est mal passé dans un rendu qui a tout de même produit l’image (vide si rien)',
  'The resource (without its query string; cut when long)': 'La ressource (sans sa chaîne de requête ; coupée si elle est longue)',
  'Why it failed or was refused': 'Pourquoi elle a échoué ou a été refusée',
  'The font-family asked for': 'La font-family demandée',
  'The font used instead': 'La police utilisée à la place',
  'The CSS selector': 'Le sélecteur CSS',
  'The characters without a glyph': 'Les caractères sans glyphe',
  'The same characters as U+XXXX': 'Les mêmes caractères en U+XXXX',
  'Accepted: the render runs in the background and the webhook is called when it ends':
    'Accepté : le rendu se fait en arrière-plan et le webhook est appelé quand il se termine',
  'Where to poll the status: /api/renders/{id}': 'Où interroger l’état : /api/renders/{id}',
  'The account’s credits for the rolling 30 days are used up; the message says when the next one comes back':
    'Les crédits du compte pour les 30 jours glissants sont épuisés ; le message dit quand le prochain revient',
  'When the next credit comes back': 'Quand le prochain crédit revient',
  'Without credentials: the image is larger than anonymous callers may ask for, or costs more than a minute’s quota (ANONYMOUS_LIMIT); an API key gets it through':
    'Sans identifiants : l’image est plus grande que ce que les appelants anonymes peuvent demander, ou coûte plus que le quota d’une minute (ANONYMOUS_LIMIT) ; une clé API la fait passer',
  'Too many requests: the render queue is full (QUEUE_FULL), the account has its plan’s limit of renders in flight, or an anonymous limit (per minute, per day, in flight) is reached (RATE_LIMITED); retry after Retry-After seconds':
    'Trop de requêtes : la file de rendu est pleine (QUEUE_FULL), le compte a atteint la limite de rendus simultanés de son offre, ou une limite anonyme (par minute, par jour, simultanés) est atteinte (RATE_LIMITED) ; réessayez après Retry-After secondes',
  'Seconds to wait before sending the request again': 'Secondes à attendre avant de renvoyer la requête',
  'A service the call needs is unavailable; retry after Retry-After seconds':
    'Un service nécessaire à l’appel est indisponible ; réessayez après Retry-After secondes',
  'Render SVG to PNG, JPEG, WebP, AVIF or a resized SVG': 'Rendre du SVG en PNG, JPEG, WebP, AVIF ou en SVG redimensionné',
  'An SVG document (root element <svg>)': 'Un document SVG (élément racine <svg>)',
  'Transparent background (PNG, WebP and AVIF)': 'Arrière-plan transparent (PNG, WebP et AVIF)',
  'Render a Chart.js, D3 or Highcharts chart to PNG, JPEG, WebP, AVIF, SVG (D3, Highcharts) or PDF (Highcharts)':
    'Rendre un graphique Chart.js, D3 ou Highcharts en PNG, JPEG, WebP, AVIF, SVG (D3, Highcharts) ou PDF (Highcharts)',
  'Chart library': 'Bibliothèque de graphiques',
  'Chart type. chartjs: bar, line, pie, doughnut, radar, polarArea, scatter, bubble (default bar). d3: bar, line, area, pie, donut, scatter (default bar). highcharts: a series type (default: chartOptions.chart.type, else line)':
    'Type de graphique. chartjs : bar, line, pie, doughnut, radar, polarArea, scatter, bubble (bar par défaut). d3 : bar, line, area, pie, donut, scatter (bar par défaut). highcharts : un type de série (par défaut chartOptions.chart.type, sinon line)',
  'Object or JSON text. chartjs: the Chart.js `data` object ({ labels, datasets }). d3: { labels, datasets: [{ label, data: number[] }] } (bar, line, area, pie, donut) or { datasets: [{ label, data: [{ x, y, r? }] }] } (scatter). highcharts: an array of series, or an object (e.g. { series }) merged over chartOptions.':
    'Objet ou texte JSON. chartjs : l’objet `data` de Chart.js ({ labels, datasets }). d3 : { labels, datasets: [{ label, data: number[] }] } (bar, line, area, pie, donut) ou { datasets: [{ label, data: [{ x, y, r? }] }] } (scatter). highcharts : un tableau de séries, ou un objet (par exemple { series }) fusionné par-dessus chartOptions.',
  'Object or JSON text. chartjs: Chart.js `options`. highcharts: Highcharts options. d3: { title, xAxisLabel, yAxisLabel, legend, stacked, horizontal, curve, innerRadius, showValues, grid, fontSize, fontFamily, textColor }. Functions cannot be sent; strings that look like code are refused.':
    'Objet ou texte JSON. chartjs : les `options` de Chart.js. highcharts : les options Highcharts. d3 : { title, xAxisLabel, yAxisLabel, legend, stacked, horizontal, curve, innerRadius, showValues, grid, fontSize, fontFamily, textColor }. Les fonctions ne peuvent pas être envoyées ; les chaînes qui ressemblent à du code sont refusées.',
  'svg for D3 and Highcharts; pdf for Highcharts only': 'svg pour D3 et Highcharts ; pdf pour Highcharts seulement',
  'Palette for series/slices, used where the data sets no colour of its own':
    'Palette des séries/parts, utilisée là où les données ne fixent pas leur propre couleur',
  'CSS colour; default white (dark grey for the Highcharts dark theme)':
    'Couleur CSS ; blanc par défaut (gris foncé pour le thème sombre de Highcharts)',
  'Accepted for compatibility; animations are always off while rendering':
    'Accepté pour compatibilité ; les animations sont toujours désactivées pendant le rendu',
  'Let the chart follow the container width (library responsive mode) instead of a fixed-size canvas':
    'Laisser le graphique suivre la largeur du conteneur (mode responsive de la bibliothèque) au lieu d’un canevas de taille fixe',
  'Highcharts theme': 'Thème Highcharts',
  'Render highlighted source code to PNG, JPEG, WebP or AVIF': 'Rendre du code source coloré en PNG, JPEG, WebP ou AVIF',
  'The image is the code window itself: the theme background with rounded corners (transparent outside them in PNG, WebP and AVIF, filled with the theme background in JPEG). Height fits the code unless `height` is given (then the code is cropped or the window padded); long lines wrap. Auto height is limited to 16,000 image pixels and the width × height × scale² pixel budget. For shareable images, `window` adds a mac or Windows bar with a title, `outerPadding` with `background` (a colour or gradient; transparent without one, which JPEG refuses) and `shadow` frame the window, `highlightLines` marks lines and `firstLineNumber` shifts the gutter.':
    'L’image est la fenêtre de code elle-même : le fond du thème aux coins arrondis (transparent à l’extérieur en PNG, WebP et AVIF, rempli du fond du thème en JPEG). La hauteur s’ajuste au code sauf si `height` est donnée (le code est alors rogné ou la fenêtre complétée) ; les lignes longues passent à la ligne. La hauteur automatique est limitée à 16 000 pixels d’image et au budget de pixels largeur × hauteur × échelle². Pour des images à partager, `window` ajoute une barre mac ou Windows avec un titre, `outerPadding` avec `background` (une couleur ou un dégradé ; transparent sans, ce que JPEG refuse) et `shadow` encadrent la fenêtre, `highlightLines` met des lignes en évidence et `firstLineNumber` décale la numérotation.',
  'Source code to highlight': 'Code source à colorer',
  'A shiki language id or alias, case-insensitive (e.g. typescript, ts, python, go, text); GET /api/code-to-img/languages lists them, and any other name is a 400':
    'Un identifiant ou alias de langage shiki, sans distinction de casse (par exemple typescript, ts, python, go, text) ; GET /api/code-to-img/languages les liste, et tout autre nom donne une 400',
  'A shiki theme, case-insensitive (e.g. monokai, github-dark, dracula) or an alias: vs2015 → dark-plus, vs → light-plus, github → github-light; GET /api/code-to-img/languages lists them, and any other name is a 400':
    'Un thème shiki, sans distinction de casse (par exemple monokai, github-dark, dracula) ou un alias : vs2015 → dark-plus, vs → light-plus, github → github-light ; GET /api/code-to-img/languages les liste, et tout autre nom donne une 400',
  'Image height in CSS pixels; omit (or "auto") to fit the code, or give a number to crop or pad to it':
    'Hauteur de l’image en pixels CSS ; omettez-la (ou "auto") pour l’ajuster au code, ou donnez un nombre pour rogner ou compléter',
  'Font size in CSS pixels; lines are 1.5× as tall': 'Taille de police en pixels CSS ; les lignes sont 1,5 fois plus hautes',
  'Space between the window edge and the code': 'Espace entre le bord de la fenêtre et le code',
  'Corner radius of the window; the corners outside it are transparent in PNG, WebP and AVIF':
    'Rayon des coins de la fenêtre ; les coins extérieurs sont transparents en PNG, WebP et AVIF',
  'Show a line-number gutter': 'Afficher une colonne de numéros de ligne',
  "A window bar (36 px, part of the window's height) above the code, as carbon and ray.so draw it":
    'Une barre de fenêtre (36 px, comprise dans la hauteur de la fenêtre) au-dessus du code, comme la dessinent carbon et ray.so',
  'mac: three traffic-light dots; windows: minimise, maximise and close controls; none: no bar':
    'mac : trois pastilles de couleur ; windows : boutons réduire, agrandir et fermer ; none : pas de barre',
  'A file name or title centred in the bar (needs style mac or windows)':
    'Un nom de fichier ou un titre centré dans la barre (demande le style mac ou windows)',
  'What fills outerPadding around the window: a colour or a gradient (one of them). Omit it for a transparent surround in PNG, WebP and AVIF':
    'Ce qui remplit outerPadding autour de la fenêtre : une couleur ou un dégradé (l’un des deux). Omettez-le pour un entourage transparent en PNG, WebP et AVIF',
  'A solid colour, #rrggbb': 'Une couleur unie, #rrggbb',
  'A linear gradient { from, to, angle }: two #rrggbb colours and a direction in degrees as CSS linear-gradient (0 upwards, 90 to the right; default 135, to the bottom right)':
    'Un dégradé linéaire { from, to, angle } : deux couleurs #rrggbb et une direction en degrés comme en CSS linear-gradient (0 vers le haut, 90 vers la droite ; 135 par défaut, vers le bas à droite)',
  'Start colour, #rrggbb': 'Couleur de départ, #rrggbb',
  'End colour, #rrggbb': 'Couleur d’arrivée, #rrggbb',
  'Direction in degrees, as CSS linear-gradient: 0 runs upwards, 90 to the right, 135 to the bottom right':
    'Direction en degrés, comme en CSS linear-gradient : 0 va vers le haut, 90 vers la droite, 135 vers le bas à droite',
  'Space around the code window, in CSS px, filled with `background` (transparent without one; JPEG then needs a background). The image is `width` + 2 × outerPadding wide. Default 0, or 48 when background or shadow is set':
    'Espace autour de la fenêtre de code, en px CSS, rempli avec `background` (transparent sans ; JPEG demande alors un fond). L’image fait `width` + 2 × outerPadding de large. 0 par défaut, ou 48 quand background ou shadow est fourni',
  'Drop a soft shadow under the code window (shows within outerPadding)':
    'Ajouter une ombre douce sous la fenêtre de code (visible dans outerPadding)',
  'Lines to highlight, as the gutter numbers them (firstLineNumber counts): numbers and "from-to" ranges, e.g. [3, "5-7"]; at most 50 entries':
    'Lignes à mettre en évidence, telles que la colonne les numérote (firstLineNumber compte) : des nombres et des plages "début-fin", par exemple [3, "5-7"] ; 50 entrées au plus',
  'Number shown in the gutter for the first line (e.g. 120 for an excerpt); the gutter widens for longer numbers':
    'Numéro affiché pour la première ligne (par exemple 120 pour un extrait) ; la colonne s’élargit pour les numéros plus longs',
  'http(s) URL of the page to capture': 'URL http(s) de la page à capturer',
  'desktop: 1280×800 at scale 1. mobile: iPhone 12 Pro (390×844, scale 3, mobile user agent, touch). tablet: iPad Pro (1024×1366, scale 2, iPad user agent, touch).':
    'desktop : 1280×800 à l’échelle 1. mobile : iPhone 12 Pro (390×844, échelle 3, agent utilisateur mobile, tactile). tablet : iPad Pro (1024×1366, échelle 2, agent utilisateur iPad, tactile).',
  "Viewport width in CSS pixels; overrides the device's (desktop 1280×800, mobile 390×844, tablet 1024×1366)":
    'Largeur de la fenêtre en pixels CSS ; remplace celle de l’appareil (desktop 1280×800, mobile 390×844, tablet 1024×1366)',
  "Viewport height in CSS pixels; overrides the device's (desktop 1280×800, mobile 390×844, tablet 1024×1366)":
    'Hauteur de la fenêtre en pixels CSS ; remplace celle de l’appareil (desktop 1280×800, mobile 390×844, tablet 1024×1366)',
  'Capture the whole scrollable page at the viewport width instead of the viewport. Pages taller than 16,384 device pixels are captured in tiles and stitched. A page is cut at 40,000 CSS px or 51.2 megapixels (width × height × scale²), whichever comes first (the defaults; a server may set others), and at what the format can hold: 16,383 px for webp, 16,384 px for avif, 65,535 px for jpeg; a cut page says so in warnings (PAGE_CUT). Before the capture the page is scrolled through once, so lazy-loaded images and content revealed on scroll are there (see fullPageScroll).':
    'Capturer toute la page défilante à la largeur de la fenêtre au lieu de la seule fenêtre. Les pages de plus de 16 384 pixels d’appareil sont capturées par tuiles assemblées. Une page est coupée à 40 000 px CSS ou 51,2 mégapixels (largeur × hauteur × échelle²), au premier atteint (valeurs par défaut ; un serveur peut en fixer d’autres), et à ce que le format peut contenir : 16 383 px en webp, 16 384 px en avif, 65 535 px en jpeg ; une page coupée le signale dans warnings (PAGE_CUT). Avant la capture, la page est parcourue une fois, pour que les images chargées à la demande et le contenu révélé au défilement soient là (voir fullPageScroll).',
  'With fullPage: scroll through the page a screen at a time (up to the height limit, for at most 5 s) and back to the top before the capture, then wait for the images that started loading, so lazy-loaded images and content revealed on scroll appear. false captures the page as it loaded.':
    'Avec fullPage : faire défiler la page un écran à la fois (jusqu’à la hauteur limite, pendant 5 s au plus) puis revenir en haut avant la capture, et attendre les images dont le chargement a commencé, pour que les images chargées à la demande et le contenu révélé au défilement apparaissent. false capture la page telle qu’elle s’est chargée.',
  'Sent as Accept-Language and reported by navigator.language(s) and Intl':
    'Envoyée en Accept-Language et renvoyée par navigator.language(s) et Intl',
  'Extra wait after the page has loaded, in ms; shortened if it would not fit in the render time limit':
    'Attente supplémentaire après le chargement de la page, en ms ; raccourcie si elle ne tient pas dans le temps de rendu imparti',
  'Capture only the first element matching this CSS selector (422 when nothing matches)':
    'Capturer seulement le premier élément qui correspond à ce sélecteur CSS (422 si aucun ne correspond)',
  'Wait until an element matching this CSS selector exists (422 when none appears in time)':
    'Attendre qu’un élément correspondant à ce sélecteur CSS existe (422 si aucun n’apparaît à temps)',
  'false: a selector or waitForSelector that matches nothing does not fail the render; the page is captured as it is (the viewport instead of the element) with a SELECTOR_NOT_FOUND warning':
    'false : un selector ou un waitForSelector qui ne correspond à rien ne fait pas échouer le rendu ; la page est capturée telle quelle (la fenêtre au lieu de l’élément) avec un avertissement SELECTOR_NOT_FOUND',
  'Hide or reject cookie/consent popups using the DuckDuckGo autoconsent rule set (known consent platforms only)':
    'Masquer ou refuser les fenêtres de cookies/consentement avec les règles DuckDuckGo autoconsent (plateformes de consentement connues seulement)',
  'Hide scrollbars (the headless renderer draws none either way)':
    'Masquer les barres de défilement (le moteur sans interface n’en dessine de toute façon pas)',
  'Emulate prefers-color-scheme: dark': 'Émuler prefers-color-scheme: dark',
  'Transparent default background (PNG, WebP and AVIF; the page’s own backgrounds stay)':
    'Arrière-plan par défaut transparent (PNG, WebP et AVIF ; les arrière-plans propres à la page restent)',
  "Device scale factor; overrides the device's (desktop 1, mobile 3, tablet 2)":
    'Facteur d’échelle de l’appareil ; remplace celui de l’appareil (desktop 1, mobile 3, tablet 2)',
  'Extra request headers sent with every request of the page, as { name: value } (at most 20, names up to 128 and values up to 2048 characters). Host, Cookie, Proxy-*, Sec-* and hop-by-hop headers are refused; use cookies and userAgent for those.':
    'En-têtes de requête supplémentaires envoyés avec chaque requête de la page, sous la forme { nom: valeur } (20 au plus, noms jusqu’à 128 et valeurs jusqu’à 2048 caractères). Host, Cookie, Proxy-*, Sec-* et les en-têtes hop-by-hop sont refusés ; utilisez cookies et userAgent pour ceux-là.',
  "Cookies set for the page's own site before it loads (at most 20)":
    'Cookies posés pour le site de la page avant son chargement (20 au plus)',
  'Cookie name': 'Nom du cookie',
  'Cookie value': 'Valeur du cookie',
  "The URL's host or a parent domain of it; defaults to the URL's host":
    'L’hôte de l’URL ou un domaine parent ; par défaut l’hôte de l’URL',
  'Starts with /; defaults to /': 'Commence par / ; / par défaut',
  "User-Agent header and navigator.userAgent; overrides the device's":
    'En-tête User-Agent et navigator.userAgent ; remplace celui de l’appareil',
  'When the page counts as loaded: load (the load event), domcontentloaded (the HTML is parsed), networkidle (no request for 500 ms)':
    'Quand la page est considérée comme chargée : load (l’événement load), domcontentloaded (le HTML est analysé), networkidle (aucune requête pendant 500 ms)',
  'Same as transparent: a transparent default background (PNG, WebP and AVIF)':
    'Comme transparent : un arrière-plan par défaut transparent (PNG, WebP et AVIF)',
  'Capture only this rectangle of the page, in CSS pixels from its top-left corner; cut to the page':
    'Capturer seulement ce rectangle de la page, en pixels CSS depuis son coin supérieur gauche ; coupé aux limites de la page',
  'Left edge of the rectangle in CSS pixels': 'Bord gauche du rectangle en pixels CSS',
  'Top edge of the rectangle in CSS pixels': 'Bord supérieur du rectangle en pixels CSS',
  'Width of the rectangle in CSS pixels': 'Largeur du rectangle en pixels CSS',
  'Height of the rectangle in CSS pixels': 'Hauteur du rectangle en pixels CSS',
  'A style sheet added to the page after it loads, before the capture':
    'Une feuille de style ajoutée à la page après son chargement, avant la capture',
  'A script run in the page after it loads (and after css), before the capture; a returned promise is awaited. It runs like the page’s own scripts: same network limits and the same render time limit.':
    'Un script exécuté dans la page après son chargement (et après css), avant la capture ; une promesse renvoyée est attendue. Il s’exécute comme les scripts de la page : mêmes limites réseau et même temps de rendu imparti.',
  'Block requests to well-known ad servers': 'Bloquer les requêtes vers les serveurs publicitaires connus',
  'Block requests to well-known tracking and analytics hosts': 'Bloquer les requêtes vers les hôtes de pistage et d’analyse connus',
  'Languages and themes accepted by the code renderer': 'Langages et thèmes acceptés par le rendu de code',
  'shiki language ids (aliases such as ts or py are accepted too)':
    'identifiants de langage shiki (les alias comme ts ou py sont aussi acceptés)',
  'shiki theme ids': 'identifiants de thème shiki',
  'Extra theme names and the shiki theme they render with': 'Noms de thème supplémentaires et le thème shiki avec lequel ils sont rendus',
  'Your templates and the public ones': 'Vos modèles et les modèles publics',
  'Text search in template names': 'Recherche dans le nom des modèles',
  'Page number, from 1': 'Numéro de page, à partir de 1',
  'Templates per page, 1-50 (default 20)': 'Modèles par page, 1-50 (20 par défaut)',
  'Create a private template': 'Créer un modèle privé',
  'The SVG document (root element <svg>, at most 512 KB and 10,000 elements); elements are bound with data-variable="name". Scripts, event handlers, external references and foreign content are removed when it is saved':
    'Le document SVG (élément racine <svg>, 512 Ko et 10 000 éléments au plus) ; les éléments sont liés par data-variable="nom". Les scripts, gestionnaires d’événements, références externes et contenus étrangers sont retirés à l’enregistrement',
  'Bound in the SVG as data-variable="name"': 'Liée dans le SVG par data-variable="nom"',
  'text and number replace the text; image sets <image> href': 'text et number remplacent le texte ; image fixe le href de <image>',
  'Request body too large': 'Corps de requête trop volumineux',
  'Content-Type other than application/json': 'Content-Type autre que application/json',
  'Your own templates': 'Vos propres modèles',
  'Templates you starred': 'Les modèles que vous avez mis en favori',
  'Public templates (sortBy=date: newest first; sortBy=stars: most starred first)':
    'Modèles publics (sortBy=date : les plus récents d’abord ; sortBy=stars : les plus étoilés d’abord)',
  'date: newest first; stars: most starred first': 'date : les plus récents d’abord ; stars : les plus étoilés d’abord',
  'One template (your own or a public one)': 'Un modèle (le vôtre ou un modèle public)',
  'Replace a private template you own': 'Remplacer un modèle privé qui vous appartient',
  'Delete a template you own': 'Supprimer un modèle qui vous appartient',
  'Make a template you own public (irreversible)': 'Rendre public un modèle qui vous appartient (irréversible)',
  'Copy a template you can see into a new private template of yours':
    'Copier un modèle que vous pouvez voir dans un nouveau modèle privé à vous',
  'Star a template (idempotent)': 'Mettre un modèle en favori (idempotent)',
  'Remove your star (idempotent)': 'Retirer votre étoile (idempotent)',
  'Render a template with variables (one credit)': 'Rendre un modèle avec des variables (un crédit)',
  'your template': 'votre modèle',
  'A template rendered from a signed URL (for <img> tags); cached, charged to the owner once':
    'Un modèle rendu depuis une URL signée (pour les balises <img>) ; mis en cache, facturé une fois au propriétaire',
  'Query: the variables as name=value, optional format and quality, and sig = hex HMAC-SHA256 keyed with the owner\'s API key over "<template id>?<all other parameters sorted by name, percent-encoded, joined with &>".':
    'Requête : les variables en nom=valeur, format et quality facultatifs, et sig = HMAC-SHA256 hexadécimal avec la clé API du propriétaire sur "<id du modèle>?<tous les autres paramètres triés par nom, encodés en pourcentage, joints par &>".',
  'MCP server (streamable HTTP) with the render tools for AI assistants':
    'Serveur MCP (HTTP streamable) avec les outils de rendu pour les assistants d’IA',
  'One JSON-RPC 2.0 message of the Model Context Protocol (a request, a notification, or a response to the server)':
    'Un message JSON-RPC 2.0 du Model Context Protocol (une requête, une notification ou une réponse au serveur)',
  'Always "2.0"': 'Toujours "2.0"',
  'e.g. initialize, tools/list, tools/call': 'par exemple initialize, tools/list, tools/call',
  'For tools/call: { name, arguments }': 'Pour tools/call : { name, arguments }',
  'The JSON-RPC answer: `result` (for tools/call: `content` with images, and `isError` when the API refused the call) or `error`':
    'La réponse JSON-RPC : `result` (pour tools/call : `content` avec les images, et `isError` quand l’API a refusé l’appel) ou `error`',
  'A notification or response accepted (no content)': 'Une notification ou une réponse acceptée (sans contenu)',
  'Create an account and e-mail a verification code': 'Créer un compte et envoyer un code de vérification par e-mail',
  'At least 8 characters, with an uppercase letter, a lowercase letter and a number':
    'Au moins 8 caractères, dont une majuscule, une minuscule et un chiffre',
  'The body is not valid JSON or does not match the schema (the message names the field)':
    'Le corps n’est pas du JSON valide ou ne correspond pas au schéma (le message nomme le champ)',
  'An account with this e-mail already exists': 'Un compte avec cet e-mail existe déjà',
  'The body is too large': 'Le corps est trop volumineux',
  'The body is not JSON': 'Le corps n’est pas du JSON',
  'The account service is unavailable': 'Le service des comptes est indisponible',
  'The account service did not answer in time': 'Le service des comptes n’a pas répondu à temps',
  'Verify the e-mailed code and sign in': 'Vérifier le code reçu par e-mail et se connecter',
  'Invalid, expired or locked code, or an invalid body': 'Code invalide, expiré ou bloqué, ou corps invalide',
  'E-mail a new verification code': 'Envoyer un nouveau code de vérification par e-mail',
  'Too many mails to this address': 'Trop d’e-mails envoyés à cette adresse',
  'Sign in with e-mail and password': 'Se connecter avec e-mail et mot de passe',
  'Invalid e-mail or password': 'E-mail ou mot de passe invalide',
  'Right password, but the e-mail is not verified yet': 'Bon mot de passe, mais l’e-mail n’est pas encore vérifié',
  'Too many login attempts for this account or from this address': 'Trop de tentatives de connexion pour ce compte ou depuis cette adresse',
  'The signed-in user (session token or API key)': 'L’utilisateur connecté (jeton de session ou clé API)',
  'Missing, invalid or expired credentials': 'Identifiants absents, invalides ou expirés',
  'A fresh session token for a valid one': 'Un nouveau jeton de session en échange d’un jeton valide',
  'An API key was sent: this call needs a session token from login':
    'Une clé API a été envoyée : cet appel demande un jeton de session obtenu à la connexion',
  'E-mail a password reset link (the same answer whether or not the account exists)':
    'Envoyer par e-mail un lien de réinitialisation du mot de passe (la même réponse que le compte existe ou non)',
  'Set a new password with a reset link token (ends every earlier session)':
    'Choisir un nouveau mot de passe avec le jeton d’un lien de réinitialisation (met fin à toutes les sessions antérieures)',
  'Weak or mismatched password, an invalid or expired link, or an invalid body':
    'Mot de passe faible ou différent de sa confirmation, lien invalide ou expiré, ou corps invalide',
  'Replace the API key; the old one stops working at once': 'Remplacer la clé API ; l’ancienne cesse aussitôt de fonctionner',
  'The named API keys (not revoked), oldest first; the default key is not listed':
    'Les clés API nommées (non révoquées), de la plus ancienne à la plus récente ; la clé par défaut n’y figure pas',
  'Each with its scope (`render`: render calls only; `templates`: renders and template calls; `full`: everything an API key can call), its expiry and when it was last used (to the minute).':
    'Chacune avec sa portée (`render` : appels de rendu seulement ; `templates` : rendus et appels de modèles ; `full` : tout ce qu’une clé API peut appeler), son expiration et sa dernière utilisation (à la minute près).',
  'Create a named API key; its secret is in this answer only': 'Créer une clé API nommée ; son secret ne figure que dans cette réponse',
  "Up to 20 named keys beside the default key. Credits stay the account's; usage records which key made each render.":
    'Jusqu’à 20 clés nommées en plus de la clé par défaut. Les crédits restent ceux du compte ; l’utilisation note quelle clé a fait chaque rendu.',
  'When the key stops working (none: never)': 'Quand la clé cesse de fonctionner (absent : jamais)',
  'The key itself: shown only in this answer': 'La clé elle-même : montrée dans cette seule réponse',
  'A field is missing or invalid (the message names it), or expiresAt is not in the future':
    'Un champ manque ou est invalide (le message le nomme), ou expiresAt n’est pas dans le futur',
  'An account can have at most 20 named API keys: revoke one first':
    'Un compte peut avoir au plus 20 clés API nommées : révoquez-en une d’abord',
  'Revoke a named API key: refused at once on every gateway': 'Révoquer une clé API nommée : refusée aussitôt sur chaque passerelle',
  'The id is too long, or not a single path segment': 'L’identifiant est trop long, ou n’est pas un seul segment de chemin',
  'No such API key (it may already be revoked)': 'Clé API inconnue (elle est peut-être déjà révoquée)',
  'Only the renders made with this API key (its id)': 'Seulement les rendus faits avec cette clé API (son identifiant)',
  'keyId must be the id of one of your API keys': 'keyId doit être l’identifiant de l’une de vos clés API',
  'limit is not a whole number between 1 and 100, or keyId is not a key id':
    'limit n’est pas un nombre entier entre 1 et 100, ou keyId n’est pas un identifiant de clé',
  'The secret webhook deliveries are signed with (session token or API key; created on first read)':
    'Le secret avec lequel les livraisons de webhook sont signées (jeton de session ou clé API ; créé à la première lecture)',
  'Each delivery carries `X-Render-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` made with this secret; compare in constant time and refuse timestamps older than 5 minutes.':
    'Chaque livraison porte `X-Render-Signature: t=<secondes unix>,v1=<HMAC-SHA256 hexadécimal de "<t>.<corps brut>">` calculé avec ce secret ; comparez en temps constant et refusez les horodatages de plus de 5 minutes.',
  'Signs every delivery (HMAC-SHA256)': 'Signe chaque livraison (HMAC-SHA256)',
  'Replace the webhook secret; every delivery from now on (retries too) is signed with the new one':
    'Remplacer le secret de webhook ; chaque livraison à partir de maintenant (nouvelles tentatives comprises) est signée avec le nouveau',
  'Credits used in the current rolling window (session token or API key)':
    'Crédits utilisés sur la période glissante en cours (jeton de session ou clé API)',
  'Renders per UTC day in the current rolling window (session token or API key)':
    'Rendus par jour UTC sur la période glissante en cours (jeton de session ou clé API)',
  'The 31 calendar days the rolling 30-day window touches, oldest first, zero-filled: the first counted from `since` (the window start of GET /api/auth/usage), the last is today so far. A render counts while its credit is reserved or charged, as in `used`.':
    'Les 31 jours calendaires que touche la période glissante de 30 jours, du plus ancien au plus récent, complétés par des zéros : le premier compté depuis `since` (le début de la période de GET /api/auth/usage), le dernier est aujourd’hui jusqu’à présent. Un rendu compte tant que son crédit est réservé ou facturé, comme dans `used`.',
  'UTC day, YYYY-MM-DD': 'Jour UTC, AAAA-MM-JJ',
  'The latest renders, newest first (session token or API key)':
    'Les derniers rendus, les plus récents d’abord (jeton de session ou clé API)',
  'Each render billed to the account with what it was: kind, format, image size and render time (null until charged, and for released renders).':
    'Chaque rendu facturé au compte avec ce qu’il était : type, format, taille de l’image et temps de rendu (null tant qu’il n’est pas facturé, et pour les rendus libérés).',
  'Renders to list, 1-100 (default 20)': 'Nombre de rendus à lister, 1-100 (20 par défaut)',
  'Start a Stripe Checkout for the Pro plan': 'Démarrer un paiement Stripe Checkout pour l’offre Pro',
  'Already subscribed': 'Déjà abonné',
  'Open the Stripe billing portal': 'Ouvrir le portail de facturation Stripe',
  'No billing account yet': 'Pas encore de compte de facturation',
  'Cancel at the end of the billing period': 'Résilier à la fin de la période de facturation',
  'No active subscription': 'Aucun abonnement actif',
  'Already cancelling': 'Résiliation déjà en cours',
  'Undo a cancellation before the period ends': 'Annuler une résiliation avant la fin de la période',
  'The subscription is not cancelling, or its period has ended':
    'L’abonnement n’est pas en cours de résiliation, ou sa période est terminée',
  'Plan, subscription and payment methods': 'Offre, abonnement et moyens de paiement',
  'Platform overview (administrators)': 'Vue d’ensemble de la plateforme (administrateurs)',
  'Not an administrator, or an API key was sent instead of a session token':
    'Pas administrateur, ou une clé API a été envoyée au lieu d’un jeton de session',
  'Synchronous render calls': 'Appels de rendu synchrones',
  'SVG templates with variables': 'Modèles SVG avec variables',
  'Async renders (convert calls with `webhook`) and their webhook deliveries':
    'Rendus asynchrones (appels de conversion avec `webhook`) et leurs livraisons de webhook',
  'The render tools for AI assistants (Model Context Protocol, streamable HTTP)':
    'Les outils de rendu pour les assistants d’IA (Model Context Protocol, HTTP streamable)',
  'Accounts, sessions and API keys': 'Comptes, sessions et clés API',
  'Plans and subscriptions': 'Offres et abonnements',
  'Health and this document': 'État du service et ce document',
  "The language of the account's e-mails (verification code, password reset); the web app sends its own":
    'La langue des e-mails du compte (code de vérification, réinitialisation du mot de passe) ; l’application web envoie la sienne',
  "The language of the account's e-mails": 'La langue des e-mails du compte',
  "Change the profile: the language of the account's e-mails": 'Modifier le profil : la langue des e-mails du compte',
  'Billing is not configured (code BILLING_NOT_CONFIGURED: the deployment has no Stripe key), Stripe is unreachable, or the account service is unavailable':
    'La facturation n’est pas configurée (code BILLING_NOT_CONFIGURED : le déploiement n’a pas de clé Stripe), Stripe est injoignable, ou le service des comptes est indisponible',
  'No real money moves: Stripe test keys, or the local Stripe stand-in of a development stack':
    'Aucun argent réel ne circule : clés de test Stripe, ou la doublure locale de Stripe d’une pile de développement',
};
