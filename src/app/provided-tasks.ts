// Tasks for an edge bundle, which leaves them out unless asked: parley-mcp/tasks' enableTasks() hands their loader here,
// and the edge's #node-only stand-in (node-only-edge.ts) takes it from here. Node loads them without this.
import type { StoreDrivers } from './node-only';

let enabledTasks: StoreDrivers['tasks'] | undefined;

/** Puts tasks' loader into a bundle that leaves it out; parley-mcp/tasks' enableTasks() calls it. */
export const provideTasks = (load: StoreDrivers['tasks']): void => void (enabledTasks = load);
export const providedTasks = (): StoreDrivers['tasks'] | undefined => enabledTasks;
