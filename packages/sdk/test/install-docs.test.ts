import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@render/test-stack/repo-root';
import { describe, expect, it } from 'vitest';
import { helpText } from '../src/cli/main.ts';
import { mcpConfigs } from './helpers/docs.ts';

// What the README, the SDK's README and the docs tell a newcomer to type: the package's real name, how to
// install it before it is on npm, and one MCP configuration everywhere (test/published-package.test.ts
// starts the SDK README's one from a directory outside the repository).

const ROOT = repoRoot;
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'packages/sdk/package.json'), 'utf8'));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const MCP_PLACES = [
  'README.md',
  'packages/sdk/README.md',
  'packages/mcp/README.md',
  'apps/web/content/docs/en/mcp.md',
  'apps/web/content/docs/fr/mcp.md',
];
const INSTALL_PLACES = [
  'README.md',
  'packages/sdk/README.md',
  'apps/web/content/docs/en/sdk.md',
  'apps/web/content/docs/fr/sdk.md',
  'apps/web/content/docs/en/cli.md',
  'apps/web/content/docs/fr/cli.md',
];

describe('install instructions', () => {
  it.each(INSTALL_PLACES)('%s: builds and packs from the repository, installs the tarball, and names the published package', (file) => {
    const text = read(file);
    expect(text).toContain('npm pack');
    const tarball = `${pkg.name}-${pkg.version}.tgz`.replaceAll('.', '\\.');
    expect(text).toMatch(new RegExp(`npm install (-g )?\\S*${tarball}`));
    expect(text).toContain(`\`${pkg.name}\``);
    expect(text).not.toMatch(/@render\/sdk|npx render\b/);
  });

  it('the CLI and MCP guides, the READMEs and the help name the command the package installs', () => {
    const [bin] = Object.keys(pkg.bin);
    expect(bin).toBe('renderapi');
    for (const file of [...INSTALL_PLACES, ...MCP_PLACES]) expect(read(file), file).not.toMatch(/(^|\n|`)render (html|mcp|batch)\b/);
    expect(helpText()).toContain(`${bin} <command> --help`);
  });

  it('recommend the environment or the config file over --api-key, which ps shows', () => {
    for (const file of ['README.md', 'packages/sdk/README.md', 'apps/web/content/docs/en/cli.md', 'apps/web/content/docs/fr/cli.md'])
      expect(read(file), file).toMatch(/`ps`/);
    expect(helpText('html')).toMatch(/\(ps\)/);
  });
});

describe('the MCP configuration', () => {
  it('is the same server entry wherever it appears: the installed command, its mcp argument, the key and address from env', () => {
    const configs = MCP_PLACES.map((file) => {
      const found = mcpConfigs(read(file));
      expect(found, file).toHaveLength(1);
      return found[0]!;
    });
    for (const config of configs) {
      expect(config.name).toBe('renderapi');
      expect(config.command).toBe(Object.keys(pkg.bin)[0]);
      expect(config.args).toEqual(['mcp']);
      expect(Object.keys(config.env).sort()).toEqual(['RENDER_API_KEY', 'RENDER_API_URL']);
    }
    // The READMEs show literally the same block; the docs put this site's address and the reader's key in.
    const [readme, sdkReadme, mcpReadme] = configs;
    expect(sdkReadme).toEqual(readme);
    expect(mcpReadme).toEqual(readme);
    expect(helpText('mcp')).toContain(`"command": "${readme!.command}", "args": ["mcp"]`);
  });
});
