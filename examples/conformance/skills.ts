// The conformance fixture's skills: the first has sub-folders and a binary file (the directory scenario reads its
// root), the second a prefix, and the listing pages one skill at a time so that nextCursor is followed.
import { defineSkills } from 'parley-mcp/skills';

const basic = `---
name: conformance-basic
description: A skill for the conformance suite, with references, a script and an image.
license: MIT
metadata:
  author: parley
  version: "1.0"
---

# Conformance basic

Read [the guide](references/guide.md) first, then run \`scripts/run.py\`.
`;

const refunds = `---
name: refunds
description: How the billing team refunds an order.
---

# Refunds

Refund within 30 days of purchase.
`;

/** A 1×1 transparent PNG: bytes that are not UTF-8, served as a blob. */
const PIXEL = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='), (c) =>
  c.charCodeAt(0),
);

export const skills = defineSkills(
  {
    'conformance-basic/SKILL.md': basic,
    'conformance-basic/references/guide.md': '# Guide\n\nStep one, step two.\n',
    'conformance-basic/scripts/run.py': 'print("ran")\n',
    'conformance-basic/assets/pixel.png': PIXEL,
    'acme/billing/refunds/SKILL.md': refunds,
  },
  { pageSize: 1 },
);
