import { erasureSchema, namespaceParams } from '../../modules/erasures/schemas.js';
import { writeTool } from '../tool-kit.js';

// D162: forgetting an end user over MCP, one call into the erasure service that REST uses.

export const eraseNamespace = writeTool({
  name: 'erase_namespace',
  title: 'Erase a namespace',
  description:
    'Permanently erases everything stored under one namespace (usually one end user): every ' +
    'dialogue, message and memory of it, with their summaries, stored answers and event contents. ' +
    'Cannot be undone. Returns the erasure record at once (`status: "pending"`); from then on the ' +
    'namespace reads as empty and refuses new dialogues and memories until the erasure completes in ' +
    'the background. Calling it again while it is pending returns the same record. The completed ' +
    'erasure is the `namespace.erased` event, whose `counts` say what was erased.',
  input: namespaceParams.extend({}),
  output: erasureSchema.extend({}),
  annotations: { destructiveHint: true, idempotentHint: true },
  render: (erasure) =>
    `Erasure ${erasure.id} of namespace ${erasure.namespace}: ${erasure.status}` +
    ` (${erasure.counts.dialogues} dialogues, ${erasure.counts.messages} messages, ${erasure.counts.memories} memories so far).`,
  write: (tx, { namespace }, call) => call.services.erasures.request(tx, call.ctx, namespace),
});
