// The HTTP transport's door: the MCP endpoint for both eras, the Origin guard, the landing page.
export { handlePost } from './endpoint';
export { clientAddress } from './client-address';
export { checkRequestOrigin } from './guard';
export { corsOrigin, preflight, withCors } from './cors';
export { probeAnswer, storesAnswer } from './health';
export { isBrowserVisit, landingPage } from './landing-page';
export { publicOrigin } from './public-url';
export { resourceOf } from './resource';
export { handleLegacyDelete, handleLegacyGet } from './legacy/index';
