// The driver bench/callgrind-in-process.ts bundles: N cycles of a scenario straight into the fetch handler, 32 at a
// time, with parley-mcp/node's platform.
import { createFetchHandler } from 'parley-mcp';
import { NODE_PLATFORM } from '../../src/adapters/node-platform';
import { benchConfig } from '../servers/parley-app';
import { cycle, type ScenarioName } from './in-process-cycle';

const name = process.argv[2] as ScenarioName;
const count = Number(process.argv[3]);
const handler = createFetchHandler(benchConfig(), NODE_PLATFORM);
for (let done = 0; done < count; done += 32) await Promise.all(Array.from({ length: 32 }, () => cycle(handler, name)));
