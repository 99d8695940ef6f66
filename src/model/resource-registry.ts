// The resource registry: fixed-URI resources and URI templates of every app, checked once, with their list entries precomputed.
import { checkScopesOption } from './scopes';
import { appOptionsOf, resourceOptionsOf, templateOptionsOf } from './decorators';
import type { ResourceContext, ResourceOptions, ResourceTemplateOptions } from './resource-context';
import type { ResourceEntry, Resources, TemplateEntry } from './resource-types';
import { listedFields } from './listed-fields';
import { parseUriTemplate, type UriTemplateParams } from './uri-template';

// The fields of a resource's list entry that are written as they are in the options (nothing else of them is listed).
const LISTED = ['uri', 'uriTemplate', 'name', 'title', 'description', 'mimeType', 'size', 'annotations'];

/** The resource as its list shows it. */
function wireOf(options: ResourceOptions | ResourceTemplateOptions, where: string): Record<string, unknown> {
  const given = options as unknown as Record<string, unknown>;
  const wire = Object.fromEntries(
    LISTED.filter((field) => given[field] !== undefined && Object.hasOwn(given, field)).map((f) => [f, given[f]]),
  );
  try {
    return Object.assign(wire, listedFields(options));
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
}

export function buildResources(apps: Function[]): Resources {
  const fixed = new Map<string, ResourceEntry>();
  const templates: TemplateEntry[] = [];
  for (const app of apps) {
    const appOptions = appOptionsOf(app);
    for (const cls of appOptions?.resources ?? []) {
      const where = `${cls.name || 'A resource'} in app "${appOptions!.id}"`;
      const resource = resourceOptionsOf(cls);
      const template = templateOptionsOf(cls);
      checkScopesOption((resource ?? template)?.scopes, where);
      if (resource) {
        if (typeof resource.uri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(resource.uri))
          throw new Error(`${where} needs a uri with a scheme, e.g. "notes://index"`);
        if (fixed.has(resource.uri)) throw new Error(`Duplicate resource uri "${resource.uri}" (${where})`);
        fixed.set(resource.uri, {
          uri: resource.uri,
          cls: cls as new () => ResourceContext<UriTemplateParams>,
          options: resource,
          wire: wireOf(resource, where),
        });
      } else if (template) {
        const parsed = parseUriTemplate(template.uriTemplate);
        for (const variable of Object.keys(template.complete ?? {}))
          if (!parsed.variables.includes(variable))
            throw new Error(`${where}: complete names "${variable}", which is not a variable of "${template.uriTemplate}"`);
        templates.push({
          name: template.name,
          cls: cls as new () => ResourceContext<UriTemplateParams>,
          options: template,
          template: parsed,
          wire: wireOf(template, where),
        });
      } else throw new Error(`${where} is not decorated with @Resource or @ResourceTemplate`);
    }
  }
  return { fixed, templates };
}

/** The resource a URI names: a fixed one first, else the first template that matches. */
export function findResource(
  resources: Resources,
  uri: string,
): { entry: ResourceEntry | TemplateEntry; params: UriTemplateParams } | undefined {
  const entry = resources.fixed.get(uri);
  if (entry) return { entry, params: {} };
  for (const template of resources.templates) {
    const params = template.template.match(uri);
    if (params) return { entry: template, params };
  }
  return undefined;
}
