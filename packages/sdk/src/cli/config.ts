import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './inputs.ts';

/**
 * Where the CLI finds its API key and base URL, first match wins: the flags, then `RENDER_API_KEY` /
 * `RENDER_API_URL`, then the config file (`$RENDER_CONFIG`, else `$XDG_CONFIG_HOME/renderapi/config.json`, else
 * `~/.config/renderapi/config.json`: `{ "apiKey": "rk_…", "baseUrl": "https://…" }`). This module is the only
 * place the CLI reads the environment.
 */
export interface CliSettings {
  apiKey?: string;
  baseUrl: string;
  /** Where the file was looked for (named in error messages). */
  configPath: string;
}

export const DEFAULT_BASE_URL = 'http://localhost:3000';

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RENDER_CONFIG) return env.RENDER_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'renderapi', 'config.json');
}

async function readConfigFile(path: string): Promise<{ apiKey?: string; baseUrl?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`Cannot read the config file ${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`The config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`The config file ${path} must hold an object such as { "apiKey": "rk_…", "baseUrl": "https://…" }`);
  }
  const { apiKey, baseUrl } = parsed as Record<string, unknown>;
  if (apiKey !== undefined && typeof apiKey !== 'string') throw new UsageError(`apiKey in ${path} must be a string`);
  if (baseUrl !== undefined && typeof baseUrl !== 'string') throw new UsageError(`baseUrl in ${path} must be a string`);
  return { apiKey, baseUrl };
}

export async function loadSettings(
  flags: { apiKey?: string; baseUrl?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliSettings> {
  const path = configPath(env);
  const file = await readConfigFile(path);
  const baseUrl = flags.baseUrl || env.RENDER_API_URL || file.baseUrl || DEFAULT_BASE_URL;
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('not http(s)');
  } catch {
    throw new UsageError(`The base URL "${baseUrl}" is not an http(s) URL (--base-url, RENDER_API_URL or baseUrl in ${path})`);
  }
  const apiKey = flags.apiKey || env.RENDER_API_KEY || file.apiKey || undefined;
  return { ...(apiKey ? { apiKey } : {}), baseUrl, configPath: path };
}
