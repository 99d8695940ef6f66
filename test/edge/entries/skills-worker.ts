// A Worker serving the conformance fixture's skills, bundled with it: defineSkills() on Web APIs only.
import { createWorker } from 'parley-mcp/cloudflare';
import { skills } from '../../../examples/conformance/skills';

export default createWorker({ info: { name: 'skills-worker', version: '1.0.0' }, skills });
