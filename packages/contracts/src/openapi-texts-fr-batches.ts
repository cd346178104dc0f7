/** The French texts of the batches' OpenAPI entries (see openapi-texts-fr.ts). */
export const BatchTextsFr: Readonly<Record<string, string>> = {
  'Render up to 50 requests of any kind in one call (a batch), in the background':
    'Rendre jusqu’à 50 requêtes de tout type en un appel (un lot), en arrière-plan',
  'Each item is { kind, body }: kind is html, svg, chart, code or screenshot, body the fields of that convert call, with `defaults` merged under it; or kind template, body { templateId, variables, format, quality, optimize }, a template you may use rendered as POST /api/template/generate does (a key of scope templates or full). Every item is checked (its schema, then what its call checks beyond it) before anything is queued: an invalid item is a 400 (or the 422 its single call would answer) naming its index and field, and nothing is charged. The credits of every item are reserved up front (402 when the account has not enough: nothing is queued); a failed item’s are given back. The batch counts as one render in flight and renders 4 items at a time. `webhook` is called once, signed, when every item has ended.':
    'Chaque élément est { kind, body } : kind vaut html, svg, chart, code ou screenshot, body porte les champs de cet appel de conversion, avec `defaults` fusionné dessous ; ou kind vaut template, body { templateId, variables, format, quality, optimize } : un modèle que vous pouvez utiliser, rendu comme le fait POST /api/template/generate (une clé de portée templates ou full). Chaque élément est vérifié (son schéma, puis ce que son appel vérifie en plus) avant toute mise en file : un élément invalide donne un 400 (ou le 422 que son appel seul répondrait) qui nomme son indice et son champ, et rien n’est facturé. Les crédits de tous les éléments sont réservés d’avance (402 si le compte n’en a pas assez : rien n’est mis en file) ; ceux d’un élément en échec sont rendus. Le lot compte pour un rendu en cours et rend 4 éléments à la fois. `webhook` est appelé une fois, signé, quand tous les éléments sont terminés.',
  'Which convert call the body is for': 'L’appel de conversion auquel le corps est destiné',
  'The body of that convert call (defaults merged under it), or for a template { templateId, variables, format, quality }; output, outputType, cache and webhook do not apply':
    'Le corps de cet appel de conversion (defaults fusionné dessous), ou pour un modèle { templateId, variables, format, quality } ; output, outputType, cache et webhook ne s’appliquent pas',
  "1 to 50 render requests; each is checked by its kind's schema before anything is queued or charged":
    '1 à 50 requêtes de rendu ; chacune est vérifiée par le schéma de son type avant toute mise en file ou facturation',
  'Fields merged into every item’s body (an item’s own fields win), e.g. { "format": "webp", "width": 800 }':
    'Champs fusionnés dans le corps de chaque élément (les champs propres à l’élément l’emportent), par ex. { "format": "webp", "width": 800 }',
  'Accepted: the items render in the background; the webhook (if any) is called once all have ended':
    'Accepté : les éléments sont rendus en arrière-plan ; le webhook (s’il y en a un) est appelé une fois tous terminés',
  'The batch id': 'L’identifiant du lot',
  'How many items the batch holds': 'Le nombre d’éléments du lot',
  'Credits reserved for the batch (each failed item’s are given back)':
    'Crédits réservés pour le lot (ceux de chaque élément en échec sont rendus)',
  'Where to poll the status: /api/batches/{id}': 'Où consulter l’état : /api/batches/{id}',
  'The zip of the finished images, once the batch is done: /api/batches/{id}/archive':
    'Le zip des images terminées, une fois le lot terminé : /api/batches/{id}/archive',
  'The status of a batch and of each of its items': 'L’état d’un lot et de chacun de ses éléments',
  'queued → running → done (every item has ended: done with an image, or failed with the error a single call would have answered); after DELETE, cancelling → cancelled. Kept for ASYNC_RESULT_TTL_SECONDS (24 h by default) after submission; owner only.':
    'queued → running → done (chaque élément est terminé : done avec une image, ou failed avec l’erreur qu’un appel seul aurait répondue) ; après DELETE, cancelling → cancelled. Conservé ASYNC_RESULT_TTL_SECONDS (24 h par défaut) après l’envoi ; propriétaire seulement.',
  'queued (accepted), running (items rendering), cancelling (cancel asked; items already rendering finish), done (every item has ended) or cancelled (ended after a cancel)':
    'queued (accepté), running (éléments en cours de rendu), cancelling (annulation demandée ; les éléments déjà en rendu se terminent), done (chaque élément est terminé) ou cancelled (terminé après une annulation)',
  'Items cancelled before they started (not charged)': 'Éléments annulés avant leur début (non facturés)',
  'When the cancel was asked': 'Quand l’annulation a été demandée',
  'Items with an image': 'Éléments avec une image',
  'Items that failed (not charged)': 'Éléments en échec (non facturés)',
  'When the batch and its images are forgotten': 'Quand le lot et ses images sont oubliés',
  'GET it (with the same credentials) for the zip, once done or cancelled':
    'Un GET (avec les mêmes identifiants) donne le zip, une fois le lot terminé ou annulé',
  'The item’s place in `items` (from 0)': 'La place de l’élément dans `items` (à partir de 0)',
  'The output format asked for': 'Le format de sortie demandé',
  'queued, running, done (in the archive), failed (see error; its credits were given back) or cancelled (never started; its credits were given back)':
    'queued, running, done (dans l’archive), failed (voir error ; ses crédits ont été rendus) ou cancelled (jamais commencé ; ses crédits ont été rendus)',
  'The media type of the image made': 'Le type de média de l’image produite',
  'The item’s file name in the archive': 'Le nom de fichier de l’élément dans l’archive',
  'A zip of the images of a finished batch': 'Un zip des images d’un lot terminé',
  'One file per item that made an image, named by its index (two digits) and its format’s extension (00.png, 01.svg, …). 409 while the batch has not ended (done or cancelled), or when no item made an image.':
    'Un fichier par élément ayant produit une image, nommé par son indice (deux chiffres) et l’extension de son format (00.png, 01.svg, …). 409 tant que le lot n’est pas fini (done ou cancelled), ou si aucun élément n’a produit d’image.',
  'Cancel a batch: items not yet started are dropped and their credits given back':
    'Annuler un lot : les éléments pas encore commencés sont abandonnés et leurs crédits rendus',
  'Items not yet started are taken off their queues and marked cancelled, their credits released before the answer; items already rendering finish and are charged. The batch is cancelling until they have, then cancelled: its webhook is called once with that status, and the archive serves what finished. Answers the batch’s status. 409 once the batch has ended (done or cancelled); owner only (any other account: 404).':
    'Les éléments pas encore commencés sont retirés de leurs files et marqués cancelled, leurs crédits rendus avant la réponse ; les éléments déjà en rendu se terminent et sont facturés. Le lot est cancelling jusque-là, puis cancelled : son webhook est appelé une fois avec cet état, et l’archive sert ce qui est terminé. Répond l’état du lot. 409 une fois le lot fini (done ou cancelled) ; propriétaire seulement (tout autre compte : 404).',
  'The zip archive': 'L’archive zip',
  'Up to 50 renders of any kind in one call: status per item, a zip of the images, one webhook':
    'Jusqu’à 50 rendus de tout type en un appel : un état par élément, un zip des images, un webhook',
};
