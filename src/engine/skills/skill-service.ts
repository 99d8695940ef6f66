// The Skills extension's answers over a built catalog: skills/list and resources/directory/read a page at a time,
// skills/get by URI, and every file as a fixed resource that resources/read serves (and resources/list lists).
import { invalidParams, methodNotFound } from '../../protocol';
import { ResourceContext, type ResourceEntry, type SkillService } from '../../model';
import { type Catalog, type CatalogFile, foldersOf, skillUri } from './catalog';

interface SkillServiceOptions {
  directoryRead: boolean;
  pageSize: number;
}

type Page = { start: number; end: number; next?: string };

/** A cursor is the decimal index the page starts at, as this server wrote it; anything else is -32602. */
function pageOf(params: Record<string, unknown>, count: number, size: number, method: string): Page {
  const { cursor } = params;
  let start = 0;
  if (cursor !== undefined) {
    if (typeof cursor !== 'string' || !/^[1-9][0-9]{0,8}$/.test(cursor) || Number(cursor) >= count)
      throw invalidParams(`${method}: unknown cursor (pass back the nextCursor of the page before)`);
    start = Number(cursor);
  }
  const end = Math.min(start + size, count);
  return { start, end, ...(end < count ? { next: String(end) } : {}) };
}

function uriOf(params: Record<string, unknown>, method: string): string {
  if (typeof params.uri !== 'string' || params.uri === '') throw invalidParams(`${method} needs params.uri, a string`);
  return params.uri;
}

/** Each folder's direct children as resources/directory/read lists them: files with their metadata, folders as inode/directory. */
function directories(catalog: Catalog): Map<string, Record<string, unknown>[]> {
  const children = new Map<string, Record<string, unknown>[]>();
  const seen = new Set<string>();
  for (const file of catalog.files.values()) {
    const folders = foldersOf(file.path);
    folders.forEach((folder, i) => {
      if (!children.has(folder)) children.set(folder, []);
      if (i > 0 && !seen.has(folder)) {
        seen.add(folder);
        children
          .get(folders[i - 1]!)!
          .push({ uri: skillUri(folder), name: folder.slice(folder.lastIndexOf('/') + 1), mimeType: 'inode/directory' });
      }
    });
    children.get(folders.at(-1)!)!.push(wireOf(file));
  }
  return children;
}

const wireOf = (file: CatalogFile): Record<string, unknown> => ({
  uri: skillUri(file.path),
  name: file.name,
  ...(file.description === undefined ? {} : { description: file.description }),
  mimeType: file.mimeType,
  size: file.bytes.length,
});

/** The files as fixed resources: resources/read answers each with its text, or its bytes as a blob. */
export function skillResources(catalog: Catalog): ResourceEntry[] {
  const contents = new Map([...catalog.files.values()].map((f) => [skillUri(f.path), f.text ?? f.bytes]));
  class SkillFile extends ResourceContext {
    execute(uri: string) {
      return contents.get(uri);
    }
  }
  return [...catalog.files.values()].map((file) => {
    const wire = wireOf(file);
    return {
      uri: wire.uri as string,
      cls: SkillFile,
      options: { uri: wire.uri as string, name: file.name, mimeType: file.mimeType },
      wire,
    };
  });
}

export function skillService(catalog: Catalog, options: SkillServiceOptions): SkillService {
  const byUri = new Map(catalog.skills.map((skill) => [skill.uri, skill]));
  const folders = options.directoryRead ? directories(catalog) : undefined;
  return {
    answer(method, params, { ttlMs, scope }) {
      const cache = { ttlMs, cacheScope: scope };
      if (method === 'skills/list') {
        const page = pageOf(params, catalog.skills.length, options.pageSize, method);
        return { skills: catalog.skills.slice(page.start, page.end), ...(page.next ? { nextCursor: page.next } : {}), ...cache };
      }
      if (method === 'skills/get') {
        const skill = byUri.get(uriOf(params, method));
        if (!skill) throw invalidParams('skills/get: no skill of this server has that SKILL.md URI');
        return { skill, ...cache };
      }
      if (!folders) throw methodNotFound(method);
      const uri = uriOf(params, method);
      const children = uri.startsWith('skill://') ? folders.get(uri.slice('skill://'.length)) : undefined;
      if (!children) throw invalidParams(`${method}: not a directory of this server's skills`);
      const page = pageOf(params, children.length, options.pageSize, method);
      return { resources: children.slice(page.start, page.end), ...(page.next ? { nextCursor: page.next } : {}), ...cache };
    },
  };
}
