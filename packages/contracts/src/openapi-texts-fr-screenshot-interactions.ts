/** French texts of the screenshot interaction options' descriptions (screenshot-interactions.ts), spread into OpenApiTextsFr. */
export const ScreenshotInteractionTextsFr: Readonly<Record<string, string>> = {
  'A CSS selector of elements to hide': 'Un sélecteur CSS des éléments à masquer',
  'Elements to hide before the capture (display: none), by CSS selector (at most 50); also those that appear later. A selector that matches nothing is not an error':
    'Éléments à masquer avant la capture (display: none), par sélecteur CSS (50 au plus) ; ceux qui apparaissent plus tard aussi. Un sélecteur qui ne trouve rien n’est pas une erreur',
  'A CSS selector of the element to click': 'Un sélecteur CSS de l’élément sur lequel cliquer',
  'Elements to click after the page has loaded, in order, by CSS selector (at most 10; the first match of each). A selector that matches nothing, or an element that cannot be clicked, fails the render (422) naming it. The page is scrolled back where it was; use delay for what a click loads':
    'Éléments sur lesquels cliquer une fois la page chargée, dans l’ordre, par sélecteur CSS (10 au plus ; le premier élément trouvé pour chacun). Un sélecteur qui ne trouve rien, ou un élément sur lequel on ne peut pas cliquer, fait échouer le rendu (422) en le nommant. La page revient ensuite à sa position de défilement ; utilisez delay pour ce qu’un clic charge',
  'A vertical offset in CSS pixels': 'Un décalage vertical en pixels CSS',
  'A CSS selector: its first match is scrolled to the top': 'Un sélecteur CSS : le premier élément trouvé est amené en haut de l’écran',
  'Scroll before the capture (after the clicks): to a y offset in CSS pixels, or to the first element matching a CSS selector (422 when none does). Moves what a viewport capture shows; a full page is captured from its top':
    'Faire défiler la page avant la capture (après les clics) : jusqu’à un décalage vertical en pixels CSS, ou jusqu’au premier élément correspondant à un sélecteur CSS (422 si aucun ne correspond). Change ce que montre une capture de la fenêtre ; une page entière est capturée depuis son haut',
  'The time zone the page sees (Date, Intl), as an IANA name such as Europe/Paris or America/New_York':
    'Le fuseau horaire que voit la page (Date, Intl), sous forme de nom IANA comme Europe/Paris ou America/New_York',
  'Latitude in degrees': 'Latitude en degrés',
  'Longitude in degrees': 'Longitude en degrés',
  'Accuracy in metres (default 100)': 'Précision en mètres (100 par défaut)',
  'The position navigator.geolocation reports; the permission is granted to the page’s own origin only':
    'La position que renvoie navigator.geolocation ; l’autorisation n’est accordée qu’à l’origine de la page elle-même',
  'An HTTP status code': 'Un code de statut HTTP',
  'HTTP statuses of the page’s own answer (after redirects) that fail the render (422 naming the status, no credit used) instead of capturing an error page, e.g. [404, 500]':
    'Statuts HTTP de la réponse de la page elle-même (après redirections) qui font échouer le rendu (422 nommant le statut, aucun crédit utilisé) au lieu de capturer une page d’erreur, par exemple [404, 500]',
  'true: a console.error or an uncaught error in the page fails the render (422 quoting the first one, no credit used) instead of capturing. Default false':
    'true : un console.error ou une erreur non interceptée dans la page fait échouer le rendu (422 citant la première, aucun crédit utilisé) au lieu de capturer. false par défaut',
  'A URL pattern': 'Un motif d’URL',
  'Requests of the page to refuse in the browser, as URL patterns matched against the whole URL, * for any characters (at most 50), e.g. *.mp4, https://cdn.example.com/* or *://*/analytics.js*. The requests left go through the egress policy as usual':
    'Requêtes de la page à refuser dans le navigateur, sous forme de motifs comparés à l’URL entière, * pour n’importe quels caractères (50 au plus), par exemple *.mp4, https://cdn.example.com/* ou *://*/analytics.js*. Les autres requêtes passent par la politique de sortie réseau comme d’habitude',
};
