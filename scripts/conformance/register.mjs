// `node --import ./register.mjs`: installs the Node 20 hooks before the conformance suite loads.
import { register } from 'node:module';

register('./node20-hooks.mjs', import.meta.url);
