// The legacy transport's door: clients before 2026-07-28, with initialize, sessions and server-sent events.
export { handleLegacyPost } from './post';
export { handleLegacyDelete, handleLegacyGet } from './session-routes';
