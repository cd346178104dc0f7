import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** One Kubernetes object as parsed from YAML; the tests check it field by field. */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field by the tests
  spec?: any;
  [key: string]: unknown;
};

export function parseYaml(text: string, where: string): K8sObject[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${where}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as K8sObject | null;
    return value === null ? [] : [value];
  });
}

export function parseYamlFile(file: string): K8sObject[] {
  return parseYaml(readFileSync(file, 'utf8'), file);
}

/**
 * The objects `kubectl kustomize <dir>` renders: the real Kustomize (the one `kubectl apply -k` runs), so the
 * overlays are checked exactly as they would be applied. kubectl comes with the machine image, and
 * scripts/lib/setup.sh installs it where it is missing.
 */
export function kustomizeBuild(dir: string): K8sObject[] {
  const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 60_000, maxBuffer: 32 * 1024 * 1024 });
  if (run.error) throw new Error(`kubectl kustomize ${dir}: ${run.error.message} (is kubectl installed? scripts/lib/setup.sh installs it)`);
  if (run.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${run.stderr.trim()}`);
  return parseYaml(run.stdout, `kubectl kustomize ${dir}`);
}
