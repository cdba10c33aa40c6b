import { z } from 'zod';
const inner = z.object({ a: z.string().describe('the a') }).meta({ id: 'Inner', example: { a: 'x' } });
const custom = z.custom<string>().meta({ description: 'content', anyOf: [{ type: 'string' }, { type: 'object' }] });
const outer = z.object({ inner, list: z.array(inner).max(3), c: custom, n: z.number().int().default(3), s: z.string().nullable().optional() });
console.log(JSON.stringify(z.toJSONSchema(outer, { io: 'input', unrepresentable: 'any' }), null, 1));
console.log(JSON.stringify(z.toJSONSchema(outer, { io: 'output', unrepresentable: 'any', target: 'draft-7', reused: 'inline', cycles: 'ref', override: undefined, metadata: undefined }), null, 1));
