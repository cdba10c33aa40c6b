import type { ItemLoaders } from '../../src/modules/search/service.js';

// Search loaders that answer only the found keys: the search benchmark and the quality evaluation
// measure ranking, not the loading of records that follows it. The records are partial on
// purpose, hence the casts; nothing here is sent to a client.

type Loaded<K extends keyof ItemLoaders> = Awaited<ReturnType<ItemLoaders[K]>>;

export const keyOnlyLoaders: ItemLoaders = {
  message: async (_ctx, keys) => keys.map((key) => ({ ...key })) as unknown as Loaded<'message'>,
  dialogue: async (_ctx, ids) => ids.map((id) => ({ id })) as unknown as Loaded<'dialogue'>,
  memory: async (_ctx, ids) => ids.map((id) => ({ id })) as unknown as Loaded<'memory'>,
};
