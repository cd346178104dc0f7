import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, CompatRoutes, type HighchartsExportBody, MimeTypes } from '@render/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type ExportAnswer, type HighchartsExportJob, toHighchartsExportJob } from '../convert/highcharts-export-request.ts';
import { secureSvgReply, timingHeaders } from '../images/image-reply.ts';
import { imageRoute } from '../images/image-route.ts';
import type { RenderOutcome } from '../plugins/render-queue.plugin.ts';

export interface HighchartsExportRoutesOptions {
  /** HIGHCHARTS_CUSTOM_CODE: whether `callback`, `customCode` and `resources` are accepted. */
  allowCustomCode: boolean;
}

/** Form and multipart bodies carry text (and files, read as text): the request module parses the JSON fields. */
async function formFields(body: Buffer, contentType: string): Promise<Record<string, string>> {
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) fields[name] = typeof value === 'string' ? value : await value.text();
  return fields;
}

const fileAnswer = {
  description: 'The file (attachment unless noDownload), or its base64 text with b64',
  content: {
    ...Object.fromEntries(['png', 'jpeg', 'pdf', 'svg'].map((f) => [MimeTypes[f as 'png'], { schema: Type.String({ format: 'binary' }) }])),
    'text/plain': { schema: Type.String({ description: 'base64 of the file (b64)' }) },
  },
};

/** Sends the file as the export server does: base64 text, or the bytes with their type and an attachment name. */
function sendExport(reply: FastifyReply, outcome: RenderOutcome, answer: ExportAnswer) {
  const { image, meta } = outcome;
  timingHeaders(reply, meta);
  reply.header('X-Render-Warnings', String(meta.warnings?.length ?? 0));
  if (answer.b64) return reply.type('text/plain; charset=utf-8').send(image.toString('base64'));
  if (!answer.noDownload) reply.header('Content-Disposition', `attachment; filename="${answer.filename}.${answer.type}"`);
  return secureSvgReply(reply, answer.type).type(MimeTypes[answer.type]).send(image);
}

/**
 * POST /highcharts and /highcharts/{filename}: the Highcharts export server's API over the chart pipeline
 * (caller, anonymous limits or credits, queue) of chart-to-img.
 */
const highchartsExportRoutes: FastifyPluginAsyncTypebox<HighchartsExportRoutesOptions> = async (app, opts) => {
  // Scoped to these routes (this plugin is encapsulated): the other calls stay JSON only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    formFields(body as Buffer, String(request.headers['content-type'])).then(
      (fields) => done(null, fields),
      () => done(new AppError('VALIDATION_ERROR', 'The multipart/form-data body could not be read'), undefined),
    );
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { filename?: string } | undefined;
    const job: HighchartsExportJob = toHighchartsExportJob(request.body as HighchartsExportBody, params?.filename, opts.allowCustomCode);
    const outcome = await app.credits.renderBilled(request, job.kind, job.payload);
    return sendExport(reply, outcome, job.answer);
  };

  const spec = (route: typeof CompatRoutes.highchartsExport | typeof CompatRoutes.highchartsExportFile) => {
    const options = imageRoute(app, route, 'chart');
    return { ...options, schema: { ...options.schema, response: { ...options.schema.response, 200: fileAnswer } } };
  };
  app.route({ method: 'POST', url: CompatRoutes.highchartsExport.url, ...spec(CompatRoutes.highchartsExport), handler });
  app.route({ method: 'POST', url: CompatRoutes.highchartsExportFile.url, ...spec(CompatRoutes.highchartsExportFile), handler });
};

export default highchartsExportRoutes;
