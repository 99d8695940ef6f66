// @FrontMcp, @App and @Tool: each records its options on the class, in legacy or standard decorator form.
import type { FrontMcpConfigInput } from './config';
import type { ToolOptions } from './tool-types';

export interface AppOptions {
  id: string;
  name?: string;
  tools?: Function[];
}

const SERVER = new WeakMap<Function, FrontMcpConfigInput>();
const APP = new WeakMap<Function, AppOptions>();
const TOOL = new WeakMap<Function, ToolOptions>();

/** A class decorator that works as a legacy (`experimentalDecorators`) and as a standard decorator. */
type ClassDecoratorAnyForm = (target: Function, context?: unknown) => void;

const recorder =
  <T>(map: WeakMap<Function, T>) =>
  (options: T): ClassDecoratorAnyForm =>
  (target) => {
    map.set(target, options);
  };

/** Declares the server: its info, apps and options. `createFetchHandler(Server)` reads them back. */
export const FrontMcp: (config: FrontMcpConfigInput) => ClassDecoratorAnyForm = recorder(SERVER);
/** Groups tools into an app. */
export const App: (options: AppOptions) => ClassDecoratorAnyForm = recorder(APP);
/** Declares a tool on a class that extends ToolContext. */
export const Tool: (options: ToolOptions) => ClassDecoratorAnyForm = recorder(TOOL);

export const serverOptionsOf = (target: Function) => SERVER.get(target);
export const appOptionsOf = (target: Function) => APP.get(target);
export const toolOptionsOf = (target: Function) => TOOL.get(target);
