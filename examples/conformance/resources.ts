// The suite's resources: static text, static binary, a URI template, and a resource that can be watched.
import { Resource, ResourceContext, ResourceTemplate } from 'parley-mcp';
import { RED_PIXEL_PNG } from './media';

@Resource({ uri: 'test://static-text', name: 'Static text', description: 'A static text resource', mimeType: 'text/plain' })
export class StaticText extends ResourceContext {
  execute() {
    return 'This is the content of the static text resource.';
  }
}

@Resource({ uri: 'test://static-binary', name: 'Static binary', description: 'A static PNG image', mimeType: 'image/png' })
export class StaticBinary extends ResourceContext {
  execute() {
    return { blob: RED_PIXEL_PNG };
  }
}

@ResourceTemplate({
  uriTemplate: 'test://template/{id}/data',
  name: 'Template data',
  description: 'Data for an id',
  mimeType: 'application/json',
  complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
})
export class TemplateData extends ResourceContext<{ id: string }> {
  execute(_uri: string, { id }: { id: string }) {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }
}

@Resource({
  uri: 'test://watched-resource',
  name: 'Watched resource',
  description: 'A resource whose updates can be announced',
  mimeType: 'text/plain',
})
export class WatchedResource extends ResourceContext {
  execute() {
    return 'Watched resource content.';
  }
}
