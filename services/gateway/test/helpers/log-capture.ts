import { Writable } from 'node:stream';

export type LogLine = Record<string, unknown> & { service?: string; requestId?: string; msg?: string };

/** Collects the JSON log lines of the services a test starts (`logStream`), each tagged with its service. */
export class LogCapture {
  readonly lines: LogLine[] = [];

  readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          this.lines.push(JSON.parse(line) as LogLine);
        } catch {
          // Not a log line (nothing else writes here).
        }
      }
      done();
    },
  });

  /** The lines of one request, by the id every line of it carries. */
  of(requestId: string): LogLine[] {
    return this.lines.filter((line) => line.requestId === requestId);
  }
}
