import type { SvgOutputFormat, SvgRenderPayload, TemplateRenderInput } from '@render/contracts';

/**
 * A filled template is an ordinary SVG job; its image URLs go along for the worker to fetch. Takes the
 * promise of the filling, so the credit can be reserved while the templates service fills the template.
 */
export const templatePayload = async (
  input: Promise<TemplateRenderInput>,
  format: SvgOutputFormat,
  quality: number,
  optimize = false,
): Promise<SvgRenderPayload> => {
  const filled = await input;
  return {
    svg: filled.svg,
    format,
    width: filled.width,
    height: filled.height,
    quality,
    transparent: false,
    ...(optimize ? { optimize: true } : {}),
    ...(filled.images.length > 0 ? { images: filled.images } : {}),
  };
};
