import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * A tiny Kustomize, enough for the features infra/k8s uses and no more: `resources` (files and directories),
 * `namespace`, `images` and `patches` with an inline JSON6902 patch and a kind/name target. Any other
 * kustomization field throws, so a new feature cannot slip past the tests unvalidated.
 */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field by the tests
  spec?: any;
  [key: string]: unknown;
};

const SUPPORTED = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'images', 'patches']);
const CLUSTER_SCOPED = new Set(['Namespace']);

export function parseYamlFile(file: string): K8sObject[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  return docs.flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as K8sObject | null;
    return value === null ? [] : [value];
  });
}

interface Kustomization {
  namespace?: string;
  resources?: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
  patches?: { target: { kind?: string; name?: string }; patch: string }[];
}

export function kustomizeBuild(dir: string): K8sObject[] {
  const file = join(dir, 'kustomization.yaml');
  const [k] = parseYamlFile(file) as unknown as [Kustomization & Record<string, unknown>];
  for (const key of Object.keys(k)) if (!SUPPORTED.has(key)) throw new Error(`${file}: unsupported kustomization field ${key}`);
  let objects: K8sObject[] = [];
  for (const resource of k.resources ?? []) {
    const path = join(dir, resource);
    if (!existsSync(path)) throw new Error(`${file}: missing resource ${resource}`);
    objects.push(...(statSync(path).isDirectory() ? kustomizeBuild(path) : parseYamlFile(path)));
  }
  objects = structuredClone(objects);
  for (const patch of k.patches ?? []) {
    const targets = objects.filter(
      (o) => (!patch.target.kind || o.kind === patch.target.kind) && (!patch.target.name || o.metadata.name === patch.target.name),
    );
    if (targets.length === 0) throw new Error(`${file}: patch target ${JSON.stringify(patch.target)} matches nothing`);
    const ops = parseYamlFile0(patch.patch) as JsonPatchOp[];
    for (const target of targets) applyJsonPatch(target, ops);
  }
  for (const image of k.images ?? []) {
    for (const o of objects) {
      // As Kustomize's own image transformer: init containers too.
      const pod = o.spec?.template?.spec;
      for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
        const [name, tag] = splitImage(c.image as string);
        if (name === image.name) c.image = `${image.newName ?? name}:${image.newTag ?? tag}`;
      }
    }
  }
  if (k.namespace) for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  return objects;
}

function splitImage(image: string): [string, string] {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/') ? [image.slice(0, at), image.slice(at + 1)] : [image, 'latest'];
}

function parseYamlFile0(text: string): unknown {
  const [doc] = parseAllDocuments(text);
  if (!doc || doc.errors.length > 0) throw new Error(`bad patch: ${text}`);
  return doc.toJS();
}

export type JsonPatchOp = { op: 'add' | 'replace' | 'remove' | 'test'; path: string; value?: unknown };

/** RFC 6902 add/replace/remove/test (what the overlays use); `replace`/`remove` of a missing path throws, as in Kustomize. */
export function applyJsonPatch(target: unknown, ops: JsonPatchOp[]): void {
  for (const { op, path, value } of ops) {
    const keys = path
      .split('/')
      .slice(1)
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = keys.pop();
    if (last === undefined) throw new Error(`patch path ${path}: the root cannot be patched`);
    let parent = target as Record<string, unknown>;
    for (const key of keys) {
      const next = parent[key];
      if (typeof next !== 'object' || next === null) throw new Error(`patch path ${path}: ${key} does not exist`);
      parent = next as Record<string, unknown>;
    }
    const isArray = Array.isArray(parent);
    const exists = isArray ? Number(last) < (parent as unknown as unknown[]).length : Object.hasOwn(parent, last);
    if (op !== 'add' && !exists) throw new Error(`patch ${op} ${path}: no such path`);
    if (op === 'test') {
      if (JSON.stringify(parent[last]) !== JSON.stringify(value)) throw new Error(`patch test ${path} failed`);
    } else if (op === 'remove') {
      if (isArray) (parent as unknown as unknown[]).splice(Number(last), 1);
      else delete parent[last];
    } else if (op === 'add' && isArray) {
      const list = parent as unknown as unknown[];
      list.splice(last === '-' ? list.length : Number(last), 0, structuredClone(value));
    } else {
      parent[last] = structuredClone(value);
    }
  }
}
