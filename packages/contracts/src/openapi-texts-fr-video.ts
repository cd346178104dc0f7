/** The French texts of screenshot videos (issue 30, "Motion"), merged into OpenApiTextsFr. */
export const VideoTextsFr: Readonly<Record<string, string>> = {
  // The named example of a video screenshot (the document's examples and the Postman collections).
  Video: 'Vidéo',
  'Video formats only: scroll (the default) scrolls smoothly from the top of the page to its bottom over the duration; idle records the page as it is (its animations) for the duration':
    'Formats vidéo uniquement : scroll (par défaut) fait défiler la page en douceur de son haut à son bas pendant la durée ; idle enregistre la page telle quelle (ses animations) pendant la durée',
  'Video formats only: length of the video in seconds (default 5, at most 30). Billed one credit per started 5 s':
    'Formats vidéo uniquement : durée de la vidéo en secondes (5 par défaut, 30 au plus). Facturée un crédit par tranche de 5 s commencée',
  'Video formats only: frames per second (default 15, at most 30)':
    'Formats vidéo uniquement : images par seconde (15 par défaut, 30 au plus)',
};
