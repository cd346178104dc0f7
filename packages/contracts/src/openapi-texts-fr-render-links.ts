import { RenderLinkDescription } from './render-link.ts';

/** The French texts of the render links' OpenAPI entries (see openapi-texts-fr.ts). */
export const RenderLinkTextsFr: Readonly<Record<string, string>> = {
  'Render link: any render kind from a URL (for <img> tags); cached for ttl, charged to the key’s owner once per miss':
    'Lien de rendu : tout type de rendu depuis une URL (pour les balises <img>) ; mis en cache pendant ttl, facturé au propriétaire de la clé une fois par rendu hors cache',
  [RenderLinkDescription]:
    'La requête porte le corps de l’appel POST du type (screenshot, chart, code, html ou svg) : un champ texte tel quel, tout autre champ ' +
    '(nombre, booléen, objet comme une configuration de graphique, tableau) en texte JSON ; le corps décodé est vérifié avec le même schéma et ' +
    'les mêmes messages. `output`, `outputType`, `cache` et `webhook` ne s’appliquent pas. `key` est le SHA-256 hexadécimal en minuscules de ' +
    'la clé API du compte (il désigne la clé sans la révéler). `sig` est le HMAC-SHA256 hexadécimal, fait avec la clé API, de ' +
    '"/api/render/<kind>?<tous les autres paramètres (key et ttl compris) triés par nom, puis par valeur, chacun encodé comme le fait ' +
    'encodeURIComponent, joints par &>". Un lien sans sig est accepté sauf si le compte exige des liens signés (PUT /api/auth/render-links). ' +
    '`ttl` (secondes, 86400 par défaut et au plus) est la durée de cache de l’image : un lien identique dans ce délai reçoit l’image du cache ' +
    '(X-Cache: HIT) sans frais, et le max-age de Cache-Control de la réponse est le même. HEAD vérifie le lien et répond ses en-têtes sans ' +
    'rendu ni facturation.',
  'The lowercase hex SHA-256 of the account’s API key': 'Le SHA-256 hexadécimal en minuscules de la clé API du compte',
  'Seconds the image is cached (and Cache-Control max-age): 1–86400, default 86400':
    'Secondes pendant lesquelles l’image est en cache (et max-age de Cache-Control) : 1–86400, 86400 par défaut',
  'Hex HMAC-SHA256, keyed with the API key, of "/api/render/<kind>?<every other parameter sorted by name, percent-encoded, joined with &>"':
    'HMAC-SHA256 hexadécimal, fait avec la clé API, de "/api/render/<kind>?<tous les autres paramètres triés par nom, encodés en pourcentage, joints par &>"',
  'The render kind: the POST call whose body the query carries': 'Le type de rendu : l’appel POST dont la requête porte le corps',
  'Render links without sig are refused (PUT /api/auth/render-links)':
    'Les liens de rendu sans sig sont refusés (PUT /api/auth/render-links)',
  'Whether every render link (GET /api/render/{kind}) must be signed': 'Si chaque lien de rendu (GET /api/render/{kind}) doit être signé',
  'With signedOnly true, a render link carrying only key (no sig) is refused with 403.':
    'Avec signedOnly à true, un lien de rendu qui ne porte que key (sans sig) est refusé avec 403.',
  'true: every render link must carry sig; a link with key only is refused':
    'true : chaque lien de rendu doit porter sig ; un lien avec key seule est refusé',
};
