// render-api-sdk: the render API from TypeScript and JavaScript (README.md). fetch and Web Crypto only, so this
// entry runs in Node 22+, Deno, Bun and browsers; the `renderapi` CLI (src/cli) and the `./mcp` entry (stdio)
// are the only parts for Node alone.
export { RenderClient, type RenderClientOptions } from './client.ts';
export { parseRetryAfter, RenderApiError, type RenderApiFieldError } from './errors.ts';
export {
  type RenderLinkKind,
  type RenderLinkOptions,
  renderLinkKey,
  renderLinkSigningString,
  type SignedTemplateUrlInput,
  type SignRenderUrlInput,
  type SignTemplateUrlInput,
  signRenderUrl,
  signTemplateUrl,
  templateImageSigningString,
} from './signed-url.ts';
export { createsSomething, type FetchLike } from './transport.ts';
// The render options and answers, paths (the generated OpenAPI types) among them.
export type * from './types.ts';
export {
  parseSignatureHeader,
  signWebhookPayload,
  type VerifyWebhookInput,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from './webhook.ts';
