// Types for scripts/build-services.mjs (imported by infra/k8s/test/docker.test.ts).
export interface Target {
  /** The package, relative to the repository root. */
  dir: string;
  /** dist/<name>.js ← source, relative to dir. */
  entries: Record<string, string>;
  /** [from (repository-relative), to (relative to dist/)]: files read at run time next to the bundle. */
  assets: [string, string][];
}
export const TARGETS: Record<string, Target>;
export function externalDependencies(dir: string): Set<string>;
export function buildTarget(name: string, options?: { log?: (line: string) => void; outdir?: string }): Promise<string[]>;
export function buildTargets(names?: string[], options?: { log?: (line: string) => void }): Promise<void>;
export function deployTargets(names: string[], outDir: string, options?: { log?: (line: string) => void }): Promise<string>;
