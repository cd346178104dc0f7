/** The French texts of the QuickChart-compatible calls (issue 29), merged into OpenApiTextsFr. */
export const QuickChartTextsFr: Readonly<Record<string, string>> = {
  'API key (instead of the X-API-Key header)': 'Clé API (au lieu de l’en-tête X-API-Key)',
  'Canvas background (CSS colour; default transparent)': 'Fond du canevas (couleur CSS ; transparent par défaut)',
  'Chart.js version: 2 (default, Chart.js 2.9.4), 3 or 4 (Chart.js 4)':
    'Version de Chart.js : 2 (par défaut, Chart.js 2.9.4), 3 ou 4 (Chart.js 4)',
  'Image height in CSS pixels (default 300)': 'Hauteur de l’image en pixels CSS (300 par défaut)',
  'Image width in CSS pixels (default 500)': 'Largeur de l’image en pixels CSS (500 par défaut)',
  'Pixel density (default 2, as QuickChart: the image is twice width × height)':
    'Densité de pixels (2 par défaut, comme QuickChart : l’image fait deux fois largeur × hauteur)',
  'QuickChart-compatible chart image (GET)': 'Image de graphique compatible QuickChart (GET)',
  'QuickChart-compatible chart image (POST)': 'Image de graphique compatible QuickChart (POST)',
  'QuickChart-compatible: the same parameters as QuickChart (`chart`/`c`, `width`/`w`, `height`/`h`, `devicePixelRatio`, `backgroundColor`/`bkg`, `format`/`f`, `version`/`v`, `encoding`), so `<img src>` tags and clients written for QuickChart work with only the base URL changed. The config may be JavaScript (function callbacks), evaluated only inside the isolated render page. Chart.js 2.9.4 by default (`version=2`), Chart.js 4 for `version=3` or `4`, with datalabels, annotation, outlabels (v2) and doughnut centre labels (v2); QuickChart types `sparkline`, `progressBar`, `donut`. Billed as chart-to-img: anonymous per-IP limits, or an API key (`X-API-Key`, Bearer, or `key=` in the query). Errors answer 4xx JSON with the reason, also in the `X-quickchart-error` header.':
    'Compatible QuickChart : les mêmes paramètres que QuickChart (`chart`/`c`, `width`/`w`, `height`/`h`, `devicePixelRatio`, `backgroundColor`/`bkg`, `format`/`f`, `version`/`v`, `encoding`), si bien que les balises `<img src>` et les clients écrits pour QuickChart fonctionnent en changeant seulement l’URL de base. La configuration peut être du JavaScript (fonctions de rappel), évalué uniquement dans la page de rendu isolée. Chart.js 2.9.4 par défaut (`version=2`), Chart.js 4 pour `version=3` ou `4`, avec datalabels, annotation, outlabels (v2) et le libellé central des anneaux (v2) ; types QuickChart `sparkline`, `progressBar`, `donut`. Facturé comme chart-to-img : limites anonymes par adresse IP, ou une clé API (`X-API-Key`, Bearer, ou `key=` dans la requête). Les erreurs répondent 4xx en JSON avec la raison, reprise dans l’en-tête `X-quickchart-error`.',
  'Short for backgroundColor': 'Forme courte de backgroundColor',
  'Short for chart': 'Forme courte de chart',
  'Short for format': 'Forme courte de format',
  'Short for height': 'Forme courte de height',
  'Short for version': 'Forme courte de version',
  'Short for width': 'Forme courte de width',
  'The Chart.js config: JSON or a JavaScript object literal (functions allowed)':
    'La configuration Chart.js : du JSON ou un littéral d’objet JavaScript (fonctions permises)',
  'The Chart.js config: an object, or JSON / JavaScript object-literal text (functions allowed)':
    'La configuration Chart.js : un objet, ou son texte JSON / littéral d’objet JavaScript (fonctions permises)',
  'png (default), webp, jpg, svg (the PNG in an SVG document), pdf, or base64 (a PNG data URL as text)':
    'png (par défaut), webp, jpg, svg (le PNG dans un document SVG), pdf, ou base64 (une URL data PNG en texte)',
  'url (default) or base64: how `chart` is encoded': 'url (par défaut) ou base64 : l’encodage de `chart`',
  'QuickChart-compatible short URL: store a chart, get its URL':
    'URL courte compatible QuickChart : enregistrer un graphique, obtenir son URL',
  'QuickChart-compatible short URL: the stored chart’s image': 'URL courte compatible QuickChart : l’image du graphique enregistré',
  'GET it to render the chart; query parameters override the stored ones':
    'Un GET dessus rend le graphique ; les paramètres de la requête remplacent ceux enregistrés',
  'The id in the url that POST /chart/create answered': 'L’identifiant de l’URL qu’a répondue POST /chart/create',
  'QuickChart’s short URLs: the same parameters as `POST /chart` (long and short names), checked as it checks them, kept under a random id; the answer is QuickChart’s `{ "success": true, "url": … }`, the url being `/chart/render/{id}` on this server. Creating costs no credit (anonymous calls take one unit of the per-IP limit); each GET of the url renders and is billed as `GET /chart`. A short URL answers for 30 days by default (the operator’s CHART_SHORT_URL_TTL_DAYS), whoever created it; an API key’s owner is recorded.':
    'Les URL courtes de QuickChart : les mêmes paramètres que `POST /chart` (noms longs et courts), vérifiés comme il les vérifie, enregistrés sous un identifiant aléatoire ; la réponse est celle de QuickChart, `{ "success": true, "url": … }`, l’URL étant `/chart/render/{id}` sur ce serveur. La création ne coûte aucun crédit (un appel anonyme prend une unité de la limite par adresse IP) ; chaque GET de l’URL rend le graphique et est facturé comme `GET /chart`. Une URL courte répond 30 jours par défaut (CHART_SHORT_URL_TTL_DAYS de l’opérateur), quel que soit son créateur ; le propriétaire d’une clé API est enregistré.',
  'The chart a short URL (`POST /chart/create`) keeps, rendered as `GET /chart` renders (same queue, limits, billing and errors: anonymous per-IP limits, or an API key as `X-API-Key`, Bearer or `key=`). The query may override `width`/`w`, `height`/`h`, `devicePixelRatio`, `backgroundColor`/`bkg`, `format`/`f` and `version`/`v`. An unknown or expired id answers 404.':
    'Le graphique qu’une URL courte (`POST /chart/create`) enregistre, rendu comme le rend `GET /chart` (même file, mêmes limites, même facturation et mêmes erreurs : limites anonymes par adresse IP, ou une clé API en `X-API-Key`, Bearer ou `key=`). La requête peut remplacer `width`/`w`, `height`/`h`, `devicePixelRatio`, `backgroundColor`/`bkg`, `format`/`f` et `version`/`v`. Un identifiant inconnu ou expiré répond 404.',
};
