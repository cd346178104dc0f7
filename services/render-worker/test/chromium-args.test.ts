import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// The flags the worker's Chromium runs with, read off the running browser's command line: puppeteer merges
// its own --disable-features with ours into one (Chromium reads only one), so what counts is what it started.

let pool: TestPool;

beforeAll(async () => {
  pool = await startTestPool('screenshot', 'http://127.0.0.1:9', 'chromium-args-test');
});

afterAll(async () => {
  await pool?.close();
});

const commandLine = async () => {
  const pid = (await pool.manager.get()).process()?.pid;
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
};

describe('the browser’s flags', () => {
  it('run without RenderDocument (a new frame host per navigation: ~45 ms of CPU per screenshot), in the one --disable-features', async () => {
    const disabled = (await commandLine()).filter((arg) => arg.startsWith('--disable-features='));
    expect(disabled).toHaveLength(1);
    expect(disabled[0]!.slice('--disable-features='.length).split(',')).toEqual(expect.arrayContaining(['RenderDocument', 'Translate']));
  });
});
