// What every adapter takes: a server (config or @FrontMcp class) or a fetch handler already made from one.
import { createFetchHandler, type FetchHandler, type ServerInput } from '../app';

export const handlerOf = (input: ServerInput | FetchHandler): FetchHandler =>
  typeof input === 'function' && 'fetch' in input ? (input as FetchHandler) : createFetchHandler(input as ServerInput);
