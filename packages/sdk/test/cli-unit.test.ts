import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configPath, loadSettings } from '../src/cli/config.ts';
import { helpText, main } from '../src/cli/main.ts';

const COMMANDS = ['html', 'svg', 'chart', 'code', 'screenshot', 'template', 'batch', 'cancel-batch', 'usage', 'mcp'];

/** Runs the CLI in-process with captured output; nothing here reaches a server. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const code = await main(argv, { stdout, stderr: stderr as unknown as NodeJS.WriteStream });
  return { code, stdout: out, stderr: err };
}

describe('renderapi --help', () => {
  it('lists every command and says how to get one command’s help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(stdout).toContain('renderapi <command> --help');
  });

  it.each(COMMANDS)('renderapi %s --help gives that command’s own usage, with the credential advice', async (command) => {
    const { code, stdout, stderr } = await run([command, '--help']);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Usage: renderapi ${command}\\b`));
    // Not the overview: no other command's usage line.
    for (const other of COMMANDS.filter((c) => c !== command)) expect(stdout).not.toContain(`Usage: renderapi ${other}`);
    expect(stdout).toMatch(/visible to anyone who\s+can list the machine's processes \(ps\)/);
    expect(stdout).toContain('~/.config/renderapi/config.json');
    // `renderapi help <command>` is the same text.
    expect((await run(['help', command])).stdout).toBe(stdout);
  });

  it('each command’s help names the options that command takes', () => {
    expect(helpText('html')).toMatch(/--width .*--height/);
    expect(helpText('screenshot')).toContain('--full-page');
    expect(helpText('screenshot')).toContain('--device');
    expect(helpText('template')).toContain('--var name=value');
    expect(helpText('batch')).toContain('--concurrency');
    expect(helpText('chart')).toContain('--library');
    expect(helpText('code')).toContain('--theme');
    expect(helpText('mcp')).toContain('"command": "renderapi", "args": ["mcp"]');
  });

  it('refuses help for an unknown command with exit code 2, and a bare call prints the overview to stderr', async () => {
    const unknown = await run(['frobnicate', '--help']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^renderapi: unknown command "frobnicate"/);
    const bare = await run([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: renderapi <command>');
  });
});

describe('CLI settings', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'renderapi-home-'));
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  it('reads ~/.config/renderapi/config.json by default, else $XDG_CONFIG_HOME/renderapi, else $RENDER_CONFIG', async () => {
    expect(configPath({ HOME: home })).toMatch(/\.config\/renderapi\/config\.json$/);
    expect(configPath({ XDG_CONFIG_HOME: join(home, 'xdg') })).toBe(join(home, 'xdg', 'renderapi', 'config.json'));
    expect(configPath({ RENDER_CONFIG: join(home, 'c.json') })).toBe(join(home, 'c.json'));
    await mkdir(join(home, 'xdg', 'renderapi'), { recursive: true });
    await writeFile(join(home, 'xdg', 'renderapi', 'config.json'), JSON.stringify({ apiKey: 'rk_file', baseUrl: 'https://file.test' }));
    const env = { XDG_CONFIG_HOME: join(home, 'xdg') };
    expect(await loadSettings({}, env)).toMatchObject({ apiKey: 'rk_file', baseUrl: 'https://file.test' });
    // The environment beats the file, and a flag beats both.
    expect(await loadSettings({}, { ...env, RENDER_API_KEY: 'rk_env' })).toMatchObject({ apiKey: 'rk_env' });
    expect(await loadSettings({ apiKey: 'rk_flag' }, { ...env, RENDER_API_KEY: 'rk_env' })).toMatchObject({ apiKey: 'rk_flag' });
  });
});
