#!/usr/bin/env node
// The `renderapi` CLI. In this monorepo the package is TypeScript, run through tsx as the services are in
// development; without the sources (the packed or published package, whose `files` leave src/ out) it runs
// the bundle `pnpm build` makes.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/cli.js'));
}
const code = await main(process.argv.slice(2));
// Exit explicitly: keep-alive sockets of the last call must not hold a finished command open.
process.exit(code);
