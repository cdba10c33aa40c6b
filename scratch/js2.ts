import { z } from 'zod';
const inner = z.object({ a: z.string().describe('the a') }).meta({ id: 'Inner2', example: { a: 'x' } });
const root = z.object({ inner: inner.optional(), b: z.coerce.number().int().min(1).max(5).default(2) }).meta({ id: 'Root', description: 'root desc' });
const ext = root.extend({ c: z.string() });
const shaped = z.object(root.shape);
for (const s of [root, ext, shaped]) console.log(JSON.stringify(z.toJSONSchema(s, { target: 'draft-7', io: 'input', unrepresentable: 'any' })));
import { jsonSchemaOf } from '../src/mcp/tool-kit.js';
console.log(JSON.stringify(jsonSchemaOf(ext)));
