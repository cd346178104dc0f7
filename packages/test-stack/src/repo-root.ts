import { existsSync } from 'node:fs';
import path from 'node:path';

/** The checkout's root (the folder holding pnpm-workspace.yaml), found upwards from `from`, so no caller counts `../`. */
export function findRepoRoot(from: string = import.meta.dirname): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`);
  }
}

export const repoRoot = findRepoRoot();
