// The shapes of the resource registry (resource-registry.ts builds it), and the config's skills, which add to it.
import type { ResourceContext, ResourceOptions, ResourceTemplateOptions } from './resource-context';
import type { SkillService } from './skill-types';
import type { UriTemplate, UriTemplateParams } from './uri-template';

export interface ResourceEntry {
  uri: string;
  cls: new () => ResourceContext<UriTemplateParams>;
  options: ResourceOptions;
  wire: Record<string, unknown>;
}

export interface TemplateEntry {
  name: string;
  cls: new () => ResourceContext<UriTemplateParams>;
  options: ResourceTemplateOptions;
  template: UriTemplate;
  wire: Record<string, unknown>;
}

export interface Resources {
  fixed: Map<string, ResourceEntry>;
  templates: TemplateEntry[];
  /** The Skills extension's answers, when the config has `skills` (their files are among `fixed`). */
  skills?: SkillService;
}

/**
 * The config's `skills`: made by defineSkills() (parley-mcp/skills) or skillsFolder() (parley-mcp/node). Called once
 * at startup: it checks the skills, adds their files to `resources.fixed`, its answers as `resources.skills`, and the extension to `declared.extensions`.
 */
export type SkillsSource = (resources: Resources, declared: { extensions?: Record<string, Record<string, unknown>> }) => Promise<void>;
