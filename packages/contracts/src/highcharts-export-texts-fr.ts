/** The French texts of POST /highcharts in the OpenAPI document (merged into OpenApiTextsFr). */
export const HighchartsExportTextsFr: Readonly<Record<string, string>> = {
  'Highcharts export server: render chart options or an SVG': 'Serveur d’export Highcharts : rendre des options de graphique ou un SVG',
  'Highcharts export server: render, with the download’s file name':
    'Serveur d’export Highcharts : rendre, avec le nom du fichier téléchargé',
  'The Highcharts export server’s `POST /` (node-export-server): point a client of it at `/highcharts` and change nothing else. The body comes as JSON, form-urlencoded or multipart: the chart’s options in `infile` (or `options`, `data`), or an SVG in `svg`; `type` png, jpeg, pdf or svg (or their media types); `constr` chart, stockChart, mapChart (with the map as inline GeoJSON or TopoJSON in `chart.map` or a series’ `mapData`) or ganttChart; `width`, `height`, `scale`, `globalOptions`, `themeOptions`. The answer is the file, as an attachment named `{filename}.{type}` (the path’s filename, else `chart`) unless `noDownload`, or its base64 text with `b64`. `callback`, `customCode` and `resources` are refused with 400 unless the operator enables custom code. Limits and credits are those of chart-to-img.':
    'Le `POST /` du serveur d’export Highcharts (node-export-server) : pointez un de ses clients sur `/highcharts` sans rien changer d’autre. Le corps arrive en JSON, en form-urlencoded ou en multipart : les options du graphique dans `infile` (ou `options`, `data`), ou un SVG dans `svg` ; `type` png, jpeg, pdf ou svg (ou leurs types de média) ; `constr` chart, stockChart, mapChart (avec la carte en GeoJSON ou TopoJSON dans `chart.map` ou le `mapData` d’une série) ou ganttChart ; `width`, `height`, `scale`, `globalOptions`, `themeOptions`. La réponse est le fichier, en pièce jointe nommée `{filename}.{type}` (le nom du chemin, sinon `chart`) sauf avec `noDownload`, ou son texte base64 avec `b64`. `callback`, `customCode` et `resources` sont refusés (400) sauf si l’opérateur active le code personnalisé. Limites et crédits : ceux de chart-to-img.',
  'The chart options (Highcharts JSON), as an object or JSON text. `options` and `data` are other names for it':
    'Les options du graphique (JSON Highcharts), en objet ou en texte JSON. `options` et `data` en sont d’autres noms',
  'Same as `infile`': 'Comme `infile`',
  'An SVG to convert instead of chart options': 'Un SVG à convertir au lieu d’options de graphique',
  'png (default), jpeg, pdf or svg, or their media types (image/png, image/jpeg, application/pdf, image/svg+xml)':
    'png (par défaut), jpeg, pdf ou svg, ou leurs types de média (image/png, image/jpeg, application/pdf, image/svg+xml)',
  'chart (default), stockChart, mapChart or ganttChart': 'chart (par défaut), stockChart, mapChart ou ganttChart',
  'Chart width in pixels (default: the options’ chart.width, else 600)':
    'Largeur du graphique en pixels (par défaut : chart.width des options, sinon 600)',
  'Chart height in pixels (default: the options’ chart.height, else 400)':
    'Hauteur du graphique en pixels (par défaut : chart.height des options, sinon 400)',
  'Pixel ratio of PNG and JPEG output, 0.1–3 (default 1)': 'Densité de pixels des sorties PNG et JPEG, de 0,1 à 3 (par défaut 1)',
  'Options applied as Highcharts.setOptions would (lang, time…), under the chart’s own':
    'Options appliquées comme le ferait Highcharts.setOptions (lang, time…), sous celles du graphique',
  'A theme merged under the chart’s options': 'Un thème fusionné sous les options du graphique',
  'true: answer the file as base64 text': 'true : répondre le fichier en texte base64',
  'true: no Content-Disposition attachment header': 'true : pas d’en-tête Content-Disposition de pièce jointe',
  'The download’s name without extension (default `chart`); the path’s {filename} wins':
    'Le nom du fichier téléchargé sans extension (par défaut `chart`) ; le {filename} du chemin l’emporte',
  'Refused (400) by default, as by the export server; with HIGHCHARTS_CUSTOM_CODE=enable accepted but not run (the chart renders without it)':
    'Refusé (400) par défaut, comme par le serveur d’export ; avec HIGHCHARTS_CUSTOM_CODE=enable accepté mais jamais exécuté (le graphique est rendu sans)',
  'Accepted and ignored, as by the export server': 'Accepté et ignoré, comme par le serveur d’export',
  'Accepted and ignored (legacy export server field)': 'Accepté et ignoré (champ de l’ancien serveur d’export)',
  'The download’s name without extension (`Content-Disposition`)': 'Le nom du fichier téléchargé sans extension (`Content-Disposition`)',
  'The file (attachment unless noDownload), or its base64 text with b64':
    'Le fichier (en pièce jointe sauf avec noDownload), ou son texte base64 avec b64',
  'base64 of the file (b64)': 'Le fichier en base64 (b64)',
};
